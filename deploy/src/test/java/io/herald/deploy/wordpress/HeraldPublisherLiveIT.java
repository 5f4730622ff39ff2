package io.herald.deploy.wordpress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.contracts.id.IdempotencyKeys;
import io.herald.deploy.HeraldIntegrationTest;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The herald-publisher WordPress plugin on the real local WordPress of {@code .ci/wordpress.sh},
 * sending to this Herald (through a fault proxy) and its provider sandbox, with Herald's webhooks
 * going back to the site. Posts are written through WordPress's REST API as the editor; the
 * plugin's cron hook is run with PHP inside the site, as WordPress's cron would.
 */
class HeraldPublisherLiveIT extends HeraldIntegrationTest {

    /** The plugin's HTTP timeout in this test; the proxy holds answers well past it. */
    private static final int PLUGIN_TIMEOUT_SECONDS = 2;
    private static final Duration HELD = Duration.ofSeconds(6);
    private static final AtomicInteger TARGETS = new AtomicInteger();

    private static String skip;
    private static PublisherSite site;

    private String ws;
    private String page;
    private String author;
    private String siteId;
    private FaultProxy proxy;
    private String webhookSecret;

    @BeforeEach
    void setUp() throws Exception {
        if (site == null && skip == null) {
            findSite();
        }
        assumeTrue(skip == null, HeraldPublisherLiveIT::message);
        ws = newWorkspace("wp-publisher");
        page = "8" + TARGETS.incrementAndGet() + System.nanoTime() % 10_000;
        sandbox("POST", "/facebook/tokens", "{\"token\":\"EAAB-wp-" + page + "\",\"pageId\":\"" + page + "\",\"kind\":\"PAGE\"}");
        assertThat(send("PUT", path("/channels/fb-main"), "{\"type\":\"facebook\",\"pageId\":\"" + page
                + "\",\"pageAccessToken\":\"EAAB-wp-" + page + "\"}").status()).isIn(200, 201);
        author = "urn:li:person:wp" + page;
        sandbox("POST", "/linkedin/tokens", "{\"token\":\"li-wp-" + page + "\",\"author\":\"" + author
                + "\",\"scopes\":[\"w_member_social\"]}");
        assertThat(send("PUT", path("/channels/li-main"), "{\"type\":\"linkedin\",\"authorUrn\":\"" + author
                + "\",\"accessToken\":\"li-wp-" + page + "\",\"scopes\":[\"w_member_social\"]}").status()).isIn(200, 201);
        String publisherKey = createKey(ws, List.of("publisher"), "wordpress");
        Response hook = send("PUT", path("/webhooks/wordpress"), "{\"url\":\"" + site.url()
                + "/wp-json/herald/v1/events\",\"events\":[\"*\"]}");
        assertThat(hook.status()).as(hook.toString()).isEqualTo(201);

        proxy = new FaultProxy(URI.create("http://127.0.0.1:" + port));
        // both channels share the permalink (the default "link" mode); the image test switches Facebook to "image"
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("herald_url", proxy.url());
        settings.put("workspace", ws);
        settings.put("api_key", publisherKey);
        webhookSecret = hook.json().get("secret").asText();
        settings.put("webhook_secret", webhookSecret);
        settings.put("forget_signing_secret", "1");
        settings.put("channels", List.of("fb-main", "li-main"));
        settings.put("timeout", PLUGIN_TIMEOUT_SECONDS);
        String encoded = Base64.getEncoder().encodeToString(json.writeValueAsBytes(settings));
        // records of earlier runs belong to other workspaces: this test starts from an empty table
        siteId = site.php("""
                global $wpdb;
                $wpdb->query("TRUNCATE {$wpdb->prefix}herald_dispatch");
                update_option('herald_publisher_settings', json_decode(base64_decode('%s'), true));
                echo get_option('herald_publisher_site_id');
                """.formatted(encoded));
        assertThat(siteId).matches("[a-z0-9]{12}");
    }

    @AfterEach
    void tearDown() throws Exception {
        if (proxy != null) {
            proxy.close();
        }
        if (skip == null && site != null) {
            // so that nothing on the site goes on sending to a Herald that is about to stop
            site.php("update_option('herald_publisher_settings', ['channels' => [], 'forget_api_key' => '1']);");
        }
    }

