package io.herald.query.webhook;

import static io.herald.query.publication.PublicationEvents.T0;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.webhook.WebhookCreatedEvent;
import io.herald.contracts.webhook.WebhookDeletedEvent;
import io.herald.contracts.webhook.WebhookSubscriptionId;
import io.herald.query.ReadStore;
import io.herald.query.publication.PublicationEvents;
import io.herald.query.publication.PublicationViewProjection;
import io.herald.query.publication.PublicationViewRepository;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The outbox written with the publication view, on a real PostgreSQL, fed events as the processor would. */
class WebhookDeliveryWriterIT {

    private static final AtomicInteger WORKSPACES = new AtomicInteger();

    private final ReadStore store = ReadStore.shared();
    private final WebhookOutbox outbox = new WebhookOutbox(store.jdbc().getJdbcTemplate());
    private final WebhookSubscriptionProjection subscriptions = new WebhookSubscriptionProjection(outbox);
    private final PublicationViewProjection projection = new PublicationViewProjection(
            new PublicationViewRepository(store.jdbc(), store.objectMapper()),
            List.of(new WebhookDeliveryWriter(outbox, store.objectMapper())));
    private PublicationEvents events;
    private String ws;

    @BeforeEach
    void freshWorkspace() {
        events = new PublicationEvents(projection);
        ws = "hooks-" + WORKSPACES.incrementAndGet() + "-" + System.nanoTime() % 100_000;
    }

    @Test
    void eachStatusChangeIsOneRowPerMatchingSubscriptionWithTheViewAsOfThatEvent() throws Exception {
        subscribe("all", "*");
        subscribe("successes", "publication.succeeded");
        subscribe("decisions", "publication.needs_decision", "publication.abandoned");
        subscribe("deleted", "*");
        subscriptions.on(new WebhookDeletedEvent(WebhookSubscriptionId.of(WorkspaceId.of(ws), "deleted"),
                WorkspaceId.of(ws), "deleted", "ada", T0));

        PublicationId failing = events.requested(ws, "entry-1", "fb-main", T0);
        events.attempted(failing, ws, 1, AttemptTrigger.INITIAL, T0.plusSeconds(1));
        events.failed(failing, ws, 1, FailureKind.REJECTED, "190", "bad token", null, T0.plusSeconds(2));
        events.abandoned(failing, ws, T0.plusSeconds(3));
        PublicationId succeeding = events.requested(ws, "entry-2", "fb-main", T0);
        events.attempted(succeeding, ws, 1, AttemptTrigger.INITIAL, T0.plusSeconds(1));
        events.succeeded(succeeding, ws, 1, new ProviderRef("1_2", "https://facebook.com/1_2"), T0.plusSeconds(2));

        List<Map<String, Object>> rows = rows();
        assertThat(rows).extracting(r -> r.get("webhook_id") + " " + r.get("event_type")).containsExactly(
                "all publication.failed", "all publication.needs_decision", "decisions publication.needs_decision",
                "all publication.abandoned", "decisions publication.abandoned",
                "all publication.succeeded", "successes publication.succeeded");
        assertThat(rows).allSatisfy(r -> {
            assertThat(r.get("status")).isEqualTo("PENDING");
            assertThat((String) r.get("delivery_id")).matches("msg_[0-9a-f]{32}");
        });
        assertThat(rows).extracting(r -> r.get("delivery_id")).doesNotHaveDuplicates();

        JsonNode failed = store.objectMapper().readTree((String) rows.get(0).get("body"));
        assertThat(failed.get("type").asText()).isEqualTo("publication.failed");
        assertThat(failed.get("timestamp").asText()).isEqualTo(T0.plusSeconds(2).toString());
        assertThat(failed.at("/data/publicationId").asText()).isEqualTo(failing.value());
        assertThat(failed.at("/data/status").asText()).as("the view as of the failure").isEqualTo("FAILED");
        assertThat(failed.at("/data/needsDecision").asBoolean()).isTrue();
        JsonNode abandoned = store.objectMapper().readTree((String) rows.get(3).get("body"));
        assertThat(abandoned.at("/data/status").asText()).isEqualTo("ABANDONED");
        assertThat(rows.get(0).get("event_sequence")).isEqualTo(2L);
        assertThat(rows.get(3).get("event_sequence")).isEqualTo(3L);
    }

    @Test
    void eventsDeliveredAgainAddNothingAndDisabledSubscriptionsGetNothing() {
        subscribe("all", "*");
        subscriptions.on(new WebhookCreatedEvent(WebhookSubscriptionId.of(WorkspaceId.of(ws), "off"),
                WorkspaceId.of(ws), "off", "https://calendar.example/off", List.of("*"), false, 1, "ada", T0));
        PublicationId id = events.requested(ws, "entry-3", "fb-main", T0);
        events.attempted(id, ws, 1, AttemptTrigger.INITIAL, T0.plusSeconds(1));
        events.outcomeUnknown(id, ws, 1, T0.plus(Duration.ofSeconds(30)));
        List<Map<String, Object>> once = rows();

        events.redeliver(events.delivered());

        assertThat(once).extracting(r -> r.get("webhook_id") + " " + r.get("event_type"))
                .containsExactly("all publication.outcome_unknown");
        assertThat(rows()).isEqualTo(once);
    }

    @Test
    void anUnknownCreateSentAgainWithItsKeyIsReportedUnknownButNeverAsNeedingADecision() {
        subscribe("all", "*");
        PublicationId id = events.requested(ws, "entry-4", "masto", T0);
        events.attempted(id, ws, 1, AttemptTrigger.INITIAL, T0.plusSeconds(1));
        events.outcomeUnknown(id, ws, 1, T0.plusSeconds(31));
        events.resendDue(id, ws, 1, T0.plusSeconds(31));
        events.attempted(id, ws, 2, AttemptTrigger.RESEND_SAME_KEY, T0.plusSeconds(32));
        events.succeeded(id, ws, 2, new ProviderRef("1_2", "https://masto.example/@a/1_2"), T0.plusSeconds(33));

        assertThat(rows()).extracting(r -> r.get("webhook_id") + " " + r.get("event_type"))
                .containsExactly("all publication.outcome_unknown", "all publication.succeeded");
    }

    private void subscribe(String webhookId, String... types) {
        subscriptions.on(new WebhookCreatedEvent(WebhookSubscriptionId.of(WorkspaceId.of(ws), webhookId),
                WorkspaceId.of(ws), webhookId, "https://calendar.example/" + webhookId, List.of(types), true, 1,
                "ada", T0));
    }

    private List<Map<String, Object>> rows() {
        return store.jdbc().getJdbcTemplate().queryForList(
                "SELECT * FROM webhook_delivery WHERE workspace_id = ? ORDER BY position", ws);
    }
}
