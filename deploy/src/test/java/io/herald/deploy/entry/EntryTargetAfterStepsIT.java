package io.herald.deploy.entry;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.deploy.HeraldIntegrationTest;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

/**
 * The post an update acts on is the post the publish created, not another step's result: neither a
 * first comment written after the post nor an image uploaded before it is the entry's post.
 */
class EntryTargetAfterStepsIT extends HeraldIntegrationTest {

    private static final AtomicInteger TARGETS = new AtomicInteger();

    private String ws;

    private String publications() {
        return "/api/v1/workspaces/" + ws + "/publications";
    }

    private Response request(String entry, long version, String action, String content) {
        return send("POST", publications(), """
                {"calendarEntryId":"%s","contentVersion":%d,"channelId":"fb","action":"%s","content":%s}"""
                .formatted(entry, version, action, content));
    }

    private String accepted(Response r) {
        assertThat(r.status()).as(r.toString()).isEqualTo(202);
        return r.json().get("publicationId").asText();
    }

    private String facebookPage() {
        String page = "93" + TARGETS.incrementAndGet() + System.nanoTime() % 100_000;
        String token = "EAAB-target-" + page;
        sandbox("POST", "/facebook/tokens", "{\"token\":\"" + token + "\",\"pageId\":\"" + page
                + "\",\"kind\":\"PAGE\"}");
        Response put = send("PUT", "/api/v1/workspaces/" + ws + "/channels/fb", "{\"type\":\"facebook\",\"pageId\":\""
                + page + "\",\"pageAccessToken\":\"" + token + "\"}");
        assertThat(put.status()).as(put.toString()).isIn(200, 201);
        return page;
    }

    @Test
    void anUpdateAfterAFirstCommentChangesThePostNotTheComment() {
        ws = newWorkspace("entry-target");
        String page = facebookPage();
        String publish = accepted(request("entry-c", 1, "publish",
                "{\"body\":\"Frist text\",\"firstComment\":\"Details below\"}"));
        JsonNode published = awaitJson(publications() + "/" + publish, v -> v.get("status").asText().equals("SUCCEEDED")
                && v.get("steps").toString().contains("\"first_comment\"")
                && !v.get("steps").toString().contains("PENDING"));
        String postId = published.get("providerRef").get("id").asText();

        String update = accepted(request("entry-c", 2, "update", "{\"body\":\"First text\"}"));

        JsonNode view = awaitJson(publications() + "/" + update, v -> v.get("status").asText().equals("SUCCEEDED")
                || v.get("status").asText().equals("FAILED") || v.path("needsDecision").asBoolean());
        assertThat(view.get("targetRef").get("id").asText()).as(view.toString()).isEqualTo(postId);
        assertThat(view.get("status").asText()).as(view.toString()).isEqualTo("SUCCEEDED");
        JsonNode posts = sandboxTruth("facebook", page);
        assertThat(posts).hasSize(1);
        assertThat(posts.get(0).get("text").asText()).contains("First text");
    }

    /** An update accepted once the image is uploaded, while the post is being created, waits for the post. */
    @Test
    void anUpdateAcceptedAfterTheUploadWaitsForThePost() {
        ws = newWorkspace("entry-upload");
        String page = facebookPage();
        Response image = sendBytesAs(keyFor("/api/v1/workspaces/" + ws), "POST", "/api/v1/workspaces/" + ws
                + "/media", png(), "image/png", Map.of());
        assertThat(image.status()).as(image.toString()).isEqualTo(201);
        // the create answers after 1.5 s, within the read timeout: it is in flight meanwhile
        sandbox("POST", "/faults", "{\"provider\":\"facebook\",\"target\":\"" + page
                + "\",\"type\":\"DELAY_THEN_CREATE\",\"operation\":\"PUBLISH\",\"delayMillis\":1500}");
        String publish = accepted(request("entry-u", 1, "publish", "{\"body\":\"With a photo\",\"media\":[{"
                + "\"mediaId\":\"" + image.json().get("mediaId").asText() + "\",\"altText\":\"a photo\"}]}"));
        awaitJson(publications() + "/" + publish, v -> v.get("steps").toString().contains("\"upload_media\"")
                && v.get("steps").get(0).get("status").asText().equals("SUCCEEDED"));

        String update = accepted(request("entry-u", 2, "update", "{\"body\":\"With a photo, fixed\"}"));

        JsonNode published = awaitJson(publications() + "/" + publish,
                v -> v.get("status").asText().equals("SUCCEEDED"));
        JsonNode view = awaitJson(publications() + "/" + update, v -> v.get("status").asText().equals("SUCCEEDED")
                || v.get("status").asText().equals("FAILED") || v.path("needsDecision").asBoolean());
        assertThat(view.get("targetRef").get("id").asText()).as(view.toString())
                .isEqualTo(published.get("providerRef").get("id").asText());
        assertThat(view.get("status").asText()).as(view.toString()).isEqualTo("SUCCEEDED");
        assertThat(sandboxTruth("facebook", page).get(0).get("text").asText()).contains("With a photo, fixed");
    }

    private static byte[] png() {
        BufferedImage image = new BufferedImage(32, 24, BufferedImage.TYPE_INT_RGB);
        image.setRGB(1, 1, (int) (System.nanoTime() & 0xFFFFFF));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            ImageIO.write(image, "png", out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
