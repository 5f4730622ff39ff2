package io.herald.deploy.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.PublicationAttemptedEvent;
import io.herald.contracts.publication.PublicationOutcomeUnknownEvent;
import io.herald.contracts.publication.PublicationRequestedEvent;
import io.herald.contracts.publication.UnknownCause;
import io.herald.deploy.HeraldApplication;
import io.herald.deploy.HeraldIntegrationTest;
import io.herald.testsupport.TestDatabase;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** The auditor's endpoints and the command-line verifier on the real application and store. */
class AuditIT extends HeraldIntegrationTest {

    @Autowired
    CommandGateway commands;

    @Autowired
    EventStore eventStore;

    private String requestScheduled(String ws, String entry) {
        Response created = send("POST", "/api/v1/workspaces/" + ws + "/publications",
                PublicationScenarios.scheduledRequest(entry, 1, "fb-main", "Audit " + entry));
        assertThat(created.status()).as(created.toString()).isEqualTo(202);
        return created.json().get("publicationId").asText();
    }

    /** A workspace whose one publication went requested → attempted → succeeded through the aggregate. */
    private String[] cleanHistory() {
        String ws = newWorkspace("audit-clean");
        facebookChannel(ws, "fb-main", "EAAB-token-audit");
        String id = requestScheduled(ws, "entry-1");
        PublicationScenarios drive = new PublicationScenarios(commands);
        drive.succeed(id, drive.startAttempt(id));
        return new String[] {ws, id};
    }

    /**
     * Appends a history the aggregate would refuse straight to the store: attempt 2 right after
     * attempt 1's unknown outcome, with no NOT_FOUND read-back in between (rule 3).
     */
    private String[] injectedBlindRetry() {
        String ws = newWorkspace("audit-breach");
        byte[] random = new byte[32];
        new SecureRandom().nextBytes(random);
        String id = "pub_" + HexFormat.of().formatHex(random);
        PublicationId pub = PublicationId.of(id);
        WorkspaceId workspace = WorkspaceId.of(ws);
        ChannelId channel = ChannelId.of("fb-main");
        Instant t = Instant.now();
        Content content = new Content(null, "injected", null);
        List<Object> history = List.of(
                new PublicationRequestedEvent(pub, workspace, "entry-x", 1, channel, ChannelType.of("facebook"),
                        PublicationAction.PUBLISH, content, content.hash(), t.plus(Duration.ofDays(1)), t, "test"),
                new PublicationAttemptedEvent(pub, workspace, channel, 1, AttemptTrigger.INITIAL, id, content.hash(),
                        t, t.plus(Duration.ofMinutes(10))),
                new PublicationOutcomeUnknownEvent(pub, workspace, 1, UnknownCause.READ_TIMEOUT, "timed out", null, t),
                new PublicationAttemptedEvent(pub, workspace, channel, 2, AttemptTrigger.RETRY, id, content.hash(),
                        t, t.plus(Duration.ofMinutes(10))));
        for (int seq = 0; seq < history.size(); seq++) {
            eventStore.publish(new GenericDomainEventMessage<>("Publication", id, seq, history.get(seq)));
        }
        return new String[] {ws, id};
    }

    @Test
    void aPublicationsStreamShowsEveryEventWithItsMetadata() {
        String[] clean = cleanHistory();
        String path = "/api/v1/workspaces/" + clean[0] + "/publications/" + clean[1] + "/events";

        Response stream = send("GET", path, null, null);

        assertThat(stream.status()).as(stream.toString()).isEqualTo(200);
        JsonNode events = stream.json();
        assertThat(events).hasSize(3);
        assertThat(events.findValuesAsText("type")).containsExactly("PublicationRequestedEvent",
                "PublicationAttemptedEvent", "PublicationSucceededEvent");
        assertThat(events.get(0).get("sequence").asLong()).isZero();
        assertThat(events.get(0).get("revision").asText())
                .as("requests are written in revision 3, with the step kinds their channel names").isEqualTo("3");
        assertThat(events.get(0).get("payload").get("calendarEntryId").asText()).isEqualTo("entry-1");
        assertThat(events.get(0).get("metadata").has("correlationId")).isTrue();
        assertThat(events.get(0).get("timestamp").asText()).isNotBlank();
        assertThat(events.get(2).get("payload").get("trace").get("providerTraceId").asText()).isEqualTo("AbCdTrace1");
    }

    @Test
    void anotherWorkspacesPublicationIsNotFound() {
        String[] clean = cleanHistory();
        String other = newWorkspace("audit-other");

        Response foreign = send("GET", "/api/v1/workspaces/" + other + "/publications/" + clean[1] + "/events",
                null, null);

        assertThat(foreign.status()).isEqualTo(404);
        assertThat(foreign.json().get("code").asText()).isEqualTo("not_found");
    }

