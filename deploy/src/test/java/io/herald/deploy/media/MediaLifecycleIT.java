package io.herald.deploy.media;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.command.media.MediaRetention;
import io.herald.deploy.HeraldIntegrationTest;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * An image's life over real HTTP on a real PostgreSQL: deleted by a publisher unless a publication
 * that has not finished names it, and removed by the retention sweep once no publication named it
 * for the retention; the publication's events name it by id, never carry its bytes.
 */
class MediaLifecycleIT extends HeraldIntegrationTest {

    private static final AtomicInteger SEEDS = new AtomicInteger(7_000);

    @Autowired
    MediaRetention retention;

    private String ws;

    private String media(String id) {
        return "/api/v1/workspaces/" + ws + "/media/" + id;
    }

    private String image() {
        byte[] png = MediaImages.image("png", 6, 6, SEEDS.incrementAndGet());
        Response created = sendBytesAs(keyFor("/api/v1/workspaces/" + ws), "POST", "/api/v1/workspaces/" + ws
                + "/media", png, "image/png", Map.of());
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        return created.json().get("mediaId").asText();
    }

    private void facebookChannel() {
        String page = "88" + SEEDS.incrementAndGet() + System.nanoTime() % 100_000;
        String token = "EAAB-life-" + page;
        sandbox("POST", "/facebook/tokens", "{\"token\":\"" + token + "\",\"pageId\":\"" + page + "\",\"kind\":\"PAGE\"}");
        Response put = send("PUT", "/api/v1/workspaces/" + ws + "/channels/fb", "{\"type\":\"facebook\","
                + "\"pageId\":\"" + page + "\",\"pageAccessToken\":\"" + token + "\"}");
        assertThat(put.status()).as(put.toString()).isIn(200, 201);
    }

    /** Publishes an entry with the images, now or at the given time; the publication's id. */
    private String publish(String entry, List<String> images, OffsetDateTime at) {
        Response r = send("POST", "/api/v1/workspaces/" + ws + "/publications", """
                {"calendarEntryId":"%s","contentVersion":1,"channelId":"fb","action":"publish",%s"content":%s}"""
                .formatted(entry, at == null ? "" : "\"scheduledAt\":\"" + at + "\",",
                        MediaImages.contentWithImages("life " + entry, images, null)));
        assertThat(r.status()).as(r.toString()).isEqualTo(202);
        return r.json().get("publicationId").asText();
    }

    private void awaitSucceeded(String publication) {
        awaitJson("/api/v1/workspaces/" + ws + "/publications/" + publication,
                v -> v.get("status").asText().equals("SUCCEEDED"));
    }

    private long stored() {
        return jdbc.queryForObject("SELECT count(*) FROM media WHERE workspace_id = ?", Long.class, ws);
    }

    @Test
    void aPublisherDeletesAnImageAndItIsGone() {
        ws = newWorkspace("media-delete");
        String id = image();
        Response deleted = send("DELETE", media(id), null);
        assertThat(deleted.status()).as(deleted.toString()).isEqualTo(204);
        assertThat(send("GET", media(id), null).status()).isEqualTo(404);
        assertThat(send("GET", media(id) + "/content", null).status()).isEqualTo(404);
        Response again = send("DELETE", media(id), null);
        assertThat(again.status()).isEqualTo(404);
        assertThat(again.json().get("code").asText()).isEqualTo("not_found");
        assertThat(stored()).isZero();
        assertThat(jdbc.queryForObject("SELECT stored_bytes FROM media_usage WHERE workspace_id = ?", Long.class, ws))
                .isZero();
    }

    @Test
    void anotherWorkspacesImageOrAnUnknownIdIsNotFound() {
        ws = newWorkspace("media-delete-owner");
        String id = image();
        String other = newWorkspace("media-delete-other");
        Response foreign = send("DELETE", "/api/v1/workspaces/" + other + "/media/" + id, null);
        assertThat(foreign.status()).isEqualTo(404);
        assertThat(send("DELETE", media("med_" + "0".repeat(64)), null).status()).isEqualTo(404);
        assertThat(send("DELETE", media("not-a-media-id"), null).status()).isEqualTo(404);
        assertThat(stored()).isEqualTo(1);
    }

