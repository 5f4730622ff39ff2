package io.herald.deploy.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.PublicationAttemptedEvent;
import io.herald.contracts.publication.PublicationOutcomeUnknownEvent;
import io.herald.contracts.publication.PublicationRequestedEvent;
import io.herald.contracts.publication.PublicationSucceededEvent;
import io.herald.contracts.publication.PublicationTargetedEvent;
import io.herald.contracts.publication.UnknownCause;
import io.herald.deploy.HeraldIntegrationTest;
import io.herald.query.audit.AuditVerifier;
import io.herald.query.audit.Breach;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The verifier that keeps up: breaches are found as the events arrive and read from their table,
 * agree with a full replay of the streams, include what is written to the store behind the
 * aggregate's back, and a full re-verification runs as a background job whose resource shows it
 * progress to DONE.
 */
class AuditVerificationIT extends HeraldIntegrationTest {

    private static final Instant NOW = Instant.now();

    @Autowired
    CommandGateway commands;

    @Autowired
    EventStore eventStore;

    @Autowired
    AuditVerifier fullReplay;

    @Test
    void theBreachesFoundLiveAreThoseOfAFullReplayAndOfAReVerificationJob() {
        String ws = newWorkspace("verify-live");
        facebookChannel(ws, "fb-main", "EAAB-token-verify-live");
        String clean = cleanPublication(ws, "entry-clean");
        String blindRetry = blindRetry(ws);
        String lost = lostAttempt(ws);
        String orphanResult = orphanResult(ws);
        String afterDelete = updateAfterDelete(ws);

        List<Breach> live = breaches("/api/v1/workspaces/" + ws + "/audit/verify");

        assertThat(live).containsExactlyInAnyOrderElementsOf(fullReplay.verify(ws).breaches());

        assertThat(live).extracting(Breach::publicationId).doesNotContain(clean)
                .contains(blindRetry, lost, orphanResult, afterDelete);
        assertThat(live).filteredOn(b -> b.publicationId().equals(blindRetry)).extracting(Breach::rule).contains(3);
        assertThat(live).filteredOn(b -> b.publicationId().equals(lost)).extracting(Breach::rule).containsExactly(2);
        assertThat(live).filteredOn(b -> b.publicationId().equals(orphanResult)).extracting(Breach::rule)
                .containsExactly(5);
        assertThat(live).filteredOn(b -> b.publicationId().equals(afterDelete)).extracting(Breach::rule)
                .containsExactly(9);

        JsonNode job = runJobToTheEnd();
        assertThat(job.get("eventsTotal").asLong()).isPositive();
        assertThat(job.get("eventsDone").asLong()).isGreaterThanOrEqualTo(job.get("eventsTotal").asLong());

        assertThat(breaches("/api/v1/workspaces/" + ws + "/audit/verify")).containsExactlyElementsOf(live);
        assertThat(breaches("/api/v1/audit/verify")).containsAll(live);
    }

    @Test
    void anEventInsertedIntoTheStoreBehindTheAggregatesBackIsReported() {
        String ws = newWorkspace("verify-tamper");
        facebookChannel(ws, "fb-main", "EAAB-token-verify-tamper");
        String id = cleanPublication(ws, "entry-tamper");
        assertThat(breaches("/api/v1/workspaces/" + ws + "/audit/verify")).isEmpty();

        // a copy of the first attempt, appended after the success: a second post (rules 1 and 4)
        jdbc.update("""
                INSERT INTO domain_event_entry (event_identifier, aggregate_identifier, sequence_number, type,
                    time_stamp, payload_type, payload_revision, payload, meta_data)
                SELECT md5(random()::text), aggregate_identifier, 3, type, time_stamp, payload_type,
                       payload_revision, payload, meta_data
                FROM domain_event_entry WHERE aggregate_identifier = ? AND sequence_number = 1""", id);

        List<Breach> found = breaches("/api/v1/workspaces/" + ws + "/audit/verify");
        assertThat(found).extracting(Breach::publicationId).containsOnly(id);
        assertThat(found).extracting(Breach::rule).contains(1, 4);
        assertThat(found).extracting(Breach::sequence).containsOnly(3L);
    }

