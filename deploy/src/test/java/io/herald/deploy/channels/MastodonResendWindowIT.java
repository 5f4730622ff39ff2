package io.herald.deploy.channels;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.herald.deploy.HeraldApplication;
import io.herald.testsupport.TestDatabase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@code herald.channels.mastodon.idempotency-window} set to a millisecond: an unknown Mastodon
 * create is already older than the window when its outcome is known to be unknown, so it is never
 * sent again with its key; it is read back and ends as the one status the instance holds. Its own
 * application (with the tiny window) on a database of its own: the shared test application, with
 * the usual window, must not start or record any of its attempts.
 */
class MastodonResendWindowIT {

    private static final String SYSTEM_KEY = "hs.mastodon-window-key-0123456789abcdefghijklmnopqrstuv";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    private int port;

    @Test
    void anUnknownCreateAfterTheWindowIsReadBackAndNeverSentAgain() {
        TestDatabase database = TestDatabase.shared().freshSibling();
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(HeraldApplication.class).run(
                "--spring.datasource.url=" + database.jdbcUrl(),
                "--server.port=0",
                // the instance's address is the connection's own: no port chosen up front
                "--herald.test.sandbox-loopback=false",
                "--herald.sandbox.enabled=true",
                "--herald.secrets.encryption-key=MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
                "--herald.audit.signing-key=YXVkaXQtc2lnbmluZy1rZXktZm9yLXRlc3RzLTAxMjM=",
                "--herald.security.system-key=" + SYSTEM_KEY,
                "--herald.security.rate-limit.limit-for-period=1000000",
                "--spring.lifecycle.timeout-per-shutdown-phase=2s",
                "--herald.channels.mastodon.idempotency-window=1ms")) {
            port = ((WebServerApplicationContext) app).getWebServer().getPort();
            String ws = "masto-window";
            assertThat(call("POST", "/api/v1/admin/workspaces", "{\"workspaceId\":\"" + ws + "\",\"name\":\"w\"}",
                    SYSTEM_KEY).status()).isEqualTo(201);
            String key = call("POST", "/api/v1/workspaces/" + ws + "/keys",
                    "{\"roles\":[\"publisher\",\"auditor\",\"admin\"],\"label\":\"window\"}", SYSTEM_KEY).json()
                    .get("key").asText();
            String token = "masto-window-token-" + System.nanoTime();
            String account = call("POST", "/sandbox/_admin/mastodon/accounts", "{\"username\":\"window\",\"token\":\""
                    + token + "\"}", null).json().get("id").asText();
            Answer put = call("PUT", "/api/v1/workspaces/" + ws + "/channels/masto", "{\"type\":\"mastodon\","
                    + "\"instanceUrl\":\"http://localhost:" + port + "/sandbox/mastodon\",\"accessToken\":\"" + token
                    + "\"}", key);
            assertThat(put.status()).as(put.toString()).isEqualTo(201);
            assertThat(call("POST", "/sandbox/_admin/mastodon/faults", "{\"accountId\":\"" + account + "\","
                    + "\"operation\":\"CREATE\",\"type\":\"ERROR_500_AFTER_CREATE\",\"delayMillis\":0,\"times\":1}",
                    null).status()).isEqualTo(204);

            String publications = "/api/v1/workspaces/" + ws + "/publications";
            Answer published = call("POST", publications, """
                    {"calendarEntryId":"entry-window","contentVersion":1,"channelId":"masto","action":"publish",
                     "content":{"body":"Too old for its key, read back"}}""", key);
            assertThat(published.status()).as(published.toString()).isEqualTo(202);
            String id = published.json().get("publicationId").asText();
            JsonNode view = await(publications + "/" + id, key, v -> v.get("status").asText().equals("SUCCEEDED"));

            assertThat(view.get("attempts")).hasSize(1);
            assertThat(view.get("attempts").get(0).get("outcome").asText()).isEqualTo("OUTCOME_UNKNOWN");
            assertThat(view.get("reconciliations")).hasSize(1);
            assertThat(view.get("reconciliations").get(0).get("result").asText()).isEqualTo("FOUND");
            JsonNode statuses = call("GET", "/sandbox/_admin/mastodon/accounts/" + account + "/statuses", null, null)
                    .json();
            assertThat(statuses).hasSize(1);
            assertThat(statuses.get(0).get("id").asText()).isEqualTo(view.get("providerRef").get("id").asText());
            assertThat(call("GET", "/sandbox/_admin/mastodon/accounts/" + account + "/creates", null, null).json())
                    .hasSize(1);
            assertThat(call("GET", publications + "/" + id + "/events", null, key).body())
                    .contains("PublicationReconciledEvent").doesNotContain("PublicationResendDueEvent");
            JsonNode breaches = await("/api/v1/workspaces/" + ws + "/audit/verify", key, b -> true);
            assertThat(breaches.findValuesAsText("publicationId")).doesNotContain(id);
        }
    }

    private record Answer(int status, String body) {

        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private Answer call(String method, String path, String body, String key) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (key != null) {
            request.header("Authorization", "Bearer " + key);
        }
        try {
            HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Answer(response.statusCode(), response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private JsonNode await(String path, String key, Predicate<JsonNode> until) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        Answer last = null;
        while (System.nanoTime() < deadline) {
            last = call("GET", path, null, key);
            if (last.status() == 200 && until.test(last.json())) {
                return last.json();
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        throw new AssertionError("condition not reached on " + path + "; last answer: " + last);
    }
}
