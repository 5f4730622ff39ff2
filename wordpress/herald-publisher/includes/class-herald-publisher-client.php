<?php
/**
 * HTTP to Herald: the API key, the v2 signature when a signing secret is set, a correlation id,
 * and a timeout of at most 30 s. Returns an Outcome; never throws on a network error.
 */

defined('ABSPATH') || exit;

final class Herald_Publisher_Client
{
    /** @var array */
    private $settings;

    public function __construct(array $settings)
    {
        $this->settings = $settings;
    }

    public function workspace_path(string $tail): string
    {
        return '/api/v1/workspaces/' . rawurlencode($this->settings['workspace']) . $tail;
    }

    /**
     * @return array{0: int|null, 1: string, 2: array, 3: string|null} status (null: no answer), body,
     *         headers, the error when there was no answer
     */
    public function request(string $method, string $path, string $body, string $content_type, string $correlation_id): array
    {
        $headers = [
            'Authorization' => 'Bearer ' . $this->settings['api_key'],
            'Accept' => 'application/json',
            'X-Correlation-Id' => $correlation_id,
            'User-Agent' => 'herald-publisher/' . HERALD_PUBLISHER_VERSION . '; ' . home_url('/'),
        ];
        if ($method !== 'GET') {
            $headers['Content-Type'] = $content_type;
        }
        if ($this->settings['signing_secret'] !== '') {
            $headers['X-Herald-Signature'] = Herald_Publisher_Signatures::v2_header(
                $this->settings['signing_secret'], time(), $method, $path, $body);
        }
        $response = wp_remote_request($this->settings['herald_url'] . $path, [
            'method' => $method,
            'headers' => $headers,
            'body' => $method === 'GET' ? null : $body,
            'timeout' => Herald_Publisher_Settings::timeout(),
            'redirection' => 0,
            'sslverify' => true,
        ]);
        if (is_wp_error($response)) {
            return [null, '', [], $response->get_error_message()];
        }
        $answer_headers = [];
        foreach (['retry-after', 'x-correlation-id', 'location'] as $name) {
            $value = wp_remote_retrieve_header($response, $name);
            $answer_headers[$name] = is_array($value) ? reset($value) : ($value === '' ? null : $value);
        }
        return [(int) wp_remote_retrieve_response_code($response), (string) wp_remote_retrieve_body($response), $answer_headers, null];
    }

    /** Sends and classifies, counting $tries (this one included) for the backoff. */
    public function send(string $method, string $path, string $body, string $content_type, string $correlation_id,
                         int $tries): Herald_Publisher_Outcome
    {
        [$status, $answer, $headers, $error] = $this->request($method, $path, $body, $content_type, $correlation_id);
        if ($status === null) {
            return Herald_Publisher_Outcome::no_answer((string) $error, $tries);
        }
        return Herald_Publisher_Outcome::of_answer($status, $answer, $headers['retry-after'] ?? null, $tries, time());
    }

    /** Channel id → Herald channel type, from Herald's channel list, kept for an hour. */
    public function channel_types(): array
    {
        $cache_key = 'herald_publisher_channel_types_' . md5($this->settings['herald_url'] . '|' . $this->settings['workspace']);
        $cached = get_transient($cache_key);
        if (is_array($cached)) {
            return $cached;
        }
        [$status, $body] = $this->request('GET', $this->workspace_path('/channels'), '', '', wp_generate_uuid4());
        $types = [];
        $json = $status === 200 ? json_decode($body, true) : null;
        $items = is_array($json) ? ($json['items'] ?? $json) : [];
        foreach ((array) $items as $item) {
            $channel = is_array($item) ? self::scalar($item['channelId'] ?? null) : null;
            $type = is_array($item) ? self::scalar($item['type'] ?? null) : null;
            if ($channel !== null && $type !== null) {
                $types[$channel] = strtolower($type);
            }
        }
        if ($status === 200) {
            set_transient($cache_key, $types, HOUR_IN_SECONDS);
        }
        return $types;
    }

    /** A JSON value that is a string, or an object carrying one as "value" (an id record). */
    private static function scalar($value): ?string
    {
        if (is_array($value)) {
            $value = $value['value'] ?? null;
        }
        return is_string($value) ? $value : null;
    }
}
