package io.herald.deploy.process;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Herald as a separate operating-system process (the packaged jar), to be killed and restarted;
 * several of them can share one database as the nodes of a cluster.
 */
public final class HeraldProcess {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final List<String> arguments;
    private final Path log;
    private final int port;
    private Process process;

    public HeraldProcess(List<String> arguments, Path log) {
        this.port = freePort();
        this.arguments = new ArrayList<>(arguments);
        this.arguments.add("--server.port=" + port);
        this.log = log;
    }

    public int port() {
        return port;
    }

    public String base() {
        return "http://localhost:" + port;
    }

    public void start() throws IOException, InterruptedException {
        Path jar = Path.of("target", "herald.jar").toAbsolutePath();
        if (!jar.toFile().isFile()) {
            throw new IllegalStateException("the packaged jar is missing: " + jar + " (run the package phase)");
        }
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx512m", "-Daxoniq.update-checker.disabled=true", "-jar", jar.toString()));
        command.addAll(arguments);
        process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .directory(new File(System.getProperty("java.io.tmpdir")))
                .start();
        awaitHealthy();
    }

    /** Sends a JSON request with the given key to this node; an IOException means the node is down. */
    public HttpResponse<String> send(String key, String method, String path, String body)
            throws IOException, InterruptedException {
        return send(key, method, path, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body), "application/json");
    }

    /** Sends bytes of the given type (an image to {@code /media}) with the given key to this node. */
    public HttpResponse<String> send(String key, String method, String path, byte[] body, String contentType)
            throws IOException, InterruptedException {
        return send(key, method, path, HttpRequest.BodyPublishers.ofByteArray(body), contentType);
    }

    private HttpResponse<String> send(String key, String method, String path, HttpRequest.BodyPublisher body,
                                      String contentType) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(base() + path))
                .timeout(Duration.ofSeconds(20))
                .header("Authorization", "Bearer " + key)
                .header("Content-Type", contentType)
                .method(method, body)
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Sends like {@link #send} and expects success: the answer's JSON, or an AssertionError saying what came back. */
    public JsonNode call(String key, String method, String path, String body) throws IOException, InterruptedException {
        HttpResponse<String> r = send(key, method, path, body);
        if (r.statusCode() >= 300) {
            throw new AssertionError(method + " " + path + " -> " + r.statusCode() + " " + r.body());
        }
        return JSON.readTree(r.body());
    }

    /** SIGKILL: no shutdown hook, no graceful anything. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    public void stop() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
                kill();
            }
        }
    }

    private void awaitHealthy() throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("Herald exited with " + process.exitValue() + "; see " + log);
            }
            try {
                HttpResponse<String> health = HTTP.send(HttpRequest.newBuilder(URI.create(base()
                        + "/actuator/health")).timeout(Duration.ofSeconds(2)).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (health.statusCode() == 200 && health.body().contains("UP")) {
                    return;
                }
            } catch (IOException notYet) {
                // still starting
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException("Herald did not become healthy; see " + log);
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
