package io.herald.query.publication;

import static io.herald.query.publication.PublicationEvents.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.media.MediaId;
import io.herald.contracts.publication.FindPublicationQuery;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationStatus;
import io.herald.contracts.publication.PublicationStep;
import io.herald.contracts.publication.PublicationView;
import io.herald.query.ReadStore;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code throttledUntil} on a real read store, with the connection's budget used up: a publication
 * whose next attempt waits says until when, whether it has not started yet or waits between two
 * steps (a media container made, its post not yet published); one whose attempt is in flight does
 * not, nor one on a connection with room.
 */
class ConnectionThrottlesIT {

    private static final String WS = "throttles";
    private static final MediaId RED = MediaId.of("med_" + "c".repeat(64));

    private final ReadStore store = ReadStore.shared();
    private final PublicationViewRepository repository =
            new PublicationViewRepository(store.jdbc(), store.objectMapper());
    private final PublicationQueryHandler queries = new PublicationQueryHandler(repository,
            new ConnectionThrottles(store.jdbc().getJdbcTemplate()));
    private PublicationEvents events;
    private Instant windowEnds;

    @BeforeEach
    void aUsedUpBudget() {
        store.clear();
        events = new PublicationEvents(new PublicationViewProjection(repository));
        var sql = store.jdbc().getJdbcTemplate();
        sql.update("DELETE FROM connection_budget WHERE workspace_id = ?", WS);
        windowEnds = sql.queryForObject("SELECT date_trunc('milliseconds', now()) + interval '60 seconds'",
                Timestamp.class).toInstant();
        sql.update("""
                INSERT INTO connection_budget (workspace_id, channel_id, window_name, window_start, window_seconds,
                                               capacity, used, source)
                VALUES (?, 'fb-main', 'calls', ?::timestamptz - interval '60 seconds', 60, 2, 2, 'herald')""",
                WS, Timestamp.from(windowEnds));
    }

    @Test
    void aPublicationWaitingBetweenTwoStepsSaysUntilWhenItsBudgetAllowsTheNext() {
        PublicationId id = betweenTwoSteps("between");

        PublicationView view = view(id);
        assertThat(view.status()).isEqualTo(PublicationStatus.ATTEMPTING);
        assertThat(view.throttledUntil()).isEqualTo(windowEnds);
    }

    @Test
    void aPublicationNotStartedSaysUntilWhen() {
        PublicationId id = events.requestedWithSteps(WS, "waiting", List.of(), null, T0);

        assertThat(view(id).status()).isEqualTo(PublicationStatus.REQUESTED);
        assertThat(view(id).throttledUntil()).isEqualTo(windowEnds);
    }

    @Test
    void aPublicationWithAnAttemptInFlightIsNotThrottled() {
        PublicationId id = betweenTwoSteps("calling");
        events.attempted(id, WS, 2, PublicationStep.CREATE_POST, null, T0.plusSeconds(3));

        assertThat(view(id).status()).isEqualTo(PublicationStatus.ATTEMPTING);
        assertThat(view(id).throttledUntil()).isNull();
    }

    @Test
    void aPublicationOnAConnectionWithRoomIsNotThrottled() {
        store.jdbc().getJdbcTemplate().update("UPDATE connection_budget SET used = 1 WHERE workspace_id = ?", WS);
        PublicationId id = betweenTwoSteps("room");

        assertThat(view(id).throttledUntil()).isNull();
    }

    /** Its image uploaded (a container made), its post the next step, not started. */
    private PublicationId betweenTwoSteps(String entry) {
        PublicationId id = events.requestedWithSteps(WS, entry, List.of(RED), null, T0);
        events.attempted(id, WS, 1, PublicationStep.UPLOAD_MEDIA, RED, T0.plusSeconds(1));
        events.succeeded(id, WS, 1, new ProviderRef("container-of-" + entry, null), T0.plusSeconds(2));
        events.nextStepDue(id, WS, 2, PublicationStep.CREATE_POST, T0.plusSeconds(2));
        return id;
    }

    private PublicationView view(PublicationId id) {
        return queries.handle(new FindPublicationQuery(WorkspaceId.of(WS), id)).orElseThrow();
    }
}
