<?php
/**
 * The option herald_publisher_settings, read and cleaned in one place. The same cleaning runs
 * for the settings form and for update_option() from code, so both end in the same shape.
 *
 * The API key and the signing secret belong to the Herald URL they were entered for
 * (`secrets_url`): when the URL changes they are cleared and asked for again, so a changed URL
 * never receives them. The URL, the key and the secret may instead come from wp-config.php
 * (HERALD_URL, HERALD_API_KEY, HERALD_SIGNING_SECRET): a defined constant wins over the form.
 */

defined('ABSPATH') || exit;

final class Herald_Publisher_Settings
{
    public const OPTION = 'herald_publisher_settings';
    public const SITE_ID_OPTION = 'herald_publisher_site_id';
    public const SECRET_FIELDS = ['api_key', 'signing_secret', 'webhook_secret'];
    /** The secrets the plugin sends to Herald: valid only for the URL they were entered for. */
    public const URL_BOUND_SECRETS = ['api_key', 'signing_secret'];
    /** Settings that wp-config.php may set, by the constant that sets them. */
    public const CONFIG_CONSTANTS = [
        'herald_url' => 'HERALD_URL',
        'api_key' => 'HERALD_API_KEY',
        'signing_secret' => 'HERALD_SIGNING_SECRET',
    ];
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

    /**
     * The settings in effect: the stored ones, with what wp-config.php sets instead, and without
     * stored secrets that were entered for another Herald URL than the one in effect now.
     */
    public static function get(): array
    {
        $stored = self::stored();
        $s = $stored;
        unset($s['secrets_url']);
        foreach (array_keys(self::CONFIG_CONSTANTS) as $field) {
            $configured = self::from_config($field);
            if ($configured !== null) {
                $s[$field] = $configured;
            }
        }
        if ($s['herald_url'] !== self::secrets_url($stored)) {
            foreach (self::URL_BOUND_SECRETS as $field) {
                if (self::from_config($field) === null) {
                    $s[$field] = '';
                }
            }
        }
        return $s;
    }

    /** The option as stored, with defaults for what it lacks; nothing from wp-config.php. */
    private static function stored(): array
    {
        $stored = get_option(self::OPTION, []);
        return array_merge(self::defaults(), is_array($stored) ? $stored : []);
    }

    /** The URL the stored secrets were entered for; settings saved before it was kept: their own URL. */
    private static function secrets_url(array $stored): string
    {
        return isset($stored['secrets_url']) ? (string) $stored['secrets_url'] : (string) $stored['herald_url'];
    }

    /** The value wp-config.php sets for a field, or null when its constant is not defined. */
    public static function from_config(string $field): ?string
    {
        $name = self::CONFIG_CONSTANTS[$field] ?? null;
        if ($name === null || !defined($name) || !is_scalar(constant($name))) {
            return null;
        }
        $value = trim((string) constant($name));
        return $field === 'herald_url' ? self::clean_url($value) : $value;
    }

    /** The constant that sets a field, when it is defined. */
    public static function config_constant(string $field): ?string
    {
        return self::from_config($field) !== null ? self::CONFIG_CONSTANTS[$field] : null;
    }

    private static function clean_url(string $url): string
    {
        $url = untrailingslashit(esc_url_raw($url, ['http', 'https']));
        return (string) preg_replace('#/api/v1$#', '', $url);
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
     * shows it), unless "forget" was ticked for it, or the Herald URL in effect is not the one it
     * was entered for: then it is cleared and asked for again. What wp-config.php sets is not
     * stored.
     */
    public static function sanitize($input): array
    {
        $input = is_array($input) ? $input : [];
        $old = self::stored();
        $clean = self::defaults();

        $url = isset($input['herald_url']) ? trim((string) $input['herald_url']) : $old['herald_url'];
        $clean['herald_url'] = self::clean_url($url);
        $url_in_effect = self::from_config('herald_url') ?? $clean['herald_url'];
        $moved = $url_in_effect !== self::secrets_url($old);

        $workspace = isset($input['workspace']) ? trim((string) $input['workspace']) : $old['workspace'];
        $clean['workspace'] = preg_match('/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}\z/', $workspace) ? $workspace : '';

        $cleared = [];
        foreach (self::SECRET_FIELDS as $field) {
            $given = isset($input[$field]) ? trim((string) $input[$field]) : '';
            if (self::from_config($field) !== null || !empty($input['forget_' . $field])) {
                $clean[$field] = '';
            } elseif ($given !== '') {
                $clean[$field] = $given;
            } elseif ($moved && in_array($field, self::URL_BOUND_SECRETS, true)) {
                // entered for another Herald: never sent to this one
                $clean[$field] = '';
                if ($old[$field] !== '') {
                    $cleared[] = $field;
                }
            } else {
                $clean[$field] = $old[$field];
            }
        }
        $clean['secrets_url'] = $url_in_effect;
        if ($cleared !== [] && function_exists('add_settings_error')) {
            add_settings_error(self::OPTION, 'herald_url_changed',
                __('The Herald URL changed, so the stored API key and signing secret were cleared: enter the ones for the new Herald.', 'herald-publisher'),
                'warning');
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
