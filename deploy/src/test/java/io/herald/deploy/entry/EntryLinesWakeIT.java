package io.herald.deploy.entry;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.command.entry.EntryLines;
import io.herald.command.publishing.PublicationTimers;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationSucceededEvent;
import io.herald.deploy.HeraldIntegrationTest;
import java.lang.reflect.Method;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.util.AopTestUtils;

/**
 * The wake-up of the next operation in an entry's line, on the real tables: written with the
 * settling event, never swallowed by a sweep that is firing the waiting operation at that moment,
 * and never moving a row that waits for its own time.
 */
class EntryLinesWakeIT extends HeraldIntegrationTest {

    @Autowired
    EntryLines lines;
    @Autowired
    PublicationTimers timers;

    private String entry;

    private PublicationId op(long seq, String action, String state) {
        PublicationId id = new PublicationId("pub_wake_" + entry + "_" + seq);
        jdbc.update("INSERT INTO entry_operation (publication_id, workspace_id, calendar_entry_id, channel_id, seq,"
                + " action, content_version, state) VALUES (?, 'wake', ?, 'fb', ?, ?, ?, ?)", id.value(), entry, seq,
                action, seq, state);
        return id;
    }

    /** As the subscribing processor delivers it (its handlers are package-private, as Axon allows). */
    private void succeeded(PublicationId id) throws Exception {
        Method on = EntryLines.class.getDeclaredMethod("on", PublicationSucceededEvent.class);
        on.setAccessible(true);
        on.invoke(AopTestUtils.getTargetObject(lines), new PublicationSucceededEvent(id, new WorkspaceId("wake"), 1,
                new ProviderRef("1_2", null), null, Instant.now()));
    }

    private Map<String, Object> row(PublicationId id) {
        return jdbc.queryForMap("SELECT kind, due_at <= now() AS due, fires, due_at FROM publication_timer"
                + " WHERE publication_id = ?", id.value());
    }

    @Test
    void aSettledPublishWakesTheUpdateThatWaitsForIt() throws Exception {
        entry = "e" + System.nanoTime();
        PublicationId publish = op(1, "publish", "OPEN");
        PublicationId update = op(2, "update", "OPEN");
        PublicationId later = op(3, "update", "OPEN");

        succeeded(publish);

        assertThat(row(update)).containsEntry("kind", "ATTEMPT_DUE").containsEntry("due", true);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM publication_timer WHERE publication_id = ?",
                Long.class, later.value())).as("the one after waits for the update, not the publish").isZero();
        assertThat(jdbc.queryForObject("SELECT state || ' ' || ref_id FROM entry_operation WHERE publication_id = ?",
                String.class, publish.value())).isEqualTo("DONE 1_2");
    }

    @Test
    void aWakeUpIsNotSwallowedByTheSweepFiringTheWaitingUpdateAtThatMoment() throws Exception {
        entry = "e" + System.nanoTime();
        PublicationId publish = op(1, "publish", "OPEN");
        PublicationId update = op(2, "update", "OPEN");
        // the sweep has claimed the update's row (its start found the publish still open)
        jdbc.update("INSERT INTO publication_timer (publication_id, kind, attempt_no, trigger, read_no, due_at, fires)"
                + " VALUES (?, 'ATTEMPT_DUE', 1, 'INITIAL', 0, now() + interval '30 seconds', 1)", update.value());
        Timestamp claimedDueAt = (Timestamp) row(update).get("due_at");

        succeeded(publish);
        timers.clearClaimed(new PublicationTimers.Timer(update, PublicationTimers.Kind.ATTEMPT_DUE, 1, null, 0,
                claimedDueAt));

        assertThat(row(update)).containsEntry("due", true).containsEntry("fires", 0);
    }

    @Test
    void anUpdateScheduledForLaterKeepsItsTime() throws Exception {
        entry = "e" + System.nanoTime();
        PublicationId publish = op(1, "publish", "OPEN");
        PublicationId update = op(2, "update", "OPEN");
        jdbc.update("INSERT INTO publication_timer (publication_id, kind, attempt_no, trigger, read_no, due_at)"
                + " VALUES (?, 'ATTEMPT_DUE', 1, 'INITIAL', 0, now() + interval '1 hour')", update.value());

        succeeded(publish);

        assertThat(row(update)).containsEntry("due", false);
    }
}