    @Test
    void onlyPublishersDelete() {
        ws = newWorkspace("media-delete-roles");
        String id = image();
        for (String role : List.of("operator", "auditor", "admin")) {
            String key = createKey(ws, List.of(role), "delete-" + role);
            Response refused = sendAs(key, "DELETE", media(id), null, null, Map.of());
            assertThat(refused.status()).as(role).isEqualTo(403);
        }
        assertThat(stored()).isEqualTo(1);
        String publisher = createKey(ws, List.of("publisher"), "delete-publisher");
        assertThat(sendAs(publisher, "DELETE", media(id), null, null, Map.of()).status()).isEqualTo(204);
    }

    @Test
    void anImageAnUnfinishedPublicationNamesIsInUseUntilItFinishes() {
        ws = newWorkspace("media-in-use");
        facebookChannel();
        String waiting = image();
        String published = image();
        publish("later", List.of(waiting), OffsetDateTime.now(ZoneOffset.UTC).plusDays(2).withNano(0));
        Response inUse = send("DELETE", media(waiting), null);
        assertThat(inUse.status()).as(inUse.toString()).isEqualTo(409);
        assertThat(inUse.json().get("code").asText()).isEqualTo("media_in_use");
        assertThat(send("GET", media(waiting), null).status()).isEqualTo(200);

        String now = publish("now", List.of(published), null);
        awaitSucceeded(now);
        assertThat(send("DELETE", media(published), null).status()).isEqualTo(204);

        // the request's event names the image by its id (the hash of its bytes) and holds no bytes
        String payload = jdbc.queryForObject("SELECT convert_from(payload, 'UTF8') FROM domain_event_entry"
                + " WHERE aggregate_identifier = ? AND payload_type LIKE '%PublicationRequestedEvent'", String.class, now);
        assertThat(payload).contains(published).hasSizeLessThan(2_000);
    }

    @Test
    void theRetentionSweepRemovesImagesNoPublicationNamedForTheRetention() {
        ws = newWorkspace("media-retention");
        facebookChannel();
        String unused = image();
        String waiting = image();
        String usedLongAgo = image();
        String usedRecently = image();
        String fresh = image();
        publish("later", List.of(waiting), OffsetDateTime.now(ZoneOffset.UTC).plusDays(2).withNano(0));
        awaitSucceeded(publish("long-ago", List.of(usedLongAgo), null));
        awaitSucceeded(publish("recently", List.of(usedRecently), null));
        // all but the fresh one were uploaded before the retention; only one was named since
        long days = retention.properties().retention().toDays() + 1;
        jdbc.update("UPDATE media SET created_at = now() - make_interval(days => ?) WHERE workspace_id = ?"
                + " AND media_id <> ?", (int) days, ws, fresh);
        jdbc.update("UPDATE media_use SET used_at = now() - make_interval(days => ?) WHERE workspace_id = ?"
                + " AND media_id IN (?, ?)", (int) days, ws, usedLongAgo, waiting);
        long bytesBefore = jdbc.queryForObject("SELECT stored_bytes FROM media_usage WHERE workspace_id = ?",
                Long.class, ws);
        long bytesGone = jdbc.queryForObject("SELECT sum(byte_count) FROM media WHERE workspace_id = ?"
                + " AND media_id IN (?, ?)", Long.class, ws, unused, usedLongAgo);

        assertThat(retention.sweep()).isGreaterThanOrEqualTo(2);

        assertThat(send("GET", media(unused), null).status()).isEqualTo(404);
        assertThat(send("GET", media(usedLongAgo), null).status()).isEqualTo(404);
        // named by a publication still waiting for its time, however long ago
        assertThat(send("GET", media(waiting), null).status()).isEqualTo(200);
        assertThat(send("GET", media(usedRecently), null).status()).isEqualTo(200);
        assertThat(send("GET", media(fresh), null).status()).isEqualTo(200);
        assertThat(jdbc.queryForObject("SELECT stored_bytes FROM media_usage WHERE workspace_id = ?", Long.class, ws))
                .isEqualTo(bytesBefore - bytesGone);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM media_use WHERE workspace_id = ? AND media_id = ?",
                Long.class, ws, usedLongAgo)).isZero();
        // nothing left to remove: a second sweep changes nothing here
        retention.sweep();
        assertThat(stored()).isEqualTo(3);
    }
}
