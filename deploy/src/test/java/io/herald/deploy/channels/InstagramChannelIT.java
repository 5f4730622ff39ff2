package io.herald.deploy.channels;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.command.channel.TokenRefresher;
import io.herald.deploy.HeraldIntegrationTest;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * An Instagram connection through the API against the sandbox's Graph API, which fetches every
 * image from Herald's public media address as Instagram does: posts with one image and with
 * several (a PNG served as a JPEG made of it, which the container step says), a publish whose
 * answer never came settled by its container's status (published: found, one post; not published:
 * the same container published again), a container in error failing the publication, "Media Not
 * Found" after the publish settled by the container's status (live: found, one post; not live: the
 * same container published again), a publication over the publishing limit waiting for the window
 * with its quota shown, the requests Instagram cannot take refused at intake with nothing stored,
 * and a token refreshed before it expires.
 */
class InstagramChannelIT extends HeraldIntegrationTest {

    private static final AtomicInteger ACCOUNTS = new AtomicInteger();
    private static final Duration PATIENCE = Duration.ofSeconds(120);

    @Autowired
    private TokenRefresher refresher;

    @Test
    void aSingleImageAndACarouselArePublishedFromImagesInstagramFetches() {
        String ws = newWorkspace("ig");
        String token = token();
        String account = account(token, null, null);
        Response put = connect(ws, "gram", account, token, false, null);
        assertThat(put.status()).as(put.toString()).isEqualTo(201);
        assertThat(put.body()).doesNotContain(token);
        assertThat(put.json().get("capabilities").get("publish").get("available").asBoolean()).isTrue();
        // the listing shows the retry safety once the capability probe has run
        JsonNode channels = awaitJson("/api/v1/workspaces/" + ws + "/channels",
                list -> list.size() > 0 && list.get(0).hasNonNull("retrySafety"));
        assertThat(channels.toString()).contains("read_back").doesNotContain(token);

        String red = upload(ws, "jpg", 0xcc2233);
        String single = publish(ws, "entry-ig-1", "One red square #herald", "\"first!\"", red);
        JsonNode one = await(ws, single, v -> v.path("status").asText().equals("SUCCEEDED")
                && steps(v).contains("first_comment"));
        String blue = upload(ws, "jpg", 0x2233cc);
        String green = upload(ws, "png", 0x22cc33);
        String carousel = publish(ws, "entry-ig-2", "Three squares", null, red, blue, green);
        JsonNode three = await(ws, carousel, v -> v.path("status").asText().equals("SUCCEEDED"));

        JsonNode media = admin("/accounts/" + account + "/media");
        assertThat(media).hasSize(2);
        assertThat(media.findValuesAsText("id")).containsExactlyInAnyOrder(
                one.get("providerRef").get("id").asText(), three.get("providerRef").get("id").asText());
        JsonNode carouselMedia = byCaption(media, "Three squares");
        assertThat(carouselMedia.path("items").asInt()).isEqualTo(3);
        assertThat(byCaption(media, "One red square #herald").path("comments").get(0).asText()).isEqualTo("first!");
        JsonNode containers = admin("/accounts/" + account + "/containers");
        // the images were fetched from Herald's public address (the PNG as a JPEG made of it)
        containers.forEach(c -> {
            if (!c.path("imageUrl").isNull()) {
                assertThat(c.path("imageUrl").asText()).contains("/media/public/");
            }
        });
        assertThat(containers.findValuesAsText("status")).doesNotContain("ERROR");
        // the container step says so where Herald served a JPEG made of an image, and only there
        assertThat(step(three, "create_container").path("detail").asText())
                .isEqualTo("image converted to JPEG for Instagram: " + green + " (image/png)");
        assertThat(step(one, "create_container").path("detail").isNull()).isTrue();
        assertThat(three.get("attempts").findValuesAsText("detail"))
                .contains("image converted to JPEG for Instagram: " + green + " (image/png)");
    }

