package io.herald.deploy.publishing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.herald.command.publishing.GroupCommit;
import io.herald.command.publishing.PublicationTimers.Kind;
import io.herald.command.publishing.TimerBatch;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.deploy.HeraldIntegrationTest;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The timer rows a batch of events changes are written together at the batch's end: the last write
 * of the batch is each row's state, and the rows commit or roll back with the batch.
 */
class TimerBatchIT extends HeraldIntegrationTest {

    @Autowired
    TimerBatch timers;

    @Autowired
    GroupCommit groupCommit;

    @Test
    void eachRowEndsAsTheBatchLastWroteIt() {
        String prefix = "pub_timer_batch_" + System.nanoTime() + "_";
        PublicationId expiring = new PublicationId(prefix + "expiring");
        PublicationId scheduled = new PublicationId(prefix + "scheduled");
        PublicationId settled = new PublicationId(prefix + "settled");
        PublicationId setThenCleared = new PublicationId(prefix + "set-then-cleared");
        PublicationId clearedThenSet = new PublicationId(prefix + "cleared-then-set");
        Instant tomorrow = Instant.now().plus(Duration.ofDays(1)).truncatedTo(ChronoUnit.SECONDS);
        groupCommit.run(() -> timers.setIn(settled, Kind.ATTEMPT_EXPIRY, 1, null, 0, Duration.ofMinutes(5)));
        assertThat(rows(prefix)).containsOnlyKeys(settled.value());

        groupCommit.run(() -> {
            timers.setIn(expiring, Kind.ATTEMPT_EXPIRY, 2, null, 0, Duration.ofMinutes(2));
            timers.setAt(scheduled, Kind.ATTEMPT_DUE, 1, AttemptTrigger.INITIAL, tomorrow);
            timers.clear(settled);
            timers.setIn(setThenCleared, Kind.READ_BACK_DUE, 1, null, 1, Duration.ZERO);
            timers.clear(setThenCleared);
            timers.clear(clearedThenSet);
            timers.setIn(clearedThenSet, Kind.ATTEMPT_DUE, 3, AttemptTrigger.RETRY, 0, Duration.ofSeconds(30));
            assertThat(rows(prefix)).as("nothing is written before the batch commits").containsOnlyKeys(settled.value());
        });

        Map<String, Map<String, Object>> rows = rows(prefix);
        assertThat(rows).containsOnlyKeys(expiring.value(), scheduled.value(), clearedThenSet.value());
        assertThat(rows.get(expiring.value())).containsEntry("kind", "ATTEMPT_EXPIRY").containsEntry("attempt_no", 2);
        assertThat((Double) rows.get(expiring.value()).get("due_in")).isBetween(60.0, 120.0);
        assertThat(rows.get(scheduled.value())).containsEntry("kind", "ATTEMPT_DUE").containsEntry("trigger", "INITIAL");
        assertThat((Double) rows.get(scheduled.value()).get("due_in")).isBetween(86_000.0, 86_400.0);
        assertThat(rows.get(clearedThenSet.value())).containsEntry("kind", "ATTEMPT_DUE")
                .containsEntry("attempt_no", 3).containsEntry("trigger", "RETRY").containsEntry("read_no", 0);
    }

    @Test
    void aBatchThatRollsBackWritesNoRow() {
        String prefix = "pub_timer_rollback_" + System.nanoTime() + "_";
        assertThatThrownBy(() -> groupCommit.run(() -> {
            timers.setIn(new PublicationId(prefix + "a"), Kind.ATTEMPT_EXPIRY, 1, null, 0, Duration.ofMinutes(1));
            throw new IllegalStateException("the batch fails");
        })).hasMessage("the batch fails");
        assertThat(rows(prefix)).isEmpty();
    }

    private Map<String, Map<String, Object>> rows(String prefix) {
        List<Map<String, Object>> found = jdbc.queryForList("""
                SELECT publication_id, kind, attempt_no, trigger, read_no,
                       extract(epoch FROM due_at - now())::float8 AS due_in
                  FROM publication_timer WHERE publication_id LIKE ?""", prefix + "%");
        return found.stream().collect(java.util.stream.Collectors.toMap(
                row -> (String) row.get("publication_id"), row -> row));
    }
}
