<?php
/**
 * What one answer from Herald means for a record: accepted (Herald's view), try again later
 * (timeouts, network errors, 5xx, 429) or failed for good (any other 4xx), and when the next
 * try is due. Pure PHP, no WordPress.
 */

defined('ABSPATH') || defined('HERALD_PUBLISHER_TESTING') || exit;

final class Herald_Publisher_Outcome
{
    /** Waits after the 1st, 2nd, … failed try; after the last one the record is FAILED. */
    public const BACKOFF_SECONDS = [60, 300, 1800, 7200, 21600];

    public const ACCEPTED = 'accepted';
    public const RETRY = 'retry';
    public const FAILED = 'failed';

    /** @var string */
    public $kind;
    /** @var array|null Herald's publication view, when accepted */
    public $view;
    /** @var string|null */
    public $code;
    /** @var string|null */
    public $detail;
    /** @var int|null seconds until the next try, for RETRY */
    public $retry_in;

    private function __construct(string $kind, ?array $view, ?string $code, ?string $detail, ?int $retry_in)
    {
        $this->kind = $kind;
        $this->view = $view;
        $this->code = $code;
        $this->detail = $detail;
        $this->retry_in = $retry_in;
    }

    /** No answer at all (timeout, refused, reset): always worth another try with the same request. */
    public static function no_answer(string $detail, int $tries): self
    {
        return self::retry_or_fail('network_error', $detail, $tries, null);
    }

    /**
     * @param int $tries tries made so far, this one included
     * @param string|null $retry_after the Retry-After header as sent
     */
    public static function of_answer(int $status, string $body, ?string $retry_after, int $tries, int $now): self
    {
        $json = json_decode($body, true);
        $json = is_array($json) ? $json : [];
        $code = isset($json['code']) && is_string($json['code']) ? $json['code'] : 'http_' . $status;
        $detail = isset($json['detail']) && is_string($json['detail']) ? $json['detail'] : 'HTTP ' . $status;
        if ($status >= 200 && $status < 300) {
            if (!isset($json['publicationId']) || !is_string($json['publicationId'])) {
                return self::retry_or_fail('unreadable_answer', 'HTTP ' . $status . ' without a publication view', $tries, null);
            }
            return new self(self::ACCEPTED, $json, null, null, null);
        }
        if ($status === 429) {
            return self::retry_or_fail($code, $detail, $tries, self::retry_after_seconds($retry_after, $now));
        }
        if ($status >= 500 || $status < 200) {
            return self::retry_or_fail($code, $detail, $tries, null);
        }
        if (!empty($json['errors']) && is_array($json['errors'])) {
            $fields = [];
            foreach ($json['errors'] as $error) {
                if (is_array($error) && isset($error['field'], $error['message'])) {
                    $fields[] = $error['field'] . ': ' . $error['message'];
                }
            }
            if ($fields) {
                $detail .= ' (' . implode('; ', $fields) . ')';
            }
        }
        return new self(self::FAILED, null, $code, $detail, null);
    }

    /** Seconds from a Retry-After header (delta-seconds or an HTTP date); null when absent or unreadable. */
    public static function retry_after_seconds(?string $header, int $now): ?int
    {
        if ($header === null || trim($header) === '') {
            return null;
        }
        $header = trim($header);
        if (preg_match('/^\d{1,9}\z/', $header)) {
            return (int) $header;
        }
        $at = strtotime($header);
        return $at === false ? null : max(0, $at - $now);
    }

    private static function retry_or_fail(string $code, string $detail, int $tries, ?int $retry_after): self
    {
        if ($tries > count(self::BACKOFF_SECONDS)) {
            return new self(self::FAILED, null, $code, $detail . ' (gave up after ' . $tries . ' tries)', null);
        }
        $wait = self::BACKOFF_SECONDS[max(1, $tries) - 1];
        return new self(self::RETRY, null, $code, $detail, $retry_after !== null ? max($retry_after, 1) : $wait);
    }
}