    @Test
    void aPublishThatTimedOutAfterInstagramPublishedIsFoundThroughItsContainerAndPostedOnce() {
        String ws = newWorkspace("ig-after");
        String token = token();
        String account = account(token, null, null);
        assertThat(connect(ws, "gram", account, token, false, null).status()).isEqualTo(201);
        String image = upload(ws, "jpg", 0x123456);
        fault(account, "PUBLISH_HOLD_AFTER", 8_000);

        String id = publish(ws, "entry-ig-3", "Published while nobody listened", null, image);
        JsonNode found = await(ws, id, v -> v.path("status").asText().equals("SUCCEEDED"));

        assertThat(found.get("attempts").findValuesAsText("outcome")).contains("OUTCOME_UNKNOWN");
        assertThat(found.get("reconciliations").get(0).get("result").asText()).isEqualTo("FOUND");
        JsonNode media = admin("/accounts/" + account + "/media");
        assertThat(media).hasSize(1);
        assertThat(media.get(0).path("id").asText()).isEqualTo(found.get("providerRef").get("id").asText());
    }

    @Test
    void aPublishThatTimedOutBeforeInstagramPublishedIsNotFoundAndTheSameContainerIsPublishedAgain() {
        String ws = newWorkspace("ig-before");
        String token = token();
        String account = account(token, null, null);
        assertThat(connect(ws, "gram", account, token, true, null).status()).isEqualTo(201);
        String image = upload(ws, "jpg", 0x654321);
        fault(account, "PUBLISH_HOLD_BEFORE", 8_000);

        String id = publish(ws, "entry-ig-4", "Published on the second try", null, image);
        JsonNode done = await(ws, id, v -> v.path("status").asText().equals("SUCCEEDED"));

        assertThat(done.get("reconciliations").findValuesAsText("result")).contains("NOT_FOUND");
        JsonNode containers = admin("/accounts/" + account + "/containers");
        assertThat(containers).hasSize(1);
        JsonNode media = admin("/accounts/" + account + "/media");
        assertThat(media).hasSize(1);
        assertThat(media.get(0).path("containerId").asText()).isEqualTo(containers.get(0).path("id").asText());
    }

    @Test
    void mediaNotFoundAfterThePostWentLiveIsReadBackAsFoundAndPostedOnce() {
        String ws = newWorkspace("ig-mnf");
        String token = token();
        String account = account(token, null, null);
        assertThat(connect(ws, "gram", account, token, false, null).status()).isEqualTo(201);
        String image = upload(ws, "jpg", 0x246810);
        fault(account, "PUBLISH_MEDIA_NOT_FOUND_AFTER", 0);

        String id = publish(ws, "entry-ig-mnf", "Media not found, but live", null, image);
        JsonNode found = await(ws, id, v -> v.path("status").asText().equals("SUCCEEDED"));

        assertThat(found.get("attempts").findValuesAsText("outcome")).contains("OUTCOME_UNKNOWN")
                .doesNotContain("FAILED");
        assertThat(found.get("attempts").findValuesAsText("detail")).anyMatch(d -> d.contains("24/4279009"));
        assertThat(found.get("reconciliations").findValuesAsText("result")).containsExactly("FOUND");
        JsonNode media = admin("/accounts/" + account + "/media");
        assertThat(media).hasSize(1);
        assertThat(media.get(0).path("id").asText()).isEqualTo(found.get("providerRef").get("id").asText());
        assertThat(admin("/accounts/" + account + "/containers")).hasSize(1);
    }

    @Test
    void mediaNotFoundWhenThePostDidNotGoLiveIsNotFoundAndTheSameContainerIsPublishedAgain() {
        String ws = newWorkspace("ig-mnf-not");
        String token = token();
        String account = account(token, null, null);
        assertThat(connect(ws, "gram", account, token, true, null).status()).isEqualTo(201);
        String image = upload(ws, "jpg", 0x135791);
        fault(account, "PUBLISH_MEDIA_NOT_FOUND_BEFORE", 0);

        String id = publish(ws, "entry-ig-mnf-not", "Media not found, and not live", null, image);
        JsonNode done = await(ws, id, v -> v.path("status").asText().equals("SUCCEEDED"));

        assertThat(done.get("attempts").findValuesAsText("detail")).anyMatch(d -> d.contains("100/33"));
        assertThat(done.get("reconciliations").findValuesAsText("result")).contains("NOT_FOUND");
        JsonNode containers = admin("/accounts/" + account + "/containers");
        assertThat(containers).as("no new container was made").hasSize(1);
        JsonNode media = admin("/accounts/" + account + "/media");
        assertThat(media).hasSize(1);
        assertThat(media.get(0).path("containerId").asText()).isEqualTo(containers.get(0).path("id").asText());
    }

