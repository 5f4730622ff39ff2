package io.herald.deploy.publishing;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.command.publishing.AttemptStarter;
import io.herald.command.publishing.GroupCommit;
import io.herald.command.publishing.TimerSweep;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.publication.AttemptDecision;
import io.herald.contracts.publication.AttemptDecision.Verdict;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.deploy.HeraldIntegrationTest;
import io.herald.deploy.audit.PublicationScenarios;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The parts of the publishing core on the real application: nested StartAttempt commands in one
 * transaction (a refusal returned, not thrown, leaves the others committed), redelivered triggers,
 * timer rows written with their events, and a sweep whose double fire changes nothing. Publications
 * are scheduled a day ahead, so the dispatcher leaves them to these tests.
 */
class PublishingCoreIT extends HeraldIntegrationTest {

    @Autowired
    GroupCommit groupCommit;
    @Autowired
    AttemptStarter starts;
    @Autowired
    TimerSweep sweep;
    @Autowired
    CommandGateway commands;

    private String ws;
    private String page;
    private PublicationScenarios drive;

    @BeforeEach
    void channel() {
        ws = newWorkspace("core");
        page = "41" + (System.nanoTime() % 10_000_000);
        sandbox("POST", "/facebook/tokens", "{\"token\":\"EAAB-core-" + page + "\",\"pageId\":\"" + page
                + "\",\"kind\":\"PAGE\"}");
        Response channel = send("PUT", "/api/v1/workspaces/" + ws + "/channels/fb", "{\"type\":\"facebook\","
                + "\"pageId\":\"" + page + "\",\"pageAccessToken\":\"EAAB-core-" + page + "\"}");
        assertThat(channel.status()).as(channel.toString()).isEqualTo(201);
        drive = new PublicationScenarios(commands);
    }

    @Test
    void aRefusedStartInABatchLeavesTheOtherStartsOfTheBatchCommitted() {
        String inFlight = scheduled("refused");
        String next = scheduled("started");
        drive.startAttempt(inFlight);
        List<AttemptDecision> decisions = new ArrayList<>();
        groupCommit.run(() -> {
            decisions.add(starts.start(PublicationId.of(inFlight), 0, AttemptTrigger.EXECUTE_REQUESTED, false));
            decisions.add(starts.start(PublicationId.of(next), 1, AttemptTrigger.EXECUTE_REQUESTED, false));
        });

        assertThat(decisions.get(0).verdict()).isEqualTo(Verdict.REFUSED);
        assertThat(decisions.get(0).refusal()).isEqualTo("attempt_in_flight");
        assertThat(decisions.get(1).verdict()).isEqualTo(Verdict.START);
        assertThat(events(next, "PublicationAttemptedEvent")).isEqualTo(1);
        // the call went out after the commit and its answer was recorded
        awaitJson(path(next), view -> view.get("status").asText().equals("SUCCEEDED"));
        assertThat(sandboxTruth("facebook", page)).hasSize(1);
        assertThat(events(inFlight, "PublicationAttemptedEvent")).isEqualTo(1);
    }

    @Test
    void aRedeliveredTriggerStartsNoSecondAttemptAndMakesNoCall() {
        String id = scheduled("redelivered");
        AtomicReference<AttemptDecision> first = new AtomicReference<>();
        AtomicReference<AttemptDecision> again = new AtomicReference<>();
        groupCommit.run(() -> first.set(starts.start(PublicationId.of(id), 1, AttemptTrigger.INITIAL, false)));
        awaitJson(path(id), view -> view.get("status").asText().equals("SUCCEEDED"));
        groupCommit.run(() -> again.set(starts.start(PublicationId.of(id), 1, AttemptTrigger.INITIAL, false)));

        assertThat(first.get().verdict()).isEqualTo(Verdict.START);
        assertThat(again.get().verdict()).isEqualTo(Verdict.REFUSED);
        assertThat(again.get().refusal()).isEqualTo("stale_trigger");
        assertThat(events(id, "PublicationAttemptedEvent")).isEqualTo(1);
        assertThat(sandboxTruth("facebook", page)).hasSize(1);
    }

