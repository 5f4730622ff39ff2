package io.herald.deploy.publishing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.deploy.HeraldIntegrationTest;
import io.herald.deploy.media.MediaImages;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

/**
 * Publications with images and a first comment, end to end on the application and the sandbox:
 * each step attempted write-ahead, uploads repeated after an unknown outcome and reused by the
 * post, the post and the comment read back after a timeout and never made twice.
 */
class PublicationStepsIT extends HeraldIntegrationTest {

    private static final AtomicInteger TARGETS = new AtomicInteger();
    private static final AtomicInteger SEEDS = new AtomicInteger();

    private String ws;

    private String publications() {
        return "/api/v1/workspaces/" + ws + "/publications";
    }

    private void fault(String provider, String target, String type, String operation, long delayMillis) {
        sandbox("POST", "/faults", "{\"provider\":\"" + provider + "\",\"target\":\"" + target + "\",\"type\":\""
                + type + "\",\"operation\":\"" + operation + "\",\"delayMillis\":" + delayMillis + "}");
    }

    private String facebookPage() {
        String page = "77" + TARGETS.incrementAndGet() + System.nanoTime() % 100_000;
        String token = "EAAB-steps-" + page;
        sandbox("POST", "/facebook/tokens", "{\"token\":\"" + token + "\",\"pageId\":\"" + page
                + "\",\"kind\":\"PAGE\"}");
        Response put = send("PUT", "/api/v1/workspaces/" + ws + "/channels/fb", "{\"type\":\"facebook\","
                + "\"pageId\":\"" + page + "\",\"pageAccessToken\":\"" + token + "\"}");
        assertThat(put.status()).as(put.toString()).isIn(200, 201);
        return page;
    }

    /** Uploads a new image to Herald and returns its media id. */
    private String image() {
        byte[] png = png(SEEDS.incrementAndGet());
        Response created = sendBytesAs(keyFor("/api/v1/workspaces/" + ws), "POST",
                "/api/v1/workspaces/" + ws + "/media", png, "image/png", Map.of());
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        return created.json().get("mediaId").asText();
    }

    private Response request(String channel, String entry, String content) {
        return send("POST", publications(), """
                {"calendarEntryId":"%s","contentVersion":1,"channelId":"%s","action":"publish","content":%s}"""
                .formatted(entry, channel, content));
    }

    private String publish(String channel, String entry, String content) {
        Response r = request(channel, entry, content);
        assertThat(r.status()).as(r.toString()).isEqualTo(202);
        return r.json().get("publicationId").asText();
    }

    private static String withImages(String body, List<String> mediaIds, String comment) {
        return MediaImages.contentWithImages(body, mediaIds, comment);
    }

    /** The view once the post exists and every step settled (none pending, none unknown). */
    private JsonNode awaitSettled(String id) {
        return awaitJson(publications() + "/" + id, v -> v.get("status").asText().equals("SUCCEEDED")
                && stepsOf(v).stream().noneMatch(s -> s.get("status").asText().equals("PENDING")
                        || s.get("status").asText().equals("OUTCOME_UNKNOWN")));
    }

    private static List<JsonNode> stepsOf(JsonNode view) {
        List<JsonNode> steps = new ArrayList<>();
        view.get("steps").forEach(steps::add);
        return steps;
    }

    private static List<String> stepNames(JsonNode view) {
        return stepsOf(view).stream().map(s -> s.get("step").asText() + ":" + s.get("status").asText()).toList();
    }

    @Test
    void aFacebookPostWithOneImage() {
        ws = newWorkspace("steps-fb1");
        String page = facebookPage();
        String media = image();
        String id = publish("fb", "one", withImages("One photo", List.of(media), null));

        JsonNode view = awaitSettled(id);
        assertThat(stepNames(view)).containsExactly("upload_media:SUCCEEDED", "create_post:SUCCEEDED");
        assertThat(view.get("steps").get(0).get("mediaId").asText()).isEqualTo(media);
        JsonNode posts = sandboxTruth("facebook", page);
        assertThat(posts).hasSize(1);
        assertThat(posts.get(0).get("media")).hasSize(1);
        assertThat(posts.get(0).get("media").get(0).get("id").asText())
                .isEqualTo(view.get("steps").get(0).get("providerRef").get("id").asText());
    }