    @Test
    void requestsInstagramCannotTakeAreRefusedAtIntakeAndNothingIsStored() {
        String ws = newWorkspace("ig-intake");
        String token = token();
        String account = account(token, null, null);
        assertThat(connect(ws, "gram", account, token, false, null).status()).isEqualTo(201);
        String image = upload(ws, "jpg", 0x102030);

        Response tooLong = send("POST", publications(ws), """
                {"calendarEntryId":"ig-long","contentVersion":1,"channelId":"gram","action":"publish",
                 "content":{"body":"%s","media":[{"mediaId":"%s"}]}}""".formatted("a".repeat(2_201), image));
        assertThat(tooLong.status()).as(tooLong.toString()).isEqualTo(400);
        assertThat(tooLong.json().get("code").asText()).isEqualTo("validation_failed");
        assertThat(tooLong.body()).contains("content.body").contains("2200");

        StringBuilder eleven = new StringBuilder();
        for (int i = 0; i < 11; i++) {
            eleven.append(eleven.isEmpty() ? "" : ",").append("{\"mediaId\":\"")
                    .append(upload(ws, "jpg", 0x010101 * (i + 1))).append("\"}");
        }
        Response tooMany = send("POST", publications(ws), """
                {"calendarEntryId":"ig-many","contentVersion":1,"channelId":"gram","action":"publish",
                 "content":{"body":"Eleven squares","media":[%s]}}""".formatted(eleven));
        assertThat(tooMany.status()).as(tooMany.toString()).isEqualTo(400);
        assertThat(tooMany.json().get("code").asText()).isEqualTo("validation_failed");
        assertThat(tooMany.body()).contains("content.media");

        for (String action : new String[] {"update", "delete"}) {
            Response refused = send("POST", publications(ws), """
                    {"calendarEntryId":"ig-change","contentVersion":2,"channelId":"gram","action":"%s"%s}"""
                    .formatted(action, action.equals("update")
                            ? ",\"content\":{\"body\":\"edited\",\"media\":[{\"mediaId\":\"" + image
                                    + "\"}]}" : ""));
            assertThat(refused.status()).as(refused.toString()).isEqualTo(400);
            assertThat(refused.json().get("code").asText()).as(action).isEqualTo("action_not_supported");
        }

        JsonNode stored = send("GET", publications(ws), null, null).json();
        assertThat(stored.path("items")).as("no publication was stored").isEmpty();
        assertThat(admin("/accounts/" + account + "/containers")).isEmpty();
        assertThat(admin("/accounts/" + account + "/media")).isEmpty();
    }

    @Test
    void aContainerInErrorFailsThePublicationWithItsError() {
        String ws = newWorkspace("ig-error");
        String token = token();
        String account = account(token, null, null);
        assertThat(connect(ws, "gram", account, token, false, null).status()).isEqualTo(201);
        String image = upload(ws, "jpg", 0x777777);
        fault(account, "CONTAINER_ERROR", 0);

        String id = publish(ws, "entry-ig-5", "Never shown", null, image);
        JsonNode failed = await(ws, id, v -> v.path("status").asText().equals("FAILED"));

        assertThat(failed.get("attempts").findValuesAsText("detail")).anyMatch(d -> d.contains("2207001"));
        assertThat(admin("/accounts/" + account + "/media")).isEmpty();
    }

