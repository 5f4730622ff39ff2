package io.herald.deploy.channels;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.deploy.HeraldIntegrationTest;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A Bluesky connection through the API against the sandbox's PDS: made with a handle and an app
 * password (never shown again), published to, an unknown create settled by reading the record under
 * Herald's key, and an update refused at intake.
 */
class BlueskyChannelIT extends HeraldIntegrationTest {

    private static final AtomicInteger ACCOUNTS = new AtomicInteger();
    private static final String APP_PASSWORD = "bsky-it-app-password";

    @Test
    void aConnectionPublishesAndAnUnknownCreateIsFoundUnderItsKey() {
        String ws = newWorkspace("bsky");
        String handle = account();
        Response put = connect(ws, "bsky", handle);
        assertThat(put.status()).as(put.toString()).isEqualTo(201);
        assertThat(put.body()).doesNotContain(APP_PASSWORD);
        JsonNode caps = put.json().get("capabilities");
        assertThat(caps.get("publish").get("available").asBoolean()).as(put.toString()).isTrue();
        assertThat(caps.get("reconcile").get("available").asBoolean()).isTrue();

        String published = publish(ws, "entry-bsky-1", "Hello from Herald https://example.com/herald");
        JsonNode succeeded = awaitJson(publications(ws) + "/" + published,
                v -> v.get("status").asText().equals("SUCCEEDED"));
        String uri = succeeded.get("providerRef").get("id").asText();
        assertThat(uri).startsWith("at://did:").contains("/app.bsky.feed.post/");
        assertThat(succeeded.get("providerRef").get("url").asText())
                .startsWith("https://bsky.app/profile/" + handle + "/post/");

        sandbox("POST", "/bluesky/faults", "{\"handle\":\"" + handle + "\",\"method\":\"com.atproto.repo.putRecord\","
                + "\"type\":\"ERROR_5XX_WITH_EFFECT\",\"delayMillis\":0,\"times\":1}");
        String landed = publish(ws, "entry-bsky-2", "Landed despite the 502");
        JsonNode found = awaitJson(publications(ws) + "/" + landed, v -> v.get("status").asText().equals("SUCCEEDED"));
        assertThat(found.get("attempts").get(0).get("outcome").asText()).isEqualTo("OUTCOME_UNKNOWN");
        assertThat(found.get("providerRef").get("id").asText()).contains("/app.bsky.feed.post/");

        JsonNode records = send("GET", "/sandbox/_admin/bluesky/accounts/" + handle, null, null).json().get("records");
        assertThat(records).hasSize(2);
        assertThat(send("GET", "/api/v1/workspaces/" + ws + "/channels", null, null).body())
                .doesNotContain(APP_PASSWORD);
    }

    @Test
    void anUpdateIsRefusedAtIntakeAndANewHandleNeedsTheAppPasswordAgain() {
        String ws = newWorkspace("bsky-rules");
        String handle = account();
        assertThat(connect(ws, "bsky", handle).status()).isEqualTo(201);

        Response update = send("POST", publications(ws), """
                {"calendarEntryId":"entry-u","contentVersion":1,"channelId":"bsky","action":"update",
                 "content":{"body":"edited"}}""");
        Response tooLong = send("POST", publications(ws), """
                {"calendarEntryId":"entry-long","contentVersion":1,"channelId":"bsky","action":"publish",
                 "content":{"body":"%s"}}""".formatted("a".repeat(301)));
        Response repointed = send("PUT", "/api/v1/workspaces/" + ws + "/channels/bsky",
                "{\"type\":\"bluesky\",\"handle\":\"other.bsky.test\",\"pdsUrl\":\"" + pdsUrl() + "\"}");
        Response foreign = send("PUT", "/api/v1/workspaces/" + ws + "/channels/bsky2",
                "{\"type\":\"bluesky\",\"handle\":\"" + handle + "\",\"appPassword\":\"x\",\"siteUrl\":\"http://x\"}");

        assertThat(update.status()).as(update.toString()).isEqualTo(400);
        assertThat(update.json().get("code").asText()).isEqualTo("action_not_supported");
        assertThat(update.body()).contains("bluesky");
        assertThat(tooLong.json().get("code").asText()).isEqualTo("validation_failed");
        assertThat(tooLong.status()).as(tooLong.toString()).isEqualTo(400);
        assertThat(tooLong.body()).contains("content.body").contains("300");
        assertThat(repointed.status()).as(repointed.toString()).isEqualTo(400);
        assertThat(repointed.body()).contains("appPassword");
        assertThat(foreign.status()).as(foreign.toString()).isEqualTo(400);
        assertThat(foreign.body()).contains("siteUrl");
    }

