package io.herald.command.publishing;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.publication.AttemptTrigger;
import java.time.Duration;
import java.time.Instant;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The {@code publication_timer} table: a publication's next due work, at most one row each. Rows
 * are written inside the caller's transaction (the one appending the event that makes the work due
 * or moot); relative due times are computed by the database clock, so the nodes' clocks don't matter.
 */
@Component
public class PublicationTimers {

    /** How long a claimed row stays out of the sweep: if its node dies, the row fires again after this. */
    static final Duration CLAIM_LEASE = Duration.ofSeconds(30);

    public enum Kind { ATTEMPT_EXPIRY, ATTEMPT_DUE, READ_BACK_DUE, VERIFY_DUE }

    /** A row the sweep claimed; {@code dueAt} is its claimed value, so later writes can be told apart. */
    public record Timer(PublicationId publicationId, Kind kind, int attemptNo, AttemptTrigger trigger, int readNo,
                        Timestamp dueAt) {
    }

    private static final String UPSERT = """
            INSERT INTO publication_timer (publication_id, kind, attempt_no, trigger, read_no, due_at)
            VALUES (?, ?, ?, ?, ?, %s)
            ON CONFLICT (publication_id) DO UPDATE SET kind = excluded.kind, attempt_no = excluded.attempt_no,
                trigger = excluded.trigger, read_no = excluded.read_no, due_at = excluded.due_at, fires = 0""";

    /** {@link #UPSERT} for many rows at once, a relative ({@code in_ms}) or an absolute ({@code at}) due time each. */
    private static final String UPSERT_ALL = """
            INSERT INTO publication_timer (publication_id, kind, attempt_no, trigger, read_no, due_at)
            SELECT id, kind, attempt_no, trigger, read_no, coalesce(at, now() + in_ms * interval '1 millisecond')
              FROM unnest(?::varchar[], ?::varchar[], ?::int4[], ?::varchar[], ?::int4[], ?::int8[], ?::timestamptz[])
                   AS w(id, kind, attempt_no, trigger, read_no, in_ms, at)
            ON CONFLICT (publication_id) DO UPDATE SET kind = excluded.kind, attempt_no = excluded.attempt_no,
                trigger = excluded.trigger, read_no = excluded.read_no, due_at = excluded.due_at, fires = 0""";

    /** Claimed this often without being written since, a row counts as stuck (listed for operators). */
    public static final int STUCK_AFTER_FIRES = 3;

    private final JdbcTemplate jdbc;

