package io.herald.deploy.wordpress;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The herald-publisher WordPress plugin against this Herald: one publication and one provider post
 * per channel however often the hook fires or the dispatcher runs (v2-signed requests), the same
 * request again after a timeout, and webhooks (and only signed, fresh ones) marking the records published.
 */
class HeraldPublisherLiveIT extends PublisherLiveTestBase {

    @Test
    void aPublishedPostIsSharedOncePerChannelAndTheWebhookMarksItPublished() throws Exception {
        // the workspace requires v2 signatures from here on, and the plugin signs
        String signingSecret = "wp-signing-secret-0123456789abcdef-" + page;
        Response signing = send("PUT", path("/signing-secret"), "{\"secret\":\"" + signingSecret + "\"}");
        assertThat(signing.status()).as(signing.toString()).isBetween(200, 204);
        site.php("$s = get_option('herald_publisher_settings'); $s['signing_secret'] = '" + signingSecret + "';"
                + " update_option('herald_publisher_settings', $s);");
        int post = site.publishPost("Herald live share " + page, "<p>First <strong>shared</strong> post.</p>", null);

        // the hook fired again (a page builder, a second save), then two dispatchers at once
        site.fireHookAgain(post);
        site.fireHookAgain(post);
        List<String> runs = site.phpInParallel("do_action('herald_publisher_dispatch'); echo 'ran';", 2);
        assertThat(runs).containsExactly("ran", "ran");

        awaitSucceeded(post, "fb-main", "publish", 1);
        awaitSucceeded(post, "li-main", "publish", 1);
        site.fireHookAgain(post);
        site.dispatch();
        site.dispatch();

        List<JsonNode> records = site.records(post);
        int publications = heraldPublications(post).size();
        int fbPosts = sandboxTruth("facebook", page).size();
        int liPosts = sandboxTruth("linkedin", author).size();
        System.out.printf("herald-publisher: post %d -> %d records, %d POSTs to Herald, %d publications, "
                        + "%d Facebook post(s), %d LinkedIn post(s)%n",
                post, records.size(), proxy.publicationPosts(), publications, fbPosts, liPosts);
        assertThat(records).hasSize(2);
        assertThat(records).allSatisfy(r -> assertThat(r.get("tries").asInt()).as("tries of %s", r).isEqualTo(1));
        assertThat(proxy.publicationPosts()).as("publication requests sent").isEqualTo(2);
        assertThat(publications).isEqualTo(2);
        assertThat(fbPosts).isEqualTo(1);
        assertThat(liPosts).isEqualTo(1);

        JsonNode status = site.postStatus(post);
        assertThat(status.get("postId").asInt()).isEqualTo(post);
        for (JsonNode entry : status.get("channels")) {
            String channel = entry.get("channelId").asText();
            assertThat(entry.get("publicationId").asText()).as("the plugin's id is Herald's")
                    .isEqualTo(publicationId(post, 1, channel, "publish"));
            assertThat(entry.get("status").asText()).isEqualTo("SUCCEEDED");
            assertThat(entry.get("url").asText()).as("post URL from the webhook").startsWith("http");
        }

        // a forged, a stale and an unsigned "failed" event about the same publication change nothing
        String id = publicationId(post, 1, "li-main", "publish");
        String event = "{\"type\":\"publication.failed\",\"timestamp\":\"2026-12-01T00:00:00Z\",\"data\":"
                + "{\"publicationId\":\"" + id + "\",\"status\":\"FAILED\",\"updatedAt\":\"2099-01-01T00:00:00Z\"}}";
        long now = System.currentTimeMillis() / 1000;
        String forged = "whsec_" + Base64.getEncoder().encodeToString("not the secret, 32 bytes long!!!".getBytes(StandardCharsets.UTF_8));
        assertThat(site.signedEvent(event, "msg_forged", now, forged)).isEqualTo(401);
        assertThat(site.signedEvent(event, "msg_stale", now - 600, webhookSecret)).isEqualTo(401);
        assertThat(site.rest("POST", "/herald/v1/events", event.getBytes(StandardCharsets.UTF_8), "application/json").statusCode())
                .isEqualTo(401);
        assertThat(site.postStatus(post).get("channels").findValuesAsText("status")).containsOnly("SUCCEEDED");
        // the status is for those who may edit the post
        assertThat(site.statusWithoutLogin(post)).isEqualTo(401);
    }

