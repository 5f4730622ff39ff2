package io.herald.deploy.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.PublicationAbandonedEvent;
import io.herald.deploy.HeraldIntegrationTest;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.axonframework.common.caching.Cache;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * This node keeps the publications it used last in memory. Another node sharing the database may
 * write to one of them meanwhile; this node must then decide on what the store holds, not on what
 * it remembers.
 */
class AggregateCacheIT extends HeraldIntegrationTest {

    /** A day ahead, so the dispatcher leaves the publication alone. */
    private static final String TOMORROW = Instant.now().plus(Duration.ofDays(1)).truncatedTo(ChronoUnit.SECONDS)
            .toString();

    @Autowired
    EventStore eventStore;

    @Autowired
    PlatformTransactionManager transactions;

    @Autowired
    @Qualifier("publicationCache")
    Cache publications;

    @Test
    void aPublicationChangedByAnotherNodeIsDecidedOnItsStoredState() {
        String ws = newWorkspace("cache");
        facebookChannel(ws, "fb-main", "EAAB-token-cache");
        Response created = send("POST", "/api/v1/workspaces/" + ws + "/publications", """
                {"calendarEntryId":"entry-1","contentVersion":1,"channelId":"fb-main","action":"publish",
                 "content":{"body":"Hello"},"scheduledAt":"%s"}""".formatted(TOMORROW));
        assertThat(created.status()).isEqualTo(202);
        String id = created.json().get("publicationId").asText();
        assertThat(publications.containsKey(id)).as("the new publication is held in memory").isTrue();

        // another node, sharing the event store, records that an operator abandoned it
        new TransactionTemplate(transactions).executeWithoutResult(tx -> eventStore.publish(
                new GenericDomainEventMessage<>("Publication", id, 1, new PublicationAbandonedEvent(
                        new PublicationId(id), new WorkspaceId(ws), "operator@k_other", "checked by hand",
                        Instant.now()))));

        // remembered, it would still be REQUESTED and accept the run; the store says it was abandoned
        Response run = send("POST", "/api/v1/workspaces/" + ws + "/publications/" + id + "/execute", null, null);
        assertThat(run.status()).isEqualTo(409);
        assertThat(run.json().get("code").asText()).isEqualTo("publication_not_executable");
        assertThat(run.json().get("detail").asText()).contains("abandoned");
        assertThat(jdbc.queryForObject("SELECT count(*) FROM domain_event_entry WHERE aggregate_identifier = ?",
                Integer.class, id)).isEqualTo(2);
    }
}
