package io.herald.deploy.entry;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.command.entry.EntryLines;
import io.herald.command.publication.EntryOrder;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.PublicationRequestedEvent;
import io.herald.contracts.publication.PublicationSucceededEvent;
import io.herald.deploy.HeraldIntegrationTest;
import java.lang.reflect.Method;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.messaging.unitofwork.DefaultUnitOfWork;
import org.axonframework.messaging.unitofwork.UnitOfWork;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.util.AopTestUtils;

/**
 * A batch's new operations, and its operations done, are written to the entries' lines together,
 * on the real tables: each line numbers new ones in the order of their events, after what it
 * already holds; a read in the middle of the batch sees the ones before it; and operations settled
 * together wake each line's next update as settling them one by one would.
 */
class EntryLinesBatchIT extends HeraldIntegrationTest {

    private static final WorkspaceId WS = new WorkspaceId("lines");
    private static final ChannelId CHANNEL = new ChannelId("fb");
    private static final Content CONTENT = new Content(null, "Hello from Herald", null);

    @Autowired
    EntryLines lines;
    @Autowired
    TransactionManager transactions;

    private final String run = "b" + System.nanoTime();

    private PublicationRequestedEvent requested(String entry, long version, PublicationAction action) {
        PublicationId id = new PublicationId("pub_batch_" + run + "_" + entry + "_" + version);
        return new PublicationRequestedEvent(id, WS, run + entry, version, CHANNEL, ChannelType.of("facebook"),
                action, CONTENT, CONTENT.hash(), null, Instant.now(), "calendar");
    }

    private PublicationSucceededEvent succeeded(PublicationRequestedEvent requested) {
        return new PublicationSucceededEvent(requested.publicationId(), WS, 1,
                new ProviderRef("post_" + requested.publicationId().value(), null), null, Instant.now());
    }

