package io.herald.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.herald.testsupport.TestDatabase;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The whole Herald application on a real PostgreSQL (a fresh database per test run), driven over
 * real HTTP. Tests share one application; each uses its own workspace so they never see each
 * other's data.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "herald.secrets.encryption-key=MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
        "herald.audit.signing-key=" + HeraldIntegrationTest.AUDIT_SIGNING_KEY,
        // tests sign a checkpoint when they need one; none appears in the middle of another test's counts
        "herald.audit.checkpoint-interval=1h",
        // tests run the live chain check when they need it; it never records a break another test is about to make
        "herald.audit.chain-check-interval=1h",
        "herald.sandbox.enabled=true",
        "herald.security.system-key=" + HeraldIntegrationTest.SYSTEM_KEY,
        // tests send far more requests per second than a client should; the limit has its own test
        "herald.security.rate-limit.limit-for-period=1000000",
        // pages smaller than a publication's stream, so a rebuild continues streams across pages
        "herald.rebuild.page-size=3",
        // an Instagram publish held by a sandbox fault times out soon; a container still processing is asked soon again
        "herald.channels.instagram.read-timeout=3s",
        "herald.channels.instagram.container-poll-interval=1s",
        // a post of a connection that verifies after success is read again a second after it; an inconclusive
        // read is repeated each second, long enough for a test to change what the provider answers meanwhile
        "herald.verification.delay=1s",
        "herald.verification.max-tries=600",
        // the shared application closes when the test JVM exits, with provider calls of fault tests still
        // held by the sandbox; waiting 20 s a phase for them outlasted the test runner's 30 s for the exit
        // (the graceful stop itself is tested on processes of their own, HeraldProcess)
        "spring.lifecycle.timeout-per-shutdown-phase=2s"
})
// traced as in production (tests run without tracing unless they ask for it); metrics stay as tests have them
@AutoConfigureObservability(metrics = false)
public abstract class HeraldIntegrationTest {

    /** The system key of the test application (configured, so no key file is generated). */
    protected static final String SYSTEM_KEY = "hs.test-system-key-0123456789abcdefghijklmnopqrstuvwxyz";
    /** The seed of the audit signing key (base64 of 32 bytes), configured as an operator would. */
    protected static final String AUDIT_SIGNING_KEY = "YXVkaXQtc2lnbmluZy1rZXktZm9yLXRlc3RzLTAxMjM=";
    /** Roles of the key {@link #send} uses on a workspace's paths: all of a workspace's roles. */
    protected static final List<String> ALL_ROLES = List.of("publisher", "operator", "auditor", "admin");
    private static final Pattern WORKSPACE_PATH = Pattern.compile("^/api/v1/workspaces/([^/?]+)");
    private static final Map<String, String> WORKSPACE_KEYS = new ConcurrentHashMap<>();

    private static final AtomicInteger WORKSPACES = new AtomicInteger();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @LocalServerPort
    protected int port;

    @Autowired
    protected JdbcTemplate jdbc;