    @Test
    void overThePublishingLimitAPublicationWaitsAndIsPublishedWhenTheWindowRolls() {
        String ws = newWorkspace("ig-limit");
        String token = token();
        String account = account(token, null, null);
        assertThat(connect(ws, "gram", account, token, false, null).status()).isEqualTo(201);
        sandbox("PUT", "/instagram/accounts/" + account + "/publishing-limit",
                "{\"quotaTotal\":1,\"durationSeconds\":20}");
        String image = upload(ws, "jpg", 0x999999);

        String first = publish(ws, "entry-ig-6", "First of the window", null, image);
        await(ws, first, v -> v.path("status").asText().equals("SUCCEEDED"));
        Instant firstAt = Instant.now();
        String second = publish(ws, "entry-ig-7", "Second of the window", null, image);
        // while it waits, the quota is visible: the publication says until when, and so does the channel
        JsonNode waiting = await(ws, second, v -> v.path("status").asText().equals("RETRY_SCHEDULED")
                && v.hasNonNull("throttledUntil"));
        assertThat(waiting.get("attempts").findValuesAsText("providerCode")).isNotNull();
        assertThat(Instant.parse(waiting.get("throttledUntil").asText())).isAfter(firstAt);
        JsonNode budget = awaitJson("/api/v1/workspaces/" + ws + "/channels",
                list -> list.get(0).path("budget").path("remaining").asInt(-1) == 0).get(0).path("budget");
        assertThat(budget.hasNonNull("resetsAt")).as(budget.toString()).isTrue();
        JsonNode published = await(ws, second, v -> v.path("status").asText().equals("SUCCEEDED"));

        assertThat(Instant.now()).isAfter(firstAt.plusSeconds(10));
        assertThat(published.get("attempts").findValuesAsText("failureKind")).contains("RATE_LIMITED")
                .doesNotContain("REJECTED");
        assertThat(admin("/accounts/" + account + "/media")).hasSize(2);
    }

    @Test
    void aTokenAboutToExpireIsRefreshedAndStoredWithItsNewExpiry() {
        String ws = newWorkspace("ig-refresh");
        String token = token();
        long validFor = Duration.ofDays(3).toSeconds();
        String account = account(token, validFor, Duration.ofDays(2).toSeconds());
        Instant expires = Instant.now().plusSeconds(validFor);
        assertThat(connect(ws, "gram", account, token, false, expires).status()).isEqualTo(201);
        long versionBefore = jdbc.queryForObject("SELECT credential_version FROM channel_connection WHERE"
                + " workspace_id = ? AND channel_id = 'gram'", Long.class, ws);

        refresher.sweep();

        assertThat(admin("/accounts/" + account + "/tokens")).hasSize(2);
        assertThat(jdbc.queryForObject("SELECT credential_version FROM channel_connection WHERE"
                + " workspace_id = ? AND channel_id = 'gram'", Long.class, ws)).isEqualTo(versionBefore + 1);
        Timestamp newExpiry = jdbc.queryForObject("SELECT expires_at FROM channel_token_expiry WHERE connection_id = ?",
                Timestamp.class, "chn_" + ws + "/gram");
        assertThat(newExpiry.toInstant()).isAfter(Instant.now().plus(Duration.ofDays(59)));
        String secrets = new String(jdbc.queryForObject("SELECT secrets_ciphertext FROM channel_connection WHERE"
                + " workspace_id = ? AND channel_id = 'gram'", byte[].class, ws), java.nio.charset.StandardCharsets.ISO_8859_1);
        assertThat(secrets).doesNotContain("IGR");

        // the renewed token publishes
        String image = upload(ws, "jpg", 0x0000ff);
        String id = publish(ws, "entry-ig-8", "After the refresh", null, image);
        await(ws, id, v -> v.path("status").asText().equals("SUCCEEDED"));
        // a second sweep finds nothing due: the new token is valid for 60 days
        assertThat(refresher.sweep()).isZero();
    }

    private String token() {
        return "ig-it-token-" + ACCOUNTS.incrementAndGet() + "-" + System.nanoTime();
    }