    @Test
    void aFacebookPostWithSeveralImagesAttachesThemInOrder() {
        ws = newWorkspace("steps-fb3");
        String page = facebookPage();
        List<String> media = List.of(image(), image(), image());
        String id = publish("fb", "three", withImages("Three photos", media, null));

        JsonNode view = awaitSettled(id);
        assertThat(stepNames(view)).containsExactly("upload_media:SUCCEEDED", "upload_media:SUCCEEDED",
                "upload_media:SUCCEEDED", "create_post:SUCCEEDED");
        JsonNode attached = sandboxTruth("facebook", page).get(0).get("media");
        for (int i = 0; i < 3; i++) {
            assertThat(attached.get(i).get("id").asText())
                    .isEqualTo(view.get("steps").get(i).get("providerRef").get("id").asText());
            assertThat(attached.get(i).get("altText").asText()).isEqualTo("image " + (i + 1));
        }
    }

    @Test
    void anUploadThatTimesOutIsUploadedAgainThenOnePost() {
        ws = newWorkspace("steps-upl");
        String page = facebookPage();
        fault("facebook", page, "DELAY_THEN_CREATE", "UPLOAD", 15_000);
        String id = publish("fb", "slow-upload", withImages("After a slow upload", List.of(image()), null));

        JsonNode view = awaitSettled(id);
        JsonNode upload = view.get("steps").get(0);
        assertThat(upload.get("attempts").asInt()).isEqualTo(2);
        assertThat(view.get("attempts").get(0).get("outcome").asText()).isEqualTo("OUTCOME_UNKNOWN");
        assertThat(sandboxTruth("facebook", page)).hasSize(1);
        // the first photo exists too, but no post uses it: the post has the one whose upload was recorded
        JsonNode post = sandboxTruth("facebook", page).get(0);
        assertThat(post.get("media")).hasSize(1);
        assertThat(post.get("media").get(0).get("id").asText()).isEqualTo(upload.get("providerRef").get("id").asText());
    }

    @Test
    void aCreateThatTimesOutAfterAnUploadIsReadBackAndPostedOnce() {
        ws = newWorkspace("steps-crt");
        String page = facebookPage();
        fault("facebook", page, "DELAY_THEN_CREATE", "PUBLISH", 15_000);
        String id = publish("fb", "slow-create", withImages("A slow create", List.of(image()), null));

        JsonNode view = awaitSettled(id);
        assertThat(stepNames(view)).containsExactly("upload_media:SUCCEEDED", "create_post:SUCCEEDED");
        assertThat(view.get("reconciliations").get(0).get("result").asText()).isEqualTo("FOUND");
        assertThat(view.get("reconciliations").get(0).get("step").asText()).isEqualTo("create_post");
        assertThat(sandboxTruth("facebook", page)).hasSize(1);
    }

    @Test
    void aReattemptOfThePostAfterNotFoundReusesTheUploadAndPostsOnce() {
        ws = newWorkspace("steps-re");
        String page = facebookPage();
        fault("facebook", page, "RESET_AFTER_READ", "PUBLISH", 0);
        String id = publish("fb", "lost-create", withImages("Lost, then posted", List.of(image()), null));

        JsonNode notFound = awaitJson(publications() + "/" + id, v -> v.get("status").asText().equals("NOT_EXECUTED"));
        assertThat(notFound.get("decisionStep").asText()).isEqualTo("create_post");
        assertThat(sandboxTruth("facebook", page)).isEmpty();
        Response decided = send("POST", publications() + "/" + id + "/decisions",
                "{\"decision\":\"reattempt\",\"note\":\"not on the Page\"}");
        assertThat(decided.status()).as(decided.toString()).isBetween(200, 202);

        JsonNode view = awaitSettled(id);
        assertThat(view.get("steps").get(0).get("attempts").asInt()).as("the upload is reused").isEqualTo(1);
        assertThat(view.get("steps").get(1).get("attempts").asInt()).isEqualTo(2);
        assertThat(photosAt("facebook", page, "/media")).hasSize(1);
        assertThat(sandboxTruth("facebook", page)).hasSize(1);
    }

    @Test
    void aFirstCommentThatTimesOutIsReadBackAndPostedOnce() {
        ws = newWorkspace("steps-cmt");
        String page = facebookPage();
        fault("facebook", page, "DELAY_THEN_CREATE", "COMMENT", 15_000);
        String id = publish("fb", "comment", "{\"body\":\"A post with a comment\",\"firstComment\":\"Details below\"}");

        JsonNode view = awaitSettled(id);
        assertThat(stepNames(view)).containsExactly("create_post:SUCCEEDED", "first_comment:SUCCEEDED");
        assertThat(view.get("needsDecision").asBoolean()).isFalse();
        JsonNode reconciliation = view.get("reconciliations").get(0);
        assertThat(reconciliation.get("step").asText()).isEqualTo("first_comment");
        assertThat(reconciliation.get("result").asText()).isEqualTo("FOUND");
        JsonNode comments = sandboxTruth("facebook", page).get(0).get("comments");
        assertThat(comments).hasSize(1);
        assertThat(comments.get(0).get("text").asText()).isEqualTo("Details below");
    }

