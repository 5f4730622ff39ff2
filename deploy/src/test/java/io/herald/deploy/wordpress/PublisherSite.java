package io.herald.deploy.wordpress;

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
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * The local WordPress site with the herald-publisher plugin, started by {@code .ci/wordpress.sh}:
 * its REST API as the editor, and PHP run inside it (as wp-cli would) to configure the plugin and
 * to run its cron hook. {@code toString} leaves the password out.
 */
record PublisherSite(String url, String username, String applicationPassword, String configName) {

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
        Path script = Files.createTempFile("herald-publisher-it", ".php");
        Files.writeString(script, """
                <?php
                $_SERVER['WORDPRESS_CONFIG'] = '%1$s';
                $_SERVER['HTTP_HOST'] = '%1$s';
                require '/usr/share/wordpress/wp-load.php';
                %2$s
                """.formatted(configName, code));
        try {
            List<Process> started = new ArrayList<>();
            for (int i = 0; i < processes; i++) {
                started.add(new ProcessBuilder("php", script.toString()).redirectErrorStream(true).start());
            }
            List<String> outputs = new ArrayList<>();
            for (Process process : started) {
                String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                if (!process.waitFor(2, TimeUnit.MINUTES) || process.exitValue() != 0) {
                    throw new IllegalStateException("PHP in " + this + " failed: " + output);
                }
                outputs.add(output.trim());
            }
            return outputs;
        } finally {
            Files.deleteIfExists(script);
        }
    }

    @Override
    public String toString() {
        return "herald-publisher site " + url;
    }
}
