package io.herald.deploy.channels;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.command.channel.ChannelConnectionService;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.deploy.HeraldIntegrationTest;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A Bluesky connection through the API against the sandbox's PDS: made with a handle and an app
 * password (never shown again), published to, an unknown create settled by reading the record under
 * Herald's key, and an update refused at intake.
 */
class BlueskyChannelIT extends HeraldIntegrationTest {

    private static final AtomicInteger ACCOUNTS = new AtomicInteger();
    private static final String APP_PASSWORD = "bsky-it-app-password";

    @Autowired
    private ChannelConnectionService connections;

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

    /**
     * The check of a new connection runs while Herald holds no database transaction (the PDS is made
     * slow), a second connection of the same workspace meanwhile is 429 with {@code Retry-After} and
     * stores nothing, and another workspace's connection is stored at once.
     */
    @Test
    void theCheckHoldsNoTransactionAndOneWorkspaceChecksOneConnectionAtATime() throws Exception {
        String ws = newWorkspace("bsky-slow");
        String other = newWorkspace("bsky-other");
        String handle = account();
        String otherHandle = account();
        long latency = 3_000;
        sandbox("PUT", "/latency", "{\"millis\":" + latency + "}");
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            Future<Response> slow = pool.submit(() -> connect(ws, "bsky", handle));
            Thread.sleep(latency / 3);
            // the check waits for the PDS now: no connection of Herald's sits in a transaction
            List<String> waiting = jdbc.queryForList("""
                    SELECT state || ': ' || left(query, 120) FROM pg_stat_activity
                    WHERE datname = current_database() AND pid <> pg_backend_pid()
                      AND state LIKE 'idle in transaction%' AND xact_start < now() - interval '500 milliseconds'
                      AND query LIKE '%channel_connection%'
                    """, String.class);
            Response second = connect(ws, "bsky2", handle);
            Future<Response> elsewhere = pool.submit(() -> connect(other, "bsky", otherHandle));

            assertThat(waiting).as("transactions held while the PDS is asked").isEmpty();
            assertThat(second.status()).as(second.toString()).isEqualTo(429);
            assertThat(second.json().get("code").asText()).isEqualTo("rate_limited");
            assertThat(second.retryAfter()).as("Retry-After").isNotBlank();
            assertThat(slow.get(60, TimeUnit.SECONDS).status()).isEqualTo(201);
            assertThat(elsewhere.get(60, TimeUnit.SECONDS).status()).isEqualTo(201);
        } finally {
            sandbox("PUT", "/latency", "{\"millis\":0}");
            pool.shutdownNow();
        }
        assertThat(jdbc.queryForObject("SELECT count(*) FROM channel_connection WHERE workspace_id = ?", Long.class,
                ws)).isEqualTo(1);
        assertThat(eventCount("chn_" + ws + "/bsky2")).isZero();
    }

    /**
     * A change stored while a connection's check waits for the PDS (here the connection's
     * {@code verifyAfterSuccess}, turned on by another request) is not overwritten by the older state
     * the checked {@code PUT} had read: the {@code PUT} is read again against the row and kept.
     */
    @Test
    void aChangeStoredDuringTheCheckIsKept() throws Exception {
        String ws = newWorkspace("bsky-race");
        String first = account();
        String second = account();
        assertThat(connect(ws, "bsky", first).status()).isEqualTo(201);
        sandbox("PUT", "/latency", "{\"millis\":2000}");
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<Response> repointed = pool.submit(() -> connect(ws, "bsky", second));
            Thread.sleep(1_000);
            assertThat(connections.verifyAfterSuccess(new WorkspaceId(ws), new ChannelId("bsky"), true, "other"))
                    .isTrue();
            Response put = repointed.get(60, TimeUnit.SECONDS);
            assertThat(put.status()).as(put.toString()).isEqualTo(200);
            assertThat(put.json().get("verifyAfterSuccess").asBoolean()).as(put.toString()).isTrue();
        } finally {
            sandbox("PUT", "/latency", "{\"millis\":0}");
            pool.shutdownNow();
        }
        Map<String, Object> row = jdbc.queryForMap("SELECT settings::text AS settings, credential_version, "
                + "verify_after_success FROM channel_connection WHERE workspace_id = ? AND channel_id = 'bsky'", ws);
        assertThat(row.get("settings").toString()).contains(second);
        assertThat(row.get("credential_version")).isEqualTo(2L);
        assertThat(row.get("verify_after_success")).isEqualTo(true);
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