    @Test
    void aPublishedPostIsSharedOncePerChannelAndTheWebhookMarksItPublished() throws Exception {
        int post = publishPost("Herald live share " + page, "<p>First <strong>shared</strong> post.</p>", null);

        // the hook fired again (a page builder, a second save), then two dispatchers at once
        fireHookAgain(post);
        fireHookAgain(post);
        List<String> runs = site.phpInParallel("do_action('herald_publisher_dispatch'); echo 'ran';", 2);
        assertThat(runs).containsExactly("ran", "ran");

        awaitSucceeded(post, "fb-main", "publish", 1);
        awaitSucceeded(post, "li-main", "publish", 1);
        fireHookAgain(post);
        dispatch();
        dispatch();

        List<JsonNode> records = records(post);
        int publications = heraldPublications(post).size();
        int fbPosts = sandboxTruth("facebook", page).size();
        int liPosts = sandboxTruth("linkedin", author).size();
        System.out.printf("herald-publisher: post %d -> %d records, %d POSTs to Herald, %d publications, "
                        + "%d Facebook post(s), %d LinkedIn post(s)%n",
                post, records.size(), proxy.publicationPosts(), publications, fbPosts, liPosts);
        assertThat(records).hasSize(2);
        assertThat(records).allSatisfy(r -> assertThat(r.get("tries").asInt()).as("tries of %s", r).isEqualTo(1));
        assertThat(proxy.publicationPosts()).as("publication requests sent").isEqualTo(2);
        assertThat(publications).isEqualTo(2);
        assertThat(fbPosts).isEqualTo(1);
        assertThat(liPosts).isEqualTo(1);

        JsonNode status = postStatus(post);
        assertThat(status.get("postId").asInt()).isEqualTo(post);
        for (JsonNode entry : status.get("channels")) {
            String channel = entry.get("channelId").asText();
            assertThat(entry.get("publicationId").asText()).as("the plugin's id is Herald's")
                    .isEqualTo(publicationId(post, 1, channel, "publish"));
            assertThat(entry.get("status").asText()).isEqualTo("SUCCEEDED");
            assertThat(entry.get("url").asText()).as("post URL from the webhook").startsWith("http");
        }

        // a forged, a stale and an unsigned "failed" event about the same publication change nothing
        String id = publicationId(post, 1, "li-main", "publish");
        String event = "{\"type\":\"publication.failed\",\"timestamp\":\"2026-12-01T00:00:00Z\",\"data\":"
                + "{\"publicationId\":\"" + id + "\",\"status\":\"FAILED\",\"updatedAt\":\"2099-01-01T00:00:00Z\"}}";
        long now = System.currentTimeMillis() / 1000;
        String forged = "whsec_" + Base64.getEncoder().encodeToString("not the secret, 32 bytes long!!!".getBytes(StandardCharsets.UTF_8));
        assertThat(webhook(event, "msg_forged", now, forged)).isEqualTo(401);
        assertThat(webhook(event, "msg_stale", now - 600, webhookSecret)).isEqualTo(401);
        assertThat(site.rest("POST", "/herald/v1/events", event.getBytes(StandardCharsets.UTF_8), "application/json").statusCode())
                .isEqualTo(401);
        assertThat(postStatus(post).get("channels").findValuesAsText("status")).containsOnly("SUCCEEDED");
        // the status is for those who may edit the post
        HttpResponse<String> anonymous = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(site.url() + "/?rest_route=/herald/v1/posts/" + post + "/status")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(anonymous.statusCode()).isEqualTo(401);
    }

