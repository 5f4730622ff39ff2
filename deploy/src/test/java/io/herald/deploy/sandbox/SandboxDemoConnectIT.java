package io.herald.deploy.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.deploy.HeraldIntegrationTest;
import io.herald.sandbox.SandboxDemo;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * With the sandbox on, the demo workspace's {@code fb-demo}, {@code li-demo}, {@code ig-demo} and
 * {@code threads-demo} were connected at start-up through the same OAuth flow an admin's "Connect"
 * button runs (a state started and used, the sandbox's consent, Herald's callback, the Page chosen),
 * are ACTIVE with the demo's Page, member, Instagram account and Threads profile (the long-lived
 * tokens with their expiry), and publish.
 */
class SandboxDemoConnectIT extends HeraldIntegrationTest {

    @Test
    void theDemoChannelsAUserWouldConnectWithTheButtonAreConnectedThroughTheProvidersConsent() throws Exception {
        for (SandboxDemo.ProviderConnect connect : SandboxDemo.throughProviders()) {
            assertThat(jdbc.queryForObject("""
                    SELECT count(*) FROM oauth_connect_state
                     WHERE workspace_id = 'demo' AND channel_id = ? AND stage = 'DONE' AND actor = 'herald-demo'""",
                    Long.class, connect.channelId())).as(connect.channelId()).isPositive();
        }
        // the demo workspace exists already: a key of its own, issued through the system key
        String key = createKey("demo", ALL_ROLES, "demo-connect-test");
        JsonNode channels = poll(key, "/api/v1/workspaces/demo/channels",
                v -> status(v, "fb-demo").equals("ACTIVE") && status(v, "li-demo").equals("ACTIVE")
                        && status(v, "ig-demo").equals("ACTIVE") && status(v, "threads-demo").equals("ACTIVE"));
        assertThat(channel(channels, "fb-demo").path("settings").path("pageId").asText())
                .isEqualTo(SandboxDemo.FACEBOOK_PAGE);
        assertThat(channel(channels, "li-demo").path("settings").path("authorUrn").asText())
                .isEqualTo(SandboxDemo.LINKEDIN_MEMBER);
        assertThat(channel(channels, "ig-demo").path("settings").path("igUserId").asText())
                .isEqualTo(SandboxDemo.INSTAGRAM_USER_ID);
        assertThat(channel(channels, "threads-demo").path("settings").path("threadsUserId").asText())
                .isEqualTo(SandboxDemo.THREADS_USER_ID);
        for (String longLived : new String[] {"ig-demo", "threads-demo"}) {
            assertThat(channel(channels, longLived).path("tokenExpiresAt").asText()).as(longLived).isNotBlank();
        }
        assertThat(channels.findValuesAsText("channelId")).contains("masto-demo", "wp-demo", "bsky-demo");
        // the demo verifies its posts after success, on the channels connected either way
        for (String id : List.of("fb-demo", "li-demo", "masto-demo")) {
            assertThat(channel(channels, id).path("verifyAfterSuccess").asBoolean()).as(id).isTrue();
        }

        String text = "Published through the demo's connected Page " + System.nanoTime();
        Response published = sendAs(key, "POST", "/api/v1/workspaces/demo/publications", "{\"calendarEntryId\":"
                + "\"demo-oauth-" + System.nanoTime() + "\",\"contentVersion\":1,\"channelId\":\"fb-demo\","
                + "\"action\":\"publish\",\"content\":{\"body\":\"" + text + "\"}}", "application/json", Map.of());
        assertThat(published.status()).as(published.toString()).isEqualTo(202);
        poll(key, "/api/v1/workspaces/demo/publications/" + published.json().get("publicationId").asText(),
                v -> v.path("status").asText().equals("SUCCEEDED"));
        assertThat(send("GET", "/sandbox/_truth/demo/fb-demo", null, null).json().findValuesAsText("text"))
                .contains(text);

        String thread = "Published through the demo's connected Threads profile " + System.nanoTime();
        Response threaded = sendAs(key, "POST", "/api/v1/workspaces/demo/publications", "{\"calendarEntryId\":"
                + "\"demo-oauth-threads-" + System.nanoTime() + "\",\"contentVersion\":1,\"channelId\":"
                + "\"threads-demo\",\"action\":\"publish\",\"content\":{\"body\":\"" + thread + "\"}}",
                "application/json", Map.of());
        assertThat(threaded.status()).as(threaded.toString()).isEqualTo(202);
        poll(key, "/api/v1/workspaces/demo/publications/" + threaded.json().get("publicationId").asText(),
                v -> v.path("status").asText().equals("SUCCEEDED"));
    }

    private JsonNode poll(String key, String path, Predicate<JsonNode> until) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        Response last = null;
        while (System.nanoTime() < deadline) {
            last = sendAs(key, "GET", path, null, null, Map.of());
            if (last.status() == 200 && until.test(last.json())) {
                return last.json();
            }
            Thread.sleep(50);
        }
        throw new AssertionError("condition not reached on " + path + "; last answer: " + last);
    }

    private static JsonNode channel(JsonNode channels, String id) {
        for (JsonNode channel : channels) {
            if (channel.path("channelId").asText().equals(id)) {
                return channel;
            }
        }
        return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }

    private static String status(JsonNode channels, String id) {
        return channel(channels, id).path("status").asText();
    }
}