    @Autowired
    protected ObjectMapper json;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        TestDatabase.register(registry);
    }

    /** A workspace no other test uses. */
    protected static String newWorkspace(String purpose) {
        return purpose + "-" + WORKSPACES.incrementAndGet() + "-" + System.nanoTime() % 100_000;
    }

    protected Response send(String method, String path, String body) {
        return send(method, path, body, "application/json");
    }

    /**
     * Sends as a key with every role of the path's workspace (created with the workspace on first
     * use, through the system key), or as the system key outside workspaces.
     */
    protected Response send(String method, String path, String body, String contentType) {
        return sendAs(keyFor(path), method, path, body, contentType, Map.of());
    }

    /** Sends with the given key (none when null) and extra headers. */
    protected Response sendAs(String key, String method, String path, String body, String contentType,
                              Map<String, String> headers) {
        return sendBytesAs(key, method, path, body == null ? null : body.getBytes(StandardCharsets.UTF_8),
                contentType, headers);
    }

    protected Response sendBytesAs(String key, String method, String path, byte[] body, String contentType,
                                   Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .timeout(Duration.ofSeconds(30))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        if (key != null) {
            request.header("Authorization", "Bearer " + key);
        }
        headers.forEach(request::header);
        return exchange(request.build());
    }

    /** Sends a prepared request, authorised like {@link #send(String, String, String, String)}. */
    protected Response send(HttpRequest request) {
        String key = keyFor(request.uri().getRawPath());
        return exchange(key == null ? request
                : HttpRequest.newBuilder(request, (name, value) -> true)
                        .header("Authorization", "Bearer " + key).build());
    }

    /** The key {@link #send} uses for a path. */
    protected String keyFor(String path) {
        Matcher workspace = WORKSPACE_PATH.matcher(path);
        if (!workspace.find()) {
            return path.startsWith("/api/") ? SYSTEM_KEY : null;
        }
        return WORKSPACE_KEYS.computeIfAbsent(workspace.group(1), ws -> {
            createWorkspace(ws);
            return createKey(ws, ALL_ROLES, "tests");
        });
    }

    /** Creates a workspace through the system key (an existing one is fine). */
    protected void createWorkspace(String ws) {
        Response created = sendAs(SYSTEM_KEY, "POST", "/api/v1/admin/workspaces",
                "{\"workspaceId\":\"" + ws + "\",\"name\":\"" + ws + "\"}", "application/json", Map.of());
        if (created.status() != 201 && created.status() != 200) {
            throw new IllegalStateException("workspace not created: " + created);
        }
    }

    /** Issues a key of the workspace through the system key and returns the raw key. */
    protected String createKey(String ws, List<String> roles, String label) {
        String body = "{\"roles\":[" + String.join(",", roles.stream().map(r -> "\"" + r + "\"").toList())
                + "],\"label\":\"" + label + "\"}";
        Response issued = sendAs(SYSTEM_KEY, "POST", "/api/v1/workspaces/" + ws + "/keys", body,
                "application/json", Map.of());
        if (issued.status() != 201) {
            throw new IllegalStateException("key not issued: " + issued);
        }
        return issued.json().get("key").asText();
    }

    private Response exchange(HttpRequest request) {
        try {
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            return new Response(response.statusCode(), response.body(),
                    response.headers().firstValue("Content-Type").orElse(""),
                    response.headers().firstValue("Location").orElse(null),
                    response.headers().firstValue("X-Correlation-Id").orElse(null),
                    response.headers().firstValue("Retry-After").orElse(null), json);
        } catch (IOException e) {
            throw new IllegalStateException("request failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    protected URI uri(String path) {
        return URI.create("http://localhost:" + port + path);
    }

    protected void facebookChannel(String workspace, String channel, String token) {
        Response put = send("PUT", "/api/v1/workspaces/" + workspace + "/channels/" + channel,
                "{\"type\":\"facebook\",\"pageId\":\"1234567890\",\"pageAccessToken\":\"" + token + "\"}");
        if (put.status() != 201 && put.status() != 200) {
            throw new IllegalStateException("channel not created: " + put);
        }
    }

    /** Configures the provider sandbox through its admin API: tokens, sites, faults, latency. */
    protected void sandbox(String method, String path, String body) {
        Response r = send(method, "/sandbox/_admin" + path, body);
        assertThat(r.status()).as(path + " " + r).isBetween(200, 299);
    }

    /** What the sandbox really holds at a provider's target: the ground truth Herald is checked against. */
    protected JsonNode sandboxTruth(String provider, String target) {
        return send("GET", "/sandbox/_truth/" + provider + "/" + target, null, null).json();
    }

    /** Polls a GET until the predicate holds (projections follow the event store asynchronously). */
    protected JsonNode awaitJson(String path, Predicate<JsonNode> until) {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        Response last = null;
        while (System.nanoTime() < deadline) {
            last = send("GET", path, null, null);
            if (last.status() == 200 && until.test(last.json())) {
                return last.json();
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        throw new AssertionError("condition not reached on " + path + "; last answer: " + last);
    }

    protected long eventCount() {
        return jdbc.queryForObject("SELECT count(*) FROM domain_event_entry", Long.class);
    }

    protected long eventCount(String aggregateId) {
        return jdbc.queryForObject("SELECT count(*) FROM domain_event_entry WHERE aggregate_identifier = ?",
                Long.class, aggregateId);
    }

    public record Response(int status, String body, String contentType, String location, String correlationId,
                           String retryAfter, ObjectMapper mapper) {

        public JsonNode json() {
            try {
                return mapper.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON: " + body, e);
            }
        }

        @Override
        public String toString() {
            return status + " " + contentType + " " + body;
        }
    }

    /** Waits up to 60 s for {@code condition}, asking every 100 ms; fails naming {@code what}. */
    protected static void eventually(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("not reached within 60 s: " + what);
    }
}
