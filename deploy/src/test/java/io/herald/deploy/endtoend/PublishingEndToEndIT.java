package io.herald.deploy.endtoend;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.deploy.HeraldIntegrationTest;
import java.time.Duration;
import java.time.Instant;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.beans.factory.annotation.Autowired;
import org.junit.jupiter.api.Test;

/**
 * Herald end to end on a real PostgreSQL, against the provider sandbox over real HTTP: the
 * dispatcher, the timer rows and their sweep, read-backs, the adapters' classification.
 * Timings come from the test configuration: provider read timeout 2 s, settle delay 3 s.
 */
class PublishingEndToEndIT extends HeraldIntegrationTest {

    private static final AtomicInteger TARGETS = new AtomicInteger(1000);

    @Autowired
    MeterRegistry meters;

    private String ws;

    private String publicationsPath() {
        return "/api/v1/workspaces/" + ws + "/publications";
    }

    private void fault(String provider, String target, String type, String extra) {
        sandbox("POST", "/faults", "{\"provider\":\"" + provider + "\",\"target\":\"" + target + "\",\"type\":\""
                + type + "\"" + extra + "}");
    }

    private int postsAt(String provider, String target) {
        return sandboxTruth(provider, target).size();
    }

    /** A Facebook Page in the sandbox and a connection to it; returns the Page id. */
    private String facebookPage(String channel, String readTokenKind) {
        String page = "9" + TARGETS.incrementAndGet();
        String token = "EAAB-e2e-page-" + page;
        sandbox("POST", "/facebook/tokens", "{\"token\":\"" + token + "\",\"pageId\":\"" + page
                + "\",\"kind\":\"PAGE\"}");
        String readToken = "";
        if (readTokenKind != null) {
            sandbox("POST", "/facebook/tokens", "{\"token\":\"EAAB-e2e-user-" + page + "\",\"pageId\":\"" + page
                    + "\",\"kind\":\"" + readTokenKind + "\"}");
            readToken = ",\"readAccessToken\":\"EAAB-e2e-user-" + page + "\"";
        }
        Response put = send("PUT", "/api/v1/workspaces/" + ws + "/channels/" + channel,
                "{\"type\":\"facebook\",\"pageId\":\"" + page + "\",\"pageAccessToken\":\"" + token + "\""
                        + readToken + "}");
        assertThat(put.status()).as(put.toString()).isIn(200, 201);
        return page;
    }

    private String publish(String channel, String entry, String text) {
        Response r = send("POST", publicationsPath(), """
                {"calendarEntryId":"%s","contentVersion":1,"channelId":"%s","action":"publish",
                 "content":{"body":"%s"}}""".formatted(entry, channel, text));
        assertThat(r.status()).as(r.toString()).isEqualTo(202);
        return r.json().get("publicationId").asText();
    }

    private JsonNode awaitStatus(String id, String status) {
        return awaitJson(publicationsPath() + "/" + id, v -> v.get("status").asText().equals(status));
    }

    @Test
    void aPlainPublicationSucceedsWithTheProvidersId() {
        ws = newWorkspace("e2e-ok");
        String page = facebookPage("fb", null);

        String id = publish("fb", "entry-1", "Hello from Herald");

        JsonNode view = awaitStatus(id, "SUCCEEDED");
        assertThat(view.get("providerRef").get("id").asText()).startsWith(page + "_");
        assertThat(view.get("attempts")).hasSize(1);
        assertThat(view.get("attempts").get(0).get("outcome").asText()).isEqualTo("SUCCEEDED");
        assertThat(postsAt("facebook", page)).isEqualTo(1);
        // Spring Boot's tests switch metric export off, so the registry is asked directly
        assertThat(meters.get("herald.attempts").tags("channel", "facebook", "outcome", "succeeded").counter()
                .count()).isPositive();
        assertThat(meters.get("herald.attempt.duration").tags("channel", "facebook", "outcome", "succeeded")
                .timer().count()).isPositive();
        assertThat(meters.get("herald.publications.outcome_unknown").gauge().value()).isNotNaN();
        assertThat(meters.get("herald.publications.needs_decision").gauge().value()).isNotNaN();
        assertThat(meters.get("herald.processor.segments").tags("processor", "publication-dispatcher").gauge().value())
                .isPositive();
        assertThat(meters.get("herald.processor.lag_events").tags("processor", "publication-view").gauge().value())
                .isNotNaN().isNotNegative();
    }

