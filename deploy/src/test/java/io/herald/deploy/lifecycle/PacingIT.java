package io.herald.deploy.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.deploy.HeraldIntegrationTest;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * A rate-limit answer holds the whole connection, through its budget row: the refused publication
 * waits RETRY_SCHEDULED (not failed), the next one due on the connection stays REQUESTED without a
 * call, both views say until when ({@code throttledUntil}, a reason rather than a state), the
 * channel listing shows the budget spent; another workspace's connection publishes meanwhile.
 */
class PacingIT extends HeraldIntegrationTest {

    @Test
    void aRateLimitAnswerHoldsTheConnectionAndTheViewsSayUntilWhen() {
        long n = System.nanoTime() % 10_000_000;
        String author = "urn:li:person:pacing" + n;
        String other = "urn:li:person:pacingother" + n;
        String ws = newWorkspace("pacing");
        String elsewhere = newWorkspace("pacing-other");
        linkedIn(ws, author, "AQX-pacing-" + n);
        linkedIn(elsewhere, other, "AQX-pacing-other-" + n);
        sandbox("POST", "/faults", "{\"provider\":\"linkedin\",\"target\":\"" + author + "\",\"type\":\"RATE_LIMIT\","
                + "\"operation\":\"PUBLISH\",\"retryAfterSeconds\":600}");
        Instant before = Instant.now();

        String first = publish(ws, "pacing-1");
        JsonNode limited = awaitJson(publication(ws, first), v -> "RETRY_SCHEDULED".equals(v.path("status").asText())
                && !v.path("throttledUntil").isNull());
        assertThat(limited.path("attempts").size()).isEqualTo(1);
        Instant until = Instant.parse(limited.path("throttledUntil").asText());
        assertThat(until).isBetween(before.plus(Duration.ofMinutes(9)), before.plus(Duration.ofMinutes(11)));

        String second = publish(ws, "pacing-2");
        JsonNode waiting = awaitJson(publication(ws, second), v -> !v.path("throttledUntil").isNull());
        assertThat(waiting.path("status").asText()).isEqualTo("REQUESTED");
        assertThat(waiting.path("attempts").size()).as("no call while the connection waits").isZero();
        assertThat(Instant.parse(waiting.path("throttledUntil").asText())).isEqualTo(until);
        assertThat(sandboxTruth("linkedin", author).size()).isZero();

        JsonNode channel = send("GET", "/api/v1/workspaces/" + ws + "/channels", null).json().get(0);
        assertThat(channel.path("budget").path("remaining").asInt()).isZero();
        assertThat(channel.path("budget").path("source").asText()).isEqualTo("rate-limit-headers");
        assertThat(Instant.parse(channel.path("budget").path("resetsAt").asText())).isEqualTo(until);

        String third = publish(elsewhere, "pacing-3");
        JsonNode published = awaitJson(publication(elsewhere, third),
                v -> "SUCCEEDED".equals(v.path("status").asText()));
        assertThat(published.path("throttledUntil").isNull()).isTrue();
    }

    private void linkedIn(String ws, String author, String token) {
        sandbox("POST", "/linkedin/tokens", "{\"token\":\"" + token + "\",\"author\":\"" + author
                + "\",\"scopes\":[\"w_member_social\"]}");
        Response put = send("PUT", "/api/v1/workspaces/" + ws + "/channels/li", "{\"type\":\"linkedin\",\"authorUrn\":\""
                + author + "\",\"accessToken\":\"" + token + "\",\"scopes\":[\"w_member_social\"]}");
        assertThat(put.status()).as(put.toString()).isEqualTo(201);
    }

    private String publish(String ws, String entry) {
        Response accepted = send("POST", "/api/v1/workspaces/" + ws + "/publications", "{\"calendarEntryId\":\""
                + entry + "\",\"contentVersion\":1,\"channelId\":\"li\",\"action\":\"publish\","
                + "\"content\":{\"body\":\"Paced post " + entry + "\"}}");
        assertThat(accepted.status()).as(accepted.toString()).isBetween(200, 202);
        return accepted.json().path("publicationId").asText();
    }

    private static String publication(String ws, String id) {
        return "/api/v1/workspaces/" + ws + "/publications/" + id;
    }
}