    @Test
    void anAnswerHeldPastThePluginsTimeoutIsRetriedAndStillSharedOnce() throws Exception {
        // no webhook here: it would tell the site before the held answer, and no retry would be needed
        Response off = send("PUT", path("/webhooks/wordpress"), "{\"url\":\"" + site.url()
                + "/wp-json/herald/v1/events\",\"events\":[\"*\"],\"enabled\":false}");
        assertThat(off.status()).as(off.toString()).isEqualTo(200);
        proxy.holdPublicationAnswers(2, HELD);
        int post = site.publishPost("Herald live slow answer " + page, "<p>Herald answers late.</p>", null);

        site.dispatch();
        List<JsonNode> afterTimeout = site.records(post);
        assertThat(afterTimeout).hasSize(2);
        for (JsonNode record : afterTimeout) {
            assertThat(record.get("status").asText()).as("after the timeout: %s", record).isEqualTo("QUEUED");
            assertThat(record.get("last_error_code").asText()).isEqualTo("network_error");
            assertThat(record.get("tries").asInt()).isEqualTo(1);
        }
        // Herald did its work although the site never heard: both publications are done there
        for (String channel : List.of("fb-main", "li-main")) {
            awaitJson(path("/publications/" + publicationId(post, 1, channel, "publish")),
                    view -> view.get("status").asText().equals("SUCCEEDED"));
        }
        // the backoff's first minute, passed at once: the next run finds the records due
        site.php("global $wpdb; $wpdb->query($wpdb->prepare(\"UPDATE {$wpdb->prefix}herald_dispatch"
                + " SET next_try_at = UTC_TIMESTAMP() WHERE post_id = %d AND status = 'QUEUED'\", " + post + "));");
        site.dispatch();

        awaitSucceeded(post, "fb-main", "publish", 1);
        awaitSucceeded(post, "li-main", "publish", 1);
        int publications = heraldPublications(post).size();
        int fbPosts = sandboxTruth("facebook", page).size();
        int liPosts = sandboxTruth("linkedin", author).size();
        System.out.printf("herald-publisher (answers held %ss past a %ss timeout): %d POSTs to Herald, tries %s, "
                        + "%d publications, %d Facebook post(s), %d LinkedIn post(s)%n", HELD.toSeconds(),
                PLUGIN_TIMEOUT_SECONDS, proxy.publicationPosts(), site.records(post).stream().map(r -> r.get("tries").asText()).toList(),
                publications, fbPosts, liPosts);
        assertThat(proxy.publicationPosts()).as("each request sent again after its timeout").isEqualTo(4);
        assertThat(site.records(post)).allSatisfy(r -> assertThat(r.get("tries").asInt()).isEqualTo(2));
        assertThat(publications).isEqualTo(2);
        assertThat(fbPosts).isEqualTo(1);
        assertThat(liPosts).isEqualTo(1);
    }

