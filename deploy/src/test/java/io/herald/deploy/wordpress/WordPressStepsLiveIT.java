package io.herald.deploy.wordpress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.herald.deploy.HeraldIntegrationTest;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The whole application publishing to the real local WordPress site with Herald's mu-plugin (as
 * {@code .ci/wordpress.sh} sets it up): an image through Herald's media, a post that makes it the
 * featured image, an update and a delete, each checked on the site with a direct REST call. A fault
 * proxy in front of the site loses an update's first try. Without the site every test is skipped.
 */
class WordPressStepsLiveIT extends HeraldIntegrationTest {

    /** Longer than the test's WordPress read timeout (2 s): Herald gives up on the first try. */
    private static final Duration LOST = Duration.ofSeconds(4);
    private static final ObjectMapper READER = new ObjectMapper();
    private static final AtomicInteger SEEDS = new AtomicInteger();

    private static String skip;
    private static LocalWordPress.Site site;

    private String ws;

    @BeforeEach
    void setUp() throws IOException, InterruptedException {
        if (site == null && skip == null) {
            findSite();
        }
        assumeTrue(skip == null, WordPressStepsLiveIT::message);
        ws = newWorkspace("wp-live-steps");
    }

    @Test
    void aPostWithAFeaturedImageIsUpdatedAndThenDeletedOnTheRealSite() throws Exception {
        connect(site.url());
        String marker = UUID.randomUUID().toString().substring(0, 8);
        String alt = "Gradient test card " + marker;
        String mediaId = image();

        JsonNode published = awaitStatus(accepted(request("entry-live", 1, "publish", "{\"title\":\"Live "
                + marker + "\",\"body\":\"First text " + marker + "\",\"media\":[{\"mediaId\":\"" + mediaId
                + "\",\"altText\":\"" + alt + "\"}]}")), "SUCCEEDED");

        String postId = published.get("providerRef").get("id").asText();
        JsonNode post = postOnTheSite(postId);
        assertThat(post.path("status").asText()).isEqualTo("publish");
        long featured = post.path("featured_media").asLong();
        assertThat(featured).as("featured_media of post %s", postId).isPositive();
        JsonNode attachment = json(site.get("/wp/v2/media/" + featured + "&context=edit"), 200);
        assertThat(attachment.path("mime_type").asText()).isEqualTo("image/png");
        assertThat(attachment.path("alt_text").asText()).isEqualTo(alt);
        String content = post.path("content").path("raw").asText();
        assertThat(content).contains("First text " + marker)
                .contains("alt=\"" + alt + "\"")
                .contains("wp-image-" + featured)
                .contains(attachment.path("source_url").asText());

        JsonNode updated = awaitStatus(accepted(request("entry-live", 2, "update", "{\"title\":\"Live " + marker
                + " fixed\",\"body\":\"Second text " + marker + "\"}")), "SUCCEEDED");

        assertThat(updated.get("targetRef").get("id").asText()).isEqualTo(postId);
        post = postOnTheSite(postId);
        assertThat(post.path("title").path("raw").asText()).isEqualTo("Live " + marker + " fixed");
        assertThat(post.path("content").path("raw").asText()).contains("Second text " + marker)
                .doesNotContain("First text");
        assertThat(post.path("featured_media").asLong()).as("the update leaves the featured image").isEqualTo(featured);

        JsonNode deleted = awaitStatus(accepted(request("entry-live", 3, "delete", null)), "SUCCEEDED");

        assertThat(deleted.get("targetRef").get("id").asText()).isEqualTo(postId);
        assertThat(postOnTheSite(postId).path("status").asText()).as("a deleted post is in the trash")
                .isEqualTo("trash");
        HttpResponse<String> publicRead = anonymousRead(postId);
        assertThat(publicRead.statusCode()).as("readers no longer see post %s", postId).isIn(401, 403, 404, 410);
        Response refused = request("entry-live", 4, "update", "{\"body\":\"Too late\"}");
        assertThat(refused.status()).as(refused.toString()).isEqualTo(409);
        assertThat(refused.json().get("code").asText()).isEqualTo("nothing_to_change");
        assertVerifiedClean();
    }

