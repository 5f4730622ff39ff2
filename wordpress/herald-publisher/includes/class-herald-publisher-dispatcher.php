<?php
/**
 * Does the due work on the cron hook herald_publisher_dispatch: sends each due record once per
 * try (the claim in the table decides which process sends), uploads a featured image before the
 * publication that uses it, and polls once what has heard nothing for 10 minutes.
 */

defined('ABSPATH') || exit;

final class Herald_Publisher_Dispatcher
{
    public const HOOK = 'herald_publisher_dispatch';
    public const SCHEDULE = 'herald_publisher_every_minute';
    private const BATCH = 25;

    public static function register(): void
    {
        add_filter('cron_schedules', static function (array $schedules): array {
            $schedules[self::SCHEDULE] = ['interval' => MINUTE_IN_SECONDS,
                'display' => __('Every minute (Herald)', 'herald-publisher')];
            return $schedules;
        });
        add_action(self::HOOK, [self::class, 'run'], 10, 0);
        add_action('init', [self::class, 'ensure_scheduled']);
    }

    public static function ensure_scheduled(): void
    {
        if (!wp_next_scheduled(self::HOOK)) {
            wp_schedule_event(time(), self::SCHEDULE, self::HOOK);
        }
    }

    public static function unschedule(): void
    {
        wp_clear_scheduled_hook(self::HOOK);
        wp_clear_scheduled_hook(self::HOOK, ['soon']);
    }

    /** Right after a publish: a one-off run "now" (its own args, so the every-minute event does not hide it). */
    public static function schedule_soon(): void
    {
        if (!wp_next_scheduled(self::HOOK, ['soon'])) {
            wp_schedule_single_event(time(), self::HOOK, ['soon']);
        }
    }

    /** The due work; safe to run in several processes at once. */
    public static function run(): void
    {
        $settings = Herald_Publisher_Settings::get();
        if (!Herald_Publisher_Settings::is_complete($settings)) {
            return;
        }
        $client = new Herald_Publisher_Client($settings);
        $lease = 2 * Herald_Publisher_Settings::timeout() + 30;
        foreach (Herald_Publisher_Store::due_ids(self::BATCH) as $id) {
            $record = Herald_Publisher_Store::find($id);
            // Herald takes an entry's operations in the order they arrive: an update waits for its publish
            if (!$record || Herald_Publisher_Store::has_earlier_pending($record)) {
                continue;
            }
            $token = Herald_Publisher_Store::claim($id, $lease);
            if ($token === null) {
                continue;
            }
            self::send(Herald_Publisher_Store::find($id), $token, $client, $settings);
        }
        foreach (Herald_Publisher_Store::stale_ids(self::BATCH) as $id) {
            if (Herald_Publisher_Store::mark_polled($id)) {
                self::poll(Herald_Publisher_Store::find($id), $client);
            }
        }
    }

    private static function send(array $record, string $token, Herald_Publisher_Client $client, array $settings): void
    {
        $tries = (int) $record['tries'];
        $request = json_decode((string) $record['request'], true);
        if (!is_array($request)) {
            // Built once and kept: every retry sends the very same request, so Herald answers with the same publication.
            $request = Herald_Publisher_Request::build($record, $settings, $client->channel_types());
            Herald_Publisher_Store::update_claimed((int) $record['id'], $token, ['request' => wp_json_encode($request)]);
        }
        foreach ($request['content']['media'] ?? [] as $media) {
            $uploaded = self::upload($record, $media['mediaId'], $client, $tries);
            if ($uploaded !== null) {
                self::record_outcome($record, $token, $uploaded);
                return;
            }
        }
        $outcome = $client->send('POST', $client->workspace_path('/publications'), wp_json_encode($request),
            'application/json', $record['correlation_id'], $tries);
        self::record_outcome($record, $token, $outcome);
    }

    /** Uploads the featured image; null when Herald has it, else the outcome that stops this try. */
    private static function upload(array $record, string $media_id, Herald_Publisher_Client $client, int $tries): ?Herald_Publisher_Outcome
    {
        $source = json_decode((string) $record['source'], true);
        $file = get_attached_file((int) ($source['image']['attachmentId'] ?? 0));
        $bytes = $file && is_readable($file) ? file_get_contents($file) : false;
        if ($bytes === false || Herald_Publisher_Ids::media_id($bytes) !== $media_id) {
            return Herald_Publisher_Outcome::of_answer(422, wp_json_encode(['code' => 'featured_image_changed',
                'detail' => 'The featured image is no longer the file this version was captured with.']), null, $tries, time());
        }
        [$status, $body, $headers, $error] = $client->request('POST', $client->workspace_path('/media'), $bytes,
            (string) ($source['image']['contentType'] ?? 'image/jpeg'), $record['correlation_id']);
        if ($status === null) {
            return Herald_Publisher_Outcome::no_answer((string) $error, $tries);
        }
        if ($status === 200 || $status === 201) {
            return null;
        }
        return Herald_Publisher_Outcome::of_answer($status >= 200 && $status < 300 ? 502 : $status, $body,
            $headers['retry-after'] ?? null, $tries, time());
    }

    private static function record_outcome(array $record, string $token, Herald_Publisher_Outcome $outcome): void
    {
        $id = (int) $record['id'];
        if ($outcome->kind === Herald_Publisher_Outcome::ACCEPTED) {
            $fields = Herald_Publisher_Store::fields_from_view($outcome->view);
            if ($outcome->view['publicationId'] !== $record['publication_id']) {
                $fields['last_error_code'] = 'publication_id_mismatch';
                $fields['last_error_detail'] = 'Herald answered with ' . $outcome->view['publicationId'];
            }
            Herald_Publisher_Store::update_claimed($id, $token, $fields);
            return;
        }
        $fields = [
            'claim_token' => null,
            'claimed_until' => null,
            'last_error_code' => substr((string) $outcome->code, 0, 100),
            'last_error_detail' => $outcome->detail,
        ];
        if ($outcome->kind === Herald_Publisher_Outcome::RETRY) {
            $fields['status'] = 'QUEUED';
            $fields['next_try_at'] = Herald_Publisher_Store::now((int) $outcome->retry_in);
        } else {
            $fields['status'] = 'FAILED';
        }
        // false when a webhook already moved the record on while this try waited for its answer
        Herald_Publisher_Store::update_claimed($id, $token, $fields);
    }

    private static function poll(array $record, Herald_Publisher_Client $client): void
    {
        [$status, $body] = $client->request('GET', $client->workspace_path('/publications/' . rawurlencode($record['publication_id'])),
            '', '', $record['correlation_id']);
        $view = $status === 200 ? json_decode($body, true) : null;
        if (is_array($view)) {
            Herald_Publisher_Store::apply_view($view);
        }
    }

    /** "Retry now" from Tools → Herald: the same request again, with a fresh backoff. */
    public static function retry_now(int $id): bool
    {
        $record = Herald_Publisher_Store::find($id);
        // only what Herald never accepted; a publication Herald holds as FAILED is Herald's operators' to decide
        if (!$record || $record['status'] !== 'FAILED' || $record['herald_status'] !== null) {
            return false;
        }
        Herald_Publisher_Store::update($id, ['status' => 'QUEUED', 'tries' => 0, 'next_try_at' => Herald_Publisher_Store::now()]);
        self::schedule_soon();
        return true;
    }
}