    @Test
    void aLinkedInPostWithOneImageAndOneWithSeveral() {
        ws = newWorkspace("steps-li");
        String author = "urn:li:person:steps" + TARGETS.incrementAndGet() + System.nanoTime() % 100_000;
        String token = "li-steps-" + author.hashCode();
        sandbox("POST", "/linkedin/tokens", "{\"token\":\"" + token + "\",\"author\":\"" + author
                + "\",\"scopes\":[\"w_member_social\",\"r_member_social\"]}");
        Response put = send("PUT", "/api/v1/workspaces/" + ws + "/channels/li", "{\"type\":\"linkedin\",\"authorUrn\":\""
                + author + "\",\"accessToken\":\"" + token + "\",\"scopes\":[\"w_member_social\",\"r_member_social\"]}");
        assertThat(put.status()).as(put.toString()).isIn(200, 201);

        String one = publish("li", "li-one", withImages("One image", List.of(image()), "A comment"));
        String two = publish("li", "li-two", withImages("Two images", List.of(image(), image()), null));

        assertThat(stepNames(awaitSettled(one))).containsExactly("upload_media:SUCCEEDED", "create_post:SUCCEEDED",
                "first_comment:SUCCEEDED");
        assertThat(stepNames(awaitSettled(two))).containsExactly("upload_media:SUCCEEDED", "upload_media:SUCCEEDED",
                "create_post:SUCCEEDED");
        JsonNode posts = sandboxTruth("linkedin", author);
        assertThat(posts).hasSize(2);
        List<Integer> imageCounts = new ArrayList<>();
        posts.forEach(p -> imageCounts.add(p.get("media").size()));
        assertThat(imageCounts).containsExactlyInAnyOrder(1, 2);
    }

    @Test
    void aCommentThatCannotBeReadBackWaitsForTheOperatorWhoseDecisionAppliesToTheComment() {
        ws = newWorkspace("steps-lid");
        String author = "urn:li:person:stepsd" + TARGETS.incrementAndGet() + System.nanoTime() % 100_000;
        String token = "li-steps-w-" + author.hashCode();
        sandbox("POST", "/linkedin/tokens", "{\"token\":\"" + token + "\",\"author\":\"" + author
                + "\",\"scopes\":[\"w_member_social\"]}");
        Response put = send("PUT", "/api/v1/workspaces/" + ws + "/channels/li", "{\"type\":\"linkedin\",\"authorUrn\":\""
                + author + "\",\"accessToken\":\"" + token + "\",\"scopes\":[\"w_member_social\"]}");
        assertThat(put.status()).as(put.toString()).isIn(200, 201);
        fault("linkedin", author, "DELAY_THEN_CREATE", "COMMENT", 15_000);
        String id = publish("li", "li-comment", "{\"body\":\"Posted, comment unclear\",\"firstComment\":\"Hi\"}");

        JsonNode waiting = awaitJson(publications() + "/" + id, v -> v.get("needsDecision").asBoolean());
        assertThat(waiting.get("status").asText()).as("the post stands").isEqualTo("SUCCEEDED");
        assertThat(waiting.get("decisionStep").asText()).isEqualTo("first_comment");
        assertThat(waiting.get("decisionReason").asText()).contains("r_member_social");
        JsonNode queue = send("GET", "/api/v1/workspaces/" + ws + "/decisions", null, null).json();
        assertThat(queue.toString()).contains(id);

        Response refused = send("POST", publications() + "/" + id + "/decisions", "{\"decision\":\"reattempt\"}");
        assertThat(refused.status()).as(refused.toString()).isEqualTo(409);
        Response abandoned = send("POST", publications() + "/" + id + "/decisions",
                "{\"decision\":\"abandon\",\"note\":\"the comment is not needed\"}");
        assertThat(abandoned.status()).as(abandoned.toString()).isBetween(200, 202);

        JsonNode view = awaitJson(publications() + "/" + id, v -> !v.get("needsDecision").asBoolean());
        assertThat(view.get("status").asText()).isEqualTo("SUCCEEDED");
        assertThat(stepNames(view)).containsExactly("create_post:SUCCEEDED", "first_comment:SKIPPED");
        assertThat(sandboxTruth("linkedin", author)).hasSize(1);
    }

