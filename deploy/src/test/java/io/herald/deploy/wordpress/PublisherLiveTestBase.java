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
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * Set-up shared by the herald-publisher live tests: the local WordPress of {@code .ci/wordpress.sh}
 * with the plugin installed from its zip and active, sending to this Herald through a fault proxy, two sandbox channels
 * (fb-main on Facebook, li-main on LinkedIn) and Herald's webhooks going back to the site. Posts
 * are written through WordPress's REST API as the editor; the plugin's cron hook is run with PHP
 * inside the site, as WordPress's cron would. Without the site every test reports itself skipped.
 */
abstract class PublisherLiveTestBase extends HeraldIntegrationTest {

    /** The plugin's HTTP timeout in this test; the proxy holds answers well past it. */
    protected static final int PLUGIN_TIMEOUT_SECONDS = 2;
    protected static final Duration HELD = Duration.ofSeconds(6);
    protected static final AtomicInteger TARGETS = new AtomicInteger();

    private static String skip;
    protected static PublisherSite site;

    protected String ws;
    protected String page;
    protected String author;
    protected String siteId;
    protected FaultProxy proxy;
    protected String webhookSecret;

    @BeforeEach
    void setUp() throws Exception {
        if (site == null && skip == null) {
            findSite();
        }
        assumeTrue(skip == null, PublisherLiveTestBase::message);
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
                echo Herald_Publisher_Settings::site_id();
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

    // --- the site

    /** Until the site's record says SUCCEEDED: Herald's webhook is what moves it there. */
    protected void awaitSucceeded(int post, String channel, String action, int version) throws Exception {
        Predicate<JsonNode> done = entry -> entry.get("channelId").asText().equals(channel)
                && entry.get("action").asText().equals(action) && entry.get("contentVersion").asInt() == version
                && entry.get("status").asText().equals("SUCCEEDED");
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            last = site.postStatus(post);
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

    protected String path(String tail) {
        return "/api/v1/workspaces/" + ws + tail;
    }

    protected String publicationId(int post, int version, String channel, String action) {
        return "pub_" + IdempotencyKeys.sha256Hex(String.join("\n", "v1", ws, "wp:" + siteId + ":" + post,
                Integer.toString(version), channel, action));
    }

    protected JsonNode heraldPublication(String id) {
        return awaitJson(path("/publications/" + id), view -> view.has("steps"));
    }

    protected List<JsonNode> heraldPublications(int post) {
        JsonNode page = send("GET", path("/publications?calendarEntryId=wp:" + siteId + ":" + post + "&limit=50"), null, null).json();
        List<JsonNode> items = new ArrayList<>();
        page.get("items").forEach(items::add);
        return items;
    }

    protected static byte[] png(int seed) throws IOException {
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

    private static void findSite() throws IOException, InterruptedException {
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
            if (site != null) {
                PluginZips.installPublisher(site.configName());
            }
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