    @Test
    void aHandleThatDoesNotResolveOrAWrongAppPasswordIsRefusedAndNothingIsStored() {
        String ws = newWorkspace("bsky-check");
        String handle = account();

        Response unknown = connect(ws, "bsky", "nobody-" + System.nanoTime() + ".bsky.test");
        Response wrongPassword = send("PUT", "/api/v1/workspaces/" + ws + "/channels/bsky2", "{\"type\":\"bluesky\","
                + "\"handle\":\"" + handle + "\",\"appPassword\":\"not-the-app-password\",\"pdsUrl\":\"" + pdsUrl()
                + "\"}");
        Response unreachable = send("PUT", "/api/v1/workspaces/" + ws + "/channels/bsky3", "{\"type\":\"bluesky\","
                + "\"handle\":\"" + handle + "\",\"appPassword\":\"" + APP_PASSWORD
                + "\",\"pdsUrl\":\"http://localhost:1/sandbox/bluesky\"}");

        assertThat(unknown.status()).as(unknown.toString()).isEqualTo(400);
        assertThat(unknown.json().get("code").asText()).isEqualTo("validation_failed");
        assertThat(unknown.json().get("errors").get(0).get("field").asText()).isEqualTo("handle");
        assertThat(unknown.json().get("errors").get(0).get("message").asText()).contains("bluesky")
                .contains("Unable to resolve handle");
        assertThat(wrongPassword.status()).as(wrongPassword.toString()).isEqualTo(400);
        assertThat(wrongPassword.json().get("code").asText()).isEqualTo("validation_failed");
        assertThat(wrongPassword.json().get("errors").get(0).get("field").asText()).isEqualTo("appPassword");
        assertThat(wrongPassword.body()).contains("bluesky").doesNotContain("not-the-app-password");
        assertThat(unreachable.status()).as(unreachable.toString()).isEqualTo(503);
        assertThat(unreachable.json().get("code").asText()).isEqualTo("unavailable");
        assertThat(unreachable.body()).contains("bluesky").contains("nothing was stored");
        Response listed = send("GET", "/api/v1/workspaces/" + ws + "/channels", null, null);
        assertThat(listed.status()).as(listed.toString()).isEqualTo(200);
        assertThat(listed.body()).doesNotContain("bsky");
        for (String channel : new String[] {"bsky", "bsky2", "bsky3"}) {
            assertThat(eventCount("chn_" + ws + "/" + channel)).isZero();
        }
        assertThat(jdbc.queryForObject("SELECT count(*) FROM channel_connection WHERE workspace_id = ?", Long.class,
                ws)).isZero();

        // the same connection with a handle that resolves and its app password is stored
        assertThat(connect(ws, "bsky", handle).status()).isEqualTo(201);
        assertThat(eventCount("chn_" + ws + "/bsky")).isPositive();
    }

    private String account() {
        String handle = "herald" + ACCOUNTS.incrementAndGet() + "-" + System.nanoTime() % 100_000 + ".bsky.test";
        sandbox("POST", "/bluesky/accounts", "{\"handle\":\"" + handle + "\",\"appPassword\":\"" + APP_PASSWORD + "\"}");
        return handle;
    }

    private Response connect(String ws, String channel, String handle) {
        return send("PUT", "/api/v1/workspaces/" + ws + "/channels/" + channel, "{\"type\":\"bluesky\",\"handle\":\""
                + handle + "\",\"appPassword\":\"" + APP_PASSWORD + "\",\"pdsUrl\":\"" + pdsUrl() + "\"}");
    }

    private String pdsUrl() {
        return "http://localhost:" + port + "/sandbox/bluesky";
    }

    private static String publications(String ws) {
        return "/api/v1/workspaces/" + ws + "/publications";
    }

    private String publish(String ws, String entry, String text) {
        Response r = send("POST", publications(ws), """
                {"calendarEntryId":"%s","contentVersion":1,"channelId":"bsky","action":"publish",
                 "content":{"body":"%s"}}""".formatted(entry, text));
        assertThat(r.status()).as(r.toString()).isEqualTo(202);
        return r.json().get("publicationId").asText();
    }
}
