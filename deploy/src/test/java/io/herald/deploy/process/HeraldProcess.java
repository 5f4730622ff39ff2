package io.herald.deploy.process;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.herald.testsupport.TestDatabase;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.springframework.util.FileSystemUtils;

/**
 * Herald as a separate operating-system process (the packaged jar), to be killed and restarted;
 * several of them can share one database as the nodes of a cluster.
 *
 * <p>The suite starts a dozen of these, and a start of the fat jar took 18 s and 34 s of CPU on two
 * cores. So the jar is launched as Spring Boot recommends for a fast start: extracted once per test
 * JVM, with a class-data archive from one training run, and with the client compiler only (these
 * processes live for a minute, not for days). That start took 7 s and 10 s of CPU. The code is the
 * packaged jar's; if the archive cannot be made, the processes start without it.
 */
public final class HeraldProcess {

    private static final Path JAR = Path.of("target", "herald.jar").toAbsolutePath();
    /**
     * The extracted jar and its class-data archive, made by the first start of this test JVM in a
     * directory of its own (the build runs two test JVMs side by side), removed when it exits.
     */
    private static final Path LAUNCH = Path.of("target", "herald-launch-" + ProcessHandle.current().pid())
            .toAbsolutePath();
    private static final Path ARCHIVE = LAUNCH.resolve("herald.jsa");
    /** The connection pool of the test applications (src/test/resources/config/application.yml). */
    private static final List<String> TEST_POOL = List.of("--spring.datasource.hikari.maximum-pool-size=12",
            "--spring.datasource.hikari.minimum-idle=2", "--spring.datasource.hikari.idle-timeout=10000");
    private static boolean prepared;

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
        // the build's two test JVMs run their applications and processes on one PostgreSQL, whose
        // default of 100 connections a pool of 20 held open by each of them overran
        this.arguments.addAll(TEST_POOL);
        this.log = log;
    }

    public int port() {
        return port;
    }

    public String base() {
        return "http://localhost:" + port;
    }

    public void start() throws IOException, InterruptedException {
        prepare();
        List<String> command = java();
        if (Files.isRegularFile(ARCHIVE)) {
            command.add("-XX:SharedArchiveFile=" + ARCHIVE);
        }
        command.addAll(List.of("-jar", LAUNCH.resolve("herald.jar").toString()));
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

    private static List<String> java() {
        return new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-XX:TieredStopAtLevel=1", "-Daxoniq.update-checker.disabled=true"));
    }

    /**
     * Extracts the jar, then starts it once to the end of its context refresh (no port opened, no
     * processor started) on a database of its own, writing the classes it loaded to the archive.
     */
    private static synchronized void prepare() throws IOException, InterruptedException {
        if (prepared) {
            return;
        }
        if (!JAR.toFile().isFile()) {
            throw new IllegalStateException("the packaged jar is missing: " + JAR + " (run the package phase)");
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                FileSystemUtils.deleteRecursively(LAUNCH);
            } catch (IOException e) {
                System.out.println("[herald-process] could not remove " + LAUNCH + ": " + e);
            }
        }, "remove-herald-launch"));
        List<String> extract = java();
        extract.addAll(List.of("-Djarmode=tools", "-jar", JAR.toString(), "extract", "--force",
                "--destination", LAUNCH.toString()));
        if (run(extract, launchLog("extract")) != 0) {
            throw new IllegalStateException("the packaged jar could not be extracted; see " + launchLog("extract"));
        }
        Files.deleteIfExists(ARCHIVE);
        List<String> train = java();
        train.addAll(List.of("-XX:ArchiveClassesAtExit=" + ARCHIVE, "-Dspring.context.exit=onRefresh",
                "-jar", LAUNCH.resolve("herald.jar").toString(),
                "--spring.datasource.url=" + TestDatabase.shared().freshSibling().jdbcUrl(),
                "--herald.data-dir=" + Files.createTempDirectory("herald-launch"),
                "--herald.secrets.encryption-key=MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
                "--herald.audit.signing-key=YXVkaXQtc2lnbmluZy1rZXktZm9yLXRlc3RzLTAxMjM=",
                "--herald.security.system-key=hs.launch-training-key-0123456789abcdefghijklmnopqrstuvwxyz"));
        int exit = run(train, launchLog("training"));
        if (exit != 0 || !Files.isRegularFile(ARCHIVE)) {
            // only slower: every process loads its classes from the jar
            Files.deleteIfExists(ARCHIVE);
            System.out.println("[herald-process] no class-data archive (training exited with " + exit
                    + "; see " + launchLog("training") + ")");
        }
        prepared = true;
    }

    /** Beside the launch directory: what a step of {@link #prepare()} wrote. */
    private static Path launchLog(String step) {
        return LAUNCH.resolveSibling(LAUNCH.getFileName() + "-" + step + ".log");
    }

    private static int run(List<String> command, Path log) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        if (!process.waitFor(3, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            return -1;
        }
        return process.exitValue();
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
