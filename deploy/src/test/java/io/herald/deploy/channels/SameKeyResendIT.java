package io.herald.deploy.channels;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.deploy.HeraldIntegrationTest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Rule 3's one exception through the API, against the sandbox: a Bluesky create whose answer is
 * lost is sent again at once with the same record key (retry safety {@code client_id}) and ends
 * SUCCEEDED with one post, no read-back in between; the same lost answer on a Facebook Page
 * ({@code read_back}) is still settled by reading back, and never sent again. A Mastodon create
 * ({@code provider_key}) is sent again once with its {@code Idempotency-Key} and makes one status;
 * when the instance answers that repeated key with a 500, the re-send is unknown too and is read
 * back, never sent a third time. None of them is ever in the decision queue.
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
        JsonNode resendDue = resendDueOf(events);
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

    @Test
    void aLostMastodonCreateIsSentAgainOnceWithItsKeyAndMakesOneStatus() {
        String ws = newWorkspace("resend-masto");
        String account = mastodonChannel(ws);
        sandbox("POST", "/mastodon/faults", "{\"accountId\":\"" + account + "\",\"operation\":\"CREATE\","
                + "\"type\":\"ERROR_500_AFTER_CREATE\",\"delayMillis\":0,\"times\":1}");

        String id = publish(ws, "masto", "entry-resend-3", "Sent twice with one key, posted once");
        JsonNode view = awaitOutsideTheDecisionQueue(ws, id, "SUCCEEDED");

        JsonNode attempts = view.get("attempts");
        assertThat(attempts).hasSize(2);
        assertThat(attempts.get(0).get("outcome").asText()).isEqualTo("OUTCOME_UNKNOWN");
        assertThat(attempts.get(1).get("trigger").asText()).isEqualTo("RESEND_SAME_KEY");
        assertThat(attempts.get(1).get("outcome").asText()).isEqualTo("SUCCEEDED");
        assertThat(view.get("reconciliations")).isEmpty();
        JsonNode statuses = mastodonStatuses(account);
        assertThat(statuses).hasSize(1);
        assertThat(statuses.get(0).get("id").asText()).isEqualTo(view.get("providerRef").get("id").asText());
        List<String> sent = mastodonCreateKeys(account);
        assertThat(sent).hasSize(2).doesNotContainNull();
        assertThat(sent.get(1)).isEqualTo(sent.get(0));

        JsonNode resendDue = resendDueOf(events(ws, id));
        assertThat(resendDue.get("retrySafety").asText()).isEqualTo("provider_key");
        assertThat(resendDue.get("resendNo").asInt()).isEqualTo(1);
        assertThat(resendDue.get("resendUntil").asText()).isNotBlank();
        assertThat(breachesOf(ws, id)).isEmpty();
    }

    @Test
    void aRepeatedKeyAnsweredWith500IsReadBackAndNeverSentAThirdTime() {
        String ws = newWorkspace("resend-masto-500");
        String account = mastodonChannel(ws);
        sandbox("POST", "/mastodon/faults", "{\"accountId\":\"" + account + "\",\"operation\":\"CREATE\","
                + "\"type\":\"ERROR_500_AFTER_CREATE\",\"delayMillis\":0,\"times\":1}");
        sandbox("PUT", "/mastodon/repeated-key-error", "{\"enabled\":true}");
        try {
            String id = publish(ws, "masto", "entry-resend-4", "The key is repeated, the answer is a 500");
            JsonNode view = awaitOutsideTheDecisionQueue(ws, id, "SUCCEEDED");

            JsonNode attempts = view.get("attempts");
            assertThat(attempts).hasSize(2);
            assertThat(attempts.get(0).get("outcome").asText()).isEqualTo("OUTCOME_UNKNOWN");
            assertThat(attempts.get(1).get("trigger").asText()).isEqualTo("RESEND_SAME_KEY");
            assertThat(attempts.get(1).get("outcome").asText()).isEqualTo("OUTCOME_UNKNOWN");
            assertThat(view.get("reconciliations")).hasSize(1);
            assertThat(view.get("reconciliations").get(0).get("result").asText()).isEqualTo("FOUND");
            JsonNode statuses = mastodonStatuses(account);
            assertThat(statuses).hasSize(1);
            assertThat(statuses.get(0).get("id").asText()).isEqualTo(view.get("providerRef").get("id").asText());
            List<String> sent = mastodonCreateKeys(account);
            assertThat(sent).hasSize(2).doesNotContainNull();
            assertThat(sent.get(1)).isEqualTo(sent.get(0));
            assertThat(events(ws, id).stream()
                    .filter(e -> e.get("type").asText().endsWith("PublicationResendDueEvent"))).hasSize(1);
            assertThat(breachesOf(ws, id)).isEmpty();
        } finally {
            sandbox("PUT", "/mastodon/repeated-key-error", "{\"enabled\":false}");
        }
    }

    /** A Mastodon account on the sandbox's instance and the workspace's channel {@code masto} to it; its id. */
    private String mastodonChannel(String ws) {
        String token = "masto-resend-token-" + ACCOUNTS.incrementAndGet() + "-" + System.nanoTime();
        String account = send("POST", "/sandbox/_admin/mastodon/accounts", "{\"username\":\"resend"
                + ACCOUNTS.incrementAndGet() + "\",\"token\":\"" + token + "\"}").json().get("id").asText();
        Response put = send("PUT", "/api/v1/workspaces/" + ws + "/channels/masto", "{\"type\":\"mastodon\","
                + "\"instanceUrl\":\"http://localhost:" + port + "/sandbox/mastodon\",\"accessToken\":\"" + token
                + "\"}");
        assertThat(put.status()).as(put.toString()).isEqualTo(201);
        return account;
    }

    private JsonNode mastodonStatuses(String account) {
        return send("GET", "/sandbox/_admin/mastodon/accounts/" + account + "/statuses", null, null).json();
    }

    /** The {@code Idempotency-Key} of every create the instance received from the account, oldest first. */
    private List<String> mastodonCreateKeys(String account) {
        List<String> keys = new ArrayList<>();
        send("GET", "/sandbox/_admin/mastodon/accounts/" + account + "/creates", null, null).json()
                .forEach(create -> keys.add(create.get("idempotencyKey").isNull() ? null
                        : create.get("idempotencyKey").asText()));
        return keys;
    }

    /** Waits for the status, asking the decision queue on every look: the publication is never in it. */
    private JsonNode awaitOutsideTheDecisionQueue(String ws, String id, String status) {
        AtomicBoolean queued = new AtomicBoolean();
        JsonNode view = awaitJson(publications(ws) + "/" + id, v -> {
            Response decisions = send("GET", "/api/v1/workspaces/" + ws + "/decisions", null, null);
            assertThat(decisions.status()).as(decisions.toString()).isEqualTo(200);
            if (decisions.body().contains(id)) {
                queued.set(true);
            }
            return v.get("status").asText().equals(status);
        });
        assertThat(queued).as("listed in the decision queue").isFalse();
        assertThat(view.get("needsDecision").asBoolean()).isFalse();
        return view;
    }

    private static JsonNode resendDueOf(List<JsonNode> events) {
        return events.stream().filter(e -> e.get("type").asText().endsWith("PublicationResendDueEvent"))
                .map(e -> e.get("payload")).findFirst().orElseThrow(() -> new AssertionError("no re-send event"));
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