    @Test
    void aBatchWithAFailingItemCommitsTheOthersEachAlone() {
        String good = scheduled("good");
        List<String> failed = groupCommit.inOneTransaction(List.of(good, "poison"), item -> item, item -> {
            if (item.equals("poison")) {
                throw new IllegalStateException("fails every time");
            }
            starts.start(PublicationId.of(item), 1, AttemptTrigger.EXECUTE_REQUESTED, false);
        });

        assertThat(failed).containsExactly("poison");
        assertThat(events(good, "PublicationAttemptedEvent")).isEqualTo(1);
    }

    @Test
    void theTimerRowFollowsTheEventsAndADoubleFireChangesNothing() {
        String id = scheduled("expiry");
        Map<String, Object> due = timer(id);
        assertThat(due).containsEntry("kind", "ATTEMPT_DUE").containsEntry("attempt_no", 1);

        drive.startAttempt(id);
        Map<String, Object> expiry = timer(id);
        assertThat(expiry).containsEntry("kind", "ATTEMPT_EXPIRY").containsEntry("attempt_no", 1);
        // the attempt's 10 minutes run on the database clock from the commit
        assertThat((Double) expiry.get("due_in")).isBetween(590.0, 601.0);

        jdbc.update("UPDATE publication_timer SET due_at = now() - interval '1 second' WHERE publication_id = ?", id);
        sweep.sweepDue();
        awaitJson(path(id), view -> view.get("status").asText().equals("OUTCOME_UNKNOWN"));
        assertThat(timer(id)).containsEntry("kind", "READ_BACK_DUE").containsEntry("attempt_no", 1)
                .containsEntry("read_no", 1);

        // the same expiry once more, as after a node died between firing and deleting it
        jdbc.update("UPDATE publication_timer SET kind = 'ATTEMPT_EXPIRY', due_at = now() - interval '1 second'"
                + " WHERE publication_id = ?", id);
        sweep.sweepDue();
        assertThat(events(id, "PublicationOutcomeUnknownEvent")).isEqualTo(1);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM publication_timer WHERE publication_id = ?", Long.class,
                id)).as("a row that fired without effect is deleted").isZero();
    }

    @Test
    void aSucceededPublicationLeavesNoTimerRow() throws InterruptedException {
        Response accepted = send("POST", "/api/v1/workspaces/" + ws + "/publications",
                "{\"calendarEntryId\":\"now-1\",\"contentVersion\":1,\"channelId\":\"fb\",\"action\":\"publish\","
                        + "\"content\":{\"body\":\"right away\"}}");
        String id = accepted.json().get("publicationId").asText();
        awaitJson(path(id), view -> view.get("status").asText().equals("SUCCEEDED"));
        assertThat(jdbc.queryForObject("SELECT count(*) FROM publication_timer WHERE publication_id = ?", Long.class,
                id)).isZero();
        assertThat(events(id, "PublicationAttemptedEvent")).isEqualTo(1);
    }

    private String scheduled(String entry) {
        Response r = send("POST", "/api/v1/workspaces/" + ws + "/publications",
                PublicationScenarios.scheduledRequest(entry, 1, "fb", "core " + entry + " " + page));
        assertThat(r.status()).as(r.toString()).isEqualTo(202);
        return r.json().get("publicationId").asText();
    }

    private Map<String, Object> timer(String id) {
        return jdbc.queryForMap("SELECT kind, attempt_no, read_no, extract(epoch FROM due_at - now())::float8 AS due_in"
                + " FROM publication_timer WHERE publication_id = ?", id);
    }

    private long events(String id, String type) {
        return jdbc.queryForObject("SELECT count(*) FROM domain_event_entry WHERE aggregate_identifier = ?"
                + " AND payload_type LIKE ?", Long.class, id, "%." + type);
    }

    private String path(String id) {
        return "/api/v1/workspaces/" + ws + "/publications/" + id;
    }

}
