package io.herald.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.herald.testsupport.TestDatabase;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.springframework.beans.factory.annotation.Autowired;
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
        "herald.sandbox.enabled=true"
})
public abstract class HeraldIntegrationTest {

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

    protected Response send(String method, String path, String body, String contentType) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .timeout(Duration.ofSeconds(30))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        return send(request.build());
    }

    protected Response send(HttpRequest request) {
        try {
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            return new Response(response.statusCode(), response.body(),
                    response.headers().firstValue("Content-Type").orElse(""),
                    response.headers().firstValue("Location").orElse(null),
                    response.headers().firstValue("X-Correlation-Id").orElse(null), json);
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
                           ObjectMapper mapper) {

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
}