    public PublicationTimers(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Due {@code in} from now, by the database clock. */
    public void setIn(PublicationId id, Kind kind, int attemptNo, AttemptTrigger trigger, int readNo, Duration in) {
        jdbc.update(UPSERT.formatted("now() + ? * interval '1 millisecond'"), id.value(), kind.name(), attemptNo,
                trigger == null ? null : trigger.name(), readNo, Math.max(0, in.toMillis()));
    }

    /** Due at a time a person chose (a publication's {@code scheduledAt}). */
    public void setAt(PublicationId id, Kind kind, int attemptNo, AttemptTrigger trigger, Instant at) {
        jdbc.update(UPSERT.formatted("?"), id.value(), kind.name(), attemptNo, trigger == null ? null : trigger.name(),
                0, Timestamp.from(at));
    }

    /**
     * An operator's read-back, due now: an open schedule keeps its place, otherwise the read is a
     * single one ({@code oneShotReadNo} lies past the schedule).
     */
    public void readBackNow(PublicationId id, int attemptNo, int oneShotReadNo) {
        jdbc.update("""
                INSERT INTO publication_timer (publication_id, kind, attempt_no, read_no, due_at)
                VALUES (?, 'READ_BACK_DUE', ?, ?, now())
                ON CONFLICT (publication_id) DO UPDATE SET due_at = now(), fires = 0
                 WHERE publication_timer.kind = 'READ_BACK_DUE'""", id.value(), attemptNo, oneShotReadNo);
    }

    /** A row claimed {@link #STUCK_AFTER_FIRES} times without effect: its command fails every time. */
    public record StuckTimer(String publicationId, String kind, int attemptNo, int fires, Instant dueAt) {
    }

    public List<StuckTimer> stuck(int limit) {
        return jdbc.query("""
                SELECT publication_id, kind, attempt_no, fires, due_at FROM publication_timer
                 WHERE fires >= ? ORDER BY due_at LIMIT ?""",
                (rs, n) -> new StuckTimer(rs.getString(1), rs.getString(2), rs.getInt(3), rs.getInt(4),
                        rs.getTimestamp(5).toInstant()), STUCK_AFTER_FIRES, limit);
    }

    /** Many rows in at most two statements: the due times, and the rows that go ({@link TimerBatch}). */
    void writeAll(Map<PublicationId, TimerBatch.Write> writes) {
        List<String> cleared = new ArrayList<>();
        List<Object[]> set = new ArrayList<>();
        writes.forEach((id, write) -> {
            if (write.clears()) {
                cleared.add(id.value());
            } else {
                set.add(new Object[] {id.value(), write.kind().name(), write.attemptNo(),
                        write.trigger() == null ? null : write.trigger().name(), write.readNo(),
                        write.in() == null ? null : Math.max(0, write.in().toMillis()),
                        write.at() == null ? null : Timestamp.from(write.at())});
            }
        });
        if (!cleared.isEmpty()) {
            jdbc.update(connection -> {
                var statement = connection.prepareStatement(
                        "DELETE FROM publication_timer WHERE publication_id = ANY (?)");
                statement.setArray(1, connection.createArrayOf("varchar", cleared.toArray()));
                return statement;
            });
        }
        if (!set.isEmpty()) {
            String[] types = {"varchar", "varchar", "int4", "varchar", "int4", "int8", "timestamptz"};
            jdbc.update(connection -> {
                var statement = connection.prepareStatement(UPSERT_ALL);
                for (int column = 0; column < types.length; column++) {
                    Object[] values = new Object[set.size()];
                    for (int row = 0; row < set.size(); row++) {
                        values[row] = set.get(row)[column];
                    }
                    statement.setArray(column + 1, connection.createArrayOf(types[column], values));
                }
                return statement;
            });
        }
    }

    public void clear(PublicationId id) {
        jdbc.update("DELETE FROM publication_timer WHERE publication_id = ?", id.value());
    }

    /** Deletes the publication's verification row, if it still has one: its reads can settle nothing. */
    public void clearVerification(PublicationId id) {
        jdbc.update("DELETE FROM publication_timer WHERE publication_id = ? AND kind = 'VERIFY_DUE'", id.value());
    }

    /** Deletes a claimed row that turned out moot, unless it was written again since the claim. */
    public void clearClaimed(Timer timer) {
        jdbc.update("DELETE FROM publication_timer WHERE publication_id = ? AND due_at = ?",
                timer.publicationId().value(), timer.dueAt());
    }

    /** Moves a claimed row on (the next read-back, a start that must wait), unless written again since. */
    public void rescheduleClaimed(Timer timer, int readNo, Duration in) {
        jdbc.update("""
                UPDATE publication_timer SET read_no = ?, due_at = now() + ? * interval '1 millisecond', fires = 0
                 WHERE publication_id = ? AND due_at = ?""",
                readNo, Math.max(0, in.toMillis()), timer.publicationId().value(), timer.dueAt());
    }

    /**
     * Turns a claimed row into a read-back of attempt {@code attemptNo} due now (its first read),
     * unless written again since; a read-back that settles nothing is found moot when it fires.
     */
    public void rescheduleClaimedAsReadBack(Timer timer, int attemptNo) {
        jdbc.update("""
                UPDATE publication_timer SET kind = 'READ_BACK_DUE', attempt_no = ?, trigger = NULL, read_no = 1,
                       due_at = now(), fires = 0
                 WHERE publication_id = ? AND due_at = ?""",
                attemptNo, timer.publicationId().value(), timer.dueAt());
    }

    /**
     * Takes up to {@code limit} due rows for this node: each is pushed {@link #CLAIM_LEASE} into the
     * future in one short statement of its own, so no row lock is held while the commands run; rows
     * another node is claiming at the same moment are skipped.
     */
    public List<Timer> claimDue(int limit) {
        return jdbc.query("""
                UPDATE publication_timer t SET due_at = now() + ? * interval '1 millisecond', fires = t.fires + 1
                  FROM (SELECT publication_id FROM publication_timer WHERE due_at <= now()
                         ORDER BY due_at LIMIT ? FOR UPDATE SKIP LOCKED) due
                 WHERE t.publication_id = due.publication_id
                RETURNING t.publication_id, t.kind, t.attempt_no, t.trigger, t.read_no, t.due_at""",
                (rs, n) -> new Timer(new PublicationId(rs.getString(1)), Kind.valueOf(rs.getString(2)), rs.getInt(3),
                        rs.getString(4) == null ? null : AttemptTrigger.valueOf(rs.getString(4)), rs.getInt(5),
                        rs.getTimestamp(6)),
                CLAIM_LEASE.toMillis(), limit);
    }
}
