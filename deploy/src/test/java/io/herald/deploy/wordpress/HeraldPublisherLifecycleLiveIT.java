package io.herald.deploy.wordpress;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The parts of the herald-publisher live test that need Herald's media in publications and its
 * {@code update} and {@code delete} actions: on a Herald without them the plugin's side is checked
 * and Herald's side reports itself skipped, with the reason.
 */
class HeraldPublisherLifecycleLiveIT extends PublisherLiveTestBase {

    /**
     * Needs publications with {@code content.media}; on a Herald without them the upload is
     * checked and the rest reports itself skipped.
     */
    @Test
    void inImageModeTheFeaturedImageIsUploadedToHeraldFirstWithItsAltText() throws Exception {
        site.php("$s = get_option('herald_publisher_settings'); $s['channel_modes'] = ['fb-main' => 'image'];"
                + " update_option('herald_publisher_settings', $s);");
        byte[] image = png(TARGETS.incrementAndGet());
        int post = site.publishPost("Herald live image " + page, "<p>With a featured image.</p>", image);
        site.dispatch();

        String mediaId = "med_" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(image));
        Response media = send("GET", path("/media/" + mediaId), null, null);
        System.out.printf("herald-publisher image mode: media %s in Herald: HTTP %d%n", mediaId, media.status());
        assertThat(media.status()).as("the featured image was uploaded to Herald: %s", media).isEqualTo(200);
        JsonNode facebook = site.records(post).stream().filter(r -> r.get("channel_id").asText().equals("fb-main")).findFirst().orElseThrow();
        JsonNode sent = json.readTree(facebook.get("request").asText());
        assertThat(sent.at("/content/media/0/mediaId").asText()).isEqualTo(mediaId);
        assertThat(sent.at("/content/media/0/altText").asText()).isEqualTo(PublisherSite.IMAGE_ALT_TEXT);
        assertThat(sent.at("/content/link").isMissingNode()).as("image mode sends no link: %s", sent).isTrue();
        assertThat(sent.at("/content/body").asText()).endsWith("\n\n" + site.permalink(post));
        assertThat(facebook.get("last_error_code").asText(null)).as("Herald accepts content.media")
                .isNotEqualTo("validation_failed");
        awaitSucceeded(post, "fb-main", "publish", 1);
        JsonNode view = heraldPublication(publicationId(post, 1, "fb-main", "publish"));
        assertThat(view.get("steps").findValuesAsText("step")).contains("upload_media", "create_post");
        assertThat(sandboxTruth("facebook", page).size()).isEqualTo(1);
    }

    /** An edit of the shared content becomes one {@code update} per channel, trashing one {@code delete}. */
    @Test
    void anEditSendsOneUpdateAndTrashingOneDelete() throws Exception {
        int post = site.publishPost("Herald live edit " + page, "<p>Before the edit.</p>", null);
        site.dispatch();
        awaitSucceeded(post, "li-main", "publish", 1);
        awaitSucceeded(post, "fb-main", "publish", 1);

        HttpResponse<String> edited = site.restJson("POST", "/wp/v2/posts/" + post, "{\"content\":\"<p>After the edit.</p>\"}");
        assertThat(edited.statusCode()).as(edited.body()).isEqualTo(200);
        // saving again without a change is no new version
        assertThat(site.restJson("POST", "/wp/v2/posts/" + post, "{\"content\":\"<p>After the edit.</p>\"}").statusCode()).isEqualTo(200);
        site.fireHookAgain(post);
        site.dispatch();
        HttpResponse<String> trashed = site.restJson("DELETE", "/wp/v2/posts/" + post, null);
        assertThat(trashed.statusCode()).as(trashed.body()).isEqualTo(200);
        site.dispatch();

        List<JsonNode> records = site.records(post);
        Map<String, Integer> byAction = new LinkedHashMap<>();
        records.forEach(r -> byAction.merge(r.get("action").asText() + " v" + r.get("content_version").asText(), 1, Integer::sum));
        System.out.printf("herald-publisher edit and trash: records %s%n", byAction);
        assertThat(byAction).containsExactlyInAnyOrderEntriesOf(Map.of("publish v1", 2, "update v2", 2, "delete v3", 2));

        assertThat(records.stream().filter(r -> r.get("action").asText().equals("update")))
                .as("Herald accepts the updates").noneMatch(r -> "validation_failed".equals(r.get("last_error_code").asText(null)));
        for (String channel : List.of("fb-main", "li-main")) {
            awaitSucceeded(post, channel, "update", 2);
            awaitSucceeded(post, channel, "delete", 3);
        }
        List<JsonNode> publications = heraldPublications(post);
        System.out.printf("herald-publisher edit and trash: %d publications in Herald (%s)%n", publications.size(),
                publications.stream().map(p -> p.get("action").asText()).toList());
        assertThat(publications.stream().filter(p -> p.get("action").asText().equals("update"))).hasSize(2);
        assertThat(publications.stream().filter(p -> p.get("action").asText().equals("delete"))).hasSize(2);
        assertThat(publications).hasSize(6);
    }
}
