package io.herald.deploy.channels;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.deploy.HeraldIntegrationTest;
import io.herald.deploy.media.MediaImages;
import io.herald.sandbox.threads.ThreadsFaults;
import io.herald.sandbox.threads.ThreadsSandboxClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A Threads connection through the API against the sandbox's Threads API, which fetches each image
 * from Herald's public address over HTTP: text, one image and a carousel published as container and
 * publish; a publish whose answer never came settled by the container's status into one post, or
 * published from the same container again when it was not published; "Media Not Found" after the
 * publish read back instead of re-created; a failed container failing the publication; a first
 * comment as a reply; a delete; and the requests Threads cannot take refused at intake.
 */
class ThreadsChannelIT extends HeraldIntegrationTest {

    private static final AtomicInteger USERS = new AtomicInteger();
    private static final AtomicInteger SEEDS = new AtomicInteger(41_000);

    private ThreadsSandboxClient threads;
    private String ws;
    private String user;
    private String token;

    @BeforeEach
    void connection() {
        threads = new ThreadsSandboxClient("http://localhost:" + port);
        ws = newWorkspace("threads");
        token = "th-it-" + USERS.incrementAndGet() + "-" + System.nanoTime();
        user = threads.user("it" + USERS.get(), token);
        Response put = send("PUT", "/api/v1/workspaces/" + ws + "/channels/th", "{\"type\":\"threads\","
                + "\"threadsUserId\":\"" + user + "\",\"accessToken\":\"" + token + "\"}");
        assertThat(put.status()).as(put.toString()).isEqualTo(201);
        assertThat(put.body()).doesNotContain(token);
        JsonNode caps = put.json().get("capabilities");
        assertThat(caps.get("publish").get("available").asBoolean()).as(put.toString()).isTrue();
        assertThat(caps.get("reconcile").get("available").asBoolean()).as(put.toString()).isTrue();
    }

    private String publications() {
        return "/api/v1/workspaces/" + ws + "/publications";
    }

    private String publish(String entry, String body, List<String> images, String comment) {
        Response r = send("POST", publications(), """
                {"calendarEntryId":"%s","contentVersion":1,"channelId":"th","action":"publish","content":%s}"""
                .formatted(entry, MediaImages.contentWithImages(body, images, comment)));
        assertThat(r.status()).as(r.toString()).isEqualTo(202);
        return r.json().get("publicationId").asText();
    }

    private JsonNode await(String publication, String status) {
        return awaitJson(publications() + "/" + publication, v -> v.get("status").asText().equals(status));
    }

    private String image(String format) {
        byte[] bytes = MediaImages.image(format, 12, 8, SEEDS.incrementAndGet());
        Response created = sendBytesAs(keyFor("/api/v1/workspaces/" + ws), "POST", "/api/v1/workspaces/" + ws
                + "/media", bytes, "image/" + format, Map.of());
        assertThat(created.status()).as(created.toString()).isIn(200, 201);
        return created.json().get("mediaId").asText();
    }

    private List<JsonNode> posts() {
        List<JsonNode> live = new ArrayList<>();
        threads.threads(user).forEach(post -> {
            if (!post.get("deleted").asBoolean() && post.get("replyToId").isNull()) {
                live.add(post);
            }
        });
        return live;
    }