    @Test
    void theExportIsNdjsonInStoreOrderAndResumesAfterAPosition() {
        String[] clean = cleanHistory();
        String base = "/api/v1/workspaces/" + clean[0] + "/audit/events";

        Response all = send("GET", base, null, null);

        assertThat(all.status()).as(all.toString()).isEqualTo(200);
        assertThat(all.contentType()).startsWith("application/x-ndjson");
        List<JsonNode> everything = ndjson(all.body());
        List<JsonNode> lines = events(everything);
        // the channel connection's events, then the publication's three
        assertThat(lines).hasSizeGreaterThanOrEqualTo(4);
        assertThat(lines).allSatisfy(e -> assertThat(e.get("payload").get("workspaceId").asText()).isEqualTo(clean[0]));
        for (int i = 1; i < lines.size(); i++) {
            assertThat(lines.get(i).get("position").asLong()).isGreaterThan(lines.get(i - 1).get("position").asLong());
        }
        // and it ends with a checkpoint of its last line, signed by this export if no checkpoint had come yet
        assertThat(everything).hasSize(lines.size() + 1);
        assertClosedBy(everything.get(everything.size() - 1), lines.get(lines.size() - 1));

        long second = lines.get(1).get("position").asLong();
        List<JsonNode> firstPageLines = ndjson(send("GET", base + "?limit=2", null, null).body());
        List<JsonNode> firstPage = events(firstPageLines);
        assertThat(firstPage).isEqualTo(lines.subList(0, 2));
        assertThat(firstPageLines).hasSize(3);
        assertClosedBy(firstPageLines.get(2), lines.get(1));
        // the page ended at a checkpoint of its last line: the next page begins the chain at that signed head
        List<JsonNode> next = ndjson(send("GET", base + "?after=" + second, null, null).body());
        assertThat(next.get(0)).isEqualTo(firstPageLines.get(2));
        assertThat(events(next)).isEqualTo(lines.subList(2, lines.size()));
        assertThat(next.get(next.size() - 1)).isEqualTo(everything.get(everything.size() - 1));
        List<JsonNode> limited = ndjson(send("GET", base + "?after=" + second + "&limit=2", null, null).body());
        assertThat(events(limited)).isEqualTo(lines.subList(2, 4));
        assertClosedBy(limited.get(limited.size() - 1), lines.get(3));

        List<JsonNode> whole = ndjson(send("GET", "/api/v1/audit/events?after=" + (second - 1), null, null).body());
        assertThat(whole.stream().filter(e -> clean[0].equals(e.path("workspaceId").asText())).toList())
                .isEqualTo(lines);

        assertThat(send("GET", base + "?after=-1", null, null).json().get("code").asText())
                .isEqualTo("validation_failed");
    }

    @Test
    void theVerifierFindsNothingInACleanHistoryAndReportsAnInjectedBlindRetry() {
        String[] clean = cleanHistory();
        String[] breach = injectedBlindRetry();

        Response cleanReport = send("GET", "/api/v1/workspaces/" + clean[0] + "/audit/verify", null, null);
        assertThat(cleanReport.status()).as(cleanReport.toString()).isEqualTo(200);
        assertThat(cleanReport.json()).isEmpty();

        JsonNode breaches = send("GET", "/api/v1/workspaces/" + breach[0] + "/audit/verify", null, null).json();
        assertThat(breaches).hasSize(1);
        assertThat(breaches.get(0).get("publicationId").asText()).isEqualTo(breach[1]);
        assertThat(breaches.get(0).get("rule").asInt()).isEqualTo(3);
        assertThat(breaches.get(0).get("sequence").asLong()).isEqualTo(3);
        assertThat(breaches.get(0).get("detail").asText()).contains("NOT_FOUND");

        JsonNode wholeStore = send("GET", "/api/v1/audit/verify", null, null).json();
        assertThat(wholeStore.findValuesAsText("publicationId")).contains(breach[1]).doesNotContain(clean[1]);
    }

    @Test
    void theCommandLineVerifierExitsZeroWhenCleanAndOneOnABreach() throws Exception {
        String[] clean = cleanHistory();
        String[] breach = injectedBlindRetry();

        Cli cleanRun = cli("--workspace=" + clean[0]);
        assertThat(cleanRun.exitCode()).as(cleanRun.output()).isZero();
        assertThat(cleanRun.output()).contains("clean: 1 publications, 3 events");

        Cli breachRun = cli("--workspace=" + breach[0]);
        assertThat(breachRun.exitCode()).as(breachRun.output()).isEqualTo(1);
        assertThat(breachRun.output()).contains(breach[1]).contains("rule 3");
    }

    private record Cli(int exitCode, String output) {
    }

    /** The real main method in its own JVM, as {@code java -jar herald.jar audit verify} runs it. */
    private static Cli cli(String workspaceOption) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"),
                HeraldApplication.class.getName(), "audit", "verify", workspaceOption,
                "--spring.datasource.url=" + TestDatabase.shared().jdbcUrl()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError("the verifier did not exit");
        }
        return new Cli(process.exitValue(), new String(output, StandardCharsets.UTF_8));
    }

    /** The event lines of an export, without its checkpoint lines. */
    private static List<JsonNode> events(List<JsonNode> lines) {
        return lines.stream().filter(line -> !line.has("checkpoint")).toList();
    }

    private static void assertClosedBy(JsonNode line, JsonNode last) {
        JsonNode checkpoint = line.get("checkpoint");
        assertThat(checkpoint).as("a checkpoint line: " + line).isNotNull();
        assertThat(checkpoint.get("position").asLong()).isEqualTo(last.get("position").asLong());
        assertThat(checkpoint.get("hash").asText()).isEqualTo(last.get("hash").asText());
    }

    private List<JsonNode> ndjson(String body) {
        List<JsonNode> lines = new ArrayList<>();
        for (String line : body.split("\n")) {
            if (!line.isBlank()) {
                try {
                    lines.add(json.readTree(line));
                } catch (IOException e) {
                    throw new AssertionError("not a JSON line: " + line, e);
                }
            }
        }
        return lines;
    }
}