    private String account(String token, Long validForSeconds, Long ageSeconds) {
        StringBuilder body = new StringBuilder("{\"username\":\"it.gram" + ACCOUNTS.incrementAndGet()
                + "\",\"token\":\"" + token + "\"");
        if (validForSeconds != null) {
            body.append(",\"validForSeconds\":").append(validForSeconds);
        }
        if (ageSeconds != null) {
            body.append(",\"ageSeconds\":").append(ageSeconds);
        }
        return send("POST", "/sandbox/_admin/instagram/accounts", body.append("}").toString()).json().get("id")
                .asText();
    }

    private Response connect(String ws, String channel, String igUserId, String token, boolean autoReattempt,
                             Instant expiresAt) {
        return send("PUT", "/api/v1/workspaces/" + ws + "/channels/" + channel, "{\"type\":\"instagram\","
                + "\"igUserId\":\"" + igUserId + "\",\"accessToken\":\"" + token + "\""
                + (autoReattempt ? ",\"autoReattemptAfterNotFound\":true" : "")
                + (expiresAt != null ? ",\"accessTokenExpiresAt\":\"" + expiresAt + "\"" : "") + "}");
    }

    private void fault(String account, String fault, long delayMillis) {
        sandbox("POST", "/instagram/faults", "{\"accountId\":\"" + account + "\",\"fault\":\"" + fault
                + "\",\"delayMillis\":" + delayMillis + ",\"times\":1}");
    }

    private JsonNode admin(String path) {
        return send("GET", "/sandbox/_admin/instagram" + path, null, null).json();
    }

    private String upload(String ws, String format, int colour) {
        BufferedImage image = new BufferedImage(40, 30, BufferedImage.TYPE_INT_RGB);
        for (int x = 0; x < 40; x++) {
            image.setRGB(x, x % 30, colour + ACCOUNTS.incrementAndGet());
        }
        byte[] bytes;
        try (ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            ImageIO.write(image, format, out);
            bytes = out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Response r = sendBytesAs(keyFor("/api/v1/workspaces/" + ws), "POST", "/api/v1/workspaces/" + ws + "/media",
                bytes, format.equals("jpg") ? "image/jpeg" : "image/png", Map.of());
        assertThat(r.status()).as(r.toString()).isIn(200, 201);
        return r.json().get("mediaId").asText();
    }

    private String publish(String ws, String entry, String caption, String firstComment, String... mediaIds) {
        StringBuilder media = new StringBuilder();
        for (String id : mediaIds) {
            media.append(media.isEmpty() ? "" : ",").append("{\"mediaId\":\"").append(id)
                    .append("\",\"altText\":\"a square\"}");
        }
        Response r = send("POST", publications(ws), """
                {"calendarEntryId":"%s","contentVersion":1,"channelId":"gram","action":"publish",
                 "content":{"body":"%s","media":[%s]%s}}""".formatted(entry, caption, media,
                firstComment == null ? "" : ",\"firstComment\":" + firstComment));
        assertThat(r.status()).as(r.toString()).isEqualTo(202);
        return r.json().get("publicationId").asText();
    }

    private JsonNode await(String ws, String id, Predicate<JsonNode> until) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        Response last = null;
        while (System.nanoTime() < deadline) {
            last = send("GET", publications(ws) + "/" + id, null, null);
            if (last.status() == 200 && until.test(last.json())) {
                return last.json();
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        throw new AssertionError("publication " + id + " did not get there: " + last);
    }

    private static String steps(JsonNode view) {
        StringBuilder done = new StringBuilder();
        view.path("steps").forEach(step -> {
            if (step.path("status").asText().equals("SUCCEEDED")) {
                done.append(step.path("step").asText()).append(' ');
            }
        });
        return done.toString();
    }

    private static JsonNode step(JsonNode view, String kind) {
        for (JsonNode step : view.path("steps")) {
            if (kind.equals(step.path("step").asText())) {
                return step;
            }
        }
        throw new AssertionError("no step " + kind + " in " + view);
    }

    private static JsonNode byCaption(JsonNode media, String caption) {
        for (JsonNode m : media) {
            if (caption.equals(m.path("caption").asText())) {
                return m;
            }
        }
        throw new AssertionError("no media with caption " + caption + " in " + media);
    }

    private static String publications(String ws) {
        return "/api/v1/workspaces/" + ws + "/publications";
    }
}