    private static void sleep() {
        try {
            Thread.sleep(300);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void fault(ThreadsFaults.Operation operation, ThreadsFaults.Type type, long delayMillis) {
        threads.fault(new ThreadsFaults.Fault(user, operation, type, delayMillis, 1));
    }

    @Test
    void textOneImageAndACarouselArePublishedAndTheImagesWereFetchedFromHerald() {
        JsonNode text = await(publish("t-text", "Hello Threads from Herald", List.of(), null), "SUCCEEDED");
        assertThat(text.get("providerRef").get("url").asText()).contains("/sandbox/threads/www/@");

        String one = image("png");
        JsonNode single = await(publish("t-image", "One image", List.of(one), null), "SUCCEEDED");
        List<String> three = List.of(image("png"), image("jpeg"), image("png"));
        JsonNode carousel = await(publish("t-carousel", "Three images", three, null), "SUCCEEDED");

        List<JsonNode> posts = posts();
        assertThat(posts).hasSize(3);
        assertThat(posts).extracting(p -> p.get("mediaType").asText())
                .containsExactlyInAnyOrder("TEXT", "IMAGE", "CAROUSEL");
        assertThat(posts.stream().filter(p -> p.get("mediaType").asText().equals("CAROUSEL")).findFirst()
                .orElseThrow().get("children")).hasSize(3);
        assertThat(single.get("providerRef").get("id").asText()).isNotEqualTo(carousel.get("providerRef").get("id")
                .asText());
        // Threads read each image from Herald's public address, answered 200 while the publication was in flight
        JsonNode fetches = threads.fetches(user);
        assertThat(fetches.size()).as(fetches.toString()).isGreaterThanOrEqualTo(4);
        fetches.forEach(f -> {
            assertThat(f.get("url").asText()).startsWith("http://localhost:" + port + "/media/public/");
            assertThat(f.get("status").asInt()).isEqualTo(200);
        });
        // the post step's trace names the container step first
        assertThat(single.toString()).contains("create_container").contains("publish_container");
        // once finished, the address answers 404
        String address = fetches.get(0).get("url").asText();
        assertThat(send("GET", address.substring(address.indexOf("/media/public/")), null).status()).isEqualTo(404);
    }

    @Test
    void aPublishWhoseAnswerNeverCameIsFoundAsTheOnePost() {
        fault(ThreadsFaults.Operation.PUBLISH, ThreadsFaults.Type.HOLD_AFTER_PUBLISH, 5_000);
        JsonNode found = await(publish("t-timeout-after", "Published, answer lost", List.of(), null), "SUCCEEDED");
        assertThat(found.toString()).contains("OUTCOME_UNKNOWN");
        assertThat(posts()).hasSize(1);
        assertThat(found.get("providerRef").get("id").asText()).isEqualTo(posts().get(0).get("id").asText());
    }

    @Test
    void aPublishThatTimedOutBeforePublishingIsPublishedFromTheSameContainer() {
        fault(ThreadsFaults.Operation.PUBLISH, ThreadsFaults.Type.HOLD_BEFORE_PUBLISH, 5_000);
        String publication = publish("t-timeout-before", "Not published the first time", List.of(), null);
        // the read-back finds the container FINISHED and unpublished: NOT_FOUND, and an operator re-attempts
        JsonNode decision = awaitJson(publications() + "/" + publication, v -> v.get("needsDecision").asBoolean());
        assertThat(decision.toString()).contains("NOT_FOUND");
        assertThat(posts()).isEmpty();
        Response reattempt = send("POST", publications() + "/" + publication + "/decisions",
                "{\"decision\":\"reattempt\",\"note\":\"the container was not published\"}");
        assertThat(reattempt.status()).as(reattempt.toString()).isIn(200, 202);
        await(publication, "SUCCEEDED");
        assertThat(posts()).hasSize(1);
        JsonNode containers = threads.containers(user);
        assertThat(containers).as("the same container was published").hasSize(1);
        assertThat(containers.get(0).get("status").asText()).isEqualTo("PUBLISHED");
    }

    @Test
    void mediaNotFoundAfterThePublishIsReadBackNotRecreated() {
        fault(ThreadsFaults.Operation.PUBLISH, ThreadsFaults.Type.MEDIA_NOT_FOUND_AFTER_PUBLISH, 0);
        JsonNode found = await(publish("t-mnf", "Media not found, but published", List.of(), null), "SUCCEEDED");
        assertThat(found.toString()).contains("4279009");
        assertThat(posts()).hasSize(1);
        assertThat(threads.containers(user)).hasSize(1);
    }

    @Test
    void aContainerThatFailsFailsThePublication() {
        fault(ThreadsFaults.Operation.CREATE_CONTAINER, ThreadsFaults.Type.CONTAINER_ERROR, 0);
        JsonNode failed = await(publish("t-error", "The container fails", List.of(), null), "FAILED");
        assertThat(failed.toString()).contains("container_error");
        assertThat(posts()).isEmpty();
    }

    @Test
    void aFirstCommentIsAReplyAndADeleteRemovesThePost() {
        String publication = publish("t-comment", "With a first comment", List.of(), "The first reply");
        JsonNode done = await(publication, "SUCCEEDED");
        String post = done.get("providerRef").get("id").asText();
        List<JsonNode> replies = new ArrayList<>();
        long deadline = System.nanoTime() + java.time.Duration.ofSeconds(20).toNanos();
        while (replies.isEmpty() && System.nanoTime() < deadline) {
            threads.threads(user).forEach(p -> {
                if (post.equals(p.get("replyToId").asText(null))) {
                    replies.add(p);
                }
            });
            sleep();
        }
        // the comment's step settles once, and no second reply comes
        awaitJson(publications() + "/" + publication, v -> !v.get("needsDecision").asBoolean()
                && v.get("steps").toString().contains("first_comment"));
        sleep();
        replies.clear();
        threads.threads(user).forEach(p -> {
            if (post.equals(p.get("replyToId").asText(null))) {
                replies.add(p);
            }
        });
        assertThat(replies).hasSize(1);
        assertThat(replies.get(0).get("text").asText()).isEqualTo("The first reply");

        Response delete = send("POST", publications(), """
                {"calendarEntryId":"t-comment","contentVersion":2,"channelId":"th","action":"delete"}""");
        assertThat(delete.status()).as(delete.toString()).isEqualTo(202);
        await(delete.json().get("publicationId").asText(), "SUCCEEDED");
        assertThat(posts()).isEmpty();
    }

    @Test
    void requestsThreadsCannotTakeAreRefusedAtIntake() {
        Response update = send("POST", publications(), """
                {"calendarEntryId":"t-upd","contentVersion":1,"channelId":"th","action":"update",
                 "content":{"body":"edited"}}""");
        assertThat(update.status()).as(update.toString()).isEqualTo(400);
        assertThat(update.json().get("code").asText()).isEqualTo("action_not_supported");
        Response tooLong = send("POST", publications(), """
                {"calendarEntryId":"t-long","contentVersion":1,"channelId":"th","action":"publish",
                 "content":{"body":"%s"}}""".formatted("a".repeat(501)));
        assertThat(tooLong.status()).as(tooLong.toString()).isEqualTo(400);
        assertThat(tooLong.json().get("code").asText()).isEqualTo("validation_failed");
        assertThat(tooLong.body()).contains("content.body").contains("500");
        List<String> many = new ArrayList<>();
        for (int i = 0; i < 21; i++) {
            many.add("med_" + String.format("%064x", i + 1));
        }
        Response tooMany = send("POST", publications(), """
                {"calendarEntryId":"t-many","contentVersion":1,"channelId":"th","action":"publish","content":%s}"""
                .formatted(MediaImages.contentWithImages("many", many, null)));
        assertThat(tooMany.status()).as(tooMany.toString()).isIn(400, 422);
        assertThat(tooMany.body()).contains("content.media");
        assertThat(posts()).isEmpty();
    }
}