    /**
     * An event changed in place is no new event for the live verifier; the re-verification job finds
     * the rule it breaks, and that it is no longer the event the audit chain holds.
     */
    @Test
    void aReVerificationFindsAnEventChangedInPlace() {
        String ws = newWorkspace("verify-edit");
        facebookChannel(ws, "fb-main", "EAAB-token-verify-edit");
        String id = cleanPublication(ws, "entry-edit");
        assertThat(breaches("/api/v1/workspaces/" + ws + "/audit/verify")).isEmpty();
        // the audit chain holds the event before it is changed
        long events = eventCount(id);
        awaitJson("/api/v1/admin/audit/chain", progress -> events == jdbc.queryForObject(
                "SELECT count(*) FROM audit_chain c JOIN domain_event_entry e ON e.global_index = c.global_index"
                        + " WHERE e.aggregate_identifier = ?", Long.class, id));

        int changed = jdbc.update("""
                UPDATE domain_event_entry
                SET payload = convert_to(replace(convert_from(payload, 'UTF8'), '"attemptNo":1', '"attemptNo":7'),
                                         'UTF8')
                WHERE aggregate_identifier = ? AND sequence_number = 2""", id);
        assertThat(changed).isOne();
        assertThat(breaches("/api/v1/workspaces/" + ws + "/audit/verify")).isEmpty();

        runJobToTheEnd();

        // the rule the changed event breaks, and the chain break the change itself is
        assertThat(breaches("/api/v1/workspaces/" + ws + "/audit/verify"))
                .hasSize(2).allSatisfy(b -> {
                    assertThat(b.publicationId()).isEqualTo(id);
                    assertThat(b.sequence()).isEqualTo(2);
                })
                .extracting(Breach::rule).containsExactlyInAnyOrder(5, Breach.CHAIN_BREAK);
    }

    /**
     * {@code audit verify}, the check docs/operations.md recommends for a restored store, reports a
     * chain row or an event changed after chaining and exits 1, as the live verifier would.
     */
    @Test
    void theCommandLineVerifierReportsAChainRowOrAnEventChangedAfterChaining() throws Exception {
        String rowWs = newWorkspace("verify-cli-row");
        String eventWs = newWorkspace("verify-cli-event");
        java.util.Map<String, String> ids = new java.util.LinkedHashMap<>();
        for (String ws : List.of(rowWs, eventWs)) {
            facebookChannel(ws, "fb-main", "EAAB-token-" + ws);
            String id = cleanPublication(ws, "entry-cli");
            long events = eventCount(id);
            awaitJson("/api/v1/admin/audit/chain", progress -> events == jdbc.queryForObject(
                    "SELECT count(*) FROM audit_chain c JOIN domain_event_entry e ON e.global_index = c.global_index"
                            + " WHERE e.aggregate_identifier = ?", Long.class, id));
            ids.put(ws, id);
        }
        Cli clean = cli("--workspace=" + rowWs);
        assertThat(clean.exitCode()).as(clean.output()).isZero();
        assertThat(clean.output()).contains("clean: 1 publications");

        long rowAt = jdbc.queryForObject("SELECT global_index FROM domain_event_entry WHERE aggregate_identifier = ?"
                + " AND sequence_number = 1", Long.class, ids.get(rowWs));
        assertThat(jdbc.update("UPDATE audit_chain SET hash = repeat('b', 64) WHERE global_index = ?", rowAt)).isOne();
        long eventAt = jdbc.queryForObject("SELECT global_index FROM domain_event_entry WHERE aggregate_identifier = ?"
                + " AND sequence_number = 0", Long.class, ids.get(eventWs));
        assertThat(jdbc.update("UPDATE domain_event_entry SET payload = convert_to(replace(convert_from(payload,"
                + " 'UTF8'), 'Verify entry-cli', 'Rewritten'), 'UTF8') WHERE global_index = ?", eventAt)).isOne();

        Cli rowBreak = cli("--workspace=" + rowWs);
        assertThat(rowBreak.exitCode()).as(rowBreak.output()).isEqualTo(1);
        assertThat(rowBreak.output()).contains("rule " + Breach.CHAIN_BREAK, "chain break at position " + rowAt)
                .doesNotContain("position " + eventAt);
        Cli eventBreak = cli("--workspace=" + eventWs);
        assertThat(eventBreak.exitCode()).as(eventBreak.output()).isEqualTo(1);
        assertThat(eventBreak.output()).contains(ids.get(eventWs) + "  rule " + Breach.CHAIN_BREAK + "  sequence 0",
                "chain break at position " + eventAt, "changed");
        Cli whole = cli(null);
        assertThat(whole.exitCode()).isEqualTo(1);
        assertThat(whole.output()).contains("position " + rowAt, "position " + eventAt);
    }

