package io.herald.deploy.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.contracts.publication.ReconciliationResult;
import io.herald.deploy.HeraldIntegrationTest;
import io.herald.platform.projection.RevisionUpcaster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.serialization.upcasting.event.EventUpcaster;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A rebuild from the history gives exactly the tables the live projections built: a mixed
 * workload through the real command API, a snapshot of every projection table, rows changed and
 * deleted behind the projections' backs, a rebuild of every projection through the admin endpoint,
 * and the snapshot's rows again. The rebuild reads the store in pages of three events
 * ({@code herald.rebuild.page-size}), so most publications' streams are split across pages, and
 * the store's dozens of pages are read by every projection's rebuild at once, each on its own
 * connection and in its own transaction. The same comparison on a store of 300,000 events is
 * {@code bench/grown.sh}'s (the rows after a rebuild, the same in every round).
 */
class ProjectionRebuildIT extends HeraldIntegrationTest {

    /** Every projection table with the column that orders its rows. */
    private static final Map<String, String> TABLES = Map.of(
            "publication_view", "publication_id",
            "channel_connection_view", "channel_id",
            // the console's overview, kept with the publication view
            "publication_hour_stats", "hour, kind",
            "answer_time_buckets", "hour, channel_id, bucket");

    @Autowired
    CommandGateway commands;

    @Autowired
    org.axonframework.config.Configuration axon;

    /** The rebuild reads with Axon's event serializer: the one that resolves each type name once. */
    @Test
    void everyAxonSerializerIsTheTypeCachingOne() {
        assertThat(axon.serializer().getClass().getSimpleName()).isEqualTo("TypeCachingJacksonSerializer");
        assertThat(axon.eventSerializer()).isSameAs(axon.serializer());
        assertThat(axon.messageSerializer()).isSameAs(axon.serializer());
    }

    @Autowired
    List<EventUpcaster> upcasters;

    /**
     * Herald's upcasters only read older revisions of a type, so a rebuild reads only the stored
     * types its projection handles (the channel view's rebuild does not read every publication's).
     */
    @Test
    void everyUpcasterKeepsItsType() {
        assertThat(upcasters).isNotEmpty().allSatisfy(upcaster -> assertThat(upcaster).isInstanceOf(RevisionUpcaster.class));
    }

    @Test
    void rebuildingEveryProjectionGivesTheSameRows() {
        String ws = newWorkspace("rebuild");
        facebookChannel(ws, "fb-main", "EAAB-token-rebuild");
        facebookChannel(ws, "fb-second", "EAAB-token-rebuild-2");
        PublicationScenarios drive = new PublicationScenarios(commands);
        String pubs = "/api/v1/workspaces/" + ws + "/publications";

        String requested = request(ws, "requested");
        String succeeded = request(ws, "succeeded");
        drive.succeed(succeeded, drive.startAttempt(succeeded));
        String failed = request(ws, "failed");
        drive.rejected(failed, drive.startAttempt(failed));
        String retrying = request(ws, "retrying");
        drive.notSentRetryTomorrow(retrying, drive.startAttempt(retrying));
        // no publication is left OUTCOME_UNKNOWN: its automatic read-back would add events mid-test
        String foundByReadBack = request(ws, "found");
        drive.unknown(foundByReadBack, drive.startAttempt(foundByReadBack));
        drive.readBack(foundByReadBack, 1, ReconciliationResult.FOUND, "one post with the same text in the window");
        String notPublished = request(ws, "not-published");
        drive.unknown(notPublished, drive.startAttempt(notPublished));
        decide(ws, notPublished, "{\"decision\":\"confirm_not_published\",\"note\":\"not on the Page\"}");
        String confirmed = request(ws, "confirmed");
        drive.rejected(confirmed, drive.startAttempt(confirmed));
        // the channel's token is unknown to the sandbox: the post cannot be read back, and is recorded unverified
        decide(ws, confirmed, "{\"decision\":\"confirm_published\",\"providerRef\":{\"id\":\"1234567890_9\","
                + "\"url\":\"https://www.facebook.com/1234567890_9\"},\"note\":\"posted by hand\"}");
        // requested only: more pages to cross, each stream starting in one page and going on in the next
        for (int i = 0; i < 12; i++) {
            request(ws, "many-" + i);
        }
        String abandoned = request(ws, "abandoned");
        drive.unknown(abandoned, drive.startAttempt(abandoned));
        decide(ws, abandoned, "{\"decision\":\"abandon\",\"note\":\"campaign cancelled\"}");

        awaitJson(pubs + "/" + requested, v -> v.get("status").asText().equals("REQUESTED"));
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put(succeeded, "SUCCEEDED");
        expected.put(failed, "FAILED");
        expected.put(retrying, "RETRY_SCHEDULED");
        expected.put(foundByReadBack, "SUCCEEDED");
        expected.put(notPublished, "NOT_EXECUTED");
        expected.put(confirmed, "SUCCEEDED");
        expected.put(abandoned, "ABANDONED");
        expected.forEach((id, status) -> awaitJson(pubs + "/" + id, v -> v.get("status").asText().equals(status)));
        awaitJson("/api/v1/workspaces/" + ws + "/channels", v -> v.size() == 2);
        List<String> projections = awaitCaughtUp(headOfStore());

        Map<String, List<String>> before = snapshot(ws);
        assertThat(before.get("publication_view")).hasSize(20);
        assertThat(before.get("channel_connection_view")).hasSize(2);
        assertThat(projections).contains("publication-view", "channel-view");

        // rows a rebuild must put back: one changed behind the projection's back, one deleted
        jdbc.update("UPDATE publication_view SET status = 'ABANDONED', last_sequence = last_sequence + 100"
                + " WHERE publication_id = ?", succeeded);
        jdbc.update("DELETE FROM publication_view WHERE publication_id = ?", failed);
        jdbc.update("DELETE FROM channel_connection_view WHERE workspace_id = ? AND channel_id = 'fb-second'", ws);
        assertThat(before.get("publication_hour_stats")).isNotEmpty();
        assertThat(before.get("answer_time_buckets")).isNotEmpty();
        jdbc.update("UPDATE publication_hour_stats SET publications = publications + 7 WHERE workspace_id = ?", ws);
        jdbc.update("DELETE FROM answer_time_buckets WHERE workspace_id = ?", ws);
        assertThat(before.get("publication_counts")).hasSize(6);
        jdbc.update("UPDATE publication_counts SET publications = publications + 3 WHERE workspace_id = ?", ws);
        assertThat(snapshot(ws)).isNotEqualTo(before);

        long head = headOfStore();
        for (String name : projections) {
            Response rebuild = send("POST", "/api/v1/admin/projections/" + name + "/rebuild", null, null);
            assertThat(rebuild.status()).as(rebuild.toString()).isEqualTo(202);
            assertThat(rebuild.json().get("name").asText()).isEqualTo(name);
            assertThat(rebuild.json().get("status").asText()).isEqualTo("rebuilding");
        }
        awaitCaughtUp(head);

        assertThat(snapshot(ws)).isEqualTo(before);
        JsonNode view = projection("publication-view").get("rebuild");
        assertThat(view.get("running").asBoolean()).as(view.toString()).isFalse();
        assertThat(view.get("eventsTotal").asLong()).as(view.toString()).isPositive();
        // every event counted at the start is handled (the other tests' appends since may add more)
        assertThat(view.get("eventsDone").asLong()).as(view.toString())
                .isGreaterThanOrEqualTo(view.get("eventsTotal").asLong());
        assertThat(view.get("etaSeconds").isNull()).as(view.toString()).isTrue();
        assertThat(view.get("startedAt").asText()).isNotBlank();
    }

