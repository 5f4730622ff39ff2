package io.herald.deploy.publishing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.deploy.HeraldIntegrationTest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * An event that fails every time (here: a stored payload whose fields have the wrong shape) is set
 * aside in the dispatcher's dead-letter queue instead of holding its segment forever, publications
 * after it go on, and the system key sees it. The payload is still JSON, so the audit export and verifier of other
 * tests on this store read it like any other; a projection rebuild in another test would stop at it (a rebuild skips
 * nothing), so the test takes its event and dead letters out of the shared store when it ends.
 */
class DeadLetterIT extends HeraldIntegrationTest {

    @Test
    void anEventThatFailsEveryTimeIsSetAsideAndTheOthersGoOn() throws InterruptedException {
        String unreadable = "pub_unreadable_" + System.nanoTime();
        try {
            expectSetAside(unreadable);
        } finally {
            jdbc.update("DELETE FROM dead_letter_entry WHERE sequence_identifier = ?", unreadable);
            jdbc.update("DELETE FROM domain_event_entry WHERE aggregate_identifier = ?", unreadable);
        }
    }

    private void expectSetAside(String unreadable) throws InterruptedException {
        jdbc.update("""
                INSERT INTO domain_event_entry (aggregate_identifier, sequence_number, type, event_identifier, payload,
                    payload_revision, payload_type, time_stamp, meta_data)
                VALUES (?, 0, 'Publication', ?, ?, '1',
                    'io.herald.contracts.publication.PublicationRequestedEvent', '2026-12-01T10:00:00Z', ?)""",
                unreadable, unreadable, "{\"publicationId\":{\"not\":\"an id\"},\"contentVersion\":\"many\"}"
                        .getBytes(StandardCharsets.UTF_8), "{}".getBytes(StandardCharsets.UTF_8));
        String ws = newWorkspace("dlq");
        String page = "42" + (System.nanoTime() % 10_000_000);
        sandbox("POST", "/facebook/tokens", "{\"token\":\"EAAB-dlq-" + page + "\",\"pageId\":\"" + page
                + "\",\"kind\":\"PAGE\"}");
        assertThat(send("PUT", "/api/v1/workspaces/" + ws + "/channels/fb", "{\"type\":\"facebook\",\"pageId\":\""
                + page + "\",\"pageAccessToken\":\"EAAB-dlq-" + page + "\"}").status()).isEqualTo(201);
        String id = send("POST", "/api/v1/workspaces/" + ws + "/publications", "{\"calendarEntryId\":\"after\","
                + "\"contentVersion\":1,\"channelId\":\"fb\",\"action\":\"publish\",\"content\":{\"body\":\"after the"
                + " unreadable one\"}}").json().get("publicationId").asText();

        awaitJson("/api/v1/workspaces/" + ws + "/publications/" + id,
                view -> view.get("status").asText().equals("SUCCEEDED"));
        JsonNode answer = null;
        Set<String> groups = new HashSet<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (System.nanoTime() < deadline && !groups.contains("publication-dispatcher")) {
            answer = send("GET", "/api/v1/admin/dead-letters", null, null).json();
            answer.get("deadLetters").forEach(letter -> {
                if (letter.get("sequenceIdentifier").asText().equals(unreadable)) {
                    groups.add(letter.get("processingGroup").asText());
                }
            });
            Thread.sleep(200);
        }
        assertThat(groups).as("dead letters of %s in %s", unreadable, answer).contains("publication-dispatcher");
        // the view does not take this message (its handler needs the event's sequence number): it goes past it
        long position = jdbc.queryForObject("SELECT global_index FROM domain_event_entry WHERE aggregate_identifier = ?",
                Long.class, unreadable);
        long viewAt = 0;
        while (System.nanoTime() < deadline + Duration.ofSeconds(20).toNanos() && viewAt < position) {
            viewAt = jdbc.queryForObject("SELECT min((convert_from(token, 'UTF8')::jsonb ->> 'index')::bigint)"
                    + " FROM token_entry WHERE processor_name = 'publication-view'", Long.class);
            Thread.sleep(100);
        }
        assertThat(viewAt).as("the publication view's position").isGreaterThanOrEqualTo(position);
        assertThat(answer.get("deadLetterCount").asLong()).isPositive();
        assertThat(answer.get("stuckTimerCount").asLong()).isZero();
        assertThat(sendAs(null, "GET", "/api/v1/admin/dead-letters", null, null, java.util.Map.of()).status()).isEqualTo(401);
    }
}