    /** POSTs an event to the site's webhook route, signed as Standard Webhooks signs it with {@code secret}. */
    private int webhook(String body, String id, long timestamp, String secret) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(Base64.getDecoder().decode(secret.substring("whsec_".length())), "HmacSHA256"));
        String signature = "v1," + Base64.getEncoder().encodeToString(
                mac.doFinal((id + "." + timestamp + "." + body).getBytes(StandardCharsets.UTF_8)));
        return site.rest("POST", "/herald/v1/events", body.getBytes(StandardCharsets.UTF_8), "application/json",
                Map.of("webhook-id", id, "webhook-timestamp", Long.toString(timestamp), "webhook-signature", signature)).statusCode();
    }

    /**
     * Needs publications with {@code content.media}; on a Herald without them the upload is
     * checked and the rest reports itself skipped.
     */
    @Test
    void inImageModeTheFeaturedImageIsUploadedToHeraldFirstWithItsAltText() throws Exception {
        site.php("$s = get_option('herald_publisher_settings'); $s['channel_modes'] = ['fb-main' => 'image'];"
                + " update_option('herald_publisher_settings', $s);");
        byte[] image = png(TARGETS.incrementAndGet());
        int post = publishPost("Herald live image " + page, "<p>With a featured image.</p>", image);
        dispatch();

        String mediaId = "med_" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(image));
        Response media = send("GET", path("/media/" + mediaId), null, null);
        System.out.printf("herald-publisher image mode: media %s in Herald: HTTP %d%n", mediaId, media.status());
        assertThat(media.status()).as("the featured image was uploaded to Herald: %s", media).isEqualTo(200);
        JsonNode facebook = records(post).stream().filter(r -> r.get("channel_id").asText().equals("fb-main")).findFirst().orElseThrow();
        JsonNode sent = json.readTree(facebook.get("request").asText());
        assertThat(sent.at("/content/media/0/mediaId").asText()).isEqualTo(mediaId);
        assertThat(sent.at("/content/media/0/altText").asText()).isEqualTo("A test pattern");
        assertThat(sent.at("/content/link").isMissingNode()).as("image mode sends no link: %s", sent).isTrue();
        assertThat(sent.at("/content/body").asText()).endsWith("\n\n" + permalink(post));
        assumeTrue(!"validation_failed".equals(facebook.get("last_error_code").asText(null)), () ->
                "herald-publisher image mode: Herald in this build refuses content.media (" + facebook.get("last_error_detail").asText()
                        + "); the upload passed, the post with its image is SKIPPED");
        awaitSucceeded(post, "fb-main", "publish", 1);
        JsonNode view = heraldPublication(publicationId(post, 1, "fb-main", "publish"));
        assertThat(view.get("steps").findValuesAsText("step")).contains("upload_media", "create_post");
        assertThat(sandboxTruth("facebook", page).size()).isEqualTo(1);
    }

    @Test
    void anAnswerHeldPastThePluginsTimeoutIsRetriedAndStillSharedOnce() throws Exception {
        // no webhook here: it would tell the site before the held answer, and no retry would be needed
        Response off = send("PUT", path("/webhooks/wordpress"), "{\"url\":\"" + site.url()
                + "/wp-json/herald/v1/events\",\"events\":[\"*\"],\"enabled\":false}");
        assertThat(off.status()).as(off.toString()).isEqualTo(200);
        proxy.holdPublicationAnswers(2, HELD);
        int post = publishPost("Herald live slow answer " + page, "<p>Herald answers late.</p>", null);

        dispatch();
        List<JsonNode> afterTimeout = records(post);
        assertThat(afterTimeout).hasSize(2);
        for (JsonNode record : afterTimeout) {
            assertThat(record.get("status").asText()).as("after the timeout: %s", record).isEqualTo("QUEUED");
            assertThat(record.get("last_error_code").asText()).isEqualTo("network_error");
            assertThat(record.get("tries").asInt()).isEqualTo(1);
        }
        // Herald did its work although the site never heard: both publications are done there
        for (String channel : List.of("fb-main", "li-main")) {
            awaitJson(path("/publications/" + publicationId(post, 1, channel, "publish")),
                    view -> view.get("status").asText().equals("SUCCEEDED"));
        }
        // the backoff's first minute, passed at once: the next run finds the records due
        site.php("global $wpdb; $wpdb->query($wpdb->prepare(\"UPDATE {$wpdb->prefix}herald_dispatch"
                + " SET next_try_at = UTC_TIMESTAMP() WHERE post_id = %d AND status = 'QUEUED'\", " + post + "));");
        dispatch();

        awaitSucceeded(post, "fb-main", "publish", 1);
        awaitSucceeded(post, "li-main", "publish", 1);
        int publications = heraldPublications(post).size();
        int fbPosts = sandboxTruth("facebook", page).size();
        int liPosts = sandboxTruth("linkedin", author).size();
        System.out.printf("herald-publisher (answers held %ss past a %ss timeout): %d POSTs to Herald, tries %s, "
                        + "%d publications, %d Facebook post(s), %d LinkedIn post(s)%n", HELD.toSeconds(),
                PLUGIN_TIMEOUT_SECONDS, proxy.publicationPosts(), records(post).stream().map(r -> r.get("tries").asText()).toList(),
                publications, fbPosts, liPosts);
        assertThat(proxy.publicationPosts()).as("each request sent again after its timeout").isEqualTo(4);
        assertThat(records(post)).allSatisfy(r -> assertThat(r.get("tries").asInt()).isEqualTo(2));
        assertThat(publications).isEqualTo(2);
        assertThat(fbPosts).isEqualTo(1);
        assertThat(liPosts).isEqualTo(1);
    }

    /**
     * Needs Herald's {@code update} and {@code delete} actions; on a Herald without them the plugin's
     * side is checked and the rest reports itself skipped.
     */
    @Test
    void anEditSendsOneUpdateAndTrashingOneDelete() throws Exception {
        int post = publishPost("Herald live edit " + page, "<p>Before the edit.</p>", null);
        dispatch();
        awaitSucceeded(post, "li-main", "publish", 1);
        awaitSucceeded(post, "fb-main", "publish", 1);

        HttpResponse<String> edited = site.restJson("POST", "/wp/v2/posts/" + post, "{\"content\":\"<p>After the edit.</p>\"}");
        assertThat(edited.statusCode()).as(edited.body()).isEqualTo(200);
        // saving again without a change is no new version
        assertThat(site.restJson("POST", "/wp/v2/posts/" + post, "{\"content\":\"<p>After the edit.</p>\"}").statusCode()).isEqualTo(200);
        fireHookAgain(post);
        dispatch();
        HttpResponse<String> trashed = site.restJson("DELETE", "/wp/v2/posts/" + post, null);
        assertThat(trashed.statusCode()).as(trashed.body()).isEqualTo(200);
        dispatch();

        List<JsonNode> records = records(post);
        Map<String, Integer> byAction = new LinkedHashMap<>();
        records.forEach(r -> byAction.merge(r.get("action").asText() + " v" + r.get("content_version").asText(), 1, Integer::sum));
        System.out.printf("herald-publisher edit and trash: records %s%n", byAction);
        assertThat(byAction).containsExactlyInAnyOrderEntriesOf(Map.of("publish v1", 2, "update v2", 2, "delete v3", 2));

        Optional<JsonNode> refused = records.stream().filter(r -> r.get("action").asText().equals("update"))
                .filter(r -> "validation_failed".equals(r.get("last_error_code").asText(null))).findFirst();
        assumeTrue(refused.isEmpty(), () -> "herald-publisher edit/trash: Herald in this build refuses `update` ("
                + refused.get().get("last_error_detail").asText() + "); the plugin's side passed, Herald's is SKIPPED");
        for (String channel : List.of("fb-main", "li-main")) {
            awaitSucceeded(post, channel, "update", 2);
            awaitSucceeded(post, channel, "delete", 3);
        }
        List<JsonNode> publications = heraldPublications(post);
        System.out.printf("herald-publisher edit and trash: %d publications in Herald (%s)%n", publications.size(),
                publications.stream().map(p -> p.get("action").asText()).toList());
        assertThat(publications.stream().filter(p -> p.get("action").asText().equals("update"))).hasSize(2);
        assertThat(publications.stream().filter(p -> p.get("action").asText().equals("delete"))).hasSize(2);
        assertThat(publications).hasSize(6);
    }

    // --- the site

    /** Publishes a post as the editor, with these bytes as its featured image unless null; returns its id. */
    private int publishPost(String title, String html, byte[] image) throws Exception {
        String featured = "";
        if (image != null) {
            HttpResponse<String> media = site.rest("POST", "/wp/v2/media", image, "image/png",
                    Map.of("Content-Disposition", "attachment; filename=\"herald-live-" + page + ".png\""));
            assertThat(media.statusCode()).as(media.body()).isEqualTo(201);
            int mediaId = json.readTree(media.body()).get("id").asInt();
            assertThat(site.restJson("POST", "/wp/v2/media/" + mediaId, "{\"alt_text\":\"A test pattern\"}").statusCode())
                    .isEqualTo(200);
            featured = ",\"featured_media\":" + mediaId;
        }
        HttpResponse<String> created = site.restJson("POST", "/wp/v2/posts", json.writeValueAsString(
                Map.of("title", title, "content", html, "status", "publish")).replaceFirst("}$", featured + "}"));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        return json.readTree(created.body()).get("id").asInt();
    }

    private String permalink(int post) throws Exception {
        return site.php("echo get_permalink(" + post + ");");
    }

    private void fireHookAgain(int post) throws Exception {
        site.php("$p = get_post(" + post + "); do_action('wp_after_insert_post', $p->ID, $p, true, $p);");
    }

    private void dispatch() throws Exception {
        site.php("do_action('herald_publisher_dispatch');");
    }

    private List<JsonNode> records(int post) throws Exception {
        String out = site.php("global $wpdb; echo wp_json_encode($wpdb->get_results($wpdb->prepare("
                + "\"SELECT * FROM {$wpdb->prefix}herald_dispatch WHERE post_id = %d ORDER BY id\", " + post + ")));");
        List<JsonNode> records = new ArrayList<>();
        json.readTree(out).forEach(records::add);
        return records;
    }

    private JsonNode postStatus(int post) throws Exception {
        HttpResponse<String> answer = site.restJson("GET", "/herald/v1/posts/" + post + "/status", null);
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        return json.readTree(answer.body());
    }

    /** Until the site's record says SUCCEEDED: Herald's webhook is what moves it there. */
    private void awaitSucceeded(int post, String channel, String action, int version) throws Exception {
        Predicate<JsonNode> done = entry -> entry.get("channelId").asText().equals(channel)
                && entry.get("action").asText().equals(action) && entry.get("contentVersion").asInt() == version
                && entry.get("status").asText().equals("SUCCEEDED");
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            last = postStatus(post);
            for (JsonNode entry : last.get("channels")) {
                if (done.test(entry)) {
                    return;
                }
            }
            Thread.sleep(200);
        }
        fail("the site never recorded " + action + " v" + version + " at " + channel + " as SUCCEEDED; last: " + last);
    }

    // --- Herald

    private String path(String tail) {
        return "/api/v1/workspaces/" + ws + tail;
    }

    private String publicationId(int post, int version, String channel, String action) {
        return "pub_" + IdempotencyKeys.sha256Hex(String.join("\n", "v1", ws, "wp:" + siteId + ":" + post,
                Integer.toString(version), channel, action));
    }

    private JsonNode heraldPublication(String id) {
        return awaitJson(path("/publications/" + id), view -> view.has("steps"));
    }

    private List<JsonNode> heraldPublications(int post) {
        JsonNode page = send("GET", path("/publications?calendarEntryId=wp:" + siteId + ":" + post + "&limit=50"), null, null).json();
        List<JsonNode> items = new ArrayList<>();
        page.get("items").forEach(items::add);
        return items;
    }

    private static byte[] png(int seed) throws IOException {
        BufferedImage image = new BufferedImage(64, 48, BufferedImage.TYPE_INT_RGB);
        for (int x = 0; x < 64; x++) {
            for (int y = 0; y < 48; y++) {
                image.setRGB(x, y, (x * 7919 + y * 104_729 + seed * 31) & 0xFFFFFF);
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(image, "png", out);
        return out.toByteArray();
    }

    // --- finding the site, as WordPressLiveIT does

    private static void findSite() throws IOException {
        Optional<PublisherSite> found = PublisherSite.fromEnvFile();
        if (found.isEmpty()) {
            skip = LocalWordPress.envFileLocation() + " has no herald-publisher site (WP_PUBLISHER_URL)";
        } else {
            Optional<String> silent = found.get().whyNotAnswering();
            if (silent.isPresent() && "true".equals(System.getenv("CI"))) {
                fail(silent.get() + "; .ci/wordpress.sh should have started it");
            }
            skip = silent.orElse(null);
            site = silent.isEmpty() ? found.get() : null;
        }
        if (skip != null) {
            String stars = "*".repeat(110);
            new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8)
                    .println(String.join(System.lineSeparator(), stars, "*** " + message(), stars));
        }
    }

    private static String message() {
        return "herald-publisher live test SKIPPED: " + skip + ". Run `.ci/wordpress.sh` as root (CI does) to start the "
                + "local WordPress sites.";
    }
}