    private JsonNode projection(String name) {
        for (JsonNode p : send("GET", "/api/v1/admin/projections", null, null).json()) {
            if (p.get("name").asText().equals(name)) {
                return p;
            }
        }
        throw new AssertionError("no projection " + name);
    }

    @Test
    void anUnknownProjectionOrASagaIsNotRebuilt() {
        Response unknown = send("POST", "/api/v1/admin/projections/no-such-view/rebuild", null, null);
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.json().get("code").asText()).isEqualTo("not_found");

        JsonNode processors = send("GET", "/api/v1/admin/projections", null, null).json();
        List<String> sagas = new ArrayList<>();
        processors.forEach(p -> {
            if (!p.get("projection").asBoolean()) {
                sagas.add(p.get("name").asText());
            }
        });
        // the audit chain is only appended to: no projection, never rebuilt
        assertThat(sagas).contains("audit-chain");
        for (String saga : sagas) {
            assertThat(send("POST", "/api/v1/admin/projections/" + saga + "/rebuild", null, null).status())
                    .as(saga).isEqualTo(404);
        }
    }

    private String request(String ws, String entry) {
        Response created = send("POST", "/api/v1/workspaces/" + ws + "/publications",
                PublicationScenarios.scheduledRequest(entry, 1, "fb-main", "Rebuild " + entry));
        assertThat(created.status()).as(created.toString()).isEqualTo(202);
        return created.json().get("publicationId").asText();
    }

    private void decide(String ws, String id, String body) {
        Response decided = send("POST", "/api/v1/workspaces/" + ws + "/publications/" + id + "/decisions", body);
        assertThat(decided.status()).as(decided.toString()).isEqualTo(200);
    }

    /**
     * Waits until every projection's segments are claimed, caught up and at least at {@code head}
     * (the store's last position when the rebuild was asked for); returns the projections' names.
     */
    private List<String> awaitCaughtUp(long head) {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            last = send("GET", "/api/v1/admin/projections", null, null).json();
            List<String> projections = new ArrayList<>();
            boolean allCaughtUp = true;
            for (JsonNode p : last) {
                if (p.get("projection").asBoolean()) {
                    projections.add(p.get("name").asText());
                    allCaughtUp &= p.get("caughtUp").asBoolean();
                    for (JsonNode segment : p.get("segments")) {
                        allCaughtUp &= segment.get("position").asLong(-1) >= head;
                    }
                }
            }
            if (allCaughtUp && !projections.isEmpty()) {
                return projections;
            }
            pause();
        }
        throw new AssertionError("projections not caught up with position " + head + ": " + last);
    }

    private long headOfStore() {
        return jdbc.queryForObject("SELECT coalesce(max(global_index), 0) FROM domain_event_entry", Long.class);
    }

    /** This workspace's rows of every projection table, each row whole, in key order. */
    private Map<String, List<String>> snapshot(String ws) {
        Map<String, List<String>> tables = new LinkedHashMap<>();
        TABLES.forEach((table, key) -> tables.put(table, jdbc.queryForList(
                "SELECT to_jsonb(t)::text FROM " + table + " t WHERE workspace_id = ? ORDER BY " + key,
                String.class, ws)));
        // summed over the slots: which slot holds a count depends on the thread that wrote it
        tables.put("publication_counts", jdbc.queryForList("""
                SELECT channel_id || ' ' || status || ' ' || sum(publications) || ' ' || sum(waiting)
                FROM publication_counts WHERE workspace_id = ? GROUP BY channel_id, status
                HAVING sum(publications) <> 0 ORDER BY channel_id, status""", String.class, ws));
        return tables;
    }

    private static void pause() {
        try {
            Thread.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
