<?php
/**
 * Settings → Herald (secrets are never sent back to the browser), Tools → Herald (the records,
 * with "Retry now" for failed ones) and a notice while records have failed.
 */

defined('ABSPATH') || exit;

final class Herald_Publisher_Admin
{
    private const RETRY_ACTION = 'herald_publisher_retry';

    public static function register(): void
    {
        add_action('admin_menu', [self::class, 'menus']);
        add_action('admin_notices', [self::class, 'notice']);
        add_action('admin_post_' . self::RETRY_ACTION, [self::class, 'retry']);
    }

    public static function menus(): void
    {
        add_options_page(__('Herald', 'herald-publisher'), __('Herald', 'herald-publisher'), 'manage_options',
            'herald-publisher', [self::class, 'settings_page']);
        add_management_page(__('Herald', 'herald-publisher'), __('Herald', 'herald-publisher'), 'edit_others_posts',
            'herald-publisher-records', [self::class, 'tools_page']);
    }

    public static function settings_page(): void
    {
        if (!current_user_can('manage_options')) {
            return;
        }
        $s = Herald_Publisher_Settings::get();
        $name = Herald_Publisher_Settings::OPTION;
        $modes = [];
        foreach ($s['channel_modes'] as $channel => $mode) {
            $modes[] = $channel . '=' . $mode;
        }
        echo '<div class="wrap"><h1>' . esc_html__('Herald', 'herald-publisher') . '</h1><form method="post" action="options.php">';
        settings_fields('herald_publisher');
        echo '<table class="form-table" role="presentation">';
        self::text_row($name, 'herald_url', __('Herald URL', 'herald-publisher'), $s['herald_url'], 'url',
            __('For example https://herald.example; the plugin adds /api/v1/…. Changing it clears the stored API key and signing secret.', 'herald-publisher'));
        self::text_row($name, 'workspace', __('Workspace', 'herald-publisher'), $s['workspace']);
        self::secret_row($name, 'api_key', __('API key (publisher role)', 'herald-publisher'), $s['api_key'] !== '');
        self::secret_row($name, 'signing_secret', __('Signing secret (optional)', 'herald-publisher'), $s['signing_secret'] !== '');
        self::secret_row($name, 'webhook_secret', __('Webhook secret (optional)', 'herald-publisher'), $s['webhook_secret'] !== '');
        self::text_row($name, 'channels', __('Channels', 'herald-publisher'), implode(', ', $s['channels']), 'text',
            __('Herald channel ids, separated by commas.', 'herald-publisher'));
        self::text_row($name, 'channel_modes', __('Channel modes', 'herald-publisher'), implode(', ', $modes), 'text',
            __('channel=image to post the featured image with the permalink in the text; the default is link.', 'herald-publisher'));
        self::text_row($name, 'timeout', __('Timeout (seconds, at most 30)', 'herald-publisher'), (string) $s['timeout'], 'number');
        echo '</table><p>' . esc_html(sprintf(
            /* translators: %s: the REST URL that receives Herald's webhooks */
            __('Webhook URL for Herald: %s', 'herald-publisher'), rest_url('herald/v1/events'))) . '</p>';
        submit_button();
        echo '</form></div>';
    }

    /** A field set in wp-config.php is shown read-only, and is not part of the form. */
    private static function text_row(string $name, string $field, string $label, string $value, string $type = 'text',
                                     string $help = ''): void
    {
        $id = 'herald-' . $field;
        $constant = Herald_Publisher_Settings::config_constant($field);
        echo '<tr><th scope="row"><label for="' . esc_attr($id) . '">' . esc_html($label) . '</label></th><td><input class="regular-text" type="'
            . esc_attr($type) . '" id="' . esc_attr($id) . '"'
            . ($constant !== null ? ' readonly disabled' : ' name="' . esc_attr($name . '[' . $field . ']') . '"')
            . ' value="' . esc_attr($value) . '">'
            . ($constant !== null ? self::config_note($constant) : '')
            . ($help !== '' ? '<p class="description">' . esc_html($help) . '</p>' : '') . '</td></tr>';
    }

    private static function config_note(string $constant): string
    {
        return '<p class="description herald-set-by-configuration">' . esc_html(sprintf(
            /* translators: %s: the name of a wp-config.php constant */
            __('Set by configuration (%s in wp-config.php).', 'herald-publisher'), $constant)) . '</p>';
    }

