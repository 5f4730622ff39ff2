package io.herald.deploy.intake;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.publication.AttemptDecision;
import io.herald.contracts.publication.AttemptTrace;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.RecordAttemptSucceededCommand;
import io.herald.contracts.publication.StartAttemptCommand;
import io.herald.deploy.HeraldIntegrationTest;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

class PublicationIntakeIT extends HeraldIntegrationTest {

    @Autowired
    CommandGateway commands;

    @Autowired
    MeterRegistry meters;

    /**
     * Scheduled a day ahead, so the dispatcher leaves these publications alone while the
     * intake is examined.
     */
    private static final String TOMORROW = Instant.now().plus(Duration.ofDays(1))
            .truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();

    private static String body(String entry, int version, String channel, String text) {
        return """
                {"calendarEntryId":"%s","contentVersion":%d,"channelId":"%s","action":"publish",
                 "content":{"body":"%s","link":"https://example.org/post"},"scheduledAt":"%s"}"""
                .formatted(entry, version, channel, text, TOMORROW);
    }

    @Test
    void aRequestIsStoredAsAnEventAndShownAsRequested() {
        String ws = newWorkspace("intake");
        facebookChannel(ws, "fb-main", "EAAB-token-intake");

        Response created = send("POST", "/api/v1/workspaces/" + ws + "/publications",
                body("entry-42", 3, "fb-main", "Hello"));

        assertThat(created.status()).isEqualTo(202);
        String id = created.json().get("publicationId").asText();
        assertThat(id).matches("pub_[0-9a-f]{64}");
        assertThat(created.location()).isEqualTo("/api/v1/workspaces/" + ws + "/publications/" + id);
        assertThat(jdbc.queryForList("SELECT payload_type FROM domain_event_entry WHERE aggregate_identifier = ?",
                String.class, id)).containsExactly("io.herald.contracts.publication.PublicationRequestedEvent");
        String metadata = new String(jdbc.queryForObject(
                "SELECT meta_data FROM domain_event_entry WHERE aggregate_identifier = ?", byte[].class, id),
                StandardCharsets.UTF_8);
        assertThat(metadata).contains(created.correlationId());

        JsonNode view = awaitJson("/api/v1/workspaces/" + ws + "/publications/" + id,
                v -> v.get("status").asText().equals("REQUESTED"));
        assertThat(view.get("calendarEntryId").asText()).isEqualTo("entry-42");
        assertThat(view.get("contentVersion").asInt()).isEqualTo(3);
        assertThat(view.get("channelType").asText()).isEqualTo("facebook");
    }

    @Test
    void theSameRequestTwiceReturnsTheSamePublication() {
        String ws = newWorkspace("replay");
        facebookChannel(ws, "fb-main", "EAAB-token-replay");
        Response first = send("POST", "/api/v1/workspaces/" + ws + "/publications", body("e-1", 1, "fb-main", "Hi"));
        Response second = send("POST", "/api/v1/workspaces/" + ws + "/publications", body("e-1", 1, "fb-main", "Hi"));

        assertThat(first.status()).isEqualTo(202);
        assertThat(second.status()).isEqualTo(200);
        assertThat(second.json().get("publicationId")).isEqualTo(first.json().get("publicationId"));
        assertThat(eventCount(first.json().get("publicationId").asText())).isEqualTo(1);
    }

    @Test
    void twentyConcurrentIdenticalRequestsYieldExactlyOnePublication() throws Exception {
        String ws = newWorkspace("race");
        facebookChannel(ws, "fb-main", "EAAB-token-race");
        int threads = 20;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<Response>> answers = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            answers.add(pool.submit(() -> {
                start.await();
                return send("POST", "/api/v1/workspaces/" + ws + "/publications", body("e-9", 2, "fb-main", "Race"));
            }));
        }
        start.countDown();
        Set<String> ids = new HashSet<>();
        int accepted = 0;
        for (Future<Response> answer : answers) {
            Response r = answer.get();
            assertThat(r.status()).as(r.toString()).isIn(200, 202);
            accepted += r.status() == 202 ? 1 : 0;
            ids.add(r.json().get("publicationId").asText());
        }
        pool.shutdown();

