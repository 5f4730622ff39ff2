<?php
/**
 * The option herald_publisher_settings, read and cleaned in one place. The same cleaning runs
 * for the settings form and for update_option() from code, so both end in the same shape.
 */

defined('ABSPATH') || exit;

final class Herald_Publisher_Settings
{
    public const OPTION = 'herald_publisher_settings';
    public const SITE_ID_OPTION = 'herald_publisher_site_id';
    public const SECRET_FIELDS = ['api_key', 'signing_secret', 'webhook_secret'];
    public const DEFAULT_TIMEOUT = 20;
    public const MAX_TIMEOUT = 30;

    public static function register(): void
    {
        register_setting('herald_publisher', self::OPTION, [
            'type' => 'array',
            'sanitize_callback' => [self::class, 'sanitize'],
            'default' => self::defaults(),
            'show_in_rest' => false,
        ]);
    }

    public static function defaults(): array
    {
        return [
            'herald_url' => '',
            'workspace' => '',
            'api_key' => '',
            'signing_secret' => '',
            'webhook_secret' => '',
            'channels' => [],
            'channel_modes' => [],
            'timeout' => self::DEFAULT_TIMEOUT,
        ];
    }

    public static function get(): array
    {
        $stored = get_option(self::OPTION, []);
        return array_merge(self::defaults(), is_array($stored) ? $stored : []);
    }

    /** Enough to talk to Herald: a URL, a workspace, a key and at least one channel. */
    public static function is_complete(?array $settings = null): bool
    {
        $s = $settings ?? self::get();
        return $s['herald_url'] !== '' && $s['workspace'] !== '' && $s['api_key'] !== '' && !empty($s['channels']);
    }

    public static function site_id(): string
    {
        $id = get_option(self::SITE_ID_OPTION);
        if (!Herald_Publisher_Ids::is_site_id($id)) {
            $id = Herald_Publisher_Ids::new_site_id();
            // add_option does nothing when another request has just added one: read back the winner
            add_option(self::SITE_ID_OPTION, $id, '', false);
            $id = get_option(self::SITE_ID_OPTION);
        }
        return (string) $id;
    }

    public static function mode_for(string $channel_id, ?array $settings = null): string
    {
        $s = $settings ?? self::get();
        return ($s['channel_modes'][$channel_id] ?? 'link') === 'image' ? 'image' : 'link';
    }

    public static function timeout(): int
    {
        $seconds = (int) apply_filters('herald_publisher_http_timeout', (int) self::get()['timeout']);
        return max(1, min(self::MAX_TIMEOUT, $seconds));
    }

    /**
     * Cleans a new value. A secret left empty in the form keeps the stored one (the form never
     * shows it), unless "forget" was ticked for it.
     */
    public static function sanitize($input): array
    {
        $input = is_array($input) ? $input : [];
        $old = self::get();
        $clean = self::defaults();

        $url = isset($input['herald_url']) ? trim((string) $input['herald_url']) : $old['herald_url'];
        $url = untrailingslashit(esc_url_raw($url, ['http', 'https']));
        $clean['herald_url'] = preg_replace('#/api/v1$#', '', $url);

        $workspace = isset($input['workspace']) ? trim((string) $input['workspace']) : $old['workspace'];
        $clean['workspace'] = preg_match('/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}\z/', $workspace) ? $workspace : '';

        foreach (self::SECRET_FIELDS as $field) {
            $given = isset($input[$field]) ? trim((string) $input[$field]) : '';
            if (!empty($input['forget_' . $field])) {
                $clean[$field] = '';
            } elseif ($given !== '') {
                $clean[$field] = $given;
            } else {
                $clean[$field] = $old[$field];
            }
        }

        $channels = $input['channels'] ?? $old['channels'];
        if (is_string($channels)) {
            $channels = preg_split('/[\s,]+/', $channels, -1, PREG_SPLIT_NO_EMPTY);
        }
        $clean['channels'] = array_values(array_unique(array_filter((array) $channels,
            [Herald_Publisher_Ids::class, 'is_channel_id'])));

        $modes = $input['channel_modes'] ?? $old['channel_modes'];
        if (is_string($modes)) {
            $pairs = [];
            foreach (preg_split('/[\r\n,]+/', $modes, -1, PREG_SPLIT_NO_EMPTY) as $line) {
                $parts = array_map('trim', explode('=', $line, 2));
                if (count($parts) === 2) {
                    $pairs[$parts[0]] = $parts[1];
                }
            }
            $modes = $pairs;
        }
        foreach ((array) $modes as $channel => $mode) {
            if (in_array($channel, $clean['channels'], true) && in_array($mode, ['link', 'image'], true)) {
                $clean['channel_modes'][$channel] = $mode;
            }
        }

        $timeout = isset($input['timeout']) ? (int) $input['timeout'] : (int) $old['timeout'];
        $clean['timeout'] = max(1, min(self::MAX_TIMEOUT, $timeout ?: self::DEFAULT_TIMEOUT));
        return $clean;
    }
}
