<?php
/**
 * Both signatures the plugin deals with: the v2 signature it puts on its requests to Herald
 * (docs/api.md#request-signatures), and the Standard Webhooks signature it checks on Herald's
 * deliveries. Pure PHP, no WordPress.
 */

defined('ABSPATH') || defined('HERALD_PUBLISHER_TESTING') || exit;

final class Herald_Publisher_Signatures
{
    public const WEBHOOK_TOLERANCE_SECONDS = 300;

    /** X-Herald-Signature: t=<t>,v2=<hex HMAC-SHA256(secret, t \n METHOD \n path?query \n hex SHA-256(body))>. */
    public static function v2_header(string $secret, int $t, string $method, string $path_and_query, string $body): string
    {
        $message = $t . "\n" . strtoupper($method) . "\n" . $path_and_query . "\n" . hash('sha256', $body);
        return 't=' . $t . ',v2=' . hash_hmac('sha256', $message, $secret);
    }

    /**
     * Standard Webhooks: one of the space-separated "v1,<base64 HMAC-SHA256(key, id.timestamp.body)>"
     * must match, with the timestamp within the tolerance of $now. The key is the base64 part of
     * "whsec_…". Returns null when valid, else why not (for logs; never shown to the sender).
     */
    public static function webhook_problem(string $secret, ?string $id, ?string $timestamp, ?string $signatures,
                                           string $body, int $now): ?string
    {
        if ($secret === '') {
            return 'no webhook secret is configured';
        }
        if ($id === null || $id === '' || $timestamp === null || $signatures === null || $signatures === '') {
            return 'webhook-id, webhook-timestamp or webhook-signature is missing';
        }
        if (!preg_match('/^\d{1,12}\z/', $timestamp)) {
            return 'webhook-timestamp is not a number of seconds';
        }
        if (abs($now - (int) $timestamp) > self::WEBHOOK_TOLERANCE_SECONDS) {
            return 'webhook-timestamp is outside the tolerance';
        }
        $key = base64_decode(strpos($secret, 'whsec_') === 0 ? substr($secret, 6) : $secret, true);
        if ($key === false || $key === '') {
            return 'the webhook secret is not of the form whsec_<base64>';
        }
        $expected = base64_encode(hash_hmac('sha256', $id . '.' . $timestamp . '.' . $body, $key, true));
        $matched = false;
        foreach (preg_split('/ +/', trim($signatures)) ?: [] as $candidate) {
            $parts = explode(',', $candidate, 2);
            // every candidate is compared, so the time taken does not say which one matched
            if (count($parts) === 2 && $parts[0] === 'v1' && hash_equals($expected, $parts[1])) {
                $matched = true;
            }
        }
        return $matched ? null : 'no signature matches';
    }
}