    private record Cli(int exitCode, String output) {
    }

    /** The real main method in its own JVM, as {@code java -jar herald.jar audit verify} runs it. */
    private static Cli cli(String workspaceOption) throws java.io.IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"),
                io.herald.deploy.HeraldApplication.class.getName(), "audit", "verify",
                "--spring.datasource.url=" + io.herald.testsupport.TestDatabase.shared().jdbcUrl()));
        if (workspaceOption != null) {
            command.add(workspaceOption);
        }
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(2, java.util.concurrent.TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError("the verifier did not exit");
        }
        return new Cli(process.exitValue(), new String(output, java.nio.charset.StandardCharsets.UTF_8));
    }

    @Test
    void aJobLeftRunningByAStoppedNodeDoesNotBlockANewOne() {
        jdbc.update("""
                INSERT INTO audit_verification_job (job_id, status, started_at, updated_at)
                VALUES ('verify_stale', 'RUNNING', now() - interval '2 hours', now() - interval '1 hour')""");

        JsonNode job = runJobToTheEnd();

        assertThat(job.get("jobId").asText()).isNotEqualTo("verify_stale");
        JsonNode stale = send("GET", "/api/v1/admin/audit/verify/verify_stale", null, null).json();
        assertThat(stale.get("status").asText()).isEqualTo("FAILED");
        assertThat(stale.get("finishedAt").asText()).isNotBlank();
    }

    @Test
    void anUnknownJobIsNotFound() {
        Response unknown = send("GET", "/api/v1/admin/audit/verify/verify_nothing", null, null);
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.json().get("code").asText()).isEqualTo("not_found");
    }

    private JsonNode runJobToTheEnd() {
        Response started = send("POST", "/api/v1/admin/audit/verify", null, null);
        assertThat(started.status()).as(started.toString()).isEqualTo(202);
        JsonNode job = started.json();
        assertThat(job.get("jobId").asText()).isNotBlank();
        assertThat(job.get("status").asText()).isIn("RUNNING", "DONE");
        assertThat(job.get("startedAt").asText()).isNotBlank();
        assertThat(started.location()).endsWith("/api/v1/admin/audit/verify/" + job.get("jobId").asText());
        JsonNode done = awaitJson("/api/v1/admin/audit/verify/" + job.get("jobId").asText(),
                j -> !"RUNNING".equals(j.get("status").asText()));
        assertThat(done.get("status").asText()).as(done.toString()).isEqualTo("DONE");
        assertThat(done.get("finishedAt").asText()).isNotBlank();
        return done;
    }

    private List<Breach> breaches(String path) {
        Response answer = send("GET", path, null, null);
        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        List<Breach> breaches = new ArrayList<>();
        for (JsonNode b : answer.json()) {
            breaches.add(new Breach(b.get("publicationId").asText(), b.get("rule").asInt(), b.get("sequence").asLong(),
                    b.get("detail").asText()));
        }
        return breaches;
    }

    private String cleanPublication(String ws, String entry) {
        Response created = send("POST", "/api/v1/workspaces/" + ws + "/publications",
                PublicationScenarios.scheduledRequest(entry, 1, "fb-main", "Verify " + entry));
        assertThat(created.status()).as(created.toString()).isEqualTo(202);
        String id = created.json().get("publicationId").asText();
        PublicationScenarios drive = new PublicationScenarios(commands);
        drive.succeed(id, drive.startAttempt(id));
        return id;
    }

    /** Attempt 2 right after attempt 1's unknown outcome, no NOT_FOUND in between (rule 3). */
    private String blindRetry(String ws) {
        String id = newId();
        append(id, requested(id, ws, "entry-blind", PublicationAction.PUBLISH, 1),
                attempted(id, ws, 1, NOW.plus(Duration.ofMinutes(10))),
                new PublicationOutcomeUnknownEvent(PublicationId.of(id), WorkspaceId.of(ws), 1,
                        UnknownCause.READ_TIMEOUT, "timed out", null, NOW),
                attempted(id, ws, 2, NOW.plus(Duration.ofMinutes(10))));
        return id;
    }

    /** An attempt whose deadline passed an hour ago without a result (rule 2, once overdue). */
    private String lostAttempt(String ws) {
        String id = newId();
        append(id, requested(id, ws, "entry-lost", PublicationAction.PUBLISH, 1),
                attempted(id, ws, 1, NOW.minus(Duration.ofHours(25)), NOW.minus(Duration.ofHours(1))));
        return id;
    }

    /** A success with no attempt in flight (rule 5). */
    private String orphanResult(String ws) {
        String id = newId();
        append(id, requested(id, ws, "entry-orphan", PublicationAction.PUBLISH, 1), succeeded(id, ws, 1));
        return id;
    }

    /** A delete of a post succeeds, then an update of the same post is attempted (rule 9, across streams). */
    private String updateAfterDelete(String ws) {
        String delete = newId();
        ProviderRef post = new ProviderRef("post-1", "https://example.test/post-1");
        append(delete, requested(delete, ws, "entry-line", PublicationAction.DELETE, 2),
                new PublicationTargetedEvent(PublicationId.of(delete), WorkspaceId.of(ws), post, NOW),
                attempted(delete, ws, 1, NOW.plus(Duration.ofMinutes(10))), succeeded(delete, ws, 1));
        String update = newId();
        append(update, requested(update, ws, "entry-line", PublicationAction.UPDATE, 3),
                new PublicationTargetedEvent(PublicationId.of(update), WorkspaceId.of(ws), post, NOW),
                attempted(update, ws, 1, NOW.plus(Duration.ofDays(1))));
        return update;
    }

    private static PublicationRequestedEvent requested(String id, String ws, String entry, PublicationAction action,
                                                       long version) {
        Content content = new Content(null, "injected " + entry, null);
        return new PublicationRequestedEvent(PublicationId.of(id), WorkspaceId.of(ws), entry, version,
                ChannelId.of("fb-main"), ChannelType.of("facebook"), action, content, content.hash(),
                NOW.plus(Duration.ofDays(30)), NOW, "test");
    }

    private static PublicationAttemptedEvent attempted(String id, String ws, int attemptNo, Instant expiresAt) {
        return attempted(id, ws, attemptNo, NOW, expiresAt);
    }

    /** The expiry timer is set for {@code expiresAt - startedAt} from now: a lost attempt's fires long after the test. */
    private static PublicationAttemptedEvent attempted(String id, String ws, int attemptNo, Instant startedAt,
                                                       Instant expiresAt) {
        return new PublicationAttemptedEvent(PublicationId.of(id), WorkspaceId.of(ws), ChannelId.of("fb-main"),
                attemptNo, attemptNo == 1 ? AttemptTrigger.INITIAL : AttemptTrigger.RETRY, id, "hash", startedAt,
                expiresAt);
    }

    private static PublicationSucceededEvent succeeded(String id, String ws, int attemptNo) {
        return new PublicationSucceededEvent(PublicationId.of(id), WorkspaceId.of(ws), attemptNo,
                new ProviderRef("post-" + id.substring(4, 12), null), null, NOW);
    }

    private void append(String id, Object... history) {
        for (int seq = 0; seq < history.length; seq++) {
            eventStore.publish(new GenericDomainEventMessage<>("Publication", id, seq, history[seq]));
        }
    }

    private static String newId() {
        byte[] random = new byte[32];
        new SecureRandom().nextBytes(random);
        return "pub_" + HexFormat.of().formatHex(random);
    }
}