    /** As the subscribing processor delivers it (its handlers are package-private, as Axon allows). */
    private void deliver(Object event) {
        try {
            Method on = EntryLines.class.getDeclaredMethod("on", event.getClass());
            on.setAccessible(true);
            on.invoke(AopTestUtils.getTargetObject(lines), event);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private void inOneTransaction(Runnable work) {
        UnitOfWork<?> unitOfWork = DefaultUnitOfWork.startAndGet(null);
        unitOfWork.attachTransaction(transactions);
        try {
            work.run();
        } catch (RuntimeException e) {
            unitOfWork.rollback(e);
            throw e;
        }
        unitOfWork.commit();
    }

    private Map<String, Long> seqs(String entry) {
        Map<String, Long> seqs = new java.util.LinkedHashMap<>();
        jdbc.query("SELECT publication_id, seq FROM entry_operation WHERE workspace_id = ? AND calendar_entry_id = ?"
                + " ORDER BY seq", rs -> {
                    seqs.put(rs.getString(1), rs.getLong(2));
                }, WS.value(), run + entry);
        return seqs;
    }

    private long nextSeq(String entry) {
        return jdbc.queryForObject("SELECT next_seq FROM entry_line WHERE workspace_id = ? AND calendar_entry_id = ?",
                Long.class, WS.value(), run + entry);
    }

    @Test
    void aBatchNumbersEachLinesOperationsInEventOrderAfterWhatTheLineHolds() {
        PublicationRequestedEvent published = requested("a", 1, PublicationAction.PUBLISH);
        deliver(published);
        assertThat(seqs("a")).as("outside a unit of work the row is written at once").hasSize(1);

        List<PublicationRequestedEvent> batch = new ArrayList<>(List.of(
                requested("a", 3, PublicationAction.UPDATE), requested("b", 1, PublicationAction.PUBLISH),
                requested("a", 2, PublicationAction.UPDATE), requested("c", 1, PublicationAction.DRAFT),
                requested("b", 2, PublicationAction.UPDATE), requested("a", 4, PublicationAction.DELETE)));
        inOneTransaction(() -> batch.forEach(this::deliver));

        assertThat(seqs("a").keySet()).containsExactly(published.publicationId().value(),
                batch.get(0).publicationId().value(), batch.get(2).publicationId().value(),
                batch.get(5).publicationId().value());
        assertThat(seqs("a").values()).containsExactly(1L, 2L, 3L, 4L);
        assertThat(seqs("b").keySet()).containsExactly(batch.get(1).publicationId().value(),
                batch.get(4).publicationId().value());
        assertThat(seqs("b").values()).containsExactly(1L, 2L);
        assertThat(seqs("c").values()).containsExactly(1L);
        assertThat(List.of(nextSeq("a"), nextSeq("b"), nextSeq("c"))).containsExactly(4L, 2L, 1L);
    }

    @Test
    void aReadInTheMiddleOfABatchSeesTheOperationsBeforeIt() {
        PublicationRequestedEvent publish = requested("d", 1, PublicationAction.PUBLISH);
        PublicationRequestedEvent update = requested("d", 2, PublicationAction.UPDATE);
        PublicationRequestedEvent later = requested("d", 3, PublicationAction.UPDATE);
        List<EntryOrder.Turn> turns = new ArrayList<>();
        List<Boolean> inLine = new ArrayList<>();
        inOneTransaction(() -> {
            deliver(publish);
            deliver(update);
            turns.add(lines.turnOf(update.publicationId()));
            inLine.add(lines.isInLine(later.publicationId()));
            deliver(later);
        });

        assertThat(turns).as("the update waits for the publish it follows")
                .containsExactly(new EntryOrder.Wait(publish.publicationId()));
        assertThat(inLine).containsExactly(false);
        assertThat(seqs("d").values()).containsExactly(1L, 2L, 3L);
        assertThat(nextSeq("d")).isEqualTo(3L);
    }

    @Test
    void aRequestDeliveredAgainKeepsItsPlace() {
        PublicationRequestedEvent publish = requested("e", 1, PublicationAction.PUBLISH);
        PublicationRequestedEvent update = requested("e", 2, PublicationAction.UPDATE);
        inOneTransaction(() -> {
            deliver(publish);
            deliver(update);
            deliver(publish);
        });

        assertThat(seqs("e").keySet()).containsExactly(publish.publicationId().value(),
                update.publicationId().value());
        assertThat(seqs("e").values()).containsExactly(1L, 2L);
    }

    @Test
    void aBatchThatRollsBackLeavesNoRows() {
        PublicationRequestedEvent publish = requested("f", 1, PublicationAction.PUBLISH);
        try {
            inOneTransaction(() -> {
                deliver(publish);
                lines.isInLine(publish.publicationId());
                throw new IllegalStateException("the batch fails");
            });
        } catch (IllegalStateException expected) {
            // the events' transaction rolled back
        }

        assertThat(seqs("f")).isEmpty();
        assertThat(jdbc.queryForList("SELECT next_seq FROM entry_line WHERE workspace_id = ? AND calendar_entry_id = ?",
                Long.class, WS.value(), run + "f")).isEmpty();
    }

    private boolean woken(PublicationRequestedEvent requested) {
        return Boolean.TRUE.equals(jdbc.queryForObject("SELECT EXISTS (SELECT 1 FROM publication_timer"
                + " WHERE publication_id = ? AND kind = 'ATTEMPT_DUE' AND due_at <= now())", Boolean.class,
                requested.publicationId().value()));
    }

    private String state(PublicationRequestedEvent requested) {
        return jdbc.queryForObject("SELECT state || ' ' || coalesce(ref_id, '-') FROM entry_operation"
                + " WHERE publication_id = ?", String.class, requested.publicationId().value());
    }

    @Test
    void operationsSettledTogetherWakeEachLinesNextUpdateOnce() {
        PublicationRequestedEvent publishG = requested("g", 1, PublicationAction.PUBLISH);
        PublicationRequestedEvent firstG = requested("g", 2, PublicationAction.UPDATE);
        PublicationRequestedEvent secondG = requested("g", 3, PublicationAction.UPDATE);
        PublicationRequestedEvent publishH = requested("h", 1, PublicationAction.PUBLISH);
        PublicationRequestedEvent deleteH = requested("h", 2, PublicationAction.DELETE);
        inOneTransaction(() -> List.of(publishG, firstG, secondG, publishH, deleteH).forEach(this::deliver));

        inOneTransaction(() -> List.of(succeeded(publishG), succeeded(firstG), succeeded(publishH))
                .forEach(this::deliver));

        assertThat(state(publishG)).isEqualTo("DONE post_" + publishG.publicationId().value());
        assertThat(state(firstG)).as("an update keeps its target: no created post").isEqualTo("DONE -");
        assertThat(woken(secondG)).as("the update after both settled ones").isTrue();
        assertThat(woken(firstG)).as("settled in the same batch: nothing to wake").isFalse();
        assertThat(woken(deleteH)).as("the other line's next").isTrue();
    }

    @Test
    void anOperationJoiningBeforeASettlingInTheBatchIsWokenByIt() {
        PublicationRequestedEvent publish = requested("k", 1, PublicationAction.PUBLISH);
        PublicationRequestedEvent update = requested("k", 2, PublicationAction.UPDATE);
        deliver(publish);

        inOneTransaction(() -> {
            deliver(update);
            deliver(succeeded(publish));
        });

        assertThat(state(publish)).isEqualTo("DONE post_" + publish.publicationId().value());
        assertThat(woken(update)).isTrue();
    }
}
