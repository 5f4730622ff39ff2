package io.herald.deploy.wordpress;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.Reader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The local WordPress site with the herald-publisher plugin, started by {@code .ci/wordpress.sh}:
 * its REST API as the editor, and PHP run inside it (as wp-cli would) to configure the plugin and
 * to run its cron hook. {@code toString} leaves the password out.
 */
record PublisherSite(String url, String username, String applicationPassword, String configName) {

    static final String IMAGE_ALT_TEXT = "A test pattern";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** Empty when the env file is missing or was written before the site existed. */
    static Optional<PublisherSite> fromEnvFile() throws IOException {
        Path file = LocalWordPress.envFileLocation();
        if (!Files.isReadable(file)) {
            return Optional.empty();
        }
        Properties values = new Properties();
        try (Reader reader = Files.newBufferedReader(file)) {
            values.load(reader);
        }
        String url = values.getProperty("WP_PUBLISHER_URL");
        if (url == null || url.isBlank()) {
            return Optional.empty();
        }
        return Optional.of(new PublisherSite(url.trim(), values.getProperty("WP_PUBLISHER_USERNAME", "").trim(),
                values.getProperty("WP_PUBLISHER_APP_PASSWORD", "").trim(),
                values.getProperty("WP_PUBLISHER_CONFIG", "herald-publisher").trim()));
    }

    Optional<String> whyNotAnswering() {
        try {
            int status = rest("GET", "/", null, null).statusCode();
            return status == 200 ? Optional.empty() : Optional.of(this + " answers HTTP " + status + " on its REST index");
        } catch (IOException e) {
            return Optional.of(this + " does not answer (" + e + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted while checking " + this);
        }
    }

    /** A REST call as the editor; {@code route} as in {@code ?rest_route=}, query parameters after '&'. */
    HttpResponse<String> rest(String method, String route, byte[] body, String contentType)
            throws IOException, InterruptedException {
        return rest(method, route, body, contentType, Map.of());
    }

    HttpResponse<String> rest(String method, String route, byte[] body, String contentType, Map<String, String> headers)
            throws IOException, InterruptedException {
        String credentials = Base64.getEncoder()
                .encodeToString((username + ":" + applicationPassword).getBytes(StandardCharsets.UTF_8));
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url + "/?rest_route=" + route))
                .header("Authorization", "Basic " + credentials)
                .timeout(Duration.ofSeconds(60))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        headers.forEach(request::header);
        return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> restJson(String method, String route, String json) throws IOException, InterruptedException {
        return rest(method, route, json == null ? null : json.getBytes(StandardCharsets.UTF_8), "application/json");
    }

    /** Runs PHP inside the site (WordPress loaded) and returns what it printed; a failure is an exception. */
    String php(String code) throws IOException, InterruptedException {
        return phpInParallel(code, 1).get(0);
    }

    /** The same PHP in {@code processes} processes started together: for "running it twice at once". */
    List<String> phpInParallel(String code, int processes) throws IOException, InterruptedException {
        return SitePhp.run(configName, code, processes);
    }

    /** Publishes a post as the editor, with these PNG bytes as its featured image unless null; returns its id. */
    int publishPost(String title, String html, byte[] png) throws IOException, InterruptedException {
        Map<String, Object> post = new LinkedHashMap<>(Map.of("title", title, "content", html, "status", "publish"));
        if (png != null) {
            HttpResponse<String> media = rest("POST", "/wp/v2/media", png, "image/png",
                    Map.of("Content-Disposition", "attachment; filename=\"herald-live-" + System.nanoTime() + ".png\""));
            expect(201, media);
            int mediaId = JSON.readTree(media.body()).get("id").asInt();
            expect(200, restJson("POST", "/wp/v2/media/" + mediaId, "{\"alt_text\":\"" + IMAGE_ALT_TEXT + "\"}"));
            post.put("featured_media", mediaId);
        }
        HttpResponse<String> created = restJson("POST", "/wp/v2/posts", JSON.writeValueAsString(post));
        expect(201, created);
        return JSON.readTree(created.body()).get("id").asInt();
    }

    String permalink(int post) throws IOException, InterruptedException {
        return php("echo get_permalink(" + post + ");");
    }

    /** The hook once more, as a second save or a page builder fires it. */
    void fireHookAgain(int post) throws IOException, InterruptedException {
        php("$p = get_post(" + post + "); do_action('wp_after_insert_post', $p->ID, $p, true, $p);");
    }

    /** The plugin's cron hook, run as WordPress's cron runs it. */
    void dispatch() throws IOException, InterruptedException {
        php("do_action('herald_publisher_dispatch');");
    }

    /** The rows of {prefix}herald_dispatch for a post, oldest first. */
    List<JsonNode> records(int post) throws IOException, InterruptedException {
        String out = php("global $wpdb; echo wp_json_encode($wpdb->get_results($wpdb->prepare("
                + "\"SELECT * FROM {$wpdb->prefix}herald_dispatch WHERE post_id = %d ORDER BY id\", " + post + ")));");
        List<JsonNode> records = new ArrayList<>();
        JSON.readTree(out).forEach(records::add);
        return records;
    }

    /** {@code GET /herald/v1/posts/{id}/status} as the editor. */
    JsonNode postStatus(int post) throws IOException, InterruptedException {
        HttpResponse<String> answer = restJson("GET", "/herald/v1/posts/" + post + "/status", null);
        expect(200, answer);
        return JSON.readTree(answer.body());
    }

    int statusWithoutLogin(int post) throws IOException, InterruptedException {
        return CLIENT.send(HttpRequest.newBuilder(URI.create(url + "/?rest_route=/herald/v1/posts/" + post + "/status")).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode();
    }

    /** POSTs an event to the webhook route, signed as Standard Webhooks signs it with {@code secret}; the status. */
    int signedEvent(String body, String id, long timestamp, String secret) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(Base64.getDecoder().decode(secret.substring("whsec_".length())), "HmacSHA256"));
        String signature = "v1," + Base64.getEncoder().encodeToString(
                mac.doFinal((id + "." + timestamp + "." + body).getBytes(StandardCharsets.UTF_8)));
        return rest("POST", "/herald/v1/events", body.getBytes(StandardCharsets.UTF_8), "application/json",
                Map.of("webhook-id", id, "webhook-timestamp", Long.toString(timestamp), "webhook-signature", signature)).statusCode();
    }

    private static void expect(int status, HttpResponse<String> answer) {
        if (answer.statusCode() != status) {
            throw new AssertionError("expected HTTP " + status + " from " + answer.uri() + ", got " + answer.statusCode()
                    + ": " + answer.body());
        }
    }

    @Override
    public String toString() {
        return "herald-publisher site " + url;
    }
}
