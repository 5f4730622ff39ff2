<?php
/**
 * Ids the plugin computes itself, exactly as Herald does (docs/api.md#idempotency-key): a retry
 * or a second run of the hook computes the same id, so Herald sees the same request again.
 * No WordPress function is used here, so the unit tests run without WordPress.
 */

defined('ABSPATH') || defined('HERALD_PUBLISHER_TESTING') || exit;

final class Herald_Publisher_Ids
{
    public const SITE_ID_PATTERN = '/^[a-z0-9]{12}\z/';

    /** "pub_" + hex SHA-256 of "v1\n{workspace}\n{entry}\n{version}\n{channel}\n{action}". */
    public static function publication_id(string $workspace, string $calendar_entry_id, int $content_version,
                                          string $channel_id, string $action): string
    {
        $canonical = implode("\n", ['v1', $workspace, $calendar_entry_id, (string) $content_version, $channel_id, $action]);
        return 'pub_' . hash('sha256', $canonical);
    }

    public static function calendar_entry_id(string $site_id, int $post_id): string
    {
        return 'wp:' . $site_id . ':' . $post_id;
    }

    /** Herald names media by the hash of their bytes, so the id is known before the upload. */
    public static function media_id(string $bytes): string
    {
        return 'med_' . hash('sha256', $bytes);
    }

    /** 12 lowercase letters and digits from a CSPRNG. */
    public static function new_site_id(): string
    {
        $alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
        $id = '';
        for ($i = 0; $i < 12; $i++) {
            $id .= $alphabet[random_int(0, strlen($alphabet) - 1)];
        }
        return $id;
    }

    public static function is_site_id($value): bool
    {
        return is_string($value) && preg_match(self::SITE_ID_PATTERN, $value) === 1;
    }

    /** Channel ids as Herald accepts them in a path: letters, digits, '-', '_' and '.'. */
    public static function is_channel_id($value): bool
    {
        return is_string($value) && preg_match('/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}\z/', $value) === 1;
    }
}
