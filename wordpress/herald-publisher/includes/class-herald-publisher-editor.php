<?php
/**
 * What authors see: in the block editor a "Herald" panel in the post's sidebar (each channel's
 * state, and the choice of channels or no sharing), in the classic editor a box with the same
 * choice, and a Herald column in the posts list with each channel's state.
 *
 * The choice is two post meta keys, registered for REST: the block editor sends them in the very
 * request that saves the post, and WordPress saves REST meta before wp_after_insert_post, so the
 * post is captured with the choice in place. (A meta box in the block editor is saved in a second
 * request after the post, too late if the first try ran in between; so the box is classic-only.)
 */

defined('ABSPATH') || exit;

final class Herald_Publisher_Editor
{
    private const NONCE_ACTION = 'herald_publisher_post_box';
    private const NONCE_FIELD = 'herald_publisher_post_box_nonce';

    public const PANEL_HANDLE = 'herald-publisher-editor-panel';

    /** On every request (REST saves are not admin requests): the choice as REST-visible post meta. */
    public static function register_meta(): void
    {
        $may_edit = static function ($allowed, $meta_key, $post_id): bool {
            return current_user_can('edit_post', (int) $post_id);
        };
        foreach (Herald_Publisher_Capture::post_types() as $type) {
            // the block editor reads and sends meta only for types that support custom fields
            add_post_type_support($type, 'custom-fields');
            register_post_meta($type, Herald_Publisher_Capture::META_CHANNELS, [
                'type' => 'array',
                'single' => true,
                // never chosen: the channels of the settings, as Herald_Publisher_Capture::chosen_channels has it
                'default' => array_values(Herald_Publisher_Settings::get()['channels']),
                'sanitize_callback' => [self::class, 'sanitize_channels'],
                'auth_callback' => $may_edit,
                // the editor's context only: a public post's REST view does not show the site's channels
                'show_in_rest' => ['schema' => ['type' => 'array', 'items' => ['type' => 'string'], 'context' => ['edit']]],
            ]);
            register_post_meta($type, Herald_Publisher_Capture::META_SKIP, [
                'type' => 'boolean',
                'single' => true,
                'default' => false,
                'auth_callback' => $may_edit,
                'show_in_rest' => ['schema' => ['type' => 'boolean', 'context' => ['edit']]],
            ]);
        }
    }

    /** Only channels of the settings, in their order, whichever way the choice arrives. */
    public static function sanitize_channels($value): array
    {
        $given = is_array($value) ? array_filter($value, [Herald_Publisher_Ids::class, 'is_channel_id']) : [];
        return array_values(array_intersect(Herald_Publisher_Settings::get()['channels'], $given));
    }

    public static function register(): void
    {
        add_action('add_meta_boxes', [self::class, 'add_box']);
        add_action('enqueue_block_editor_assets', [self::class, 'enqueue_panel']);
        // save_post runs before wp_after_insert_post, so the choice is in place when the post is captured
        add_action('save_post', [self::class, 'save_box'], 10, 2);
        foreach (Herald_Publisher_Capture::post_types() as $type) {
            add_filter("manage_{$type}_posts_columns", [self::class, 'add_column']);
            add_action("manage_{$type}_posts_custom_column", [self::class, 'column'], 10, 2);
        }
    }

    public static function add_box(): void
    {
        // the classic editor only: the block editor has the panel, saved with the post itself
        add_meta_box('herald-publisher', __('Share with Herald', 'herald-publisher'), [self::class, 'box'],
            Herald_Publisher_Capture::post_types(), 'side', 'default', ['__back_compat_meta_box' => true]);
    }

    /** The block editor's panel: plain JavaScript on WordPress's own script globals, no build step. */
    public static function enqueue_panel(): void
    {
        $screen = function_exists('get_current_screen') ? get_current_screen() : null;
        if (!$screen || $screen->base !== 'post' || !in_array($screen->post_type, Herald_Publisher_Capture::post_types(), true)) {
            return;
        }
        $plugin_file = dirname(__DIR__) . '/herald-publisher.php';
        wp_enqueue_script(self::PANEL_HANDLE, plugins_url('assets/editor-panel.js', $plugin_file),
            ['wp-plugins', 'wp-edit-post', 'wp-editor', 'wp-element', 'wp-components', 'wp-data', 'wp-api-fetch', 'wp-i18n'],
            HERALD_PUBLISHER_VERSION, true);
        wp_add_inline_script(self::PANEL_HANDLE, 'window.heraldPublisherEditor = ' . wp_json_encode([
            'channels' => array_values(Herald_Publisher_Settings::get()['channels']),
            'channelsMeta' => Herald_Publisher_Capture::META_CHANNELS,
            'skipMeta' => Herald_Publisher_Capture::META_SKIP,
            'finalStatuses' => Herald_Publisher_Store::FINAL_STATUSES,
        ]) . ';', 'before');
        wp_set_script_translations(self::PANEL_HANDLE, 'herald-publisher', dirname(__DIR__) . '/languages');
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
        $given = isset($_POST['herald_publisher_channels']) && is_array($_POST['herald_publisher_channels'])
            ? array_map('sanitize_text_field', wp_unslash($_POST['herald_publisher_channels'])) : [];
        update_post_meta($post_id, Herald_Publisher_Capture::META_CHANNELS, self::sanitize_channels($given));
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
