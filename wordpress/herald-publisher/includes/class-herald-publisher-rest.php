<?php
/**
 * The plugin's REST routes: Herald's webhook deliveries (Standard Webhooks signatures) and a
 * post's sharing state for those who may edit the post.
 */

defined('ABSPATH') || exit;

final class Herald_Publisher_Rest
{
    public const NAMESPACE = 'herald/v1';

    public static function register(): void
    {
        add_action('rest_api_init', [self::class, 'routes']);
    }

    public static function routes(): void
    {
        register_rest_route(self::NAMESPACE, '/events', [
            'methods' => 'POST',
            'callback' => [self::class, 'event'],
            // anyone may knock; the signature is the authentication, checked in the callback
            'permission_callback' => '__return_true',
        ]);
        register_rest_route(self::NAMESPACE, '/posts/(?P<id>\d+)/status', [
            'methods' => 'GET',
            'callback' => [self::class, 'status'],
            'permission_callback' => static function (WP_REST_Request $request) {
                $post = get_post((int) $request['id']);
                if (!current_user_can('edit_post', $post ? $post->ID : 0)) {
                    return new WP_Error('rest_forbidden', __('Sorry, you are not allowed to see this post\'s sharing.', 'herald-publisher'),
                        ['status' => rest_authorization_required_code()]);
                }
                return true;
            },
            'args' => ['id' => ['type' => 'integer', 'minimum' => 1, 'required' => true]],
        ]);
    }

    public static function event(WP_REST_Request $request)
    {
        $body = $request->get_body();
        $problem = Herald_Publisher_Signatures::webhook_problem(
            (string) Herald_Publisher_Settings::get()['webhook_secret'],
            $request->get_header('webhook-id'), $request->get_header('webhook-timestamp'),
            $request->get_header('webhook-signature'), $body, time());
        if ($problem !== null) {
            return new WP_Error('herald_signature_invalid', __('The webhook signature is missing, wrong or too old.', 'herald-publisher'),
                ['status' => 401]);
        }
        $event = json_decode($body, true);
        $updated = 0;
        if (is_array($event) && is_string($event['type'] ?? null) && strpos($event['type'], 'publication.') === 0
            && is_array($event['data'] ?? null)) {
            $updated = Herald_Publisher_Store::apply_view($event['data']);
        }
        return new WP_REST_Response(['received' => true, 'updated' => $updated], 200);
    }

    public static function status(WP_REST_Request $request): WP_REST_Response
    {
        $post_id = (int) $request['id'];
        $channels = [];
        foreach (Herald_Publisher_Store::for_post($post_id) as $record) {
            $entry = [
                'channelId' => $record['channel_id'],
                'action' => $record['action'],
                'contentVersion' => (int) $record['content_version'],
                'publicationId' => $record['publication_id'],
                'status' => $record['status'],
                'url' => $record['post_url'],
                'error' => null,
            ];
            if ($record['last_error_code'] !== null) {
                $entry['error'] = ['code' => $record['last_error_code'], 'detail' => (string) $record['last_error_detail']];
            }
            $channels[] = $entry;
        }
        return new WP_REST_Response(['postId' => $post_id, 'channels' => $channels], 200);
    }
}
