<?php
/**
 * What authors see: a box in the post editor to choose the channels or skip sharing, and a
 * Herald column in the posts list with each channel's state.
 */

defined('ABSPATH') || exit;

final class Herald_Publisher_Editor
{
    private const NONCE_ACTION = 'herald_publisher_post_box';
    private const NONCE_FIELD = 'herald_publisher_post_box_nonce';

    public static function register(): void
    {
        add_action('add_meta_boxes', [self::class, 'add_box']);
        // save_post runs before wp_after_insert_post, so the choice is in place when the post is captured
        add_action('save_post', [self::class, 'save_box'], 10, 2);
        foreach (Herald_Publisher_Capture::post_types() as $type) {
            add_filter("manage_{$type}_posts_columns", [self::class, 'add_column']);
            add_action("manage_{$type}_posts_custom_column", [self::class, 'column'], 10, 2);
        }
    }

    public static function add_box(): void
    {
        add_meta_box('herald-publisher', __('Share with Herald', 'herald-publisher'), [self::class, 'box'],
            Herald_Publisher_Capture::post_types(), 'side');
    }

    public static function box(WP_Post $post): void
    {
        $configured = Herald_Publisher_Settings::get()['channels'];
        if (!$configured) {
            echo '<p>' . esc_html__('No Herald channels are configured yet (Settings → Herald).', 'herald-publisher') . '</p>';
            return;
        }
        wp_nonce_field(self::NONCE_ACTION, self::NONCE_FIELD);
        $chosen = Herald_Publisher_Capture::chosen_channels($post->ID);
        $skip = get_post_meta($post->ID, Herald_Publisher_Capture::META_SKIP, true) === '1';
        echo '<p><label><input type="checkbox" name="herald_publisher_skip" value="1" ' . checked($skip, true, false) . '> '
            . esc_html__('Do not share this post', 'herald-publisher') . '</label></p><fieldset><legend>'
            . esc_html__('Channels', 'herald-publisher') . '</legend>';
        foreach ($configured as $channel) {
            echo '<label style="display:block"><input type="checkbox" name="herald_publisher_channels[]" value="'
                . esc_attr($channel) . '" ' . checked(in_array($channel, $chosen, true), true, false) . '> '
                . esc_html($channel) . '</label>';
        }
        echo '</fieldset>';
    }

    public static function save_box($post_id, $post): void
    {
        if (!isset($_POST[self::NONCE_FIELD])
            || !wp_verify_nonce(sanitize_text_field(wp_unslash($_POST[self::NONCE_FIELD])), self::NONCE_ACTION)
            || wp_is_post_autosave($post_id) || wp_is_post_revision($post_id) || !current_user_can('edit_post', $post_id)) {
            return;
        }
        $configured = Herald_Publisher_Settings::get()['channels'];
        $given = isset($_POST['herald_publisher_channels']) && is_array($_POST['herald_publisher_channels'])
            ? array_map('sanitize_text_field', wp_unslash($_POST['herald_publisher_channels'])) : [];
        update_post_meta($post_id, Herald_Publisher_Capture::META_CHANNELS, array_values(array_intersect($configured, $given)));
        update_post_meta($post_id, Herald_Publisher_Capture::META_SKIP, empty($_POST['herald_publisher_skip']) ? '0' : '1');
    }

    public static function add_column(array $columns): array
    {
        $columns['herald'] = esc_html__('Herald', 'herald-publisher');
        return $columns;
    }

    public static function column(string $column, int $post_id): void
    {
        if ($column !== 'herald') {
            return;
        }
        $seen = [];
        foreach (Herald_Publisher_Store::for_post($post_id) as $record) {
            // the newest record of each channel says where it stands
            if (isset($seen[$record['channel_id']])) {
                continue;
            }
            $seen[$record['channel_id']] = true;
            echo '<div><strong>' . esc_html($record['channel_id']) . ':</strong> ' . self::state_html($record) . '</div>';
        }
        if (!$seen) {
            echo '<span aria-hidden="true">—</span>';
        }
    }

    /** queued, sent, published (with a link), needs a decision (with the reason) or failed. */
    public static function state_html(array $record): string
    {
        $status = $record['status'];
        $reason = (string) $record['last_error_detail'];
        if ($status === 'SUCCEEDED') {
            $label = $record['action'] === 'delete' ? __('deleted', 'herald-publisher') : __('published', 'herald-publisher');
            return $record['post_url']
                ? '<a href="' . esc_url($record['post_url']) . '" target="_blank" rel="noopener">' . esc_html($label) . '</a>'
                : esc_html($label);
        }
        if (in_array($status, ['OUTCOME_UNKNOWN', 'NOT_EXECUTED', 'HELD'], true)) {
            return esc_html__('needs a decision', 'herald-publisher') . ($reason !== '' ? ' — ' . esc_html($reason) : '');
        }
        if (in_array($status, ['FAILED', 'ABANDONED'], true)) {
            return '<span style="color:#b32d2e">' . esc_html__('failed', 'herald-publisher') . '</span>'
                . ($record['last_error_code'] ? ' — <code>' . esc_html($record['last_error_code']) . '</code>' : '');
        }
        if (in_array($status, ['QUEUED', 'SENDING'], true)) {
            return esc_html__('queued', 'herald-publisher') . ((int) $record['tries'] > 0 && $record['last_error_code']
                ? ' (' . esc_html(sprintf(__('retrying after %s', 'herald-publisher'), $record['last_error_code'])) . ')' : '');
        }
        return esc_html__('sent', 'herald-publisher');
    }
}