        assertThat(ids).hasSize(1);
        assertThat(accepted).isEqualTo(1);
        String id = ids.iterator().next();
        assertThat(jdbc.queryForObject("""
                SELECT count(*) FROM domain_event_entry
                 WHERE aggregate_identifier = ? AND payload_type LIKE '%PublicationRequestedEvent'""",
                Long.class, id)).isEqualTo(1);
    }

    /**
     * Requests arriving together are stored in batches (group commit); copies of one request in a
     * batch make it fail and be sent again alone. Whatever the batches were: one publication per
     * request, one 202 for it, and its event carries the id of the HTTP request that created it.
     */
    @Test
    void concurrentRequestsAreStoredOnceEachAndEachEventNamesItsOwnRequest() throws Exception {
        String ws = newWorkspace("batch");
        facebookChannel(ws, "fb-main", "EAAB-token-batch");
        int entries = 30;
        int copies = 2;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(entries * copies);
        List<Future<Response>> answers = new ArrayList<>();
        for (int i = 0; i < entries * copies; i++) {
            String entry = "e-" + (i % entries);
            answers.add(pool.submit(() -> {
                start.await();
                return send("POST", "/api/v1/workspaces/" + ws + "/publications", body(entry, 1, "fb-main", entry));
            }));
        }
        start.countDown();
        Map<String, String> creatorOf = new HashMap<>();
        Set<String> ids = new HashSet<>();
        for (Future<Response> answer : answers) {
            Response r = answer.get();
            assertThat(r.status()).as(r.toString()).isIn(200, 202);
            String id = r.json().get("publicationId").asText();
            ids.add(id);
            if (r.status() == 202) {
                assertThat(creatorOf.put(id, r.correlationId())).as("a second 202 for %s", id).isNull();
            }
        }
        pool.shutdown();

        assertThat(ids).hasSize(entries);
        assertThat(creatorOf).hasSize(entries);
        for (String id : ids) {
            List<byte[]> metadata = jdbc.queryForList("""
                    SELECT meta_data FROM domain_event_entry
                     WHERE aggregate_identifier = ? AND payload_type LIKE '%PublicationRequestedEvent'""",
                    byte[].class, id);
            assertThat(metadata).as("requested events of %s", id).hasSize(1);
            assertThat(new String(metadata.get(0), StandardCharsets.UTF_8)).contains(creatorOf.get(id));
        }
        var sizes = meters.find("herald.intake.batch_size").summary();
        System.out.printf("[intake-batch] requests=%d publications=%d largest_batch=%.0f%n", entries * copies,
                ids.size(), sizes == null ? 0 : sizes.max());
    }

    @Test
    void theSameKeyWithOtherContentIsRefused() {
        String ws = newWorkspace("reuse");
        facebookChannel(ws, "fb-main", "EAAB-token-reuse");
        send("POST", "/api/v1/workspaces/" + ws + "/publications", body("e-2", 5, "fb-main", "Original"));

        Response reused = send("POST", "/api/v1/workspaces/" + ws + "/publications",
                body("e-2", 5, "fb-main", "Changed text"));

        assertThat(reused.status()).isEqualTo(422);
        assertThat(reused.contentType()).startsWith("application/problem+json");
        assertThat(reused.json().get("code").asText()).isEqualTo("idempotency_key_reused");
    }

    @Test
    void anUnknownChannelIsRefused() {
        String ws = newWorkspace("nochannel");
        Response r = send("POST", "/api/v1/workspaces/" + ws + "/publications", body("e-3", 1, "fb-nope", "Hi"));

        assertThat(r.status()).isEqualTo(422);
        assertThat(r.json().get("code").asText()).isEqualTo("unknown_channel");
    }

    @Test
    void badInputGetsProblemJsonAndStoresNothing() {
        String ws = newWorkspace("bad");
        facebookChannel(ws, "fb-main", "EAAB-token-bad");
        String path = "/api/v1/workspaces/" + ws + "/publications";
        String big = "x".repeat(300 * 1024);
        List<String[]> cases = List.of(
                new String[] {"{", "application/json"},
                new String[] {"", "application/json"},
                new String[] {"[]", "application/json"},
                new String[] {"null", "application/json"},
                new String[] {"{}", "application/json"},
                new String[] {"{\"calendarEntryId\":\"e\",\"contentVersion\":\"3\",\"channelId\":\"fb-main\","
                        + "\"action\":\"publish\",\"content\":{\"body\":\"x\"}}", "application/json"},
                new String[] {"{\"calendarEntryId\":\"e\",\"contentVersion\":1.5,\"channelId\":\"fb-main\","
                        + "\"action\":\"publish\",\"content\":{\"body\":\"x\"}}", "application/json"},
                new String[] {"{\"calendarEntryId\":\"e\",\"contentVersion\":1,\"channelId\":\"fb-main\","
                        + "\"action\":\"delete\",\"content\":{\"body\":\"x\"}}", "application/json"},
                new String[] {"{\"calendarEntryId\":\"e\",\"contentVersion\":1,\"channelId\":\"fb-main\","
                        + "\"action\":\"draft\",\"content\":{\"body\":\"x\"}}", "application/json"},
                new String[] {"{\"calendarEntryId\":\"../../etc\",\"contentVersion\":1,\"channelId\":\"fb-main\","
                        + "\"action\":\"publish\",\"content\":{\"body\":\"x\"}}", "application/json"},
                new String[] {"{\"calendarEntryId\":\"e\",\"contentVersion\":0,\"channelId\":\"fb-main\","
                        + "\"action\":\"publish\",\"content\":{\"body\":\"x\"}}", "application/json"},
                new String[] {"{\"calendarEntryId\":\"e\",\"contentVersion\":1,\"channelId\":\"fb-main\","
                        + "\"action\":\"publish\",\"content\":{}}", "application/json"},
                new String[] {"{\"calendarEntryId\":\"e\",\"contentVersion\":1,\"channelId\":\"fb-main\","
                        + "\"action\":\"publish\",\"content\":{\"body\":\"x\"},\"extra\":true}", "application/json"},
                new String[] {"{\"calendarEntryId\":\"e\",\"contentVersion\":1,\"channelId\":\"fb-main\","
                        + "\"action\":\"publish\",\"content\":{\"body\":\"x\"},\"scheduledAt\":\"tomorrow\"}",
                        "application/json"},
                new String[] {"{\"calendarEntryId\":\"e\",\"contentVersion\":1,\"channelId\":\"fb-main\","
                        + "\"action\":\"publish\",\"content\":{\"body\":\"x\",\"link\":\"javascript:alert(1)\"}}",
                        "application/json"},
                new String[] {"{\"calendarEntryId\":\"e\",\"contentVersion\":1,\"channelId\":\"fb-main\","
                        + "\"action\":\"publish\",\"content\":{\"body\":\"" + big + "\"}}", "application/json"},
                new String[] {"calendarEntryId=e", "application/x-www-form-urlencoded"},
                new String[] {"{}", "text/plain"});
        long eventsBefore = eventCount();
        for (String[] c : cases) {
            Response r = send("POST", path, c[0], c[1]);
            String label = c[0].length() > 80 ? c[0].substring(0, 80) + "…" : c[0];
            assertThat(r.status()).as(label + " -> " + r).isBetween(400, 499);
            assertThat(r.contentType()).as(label).startsWith("application/problem+json");
            assertThat(r.json().get("code").asText()).as(label).isNotBlank();
            assertThat(r.body()).as(label).doesNotContain("Exception").doesNotContain("at io.herald");
        }
        assertThat(eventCount()).isEqualTo(eventsBefore);
    }

    @Test
    void anOversizeChunkedBodyIsRefusedWith413() {
        String ws = newWorkspace("chunked");
        String path = "/api/v1/workspaces/" + ws + "/publications";
        byte[] prefix = "{\"calendarEntryId\":\"".getBytes(StandardCharsets.UTF_8);
        byte[] filler = "y".repeat(300 * 1024).getBytes(StandardCharsets.UTF_8);
        var request = java.net.http.HttpRequest.newBuilder(uri(path))
                .header("Content-Type", "application/json")
                // a publisher of unknown length makes the client send the body chunked
                .POST(java.net.http.HttpRequest.BodyPublishers.ofInputStream(() ->
                        new java.io.SequenceInputStream(new java.io.ByteArrayInputStream(prefix),
                                new java.io.ByteArrayInputStream(filler))))
                .build();

        Response r = send(request);

        assertThat(r.status()).as(r.toString()).isEqualTo(413);
        assertThat(r.json().get("code").asText()).isEqualTo("payload_too_large");
    }

    @Test
    void executeOnASucceededPublicationIsRefused() {
        String ws = newWorkspace("done");
        facebookChannel(ws, "fb-main", "EAAB-token-done");
        String id = send("POST", "/api/v1/workspaces/" + ws + "/publications", body("e-5", 1, "fb-main", "Once"))
                .json().get("publicationId").asText();
        PublicationId publication = new PublicationId(id);
        Instant now = Instant.now();
        int attempt = commands.<AttemptDecision>sendAndWait(new StartAttemptCommand(publication, 0,
                AttemptTrigger.INITIAL, now, Duration.ofMinutes(5), false)).attemptNo();
        commands.sendAndWait(new RecordAttemptSucceededCommand(publication, attempt,
                new ProviderRef("1234567890_1", null),
                new AttemptTrace("fp", "1234567890", now, true, 200, null, null, 5), now));

        Response again = send("POST", "/api/v1/workspaces/" + ws + "/publications/" + id + "/execute", null, null);

        assertThat(again.status()).isEqualTo(409);
        assertThat(again.json().get("code").asText()).isEqualTo("publication_already_succeeded");
        Response intruder = send("POST", "/api/v1/workspaces/" + newWorkspace("other") + "/publications/" + id
                + "/execute", null, null);
        assertThat(intruder.status()).isEqualTo(404);
        assertThat(intruder.json().get("code").asText()).isEqualTo("not_found");
    }

    @Test
    void channelSecretsAppearNowhereOutside() {
        String ws = newWorkspace("secret");
        String token = "EAAB-very-secret-page-token-4711";
        facebookChannel(ws, "fb-secret", token);
        Response channels = send("GET", "/api/v1/workspaces/" + ws + "/channels", null, null);

        assertThat(channels.body()).doesNotContain(token);
        assertThat(jdbc.queryForObject("""
                SELECT count(*) FROM domain_event_entry
                 WHERE position(convert_to(?, 'UTF8') in payload) > 0
                    OR position(convert_to(?, 'UTF8') in coalesce(meta_data, ''::bytea)) > 0""",
                Long.class, token, token)).isZero();
        assertThat(jdbc.queryForObject("""
                SELECT count(*) FROM channel_connection
                 WHERE position(convert_to(?, 'UTF8') in secrets_ciphertext) > 0""", Long.class, token)).isZero();
    }
}
