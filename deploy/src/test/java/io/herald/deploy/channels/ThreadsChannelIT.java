package io.herald.deploy.channels;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.command.channel.TokenRefresher;
import io.herald.deploy.HeraldIntegrationTest;
import io.herald.deploy.media.MediaImages;
import io.herald.sandbox.threads.ThreadsFaults;
import io.herald.sandbox.threads.ThreadsSandboxClient;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A Threads connection through the API against the sandbox's Threads API, which fetches each image
 * from Herald's public address over HTTP: text, one image and a carousel published as container and
 * publish; a publish whose answer never came settled by the container's status into one post, or
 * published from the same container again when it was not published; "Media Not Found" after the
 * publish read back instead of re-created; a failed container failing the publication; a first
 * comment as a reply; a delete; the requests Threads cannot take refused at intake; a publication
 * over the profile's publishing limit waiting (not failed) until the sandbox's rolling window lets
 * it through; and the token refresh: a token about to expire renewed and publishing on, one too
 * new tried again later, a revoked one turning the connection NEEDS_REAUTH.
 */
class ThreadsChannelIT extends HeraldIntegrationTest {

    private static final AtomicInteger USERS = new AtomicInteger();
    private static final AtomicInteger SEEDS = new AtomicInteger(41_000);

    @Autowired
    private TokenRefresher refresher;

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

    @Test
    void overThePublishingLimitAPublicationWaitsWithThrottledUntilAndIsPublishedWhenTheWindowRolls() {
        threads.settings(user, null, 1, null, 20_000L);
        await(publish("t-limit-1", "First of the window", List.of(), null), "SUCCEEDED");
        Instant firstAt = Instant.now();

        String second = publish("t-limit-2", "Second of the window", List.of(), null);
        JsonNode waiting = awaitJson(publications() + "/" + second, v -> v.get("status").asText()
                .equals("RETRY_SCHEDULED") && v.hasNonNull("throttledUntil"));
        assertThat(waiting.get("attempts").findValuesAsText("failureKind")).contains("RATE_LIMITED");
        assertThat(waiting.get("attempts").findValuesAsText("detail"))
                .anyMatch(d -> d.contains("published 1 of its 1 posts in 20 s"));
        Instant until = Instant.parse(waiting.get("throttledUntil").asText());
        assertThat(until).isAfter(firstAt);
        // the channel listing says the connection waits, and until when
        JsonNode channel = awaitJson("/api/v1/workspaces/" + ws + "/channels", list -> list.path(0).path("budget")
                .path("remaining").asInt(-1) == 0);
        assertThat(Instant.parse(channel.get(0).get("budget").get("resetsAt").asText())).isEqualTo(until);
        assertThat(posts()).hasSize(1);

        JsonNode published = awaitJson(publications() + "/" + second, v -> v.get("status").asText()
                .equals("SUCCEEDED"), Duration.ofSeconds(90));
        assertThat(Instant.now()).isAfter(firstAt.plusSeconds(15));
        assertThat(published.get("attempts").findValuesAsText("failureKind")).contains("RATE_LIMITED")
                .doesNotContain("REJECTED");
        assertThat(posts()).hasSize(2);
        // the rate limit was Herald's reading of the limit: Threads never refused a publish
        assertThat(published.toString()).doesNotContain("2207042");
    }

    private JsonNode awaitJson(String path, java.util.function.Predicate<JsonNode> until, Duration patience) {
        long deadline = System.nanoTime() + patience.toNanos();
        Response last = null;
        while (System.nanoTime() < deadline) {
            last = send("GET", path, null, null);
            if (last.status() == 200 && until.test(last.json())) {
                return last.json();
            }
            sleep();
        }
        throw new AssertionError("condition not reached on " + path + "; last answer: " + last);
    }

    /** A second connection of the workspace, {@code channel}, on a new user whose token is that old and valid so long. */
    private String expiringConnection(String channel, String userToken, Duration validFor, Duration age) {
        String owner = threads.user("it" + USERS.incrementAndGet(), userToken, validFor.toSeconds(), age.toSeconds());
        Instant expires = Instant.now().plus(validFor).minus(age);
        Response put = send("PUT", "/api/v1/workspaces/" + ws + "/channels/" + channel, "{\"type\":\"threads\","
                + "\"threadsUserId\":\"" + owner + "\",\"accessToken\":\"" + userToken + "\","
                + "\"accessTokenExpiresAt\":\"" + expires + "\"}");
        assertThat(put.status()).as(put.toString()).isEqualTo(201);
        return owner;
    }

