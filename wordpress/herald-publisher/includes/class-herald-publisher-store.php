<?php
/**
 * The local execution record, {prefix}herald_dispatch: one row per post, channel, action and
 * content version (a unique key, so capturing twice inserts nothing), and the atomic claim that
 * lets only one process send a row at a time.
 */

defined('ABSPATH') || exit;

final class Herald_Publisher_Store
{
    public const DB_VERSION = '1';
    public const DB_VERSION_OPTION = 'herald_publisher_db_version';
    /** Herald statuses after which nothing more happens to a publication. */
    public const FINAL_STATUSES = ['SUCCEEDED', 'FAILED', 'NOT_EXECUTED', 'SUPERSEDED', 'ABANDONED'];
    /** Local statuses: the record has not (yet) been accepted by Herald. */
    public const LOCAL_STATUSES = ['QUEUED', 'SENDING', 'FAILED'];

    public static function table(): string
    {
        global $wpdb;
        return $wpdb->prefix . 'herald_dispatch';
    }

    public static function install(): void
    {
        global $wpdb;
        require_once ABSPATH . 'wp-admin/includes/upgrade.php';
        $table = self::table();
        $charset = $wpdb->get_charset_collate();
        // dbDelta wants two spaces after PRIMARY KEY and one field per line
        dbDelta("CREATE TABLE $table (
  id bigint(20) unsigned NOT NULL AUTO_INCREMENT,
  post_id bigint(20) unsigned NOT NULL,
  channel_id varchar(100) NOT NULL,
  action varchar(16) NOT NULL,
  content_version int(10) unsigned NOT NULL,
  publication_id varchar(68) NOT NULL,
  status varchar(32) NOT NULL DEFAULT 'QUEUED',
  tries int(10) unsigned NOT NULL DEFAULT 0,
  next_try_at datetime NOT NULL,
  claim_token varchar(40) DEFAULT NULL,
  claimed_until datetime DEFAULT NULL,
  last_error_code varchar(100) DEFAULT NULL,
  last_error_detail text DEFAULT NULL,
  correlation_id varchar(100) NOT NULL,
  herald_status varchar(32) DEFAULT NULL,
  post_url text DEFAULT NULL,
  herald_updated_at varchar(40) DEFAULT NULL,
  polled tinyint(1) NOT NULL DEFAULT 0,
  source longtext NOT NULL,
  request longtext DEFAULT NULL,
  created_at datetime NOT NULL,
  updated_at datetime NOT NULL,
  PRIMARY KEY  (id),
  UNIQUE KEY one_per_version (post_id,channel_id,action,content_version),
  KEY publication_id (publication_id),
  KEY due (status,next_try_at)
) $charset;");
        update_option(self::DB_VERSION_OPTION, self::DB_VERSION, false);
    }

    public static function now(int $offset = 0): string
    {
        return gmdate('Y-m-d H:i:s', time() + $offset);
    }

