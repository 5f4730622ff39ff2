package io.herald.deploy.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.herald.deploy.HeraldIntegrationTest;
import io.herald.deploy.SandboxLoopback;
import io.herald.deploy.process.HeraldProcess;
import io.herald.deploy.webhooks.WebhookReceiver;
import io.herald.testsupport.TestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;

/**
 * A LinkedIn API version that LinkedIn retires, on a Herald process restarted with another one:
 * the probe warns of the sunset ahead of the date ({@code channel.version_expiring}, the channel
 * listing's {@code apiVersion}); once the sandbox answers 426 {@code NONEXISTENT_VERSION}, the
 * refused publication and every other one due on the connection are HELD with reason
 * {@code api_version}, and nothing reaches LinkedIn; the same database served by a process
 * configured with a current version resumes them, each published exactly once.
 */
class ApiVersionRetirementIT extends HeraldIntegrationTest {

    private static final String KEY = "hs.api-version-test-system-key-abcdefghijklmnopqrstuvwxyz0123";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int PUBLICATIONS = 3;
    /** Both versions are known to the plug-in; the older one's sunset (2027-10-01) is within the test's warning window. */
    private static final String OLD_VERSION = "202610";
    private static final String NEW_VERSION = "202611";

    @Test
    void aRetiredVersionHoldsTheConnectionAndAnotherVersionResumesIt() throws Exception {
        TestDatabase database = TestDatabase.shared().freshSibling();
        String author = "urn:li:person:apiversion" + (System.nanoTime() % 10_000_000);
        String token = "AQX-api-version-" + author.hashCode();
        sandbox("POST", "/linkedin/tokens", "{\"token\":\"" + token + "\",\"author\":\"" + author
                + "\",\"scopes\":[\"w_member_social\",\"r_member_social\"]}");
        WebhookReceiver receiver = new WebhookReceiver();
        receiver.start();
        HeraldProcess old = node(database, OLD_VERSION, "400d", "old");
        HeraldProcess current = node(database, NEW_VERSION, "60d", "new");
        String ws = "apiversion" + (System.nanoTime() % 100_000);
        String channels = "/api/v1/workspaces/" + ws + "/channels";
        try {
            old.start();
            old.call(KEY, "POST", "/api/v1/admin/workspaces", "{\"workspaceId\":\"" + ws + "\",\"name\":\"api version\"}");
            String key = old.call(KEY, "POST", "/api/v1/workspaces/" + ws + "/keys",
                    "{\"roles\":[\"publisher\",\"operator\",\"admin\"],\"label\":\"versions\"}").get("key").asText();
            old.call(key, "PUT", "/api/v1/workspaces/" + ws + "/webhooks/calendar",
                    "{\"url\":\"" + receiver.url("/hooks") + "\",\"events\":[\"channel.version_expiring\"]}");
            awaitOn("the subscription reaches the projection", () -> old.call(key, "GET",
                    "/api/v1/workspaces/" + ws + "/webhooks", null).path("items").size() == 1);

            // the probe of a new connection records the version and warns: its sunset is within the window
            old.call(key, "PUT", channels + "/li", "{\"type\":\"linkedin\",\"authorUrn\":\"" + author
                    + "\",\"accessToken\":\"" + token + "\",\"scopes\":[\"w_member_social\",\"r_member_social\"]}");
            JsonNode expiring = awaitChannel(old, key, channels, c -> "EXPIRING".equals(
                    c.path("apiVersion").path("state").asText()));
            assertThat(expiring.path("apiVersion").path("version").asText()).isEqualTo(OLD_VERSION);
            assertThat(expiring.path("apiVersion").path("sunsetAt").asText()).isEqualTo("2027-10-01T00:00:00Z");
            awaitOn("the channel.version_expiring webhook", () -> receiver.received().size() == 1);
            JsonNode hook = JSON.readTree(receiver.received().get(0).body());
            assertThat(hook.path("type").asText()).isEqualTo("channel.version_expiring");
            assertThat(hook.toString()).contains("\"channelId\":\"li\"", OLD_VERSION);

            // LinkedIn retires the version: nothing is written, and the connection's publications wait
            sandbox("POST", "/linkedin/retired-versions", "{\"author\":\"" + author + "\",\"upTo\":\"" + OLD_VERSION
                    + "\"}");
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < PUBLICATIONS; i++) {
                ids.add(old.call(key, "POST", "/api/v1/workspaces/" + ws + "/publications",
                        "{\"calendarEntryId\":\"version-entry-" + i + "\",\"contentVersion\":1,\"channelId\":\"li\","
                                + "\"action\":\"publish\",\"content\":{\"body\":\"Version post " + i + "\"}}")
                        .get("publicationId").asText());
            }
            for (String id : ids) {
                JsonNode held = awaitPublication(old, key, ws, id, "HELD");
                assertThat(held.path("heldReason").asText()).as(id)
                        .startsWith("API version retired; update herald.channels.linkedin.version");
            }
            JsonNode retired = awaitChannel(old, key, channels, c -> c.path("heldPublications").asInt() == PUBLICATIONS);
            assertThat(retired.path("apiVersion").path("state").asText()).isEqualTo("RETIRED");
            assertThat(retired.path("status").asText()).as("the credentials still work").isEqualTo("ACTIVE");
            assertThat(sandboxTruth("linkedin", author).size()).as("posts at LinkedIn").isZero();
            old.stop();

            // the operator configures a current version and restarts: the held publications resume
            current.start();
            for (String id : ids) {
                awaitPublication(current, key, ws, id, "SUCCEEDED");
            }
            JsonNode resumed = awaitChannel(current, key, channels, c -> c.path("heldPublications").asInt() == 0);
            assertThat(resumed.path("apiVersion").path("version").asText()).isEqualTo(NEW_VERSION);
            assertThat(resumed.path("apiVersion").path("state").asText()).isEqualTo("CURRENT");
            // every attempt started took from the member's daily budget: the posts and the one to three refused
            JsonNode budget = resumed.path("budget");
            assertThat(budget.path("source").asText()).isEqualTo("quota");
            assertThat(budget.path("remaining").asInt()).isBetween(150 - 2 * PUBLICATIONS, 150 - PUBLICATIONS - 1);
            assertThat(java.time.Instant.parse(budget.path("resetsAt").asText()))
                    .isEqualTo(java.time.LocalDate.now(java.time.ZoneOffset.UTC).plusDays(1).atStartOfDay()
                            .toInstant(java.time.ZoneOffset.UTC));
            JsonNode posts = sandboxTruth("linkedin", author);
            List<String> texts = new ArrayList<>();
            posts.forEach(p -> texts.add(p.path("text").asText()));
            assertThat(texts).as("each publication posted exactly once")
                    .containsExactlyInAnyOrder("Version post 0", "Version post 1", "Version post 2");
            assertThat(receiver.received()).as("the new version is far from its sunset: no further warning")
                    .hasSize(1);
        } finally {
            old.stop();
            current.stop();
            receiver.stop();
        }
    }

    private static HeraldProcess node(TestDatabase database, String version, String warning, String name)
            throws Exception {
        Path log = Path.of("target", "api-version-" + name + ".log");
        Files.deleteIfExists(log);
        return new HeraldProcess(List.of(
                "--spring.datasource.url=" + database.jdbcUrl(),
                "--herald.secrets.encryption-key=MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
                "--herald.audit.signing-key=YXVkaXQtc2lnbmluZy1rZXktZm9yLXRlc3RzLTAxMjM=",
                "--herald.security.system-key=" + KEY,
                "--herald.security.rate-limit.limit-for-period=100000",
                "--herald.outbound.allow-private-networks=true",
                "--herald.channels.linkedin.api-base-url=http://localhost:" + SandboxLoopback.port()
                        + "/sandbox/linkedin",
                "--herald.channels.linkedin.version=" + version,
                "--herald.channels.version-warning=" + warning,
                "--herald.webhooks.poll-interval=200ms"), log);
    }

    private static JsonNode awaitChannel(HeraldProcess node, String key, String path,
                                         java.util.function.Predicate<JsonNode> until) throws Exception {
        JsonNode[] last = new JsonNode[1];
        awaitOn("the channel view " + path, () -> {
            JsonNode items = node.call(key, "GET", path, null);
            JsonNode list = items.isArray() ? items : items.path("items");
            last[0] = list.size() == 1 ? list.get(0) : null;
            return last[0] != null && until.test(last[0]);
        });
        return last[0];
    }

    private static JsonNode awaitPublication(HeraldProcess node, String key, String ws, String id, String status)
            throws Exception {
        JsonNode[] last = new JsonNode[1];
        awaitOn(id + " " + status, () -> {
            last[0] = node.call(key, "GET", "/api/v1/workspaces/" + ws + "/publications/" + id, null);
            return status.equals(last[0].path("status").asText());
        });
        return last[0];
    }

    private static void awaitOn(String what, Callable<Boolean> condition) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        Exception lastFailure = null;
        while (System.nanoTime() < deadline) {
            try {
                if (Boolean.TRUE.equals(condition.call())) {
                    return;
                }
            } catch (Exception | AssertionError e) {
                lastFailure = e instanceof Exception ex ? ex : new IllegalStateException(e);
            }
            Thread.sleep(200);
        }
        throw new AssertionError("not reached within 60 s: " + what, lastFailure);
    }
}
