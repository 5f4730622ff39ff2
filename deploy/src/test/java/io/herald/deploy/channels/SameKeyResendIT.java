package io.herald.deploy.channels;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.deploy.HeraldIntegrationTest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Rule 3's one exception through the API, against the sandbox: a Bluesky create whose answer is
 * lost is sent again at once with the same record key (retry safety {@code client_id}) and ends
 * SUCCEEDED with one post, no read-back in between; the same lost answer on a Facebook Page
 * ({@code read_back}) is still settled by reading back, and never sent again.
 */
class SameKeyResendIT extends HeraldIntegrationTest {

    private static final AtomicInteger ACCOUNTS = new AtomicInteger();
    private static final AtomicInteger PAGES = new AtomicInteger(7100);
    private static final String APP_PASSWORD = "bsky-resend-app-password";

    @Test
    void aLostBlueskyCreateIsSentAgainWithTheSameKeyAndMakesOnePost() {
        String ws = newWorkspace("resend-bsky");
        String handle = "resend" + ACCOUNTS.incrementAndGet() + "-" + System.nanoTime() % 100_000 + ".bsky.test";
        sandbox("POST", "/bluesky/accounts", "{\"handle\":\"" + handle + "\",\"appPassword\":\"" + APP_PASSWORD
                + "\"}");
        Response put = send("PUT", "/api/v1/workspaces/" + ws + "/channels/bsky", "{\"type\":\"bluesky\","
                + "\"handle\":\"" + handle + "\",\"appPassword\":\"" + APP_PASSWORD + "\",\"pdsUrl\":\"http://localhost:"
                + port + "/sandbox/bluesky\"}");
        assertThat(put.status()).as(put.toString()).isEqualTo(201);
        // the PDS writes the record, then a proxy in front of it answers 502: the answer is lost
        sandbox("POST", "/bluesky/faults", "{\"handle\":\"" + handle + "\",\"method\":\"com.atproto.repo.putRecord\","
                + "\"type\":\"ERROR_5XX_WITH_EFFECT\",\"delayMillis\":0,\"times\":1}");

        String id = publish(ws, "bsky", "entry-resend-1", "Sent twice, posted once");
        JsonNode view = awaitJson(publications(ws) + "/" + id, v -> v.get("status").asText().equals("SUCCEEDED"));

        JsonNode attempts = view.get("attempts");
        assertThat(attempts).hasSize(2);
        assertThat(attempts.get(0).get("outcome").asText()).isEqualTo("OUTCOME_UNKNOWN");
        assertThat(attempts.get(1).get("trigger").asText()).isEqualTo("RESEND_SAME_KEY");
        assertThat(attempts.get(1).get("outcome").asText()).isEqualTo("SUCCEEDED");
        // the same request, byte for byte: the same record key and createdAt
        assertThat(attempts.get(1).get("requestFingerprint").asText())
                .isNotBlank().isEqualTo(attempts.get(0).get("requestFingerprint").asText());
        assertThat(view.get("reconciliations")).isEmpty();

        JsonNode records = send("GET", "/sandbox/_admin/bluesky/accounts/" + handle, null, null).json()
                .get("records");
        assertThat(records).hasSize(1);
        assertThat(records.get(0).get("uri").asText()).isEqualTo(view.get("providerRef").get("id").asText());

        List<JsonNode> events = events(ws, id);
        JsonNode resendDue = events.stream().filter(e -> e.get("type").asText().endsWith("PublicationResendDueEvent"))
                .map(e -> e.get("payload")).findFirst().orElseThrow(() -> new AssertionError("no re-send event"));
        assertThat(resendDue.get("retrySafety").asText()).isEqualTo("client_id");
        assertThat(resendDue.get("unknownAttemptNo").asInt()).isEqualTo(1);
        assertThat(resendDue.get("attemptNo").asInt()).isEqualTo(2);
        List<String> keys = events.stream().filter(e -> e.get("type").asText().endsWith("PublicationAttemptedEvent"))
                .map(e -> e.get("payload").get("idempotencyKey").asText()).toList();
        assertThat(keys).containsExactly(id, id);
        assertThat(resendDue.get("idempotencyKey").asText()).isEqualTo(id);
        assertThat(breachesOf(ws, id)).isEmpty();
    }

    @Test
    void aLostFacebookCreateIsStillReadBackAndNeverSentAgain() {
        String ws = newWorkspace("resend-fb");
        String page = String.valueOf(PAGES.incrementAndGet());
        String token = "EAAB-resend-page-" + page;
        sandbox("POST", "/facebook/tokens", "{\"token\":\"" + token + "\",\"pageId\":\"" + page
                + "\",\"kind\":\"PAGE\"}");
        Response put = send("PUT", "/api/v1/workspaces/" + ws + "/channels/fb", "{\"type\":\"facebook\",\"pageId\":\""
                + page + "\",\"pageAccessToken\":\"" + token + "\"}");
        assertThat(put.status()).as(put.toString()).isIn(200, 201);
        sandbox("POST", "/faults", "{\"provider\":\"facebook\",\"target\":\"" + page
                + "\",\"type\":\"ERROR_5XX_WITH_EFFECT\",\"operation\":\"PUBLISH\",\"times\":1}");

        String id = publish(ws, "fb", "entry-resend-2", "Read back, not sent again");
        JsonNode view = awaitJson(publications(ws) + "/" + id, v -> v.get("status").asText().equals("SUCCEEDED"));

        assertThat(view.get("attempts")).hasSize(1);
        assertThat(view.get("attempts").get(0).get("outcome").asText()).isEqualTo("OUTCOME_UNKNOWN");
        assertThat(view.get("reconciliations")).hasSize(1);
        assertThat(view.get("reconciliations").get(0).get("result").asText()).isEqualTo("FOUND");
        assertThat(sandboxTruth("facebook", page)).hasSize(1);
        assertThat(events(ws, id)).noneMatch(e -> e.get("type").asText().endsWith("PublicationResendDueEvent"));
        assertThat(breachesOf(ws, id)).isEmpty();
    }

    private static String publications(String ws) {
        return "/api/v1/workspaces/" + ws + "/publications";
    }

    private String publish(String ws, String channel, String entry, String text) {
        Response r = send("POST", publications(ws), """
                {"calendarEntryId":"%s","contentVersion":1,"channelId":"%s","action":"publish",
                 "content":{"body":"%s"}}""".formatted(entry, channel, text));
        assertThat(r.status()).as(r.toString()).isEqualTo(202);
        return r.json().get("publicationId").asText();
    }

    private List<JsonNode> events(String ws, String id) {
        Response r = send("GET", publications(ws) + "/" + id + "/events", null, null);
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        JsonNode body = r.json();
        JsonNode list = body.isArray() ? body : body.get("events");
        List<JsonNode> events = new ArrayList<>();
        list.forEach(events::add);
        return events;
    }

    private List<JsonNode> breachesOf(String ws, String id) {
        JsonNode all = awaitJson("/api/v1/workspaces/" + ws + "/audit/verify", b -> true);
        List<JsonNode> mine = new ArrayList<>();
        all.forEach(b -> {
            if (id.equals(b.path("publicationId").asText())) {
                mine.add(b);
            }
        });
        return mine;
    }
}