    /**
     * Processors, attempts and provider calls run at the lowest thread priority and requests at the
     * normal one, so a JVM that maps priorities to the OS answers requests first (docs/operations.md#running-more-than-one-node).
     */
    @Test
    void backgroundWorkRunsBelowTheRequests() {
        ws = newWorkspace("e2e-priority");
        facebookPage("fb", null);
        awaitStatus(publish("fb", "entry-1", "Priorities"), "SUCCEEDED");

        Map<String, Set<Integer>> priorities = new TreeMap<>();
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            String name = thread.getName();
            for (String kind : List.of("WorkPackage[publication-dispatcher]", "Coordinator[publication-view]",
                    "herald-attempts", "herald-results", "herald-facebook-http", "http-nio")) {
                if (name.startsWith(kind)) {
                    priorities.computeIfAbsent(kind, k -> new TreeSet<>()).add(thread.getPriority());
                }
            }
        }
        assertThat(priorities).containsOnly(
                Map.entry("WorkPackage[publication-dispatcher]", Set.of(Thread.MIN_PRIORITY)),
                Map.entry("Coordinator[publication-view]", Set.of(Thread.MIN_PRIORITY)),
                Map.entry("herald-attempts", Set.of(Thread.MIN_PRIORITY)),
                Map.entry("herald-results", Set.of(Thread.MIN_PRIORITY)),
                Map.entry("herald-facebook-http", Set.of(Thread.MIN_PRIORITY)),
                Map.entry("http-nio", Set.of(Thread.NORM_PRIORITY)));
    }

    /** The seed case: the provider times out and the post appears 4 s later. */
    @Test
    void aPostThatAppearsAfterTheTimeoutIsFoundAndNotPostedTwice() {
        ws = newWorkspace("e2e-seed");
        String page = facebookPage("fb", null);
        fault("facebook", page, "CREATE_AFTER", ",\"delayMillis\":4000");

        String id = publish("fb", "entry-seed", "Late but there");

        awaitStatus(id, "OUTCOME_UNKNOWN");
        JsonNode view = awaitStatus(id, "SUCCEEDED");
        assertThat(view.get("attempts")).hasSize(1);
        assertThat(view.get("attempts").get(0).get("outcome").asText()).isEqualTo("OUTCOME_UNKNOWN");
        JsonNode found = view.get("reconciliations").get(view.get("reconciliations").size() - 1);
        assertThat(found.get("result").asText()).isEqualTo("FOUND");
        assertThat(found.get("source").asText()).isEqualTo("AUTOMATIC");
        assertThat(postsAt("facebook", page)).isEqualTo(1);
    }

    @Test
    void aReadWithAUserTokenIsUnavailableAndGoesToTheOperatorWithoutASecondWrite() throws Exception {
        ws = newWorkspace("e2e-usertoken");
        String page = facebookPage("fb", "USER");
        fault("facebook", page, "DELAY_THEN_CREATE", ",\"delayMillis\":3000");

        String id = publish("fb", "entry-user", "Needs a Page token to read");

        JsonNode view = awaitJson(publicationsPath() + "/" + id, v -> v.get("needsDecision").asBoolean());
        assertThat(view.get("status").asText()).isEqualTo("OUTCOME_UNKNOWN");
        assertThat(view.get("decisionReason").asText()).contains("Page Access Token");
        Thread.sleep(Duration.ofSeconds(5).toMillis());
        assertThat(postsAt("facebook", page)).isEqualTo(1);
        JsonNode later = send("GET", publicationsPath() + "/" + id, null, null).json();
        assertThat(later.get("attempts")).hasSize(1);
        assertThat(later.get("status").asText()).isEqualTo("OUTCOME_UNKNOWN");
    }

    @Test
    void linkedInWithoutReadScopeGoesToTheOperatorWithTheReason() throws Exception {
        ws = newWorkspace("e2e-li");
        String author = "urn:li:person:e2e" + TARGETS.incrementAndGet();
        sandbox("POST", "/linkedin/tokens", "{\"token\":\"li-w-" + author.hashCode() + "\",\"author\":\"" + author
                + "\",\"scopes\":[\"w_member_social\"]}");
        Response put = send("PUT", "/api/v1/workspaces/" + ws + "/channels/li", "{\"type\":\"linkedin\",\"authorUrn\":\""
                + author + "\",\"accessToken\":\"li-w-" + author.hashCode() + "\",\"scopes\":[\"w_member_social\"]}");
        assertThat(put.status()).as(put.toString()).isIn(200, 201);
        fault("linkedin", author, "DELAY_THEN_CREATE", ",\"delayMillis\":3000");

        String id = publish("li", "entry-li", "Posted, then silence");

        JsonNode view = awaitJson(publicationsPath() + "/" + id, v -> v.get("needsDecision").asBoolean());
        assertThat(view.get("status").asText()).isEqualTo("OUTCOME_UNKNOWN");
        assertThat(view.get("decisionReason").asText()).contains("r_member_social");
        Thread.sleep(Duration.ofSeconds(5).toMillis());
        assertThat(postsAt("linkedin", author)).isEqualTo(1);
        assertThat(send("GET", publicationsPath() + "/" + id, null, null).json().get("attempts")).hasSize(1);
    }

    @Test
    void wordPressReadBackByMetaKeyReachesFoundAndNotFound() {
        ws = newWorkspace("e2e-wp");
        String site = "blog" + TARGETS.incrementAndGet();
        sandbox("POST", "/wordpress/sites", "{\"site\":\"" + site + "\",\"username\":\"editor\","
                + "\"applicationPassword\":\"abcd efgh ijkl\",\"plugin\":true}");
        Response put = send("PUT", "/api/v1/workspaces/" + ws + "/channels/wp", "{\"type\":\"wordpress\",\"siteUrl\":\""
                + "http://localhost:" + port + "/sandbox/wordpress/" + site
                + "\",\"username\":\"editor\",\"applicationPassword\":\"abcd efgh ijkl\"}");
        assertThat(put.status()).as(put.toString()).isIn(200, 201);

        fault("wordpress", site, "ERROR_5XX_WITH_EFFECT", "");
        String landed = publish("wp", "entry-wp-1", "Landed despite the 500");
        awaitStatus(landed, "OUTCOME_UNKNOWN");
        fault("wordpress", site, "ERROR_5XX_NO_EFFECT", "");
        String lost = publish("wp", "entry-wp-2", "Never landed");

        JsonNode found = awaitStatus(landed, "SUCCEEDED");
        assertThat(found.get("attempts").get(0).get("outcome").asText()).isEqualTo("OUTCOME_UNKNOWN");
        JsonNode notFound = awaitStatus(lost, "NOT_EXECUTED");
        assertThat(notFound.get("needsDecision").asBoolean()).isTrue();
        assertThat(postsAt("wordpress", site)).isEqualTo(1);
    }

    @Test
    void aRateLimitIsWaitedOutBeforeTheNextCall() {
        ws = newWorkspace("e2e-429");
        String page = facebookPage("fb", null);
        // code 4, the application limit: announced with Retry-After (Page limits say minutes)
        fault("facebook", page, "RATE_LIMIT", ",\"retryAfterSeconds\":2,\"times\":1,\"providerCode\":4");

        String id = publish("fb", "entry-429", "Patience");

        JsonNode view = awaitStatus(id, "SUCCEEDED");
        JsonNode attempts = view.get("attempts");
        assertThat(attempts).hasSize(2);
        assertThat(attempts.get(0).get("failureKind").asText()).isEqualTo("RATE_LIMITED");
        Instant refusedAt = Instant.parse(attempts.get(0).get("finishedAt").asText());
        Instant retriedAt = Instant.parse(attempts.get(1).get("startedAt").asText());
        assertThat(Duration.between(refusedAt, retriedAt)).isGreaterThanOrEqualTo(Duration.ofMillis(1900));
        assertThat(postsAt("facebook", page)).isEqualTo(1);
    }

    @Test
    void aRejectionIsNeverRetried() throws Exception {
        ws = newWorkspace("e2e-reject");
        String page = facebookPage("fb", null);
        // a User token stored as the Page token: a wrong setting, refused, not a lapsed token (that is HELD)
        sandbox("POST", "/facebook/tokens", "{\"token\":\"EAAB-e2e-page-" + page + "\",\"pageId\":\"" + page
                + "\",\"kind\":\"USER\"}");

        String id = publish("fb", "entry-reject", "Wrong kind of token");

        JsonNode view = awaitStatus(id, "FAILED");
        assertThat(view.get("needsDecision").asBoolean()).isTrue();
        Thread.sleep(Duration.ofSeconds(3).toMillis());
        JsonNode later = send("GET", publicationsPath() + "/" + id, null, null).json();
        assertThat(later.get("attempts")).hasSize(1);
        assertThat(later.get("attempts").get(0).get("failureKind").asText()).isEqualTo("REJECTED");
        assertThat(postsAt("facebook", page)).isZero();
    }

    @Test
    void aProviderThatCannotBeReachedIsTriedThreeTimesThenLeftToTheOperator() {
        ws = newWorkspace("e2e-notsent");
        Response put = send("PUT", "/api/v1/workspaces/" + ws + "/channels/wp-down", "{\"type\":\"wordpress\","
                + "\"siteUrl\":\"http://127.0.0.1:9/nowhere\",\"username\":\"editor\",\"applicationPassword\":\"x y\"}");
        assertThat(put.status()).as(put.toString()).isIn(200, 201);

        String id = publish("wp-down", "entry-down", "Nobody home");

        JsonNode view = awaitJson(publicationsPath() + "/" + id,
                v -> v.get("status").asText().equals("FAILED") && v.get("attempts").size() == 3);
        for (JsonNode attempt : view.get("attempts")) {
            assertThat(attempt.get("failureKind").asText()).isEqualTo("NOT_SENT");
        }
        assertThat(view.get("needsDecision").asBoolean()).isTrue();
    }
}
