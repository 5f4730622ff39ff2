package io.herald.adapters.bluesky.live;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The reference Bluesky PDS ({@code @atproto/pds}, with an in-memory PLC directory), started for a
 * test on a free port of 127.0.0.1 and stopped with it. {@code .ci/bluesky.sh} installs Node 22 and
 * the PDS into {@link #HOME_VARIABLE} (default {@value #DEFAULT_HOME}); the launcher is
 * {@code bluesky-pds/pds.mjs} on the test class path. Nothing leaves the machine: DIDs live in the
 * local PLC, handles end in {@code .test}, and the PDS has no AppView, crawler or mail server to call.
 *
 * <p>Use {@link #whyUnavailable()} to skip a test where the PDS is not installed, then {@link #start()}.
 */
public final class BlueskyPds implements AutoCloseable {

    public static final String HOME_VARIABLE = "HERALD_BLUESKY_HOME";
    public static final String DEFAULT_HOME = "/opt/herald-bluesky";
    public static final String POST_COLLECTION = "app.bsky.feed.post";

    /** A start on a busy two-core machine takes 10 to 20 s, most of it loading the PDS's modules. */
    private static final Duration READY_WITHIN = Duration.ofSeconds(90);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final AtomicInteger ACCOUNTS = new AtomicInteger();
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Process process;
    private final Path log;
    private final URI url;
    private final String serviceDid;
    private final String version;
    private final String jwtSecret;
    private final Xrpc xrpc;

    /** An account on this PDS. {@code toString} leaves the passwords out. */
    public record Account(String handle, String did, String password, String appPassword) {
        @Override
        public String toString() {
            return "Account[" + handle + ", " + did + "]";
        }
    }

    private BlueskyPds(Process process, Path log, URI url, String serviceDid, String version, String jwtSecret) {
        this.process = process;
        this.log = log;
        this.url = url;
        this.serviceDid = serviceDid;
        this.version = version;
        this.jwtSecret = jwtSecret;
        this.xrpc = new Xrpc(url);
    }

    public static Path home() {
        String home = System.getenv(HOME_VARIABLE);
        return Path.of(home == null || home.isBlank() ? DEFAULT_HOME : home);
    }

    /** The Node that {@code .ci/bluesky.sh} installed (22; the machine's own may be older). */
    public static Path node() {
        return home().resolve("bin/node");
    }

    /** Why the PDS cannot be started here, or empty when it is installed. */
    public static Optional<String> whyUnavailable() {
        Path home = home();
        if (!Files.isExecutable(node())) {
            return Optional.of("no Node 22 at " + node());
        }
        if (!Files.isDirectory(home.resolve("node_modules/@atproto/pds"))) {
            return Optional.of("no @atproto/pds in " + home.resolve("node_modules"));
        }
        if (BlueskyPds.class.getResource("/bluesky-pds/pds.mjs") == null) {
            return Optional.of("bluesky-pds/pds.mjs is not on the test class path");
        }
        return Optional.empty();
    }

    /**
     * Whether the PDS must be here: on CI ({@code CI=true}), which installs it first, a live test
     * fails rather than skips without it.
     */
    public static boolean requiredHere() {
        return "true".equals(System.getenv("CI"));
    }

    /** The message a skipped test prints. */
    public static String skipMessage(String why) {
        return "Bluesky live test SKIPPED: " + why + ". Run `.ci/bluesky.sh` as root (CI does) to install the "
                + "reference PDS into " + home() + " (or set " + HOME_VARIABLE + ").";
    }

    /** Starts a PDS of its own, on a free port, with an empty repository store; waits until it answers. */
    public static BlueskyPds start() throws IOException {
        Path launcher = Files.createTempFile("herald-pds-", ".mjs");
        try (InputStream script = BlueskyPds.class.getResourceAsStream("/bluesky-pds/pds.mjs")) {
            Files.write(launcher, script.readAllBytes());
        }
        launcher.toFile().deleteOnExit();
        Path logDir = Path.of(System.getProperty("basedir", "."), "target", "bluesky-pds");
        Files.createDirectories(logDir);
        Path log = Files.createTempFile(logDir, "pds-", ".log");
        byte[] secret = new byte[32];
        RANDOM.nextBytes(secret);
        String jwtSecret = HexFormat.of().formatHex(secret);

        ProcessBuilder builder = new ProcessBuilder(node().toString(), launcher.toString())
                .redirectError(log.toFile());
        builder.environment().put(HOME_VARIABLE, home().toString());
        builder.environment().put("PDS_JWT_SECRET", jwtSecret);
        builder.environment().put("PDS_LOG", "true");
        Process process = builder.start();
        // The launcher stops when its standard input closes, so a JVM that dies takes the PDS with it.
        CompletableFuture<String> firstLine = CompletableFuture.supplyAsync(() -> {
            try {
                return new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))
                        .readLine();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        String line;
        try {
            line = firstLine.get(READY_WITHIN.toSeconds(), TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            process.destroyForcibly();
            throw new IllegalStateException("the PDS did not say it was ready within " + READY_WITHIN + "; its log: "
                    + tail(log));
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the PDS started", e);
        } catch (ExecutionException e) {
            process.destroyForcibly();
            throw new IllegalStateException("the PDS's output could not be read; its log: " + tail(log), e.getCause());
        }
        if (line == null) {
            process.destroyForcibly();
            throw new IllegalStateException("the PDS exited before it was ready; its log: " + tail(log));
        }
        JsonNode ready = JSON.readTree(line);
        if (!ready.path("ready").asBoolean()) {
            process.destroyForcibly();
            throw new IllegalStateException("the PDS did not start: " + ready.path("error").asText(line));
        }
        return new BlueskyPds(process, log, URI.create(ready.path("pdsUrl").asText()),
                ready.path("serviceDid").asText(), ready.path("version").asText(), jwtSecret);
    }

    /** {@code http://127.0.0.1:<port>}, without a trailing slash. */
    public URI url() {
        return url;
    }

    /** The PDS's own DID, the audience of its session tokens. */
    public String serviceDid() {
        return serviceDid;
    }

    /** The version of {@code @atproto/pds} running. */
    public String version() {
        return version;
    }

    /** The PDS's log (its standard error), for a failure message. */
    public Path log() {
        return log;
    }

    /** Direct XRPC calls to this PDS, independent of any adapter under test. */
    public Xrpc xrpc() {
        return xrpc;
    }

    /**
     * A new account, {@code <prefix><n>.test} with a random password, through
     * {@code com.atproto.server.createAccount} (no invite code needed), and an app password for it
     * through {@code com.atproto.server.createAppPassword}, as a user would give Herald.
     */
    public Account createAccount(String prefix) throws IOException, InterruptedException {
        String handle = (prefix + ACCOUNTS.incrementAndGet()).toLowerCase(Locale.ROOT) + ".test";
        String password = randomPassword();
        ObjectNode request = JSON.createObjectNode()
                .put("handle", handle)
                .put("password", password)
                .put("email", handle.replace('.', '-') + "@example.test");
        Xrpc.Answer created = xrpc.post("com.atproto.server.createAccount", null, request);
        if (created.status() != 200) {
            throw new IllegalStateException("createAccount " + handle + ": " + created);
        }
        String accessJwt = created.body().path("accessJwt").asText();
        Xrpc.Answer appPassword = xrpc.post("com.atproto.server.createAppPassword", accessJwt,
                JSON.createObjectNode().put("name", "herald"));
        if (appPassword.status() != 200) {
            throw new IllegalStateException("createAppPassword " + handle + ": " + appPassword);
        }
        return new Account(handle, created.body().path("did").asText(), password,
                appPassword.body().path("password").asText());
    }

    /**
     * The same access token, expired: its claims with {@code iat} and {@code exp} an hour earlier,
     * signed again with the PDS's secret. The PDS answers it exactly as it answers a token that ran
     * out (the real ones live two hours, too long to wait for).
     */
    public String expiredCopyOf(String accessJwt) {
        String[] parts = accessJwt.split("\\.");
        try {
            ObjectNode claims = (ObjectNode) JSON.readTree(Base64.getUrlDecoder().decode(parts[1]));
            long now = Instant.now().getEpochSecond();
            claims.put("iat", now - 3600).put("exp", now - 3540);
            String unsigned = parts[0] + "." + Base64.getUrlEncoder().withoutPadding()
                    .encodeToString(JSON.writeValueAsBytes(claims));
            // The PDS keys HS256 with the secret's text as given (its UTF-8 bytes).
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(jwtSecret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return unsigned + "." + Base64.getUrlEncoder().withoutPadding()
                    .encodeToString(mac.doFinal(unsigned.getBytes(StandardCharsets.US_ASCII)));
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("the token could not be re-signed", e);
        }
    }

    /** Stops the PDS: its standard input closes (it stops itself), else it is ended. */
    @Override
    public void close() {
        try {
            process.getOutputStream().close();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroy();
                if (!process.waitFor(5, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            }
        } catch (IOException e) {
            process.destroyForcibly();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static String randomPassword() {
        byte[] bytes = new byte[18];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join(System.lineSeparator(), lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }
}