    /** Inserts the record unless it exists; true when this call created it. */
    public static function add(int $post_id, string $channel_id, string $action, int $version, string $publication_id,
                               array $source): bool
    {
        global $wpdb;
        $table = self::table();
        $now = self::now();
        $inserted = $wpdb->query($wpdb->prepare(
            "INSERT IGNORE INTO $table (post_id, channel_id, action, content_version, publication_id, status, tries,
                next_try_at, correlation_id, source, created_at, updated_at)
             VALUES (%d, %s, %s, %d, %s, 'QUEUED', 0, %s, %s, %s, %s, %s)",
            $post_id, $channel_id, $action, $version, $publication_id, $now, wp_generate_uuid4(),
            wp_json_encode($source), $now, $now
        ));
        return $inserted === 1;
    }

    /** Removes queued, never tried publishes of the post at channels outside $keep; a claimed one stays. */
    public static function cancel_untried_publishes(int $post_id, array $keep): void
    {
        global $wpdb;
        $table = self::table();
        $sql = "DELETE FROM $table WHERE post_id = %d AND action = 'publish' AND status = 'QUEUED' AND tries = 0";
        if ($keep) {
            $sql .= ' AND channel_id NOT IN (' . implode(',', array_fill(0, count($keep), '%s')) . ')';
        }
        $wpdb->query($wpdb->prepare($sql, $post_id, ...array_values($keep)));
    }

    public static function for_post(int $post_id): array
    {
        global $wpdb;
        $table = self::table();
        return $wpdb->get_results($wpdb->prepare(
            "SELECT * FROM $table WHERE post_id = %d ORDER BY content_version DESC, id DESC", $post_id), ARRAY_A) ?: [];
    }

    public static function find(int $id): ?array
    {
        global $wpdb;
        $table = self::table();
        return $wpdb->get_row($wpdb->prepare("SELECT * FROM $table WHERE id = %d", $id), ARRAY_A) ?: null;
    }

    public static function recent(int $limit = 200, ?string $status = null): array
    {
        global $wpdb;
        $table = self::table();
        if ($status !== null) {
            return $wpdb->get_results($wpdb->prepare(
                "SELECT * FROM $table WHERE status = %s ORDER BY id DESC LIMIT %d", $status, $limit), ARRAY_A) ?: [];
        }
        return $wpdb->get_results($wpdb->prepare("SELECT * FROM $table ORDER BY id DESC LIMIT %d", $limit), ARRAY_A) ?: [];
    }

    public static function count_failed(): int
    {
        global $wpdb;
        $table = self::table();
        return (int) $wpdb->get_var("SELECT COUNT(*) FROM $table WHERE status = 'FAILED'");
    }

    /** Ids of records due now: queued and due, or claimed by a process whose lease ran out. */
    public static function due_ids(int $limit): array
    {
        global $wpdb;
        $table = self::table();
        $now = self::now();
        return array_map('intval', $wpdb->get_col($wpdb->prepare(
            "SELECT id FROM $table
             WHERE (status = 'QUEUED' AND next_try_at <= %s) OR (status = 'SENDING' AND claimed_until < %s)
             ORDER BY id LIMIT %d", $now, $now, $limit)));
    }

    /** An earlier record of the same post and channel that Herald has not accepted yet (order matters). */
    public static function has_earlier_pending(array $record): bool
    {
        global $wpdb;
        $table = self::table();
        return (bool) $wpdb->get_var($wpdb->prepare(
            "SELECT 1 FROM $table WHERE post_id = %d AND channel_id = %s AND id < %d
             AND status IN ('QUEUED', 'SENDING') LIMIT 1", $record['post_id'], $record['channel_id'], $record['id']));
    }

    /**
     * One UPDATE decides who sends: the process whose UPDATE changed the row owns it until the
     * lease ends. Returns the claim token, or null when another process got there first.
     */
    public static function claim(int $id, int $lease_seconds): ?string
    {
        global $wpdb;
        $table = self::table();
        $token = wp_generate_uuid4();
        $now = self::now();
        $changed = $wpdb->query($wpdb->prepare(
            "UPDATE $table SET status = 'SENDING', claim_token = %s, claimed_until = %s, tries = tries + 1, updated_at = %s
             WHERE id = %d AND ((status = 'QUEUED' AND next_try_at <= %s) OR (status = 'SENDING' AND claimed_until < %s))",
            $token, self::now($lease_seconds), $now, $id, $now, $now));
        return $changed === 1 ? $token : null;
    }

    /** Changes a claimed row; false when the claim was lost (a webhook or another process moved it on). */
    public static function update_claimed(int $id, string $token, array $fields): bool
    {
        global $wpdb;
        $fields['updated_at'] = self::now();
        return (bool) $wpdb->update(self::table(), $fields, ['id' => $id, 'claim_token' => $token, 'status' => 'SENDING']);
    }

    public static function update(int $id, array $fields): bool
    {
        global $wpdb;
        $fields['updated_at'] = self::now();
        return $wpdb->update(self::table(), $fields, ['id' => $id]) !== false;
    }

    /** Fields of a record that Herald's publication view sets. */
    public static function fields_from_view(array $view): array
    {
        $status = is_string($view['status'] ?? null) ? $view['status'] : 'REQUESTED';
        $fields = [
            'status' => $status,
            'herald_status' => $status,
            'claim_token' => null,
            'claimed_until' => null,
            'herald_updated_at' => is_string($view['updatedAt'] ?? null) ? $view['updatedAt'] : null,
            'last_error_code' => null,
            'last_error_detail' => null,
        ];
        $url = $view['providerRef']['url'] ?? ($view['targetRef']['url'] ?? null);
        if (is_string($url) && $url !== '') {
            $fields['post_url'] = esc_url_raw($url);
        }
        if (in_array($status, ['FAILED', 'OUTCOME_UNKNOWN', 'NOT_EXECUTED', 'HELD', 'ABANDONED'], true)
            || !empty($view['needsDecision'])) {
            $attempts = is_array($view['attempts'] ?? null) ? $view['attempts'] : [];
            $last = $attempts ? end($attempts) : [];
            $fields['last_error_code'] = is_string($last['providerCode'] ?? null) ? $last['providerCode'] : strtolower($status);
            $reason = $view['decisionReason'] ?? ($view['heldReason'] ?? ($last['detail'] ?? null));
            $fields['last_error_detail'] = is_string($reason) ? $reason : null;
        }
        return $fields;
    }

    /**
     * Applies a view from a webhook or a poll to every record of that publication, unless the
     * record already holds a newer view (deliveries may arrive out of order).
     */
    public static function apply_view(array $view): int
    {
        global $wpdb;
        $table = self::table();
        if (!is_string($view['publicationId'] ?? null)) {
            return 0;
        }
        $rows = $wpdb->get_results($wpdb->prepare(
            "SELECT id, herald_updated_at FROM $table WHERE publication_id = %s", $view['publicationId']), ARRAY_A) ?: [];
        $changed = 0;
        $fields = self::fields_from_view($view);
        foreach ($rows as $row) {
            if ($row['herald_updated_at'] !== null && $fields['herald_updated_at'] !== null
                && strtotime($row['herald_updated_at']) > strtotime($fields['herald_updated_at'])) {
                continue;
            }
            $changed += self::update((int) $row['id'], $fields) ? 1 : 0;
        }
        return $changed;
    }

    /** Records Herald accepted but that heard nothing final for 10 minutes: each is polled once. */
    public static function stale_ids(int $limit): array
    {
        global $wpdb;
        $table = self::table();
        $final = "'" . implode("','", array_merge(self::FINAL_STATUSES, self::LOCAL_STATUSES)) . "'";
        return array_map('intval', $wpdb->get_col($wpdb->prepare(
            "SELECT id FROM $table WHERE polled = 0 AND status NOT IN ($final) AND updated_at < %s ORDER BY id LIMIT %d",
            self::now(-600), $limit)));
    }

    public static function mark_polled(int $id): bool
    {
        global $wpdb;
        $table = self::table();
        return $wpdb->query($wpdb->prepare("UPDATE $table SET polled = 1 WHERE id = %d AND polled = 0", $id)) === 1;
    }

    public static function drop(): void
    {
        global $wpdb;
        $table = self::table();
        $wpdb->query("DROP TABLE IF EXISTS $table");
    }
}
