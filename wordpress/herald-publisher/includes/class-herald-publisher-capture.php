<?php
/**
 * Turns what happens to a post into records: the first publish, edits of the shared content
 * (update) and trashing (delete). Everything it does is keyed by (post, channel, action,
 * content version), so the hook firing twice, or a save without a change, adds nothing.
 */

defined('ABSPATH') || exit;

final class Herald_Publisher_Capture
{
    public const META_VERSION = '_herald_publisher_version';
    public const META_FINGERPRINT = '_herald_publisher_fingerprint';
    public const META_CHANNELS = '_herald_publisher_channels';
    public const META_SKIP = '_herald_publisher_skip';
    public const META_DELETED_VERSION = '_herald_publisher_deleted_version';

    public static function register(): void
    {
        // After meta and terms are saved (save_post runs before them); also fires when a scheduled post goes live.
        add_action('wp_after_insert_post', [self::class, 'after_insert'], 20, 4);
        add_action('trashed_post', [self::class, 'trashed'], 20, 1);
        // deleted for good without the trash (EMPTY_TRASH_DAYS = 0, wp_delete_post(…, true)): the same delete
        add_action('before_delete_post', [self::class, 'trashed'], 20, 1);
    }

    public static function post_types(): array
    {
        return (array) apply_filters('herald_publisher_post_types', ['post']);
    }

    /** @param WP_Post $post */
    public static function after_insert($post_id, $post, $update = false, $post_before = null): void
    {
        $post = get_post($post_id);
        if (!$post || wp_is_post_revision($post) || wp_is_post_autosave($post)
            || !in_array($post->post_type, self::post_types(), true) || !Herald_Publisher_Settings::is_complete()) {
            return;
        }
        if ($post->post_status === 'trash') {
            self::trashed($post->ID);
            return;
        }
        if ($post->post_status !== 'publish' || $post->post_password !== '') {
            return;
        }
        self::capture_published($post);
    }

    private static function capture_published(WP_Post $post): void
    {
        $source = self::source($post);
        $fingerprint = hash('sha256', wp_json_encode($source));
        $version = (int) get_post_meta($post->ID, self::META_VERSION, true);
        $skip = get_post_meta($post->ID, self::META_SKIP, true) === '1';
        if ($version > 0) {
            // a channel unticked in a later save is dropped while its publish has not been tried yet
            Herald_Publisher_Store::cancel_untried_publishes($post->ID, $skip ? [] : self::chosen_channels($post->ID));
        }
        $shared = self::shared_channels($post->ID);

        if ($version === 0) {
            if ($skip) {
                return;
            }
            $version = 1;
        } elseif (!hash_equals((string) get_post_meta($post->ID, self::META_FINGERPRINT, true), $fingerprint)) {
            // after a delete Herald refuses updates: a trashed post that comes back is not shared again
            if ((int) get_post_meta($post->ID, self::META_DELETED_VERSION, true) > 0) {
                return;
            }
            $version++;
            foreach ($shared as $channel) {
                self::add($post->ID, $channel, 'update', $version, $source);
            }
        }
        update_post_meta($post->ID, self::META_VERSION, $version);
        update_post_meta($post->ID, self::META_FINGERPRINT, $fingerprint);
        if (!$skip) {
            // channels chosen now that were never shared get their first publish, at today's version
            foreach (array_diff(self::chosen_channels($post->ID), $shared) as $channel) {
                self::add($post->ID, $channel, 'publish', $version, $source);
            }
        }
        Herald_Publisher_Dispatcher::schedule_soon();
    }

    /** Trashing removes the shared posts: one delete per channel, at the next version, and nothing else. */
    public static function trashed($post_id): void
    {
        $post = get_post($post_id);
        if (!$post || !in_array($post->post_type, self::post_types(), true) || !Herald_Publisher_Settings::is_complete()) {
            return;
        }
        $shared = self::shared_channels($post->ID);
        if (!$shared) {
            return;
        }
        $version = (int) get_post_meta($post->ID, self::META_VERSION, true);
        $deleted = (int) get_post_meta($post->ID, self::META_DELETED_VERSION, true);
        $delete_version = $deleted ?: $version + 1;
        foreach ($shared as $channel) {
            self::add($post->ID, $channel, 'delete', $delete_version, ['action' => 'delete']);
        }
        update_post_meta($post->ID, self::META_DELETED_VERSION, $delete_version);
        Herald_Publisher_Dispatcher::schedule_soon();
    }

    /** The author's choice from the editor's panel or box, else (the meta's default) the channels of the settings. */
    public static function chosen_channels(int $post_id): array
    {
        $configured = Herald_Publisher_Settings::get()['channels'];
        $chosen = get_post_meta($post_id, self::META_CHANNELS, true);
        if (!is_array($chosen)) {
            return $configured;
        }
        return array_values(array_filter($chosen, [Herald_Publisher_Ids::class, 'is_channel_id']));
    }

    /**
     * Channels with a publish record for this post that Herald took or may still take (and so a
     * Herald post to update or delete); a publish Herald never accepted has nothing to change.
     */
    public static function shared_channels(int $post_id): array
    {
        $channels = [];
        foreach (Herald_Publisher_Store::for_post($post_id) as $record) {
            if ($record['action'] === 'publish' && !($record['status'] === 'FAILED' && $record['herald_status'] === null)) {
                $channels[] = $record['channel_id'];
            }
        }
        return array_values(array_unique($channels));
    }

    private static function add(int $post_id, string $channel, string $action, int $version, array $source): void
    {
        $settings = Herald_Publisher_Settings::get();
        $entry = Herald_Publisher_Ids::calendar_entry_id(Herald_Publisher_Settings::site_id(), $post_id);
        $id = Herald_Publisher_Ids::publication_id($settings['workspace'], $entry, $version, $channel, $action);
        Herald_Publisher_Store::add($post_id, $channel, $action, $version, $id, $source);
    }

    /**
     * The shared content as it is now: what the fingerprint covers and what the request is built
     * from. The text is the excerpt, else the content without markup; it is cut per channel later.
     */
    public static function source(WP_Post $post): array
    {
        $title = html_entity_decode(wp_strip_all_tags(get_the_title($post)), ENT_QUOTES | ENT_HTML5, 'UTF-8');
        $raw = has_excerpt($post) ? $post->post_excerpt : excerpt_remove_blocks(strip_shortcodes($post->post_content));
        $image = null;
        $thumbnail = (int) get_post_thumbnail_id($post);
        $file = $thumbnail ? get_attached_file($thumbnail) : false;
        if ($file && is_readable($file)) {
            $image = [
                'attachmentId' => $thumbnail,
                'sha256' => hash_file('sha256', $file),
                'contentType' => (string) get_post_mime_type($thumbnail),
                'altText' => trim(wp_strip_all_tags((string) get_post_meta($thumbnail, '_wp_attachment_image_alt', true))),
            ];
        }
        return [
            'title' => trim($title),
            'text' => Herald_Publisher_Text::plain_text((string) $raw),
            'link' => (string) get_permalink($post),
            'image' => $image,
        ];
    }
}