    @Test
    void anUpdateWhoseFirstTryIsLostIsReadBackAndSentAgainOnce() throws Exception {
        try (FaultProxy proxy = new FaultProxy(URI.create(site.url()))) {
            connect(proxy.url());
            String marker = UUID.randomUUID().toString().substring(0, 8);
            JsonNode published = awaitStatus(accepted(request("entry-lost", 1, "publish",
                    "{\"title\":\"Lost " + marker + "\",\"body\":\"Frist text " + marker + "\"}")), "SUCCEEDED");
            String postId = published.get("providerRef").get("id").asText();
            proxy.dropRequests("POST", Pattern.compile("rest_route=/wp/v2/posts/" + postId), 1, LOST);

            String update = accepted(request("entry-lost", 2, "update",
                    "{\"title\":\"Lost " + marker + "\",\"body\":\"First text " + marker + "\"}"));

            JsonNode view = awaitStatus(update, "SUCCEEDED");
            assertThat(view.get("attempts")).hasSize(2);
            assertThat(view.get("attempts").get(0).get("outcome").asText()).isEqualTo("OUTCOME_UNKNOWN");
            assertThat(view.get("reconciliations").get(0).get("result").asText()).isEqualTo("NOT_FOUND");
            assertThat(proxy.matchingRequests()).as("the lost update and the one sent again").isEqualTo(2);
            JsonNode post = postOnTheSite(postId);
            assertThat(post.path("content").path("raw").asText()).isEqualTo("First text " + marker);
            assertThat(post.path("status").asText()).isEqualTo("publish");
            assertVerifiedClean();
        }
    }

    // --- Herald

    private void connect(String siteUrl) {
        Response put = send("PUT", "/api/v1/workspaces/" + ws + "/channels/wp", json.createObjectNode()
                .put("type", "wordpress").put("siteUrl", siteUrl).put("username", site.username())
                .put("applicationPassword", site.applicationPassword()).toString());
        assertThat(put.status()).as(put.toString()).isIn(200, 201);
    }

    private String image() throws IOException {
        Response created = sendBytesAs(keyFor("/api/v1/workspaces/" + ws), "POST", "/api/v1/workspaces/" + ws
                + "/media", PublisherLiveTestBase.png(1000 + SEEDS.incrementAndGet()), "image/png", Map.of());
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        return created.json().get("mediaId").asText();
    }

    private Response request(String entry, long version, String action, String content) {
        return send("POST", "/api/v1/workspaces/" + ws + "/publications", """
                {"calendarEntryId":"%s","contentVersion":%d,"channelId":"wp","action":"%s"%s}"""
                .formatted(entry, version, action, content == null ? "" : ",\"content\":" + content));
    }

    private static String accepted(Response r) {
        assertThat(r.status()).as(r.toString()).isEqualTo(202);
        return r.json().get("publicationId").asText();
    }

    private JsonNode awaitStatus(String id, String status) {
        return awaitJson("/api/v1/workspaces/" + ws + "/publications/" + id,
                view -> view.get("status").asText().equals(status));
    }

    /** The auditor's replay of the workspace's histories finds no breach. */
    private void assertVerifiedClean() {
        Response verify = send("GET", "/api/v1/workspaces/" + ws + "/audit/verify", null, null);
        assertThat(verify.status()).as(verify.toString()).isEqualTo(200);
        assertThat(verify.json()).as(verify.toString()).isEmpty();
    }

    // --- the site, read directly

    private static JsonNode postOnTheSite(String postId) throws Exception {
        return json(site.get("/wp/v2/posts/" + postId + "&context=edit"), 200);
    }

    private HttpResponse<String> anonymousRead(String postId) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(site.url() + "/?rest_route=/wp/v2/posts/" + postId)).timeout(Duration.ofSeconds(30))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(HttpResponse<String> response, int status) throws IOException {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        return READER.readTree(response.body());
    }

    // --- finding the site, as WordPressLiveIT does

    private static void findSite() throws IOException, InterruptedException {
        Optional<LocalWordPress> found = LocalWordPress.fromEnvFile();
        if (found.isEmpty()) {
            skip = LocalWordPress.envFileLocation() + " not found, so no local WordPress is installed";
        } else {
            Optional<String> silent = found.get().whyNotAnswering();
            if (silent.isPresent() && "true".equals(System.getenv("CI"))) {
                fail(silent.get() + "; .ci/wordpress.sh should have started it");
            }
            skip = silent.orElse(null);
            site = silent.isEmpty() ? found.get().withPlugin() : null;
            if (site != null) {
                found.get().installMuPlugin();
            }
        }
        if (skip != null) {
            String stars = "*".repeat(110);
            new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8)
                    .println(String.join(System.lineSeparator(), stars, "*** " + message(), stars));
        }
    }

    private static String message() {
        return "WordPress steps live test SKIPPED: " + skip + ". Run `.ci/wordpress.sh` as root (CI does) to start"
                + " the local WordPress sites.";
    }
}