    private long credentialVersion(String channel) {
        return jdbc.queryForObject("SELECT credential_version FROM channel_connection WHERE workspace_id = ? AND"
                + " channel_id = ?", Long.class, ws, channel);
    }

    private Instant tokenExpiry(String channel) {
        return jdbc.queryForObject("SELECT expires_at FROM channel_token_expiry WHERE connection_id = ?",
                Timestamp.class, "chn_" + ws + "/" + channel).toInstant();
    }

    /** The channel in the workspace's listing, once the listing (a projection) shows it. */
    private JsonNode channel(String channel) {
        JsonNode list = awaitJson("/api/v1/workspaces/" + ws + "/channels", all -> find(all, channel) != null);
        return find(list, channel);
    }

    private static JsonNode find(JsonNode channels, String channel) {
        for (JsonNode c : channels) {
            if (channel.equals(c.path("channelId").asText())) {
                return c;
            }
        }
        return null;
    }

    @Test
    void aTokenAboutToExpireIsRefreshedBeforeItExpiresAndPublishingContinues() {
        String old = "th-it-refresh-" + System.nanoTime();
        String owner = expiringConnection("th-old", old, Duration.ofDays(3), Duration.ofDays(2));
        long versionBefore = credentialVersion("th-old");
        Instant expiryBefore = tokenExpiry("th-old");
        assertThat(expiryBefore).isBefore(Instant.now().plus(Duration.ofDays(2)));

        refresher.sweep();

        assertThat(threads.tokens(owner)).as("the sandbox issued a new token").hasSize(2);
        assertThat(credentialVersion("th-old")).isEqualTo(versionBefore + 1);
        assertThat(tokenExpiry("th-old")).isAfter(Instant.now().plus(Duration.ofDays(59)));
        String fresh = threads.tokens(owner).get(0).get("token").asText();
        String secrets = new String(jdbc.queryForObject("SELECT secrets_ciphertext FROM channel_connection WHERE"
                + " workspace_id = ? AND channel_id = 'th-old'", byte[].class, ws),
                java.nio.charset.StandardCharsets.ISO_8859_1);
        assertThat(secrets).doesNotContain(fresh).doesNotContain(old);

        // the old token stops working: publishing goes on with the renewed one
        threads.revoke(old);
        Response r = send("POST", publications(), """
                {"calendarEntryId":"t-renewed","contentVersion":1,"channelId":"th-old","action":"publish",
                 "content":{"body":"After the refresh"}}""");
        assertThat(r.status()).as(r.toString()).isEqualTo(202);
        await(r.json().get("publicationId").asText(), "SUCCEEDED");
        assertThat(threads.threads(owner)).hasSize(1);
        // the renewed token is valid 60 days: a second sweep leaves it be
        refresher.sweep();
        assertThat(credentialVersion("th-old")).isEqualTo(versionBefore + 1);
    }

    @Test
    void aTokenTooNewToRefreshIsTriedAgainOnALaterSweepAndTheConnectionStaysActive() {
        String young = "th-it-young-" + System.nanoTime();
        String owner = expiringConnection("th-young", young, Duration.ofDays(3), Duration.ofHours(1));
        long versionBefore = credentialVersion("th-young");
        Instant expiryBefore = tokenExpiry("th-young");

        refresher.sweep();
        refresher.sweep();

        assertThat(threads.tokens(owner)).as("no new token").hasSize(1);
        assertThat(credentialVersion("th-young")).isEqualTo(versionBefore);
        // still due: the next sweep asks again
        assertThat(tokenExpiry("th-young")).isEqualTo(expiryBefore);
        assertThat(channel("th-young").get("status").asText()).isEqualTo("ACTIVE");
    }

    @Test
    void aRevokedTokensRefreshTurnsTheConnectionNeedsReauth() {
        String revoked = "th-it-revoked-" + System.nanoTime();
        expiringConnection("th-revoked", revoked, Duration.ofDays(3), Duration.ofDays(2));
        long versionBefore = credentialVersion("th-revoked");
        threads.revoke(revoked);

        refresher.sweep();

        JsonNode all = awaitJson("/api/v1/workspaces/" + ws + "/channels", list -> {
            for (JsonNode c : list) {
                if (c.toString().contains("th-revoked") && c.path("status").asText().equals("NEEDS_REAUTH")) {
                    return true;
                }
            }
            return false;
        });
        assertThat(all.toString()).doesNotContain(revoked);
        assertThat(channel("th-revoked").path("statusReason").asText()).contains("invalidated");
        // the refresh was the only call: the workspace's other connection is untouched
        assertThat(channel("th").get("status").asText()).isEqualTo("ACTIVE");
        assertThat(credentialVersion("th-revoked")).isEqualTo(versionBefore);
    }
}