    @Test
    void aWordPressPostFeaturesItsFirstImage() {
        ws = newWorkspace("steps-wp");
        String site = "steps" + TARGETS.incrementAndGet() + System.nanoTime() % 100_000;
        sandbox("POST", "/wordpress/sites", "{\"site\":\"" + site + "\",\"username\":\"editor\","
                + "\"applicationPassword\":\"abcd efgh ijkl\",\"plugin\":true}");
        Response put = send("PUT", "/api/v1/workspaces/" + ws + "/channels/wp", "{\"type\":\"wordpress\",\"siteUrl\":\""
                + "http://localhost:" + port + "/sandbox/wordpress/" + site
                + "\",\"username\":\"editor\",\"applicationPassword\":\"abcd efgh ijkl\"}");
        assertThat(put.status()).as(put.toString()).isIn(200, 201);

        String id = publish("wp", "wp-images", withImages("With images", List.of(image(), image()), null));

        JsonNode view = awaitSettled(id);
        JsonNode post = sandboxTruth("wordpress", site).get(0);
        assertThat(post.get("featuredMedia").asText())
                .isEqualTo(view.get("steps").get(0).get("providerRef").get("id").asText());
        assertThat(post.path("storedText").asText(post.path("text").asText())).contains("alt=\"image 1\"")
                .contains("alt=\"image 2\"");
    }

    @Test
    void intakeRefusesWhatTheProviderCouldNeverTake() {
        ws = newWorkspace("steps-bad");
        facebookPage();
        String known = image();
        Response unknown = request("fb", "bad-1", withImages("x", List.of("med_" + "0".repeat(64)), null));
        assertThat(unknown.status()).as(unknown.toString()).isEqualTo(422);
        assertThat(unknown.json().get("code").asText()).isEqualTo("unknown_media");

        Response linkAndImages = request("fb", "bad-2", "{\"body\":\"x\",\"link\":\"https://example.org\","
                + "\"media\":[{\"mediaId\":\"" + known + "\"}]}");
        assertThat(linkAndImages.status()).isEqualTo(400);
        assertThat(linkAndImages.body()).contains("validation_failed").contains("content.link");

        List<String> eleven = new ArrayList<>();
        for (int i = 0; i < 11; i++) {
            eleven.add(known);
        }
        Response tooMany = request("fb", "bad-3", withImages("x", eleven, null));
        assertThat(tooMany.status()).isEqualTo(400);
        assertThat(tooMany.body()).contains("content.media");

        Response longComment = request("fb", "bad-4", "{\"body\":\"x\",\"firstComment\":\"" + "c".repeat(1251)
                + "\"}");
        assertThat(longComment.status()).isEqualTo(400);
        assertThat(longComment.body()).contains("content.firstComment");
        // nothing half-written: no publication was recorded for any of them
        assertThat(send("GET", publications(), null, null).json().get("items")).isEmpty();
    }

    /** Facebook changes only a post's text: an update names the published images unchanged, or none. */
    @Test
    void anUpdateOnFacebookMayNotChangeThePostsImages() {
        ws = newWorkspace("steps-fb-update-media");
        facebookPage();
        String first = image();
        String second = image();
        awaitSettled(publish("fb", "upd", withImages("Two photos", List.of(first, second), null)));
        long before = eventCount();

        Response reordered = update("upd", 2, withImages("Two photos, fixed", List.of(second, first), null));
        Response otherAlt = update("upd", 2, "{\"body\":\"fixed\",\"media\":[{\"mediaId\":\"" + first
                + "\",\"altText\":\"other\"},{\"mediaId\":\"" + second + "\",\"altText\":\"image 2\"}]}");
        Response dropped = update("upd", 2, withImages("One photo fewer", List.of(first), null));
        for (Response r : List.of(reordered, otherAlt, dropped)) {
            assertThat(r.status()).as(r.toString()).isEqualTo(400);
            assertThat(r.json().get("code").asText()).isEqualTo("validation_failed");
            assertThat(r.json().get("errors").get(0).get("field").asText()).isEqualTo("content.media");
        }
        assertThat(eventCount()).as("nothing half-written").isEqualTo(before);

        Response same = update("upd", 2, withImages("Two photos, fixed", List.of(first, second), null));
        assertThat(same.status()).as(same.toString()).isEqualTo(202);
        Response kept = update("upd", 3, "{\"body\":\"Two photos, fixed again\"}");
        assertThat(kept.status()).as(kept.toString()).isEqualTo(202);
    }

    private Response update(String entry, long version, String content) {
        return send("POST", publications(), """
                {"calendarEntryId":"%s","contentVersion":%d,"channelId":"fb","action":"update","content":%s}"""
                .formatted(entry, version, content));
    }

    private JsonNode photosAt(String provider, String target, String suffix) {
        return send("GET", "/sandbox/_truth/" + provider + "/" + target + suffix, null, null).json();
    }

    private static byte[] png(int seed) {
        BufferedImage image = new BufferedImage(8, 6, BufferedImage.TYPE_INT_RGB);
        image.setRGB(0, 0, seed * 7919 & 0xFFFFFF);
        image.setRGB(1, 1, seed);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            ImageIO.write(image, "png", out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