    /** A stored secret shows as "stored": the field stays empty, and empty keeps what is stored. */
    private static function secret_row(string $name, string $field, string $label, bool $stored): void
    {
        $id = 'herald-' . $field;
        $constant = Herald_Publisher_Settings::config_constant($field);
        if ($constant !== null) {
            echo '<tr><th scope="row"><label for="' . esc_attr($id) . '">' . esc_html($label) . '</label></th><td><input class="regular-text" type="password" id="'
                . esc_attr($id) . '" readonly disabled value="" placeholder="'
                . esc_attr__('set by configuration', 'herald-publisher') . '">' . self::config_note($constant) . '</td></tr>';
            return;
        }
        echo '<tr><th scope="row"><label for="' . esc_attr($id) . '">' . esc_html($label) . '</label></th><td><input class="regular-text" type="password" autocomplete="new-password" id="'
            . esc_attr($id) . '" name="' . esc_attr($name . '[' . $field . ']') . '" value="" placeholder="'
            . esc_attr($stored ? __('stored — leave empty to keep', 'herald-publisher') : '') . '">';
        if ($stored) {
            echo ' <label><input type="checkbox" name="' . esc_attr($name . '[forget_' . $field . ']') . '" value="1"> '
                . esc_html__('Forget it', 'herald-publisher') . '</label>';
        }
        echo '</td></tr>';
    }

    public static function tools_page(): void
    {
        if (!current_user_can('edit_others_posts')) {
            return;
        }
        echo '<div class="wrap"><h1>' . esc_html__('Herald', 'herald-publisher') . '</h1>';
        if (isset($_GET['herald_retried'])) {
            echo '<div class="notice notice-success"><p>' . esc_html__('Queued again.', 'herald-publisher') . '</p></div>';
        }
        echo '<table class="widefat striped"><thead><tr>';
        foreach ([__('Post', 'herald-publisher'), __('Channel', 'herald-publisher'), __('Action', 'herald-publisher'),
                     __('Version', 'herald-publisher'), __('State', 'herald-publisher'), __('Tries', 'herald-publisher'),
                     __('Next try (UTC)', 'herald-publisher'), __('Error', 'herald-publisher'),
                     __('Publication', 'herald-publisher'), ''] as $heading) {
            echo '<th scope="col">' . esc_html($heading) . '</th>';
        }
        echo '</tr></thead><tbody>';
        foreach (Herald_Publisher_Store::recent() as $r) {
            $title = get_the_title((int) $r['post_id']);
            echo '<tr><td>' . esc_html($title !== '' ? $title : '#' . $r['post_id']) . '</td><td>' . esc_html($r['channel_id'])
                . '</td><td>' . esc_html($r['action']) . '</td><td>' . esc_html($r['content_version']) . '</td><td>'
                . Herald_Publisher_Editor::state_html($r) . ' <code>' . esc_html($r['status']) . '</code></td><td>' . esc_html($r['tries'])
                . '</td><td>' . esc_html(in_array($r['status'], ['QUEUED', 'SENDING'], true) ? $r['next_try_at'] : '') . '</td><td>'
                . esc_html(trim($r['last_error_code'] . ' ' . $r['last_error_detail'])) . '</td><td><code>'
                . esc_html($r['publication_id']) . '</code><br><small>' . esc_html($r['correlation_id']) . '</small></td><td>';
            if ($r['status'] === 'FAILED' && $r['herald_status'] === null) {
                echo '<form method="post" action="' . esc_url(admin_url('admin-post.php')) . '">'
                    . '<input type="hidden" name="action" value="' . esc_attr(self::RETRY_ACTION) . '">'
                    . '<input type="hidden" name="record" value="' . esc_attr($r['id']) . '">';
                wp_nonce_field(self::RETRY_ACTION . '_' . $r['id']);
                submit_button(__('Retry now', 'herald-publisher'), 'small', 'submit', false);
                echo '</form>';
            }
            echo '</td></tr>';
        }
        echo '</tbody></table></div>';
    }

    public static function retry(): void
    {
        $id = isset($_POST['record']) ? absint($_POST['record']) : 0;
        if (!current_user_can('edit_others_posts') || !check_admin_referer(self::RETRY_ACTION . '_' . $id)) {
            wp_die(esc_html__('Sorry, you are not allowed to do that.', 'herald-publisher'), 403);
        }
        Herald_Publisher_Dispatcher::retry_now($id);
        wp_safe_redirect(add_query_arg(['page' => 'herald-publisher-records', 'herald_retried' => 1], admin_url('tools.php')));
        exit;
    }

    public static function notice(): void
    {
        if (!current_user_can('edit_others_posts')) {
            return;
        }
        $failed = Herald_Publisher_Store::count_failed();
        if ($failed === 0) {
            return;
        }
        echo '<div class="notice notice-error"><p>' . esc_html(sprintf(
            /* translators: %d: number of failed records */
            _n('Herald: %d share failed.', 'Herald: %d shares failed.', $failed, 'herald-publisher'), $failed))
            . ' <a href="' . esc_url(admin_url('tools.php?page=herald-publisher-records')) . '">'
            . esc_html__('See Tools → Herald.', 'herald-publisher') . '</a></p></div>';
    }
}
