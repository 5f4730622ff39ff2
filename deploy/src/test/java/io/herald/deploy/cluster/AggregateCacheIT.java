package io.herald.deploy.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.command.publishing.AttemptStarter;
import io.herald.command.publishing.GroupCommit;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.PublicationAbandonedEvent;
import io.herald.deploy.HeraldIntegrationTest;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
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

    @Autowired
    GroupCommit groupCommit;

    @Autowired
    AttemptStarter starts;

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

    /** A batch asks the store for all its publications' versions at once; each is still decided on what is stored. */
    @Test
    void aBatchDecidesEachPublicationOnItsStoredState() {
        String ws = newWorkspace("cache-batch");
        facebookChannel(ws, "fb-main", "EAAB-token-cache-batch");
        String untouched = scheduledPublication(ws, "entry-a");
        String abandoned = scheduledPublication(ws, "entry-b");
        assertThat(publications.containsKey(untouched) && publications.containsKey(abandoned))
                .as("both publications are held in memory").isTrue();

        abandonElsewhere(ws, abandoned);

        // every decision taken, in order: a batch that decided on remembered state would have failed on the
        // store's key at commit and been sent again item by item, deciding each publication twice
        List<String> decided = new CopyOnWriteArrayList<>();
        List<String> failed = groupCommit.inOneTransaction(List.of(untouched, abandoned), id -> id,
                id -> decided.add(id + " " + starts.start(new PublicationId(id), 1, AttemptTrigger.EXECUTE_REQUESTED,
                        false).verdict()));

        assertThat(failed).isEmpty();
        assertThat(decided).containsExactly(untouched + " START", abandoned + " REFUSED");
        assertThat(attempts(untouched)).isEqualTo(1);
        assertThat(attempts(abandoned)).isZero();
    }

    private String scheduledPublication(String ws, String entry) {
        Response created = send("POST", "/api/v1/workspaces/" + ws + "/publications", """
                {"calendarEntryId":"%s","contentVersion":1,"channelId":"fb-main","action":"publish",
                 "content":{"body":"Hello %s"},"scheduledAt":"%s"}""".formatted(entry, entry, TOMORROW));
        assertThat(created.status()).isEqualTo(202);
        return created.json().get("publicationId").asText();
    }

    /** Another node, sharing the event store, records that an operator abandoned the publication. */
    private void abandonElsewhere(String ws, String id) {
        new TransactionTemplate(transactions).executeWithoutResult(tx -> eventStore.publish(
                new GenericDomainEventMessage<>("Publication", id, 1, new PublicationAbandonedEvent(
                        new PublicationId(id), new WorkspaceId(ws), "operator@k_other", "checked by hand",
                        Instant.now()))));
    }

    private int attempts(String id) {
        return jdbc.queryForObject("SELECT count(*) FROM domain_event_entry WHERE aggregate_identifier = ?"
                + " AND payload_type LIKE '%.PublicationAttemptedEvent'", Integer.class, id);
    }
}