    @Test
    void aRefusalFailsAtOnceWithHeraldsCodeAndRetryNowSendsTheSameRequestAgain() throws Exception {
        site.php("$s = get_option('herald_publisher_settings'); $s['channels'] = ['fb-later'];"
                + " update_option('herald_publisher_settings', $s);");
        int post = site.publishPost("Herald live refused " + page, "<p>To a channel Herald does not know yet.</p>", null);
        site.dispatch();
        site.dispatch();

        List<JsonNode> records = site.records(post);
        assertThat(records).hasSize(1);
        JsonNode failed = records.get(0);
        assertThat(failed.get("status").asText()).isEqualTo("FAILED");
        assertThat(failed.get("tries").asInt()).as("a 4xx is not retried").isEqualTo(1);
        JsonNode error = site.postStatus(post).get("channels").get(0).get("error");
        assertThat(error.get("code").asText()).isEqualTo("unknown_channel");
        assertThat(error.get("detail").asText()).isNotBlank();
        assertThat(Integer.parseInt(site.php("echo Herald_Publisher_Store::count_failed();"))).isEqualTo(1);

        // the channel is connected in Herald; "Retry now" sends the very same request, which Herald now takes
        sandbox("POST", "/facebook/tokens", "{\"token\":\"EAAB-wp-later-" + page + "\",\"pageId\":\"7" + page
                + "\",\"kind\":\"PAGE\"}");
        assertThat(send("PUT", path("/channels/fb-later"), "{\"type\":\"facebook\",\"pageId\":\"7" + page
                + "\",\"pageAccessToken\":\"EAAB-wp-later-" + page + "\"}").status()).isIn(200, 201);
        assertThat(site.php("echo Herald_Publisher_Dispatcher::retry_now(" + failed.get("id").asInt() + ") ? 'queued' : 'no';"))
                .isEqualTo("queued");
        site.dispatch();
        awaitSucceeded(post, "fb-later", "publish", 1);
        JsonNode retried = site.records(post).get(0);
        System.out.printf("herald-publisher refusal: %s then, after Retry now, %s; %d Facebook post(s)%n",
                error.get("code").asText(), retried.get("status").asText(), sandboxTruth("facebook", "7" + page).size());
        assertThat(retried.get("request").asText()).as("the same request").isEqualTo(failed.get("request").asText());
        assertThat(sandboxTruth("facebook", "7" + page)).hasSize(1);
    }

    @Test
    void aRecordWithoutNewsForTenMinutesIsPolledOnce() throws Exception {
        // no webhook: only the poll can bring the news
        Response off = send("PUT", path("/webhooks/wordpress"), "{\"url\":\"" + site.url()
                + "/wp-json/herald/v1/events\",\"events\":[\"*\"],\"enabled\":false}");
        assertThat(off.status()).as(off.toString()).isEqualTo(200);
        int post = site.publishPost("Herald live polled " + page, "<p>Nobody calls back.</p>", null);
        site.dispatch();
        for (String channel : List.of("fb-main", "li-main")) {
            awaitJson(path("/publications/" + publicationId(post, 1, channel, "publish")),
                    view -> view.get("status").asText().equals("SUCCEEDED"));
        }
        site.dispatch();
        assertThat(site.records(post)).as("not yet ten minutes").allSatisfy(r -> {
            assertThat(r.get("status").asText()).isNotEqualTo("SUCCEEDED");
            assertThat(r.get("polled").asInt()).isZero();
        });

        // ten minutes without news, passed at once
        site.php("global $wpdb; $wpdb->query($wpdb->prepare(\"UPDATE {$wpdb->prefix}herald_dispatch"
                + " SET updated_at = UTC_TIMESTAMP() - INTERVAL 11 MINUTE WHERE post_id = %d\", " + post + "));");
        site.dispatch();
        List<JsonNode> polled = site.records(post);
        System.out.printf("herald-publisher poll after 10 minutes: %s%n",
                polled.stream().map(r -> r.get("channel_id").asText() + "=" + r.get("status").asText()).toList());
        assertThat(polled).allSatisfy(r -> {
            assertThat(r.get("status").asText()).isEqualTo("SUCCEEDED");
            assertThat(r.get("post_url").asText()).startsWith("http");
            assertThat(r.get("polled").asInt()).isEqualTo(1);
        });
        assertThat(proxy.publicationPosts()).as("a poll reads, it sends nothing").isEqualTo(2);
    }
}
