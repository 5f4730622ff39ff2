package io.herald.deploy.channels;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.deploy.HeraldIntegrationTest;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A Mastodon connection through the API against the sandbox's instance: made with an instance URL
 * and an access token (never shown again), published to, an unknown create settled into one status,
 * and bad requests refused with their codes and nothing stored.
 */
class MastodonChannelIT extends HeraldIntegrationTest {

    private static final AtomicInteger ACCOUNTS = new AtomicInteger();

    @Test
    void aConnectionPublishesAndAnUnknownCreateEndsAsOneStatus() {
        String ws = newWorkspace("masto");
        String token = "masto-it-token-" + ACCOUNTS.incrementAndGet() + "-" + System.nanoTime();
        String account = account(token);
        Response put = connect(ws, "masto", token);
        assertThat(put.status()).as(put.toString()).isEqualTo(201);
        assertThat(put.body()).doesNotContain(token);
        JsonNode caps = put.json().get("capabilities");
        assertThat(caps.get("publish").get("available").asBoolean()).as(put.toString()).isTrue();
        assertThat(caps.get("reconcile").get("available").asBoolean()).as(put.toString()).isTrue();

        String published = publish(ws, "entry-masto-1", "Hello from Herald https://example.com/herald");
        JsonNode succeeded = awaitJson(publications(ws) + "/" + published,
                v -> v.get("status").asText().equals("SUCCEEDED"));
        String first = succeeded.get("providerRef").get("id").asText();
        assertThat(succeeded.get("providerRef").get("url").asText()).contains("/sandbox/mastodon/@");

        sandbox("POST", "/mastodon/faults", "{\"accountId\":\"" + account + "\",\"operation\":\"CREATE\","
                + "\"type\":\"ERROR_500_AFTER_CREATE\",\"delayMillis\":0,\"times\":1}");
        String landed = publish(ws, "entry-masto-2", "Landed despite the 500");
        JsonNode found = awaitJson(publications(ws) + "/" + landed, v -> v.get("status").asText().equals("SUCCEEDED"));
        assertThat(found.get("attempts").get(0).get("outcome").asText()).isEqualTo("OUTCOME_UNKNOWN");

        JsonNode statuses = send("GET", "/sandbox/_admin/mastodon/accounts/" + account + "/statuses", null, null).json();
        assertThat(statuses).hasSize(2);
        assertThat(statuses.findValuesAsText("id")).containsExactlyInAnyOrder(first,
                found.get("providerRef").get("id").asText());
        Response channels = send("GET", "/api/v1/workspaces/" + ws + "/channels", null, null);
        assertThat(channels.body()).doesNotContain(token).contains("provider_key");
    }

    @Test
    void badRequestsAreRefusedWithTheirCodesAndNothingIsStored() {
        String ws = newWorkspace("masto-rules");
        String token = "masto-it-rules-" + ACCOUNTS.incrementAndGet() + "-" + System.nanoTime();
        account(token);
        Response foreign = send("PUT", "/api/v1/workspaces/" + ws + "/channels/m1", "{\"type\":\"mastodon\","
                + "\"instanceUrl\":\"" + instanceUrl() + "\",\"accessToken\":\"" + token + "\",\"pdsUrl\":\"http://x\"}");
        Response outbound = send("PUT", "/api/v1/workspaces/" + ws + "/channels/m2", "{\"type\":\"mastodon\","
                + "\"instanceUrl\":\"https://editor:pw@93.184.216.34/\",\"accessToken\":\"" + token + "\"}");
        Response noToken = send("PUT", "/api/v1/workspaces/" + ws + "/channels/m3", "{\"type\":\"mastodon\","
                + "\"instanceUrl\":\"" + instanceUrl() + "\"}");

        assertThat(foreign.status()).as(foreign.toString()).isEqualTo(400);
        assertThat(foreign.json().get("code").asText()).isEqualTo("validation_failed");
        assertThat(foreign.body()).contains("pdsUrl").contains("mastodon").doesNotContain(token);
        assertThat(outbound.status()).as(outbound.toString()).isEqualTo(422);
        assertThat(outbound.json().get("code").asText()).isEqualTo("destination_not_allowed");
        assertThat(outbound.body()).doesNotContain(token);
        assertThat(noToken.status()).as(noToken.toString()).isEqualTo(400);
        assertThat(noToken.body()).contains("accessToken");
        assertThat(jdbc.queryForObject("SELECT count(*) FROM channel_connection WHERE workspace_id = ?", Long.class,
                ws)).isZero();

        assertThat(connect(ws, "masto", token).status()).isEqualTo(201);
        Response tooLong = send("POST", publications(ws), """
                {"calendarEntryId":"entry-long","contentVersion":1,"channelId":"masto","action":"publish",
                 "content":{"body":"%s"}}""".formatted("a".repeat(501)));
        Response tooMany = send("POST", publications(ws), """
                {"calendarEntryId":"entry-many","contentVersion":1,"channelId":"masto","action":"publish",
                 "content":{"body":"five images","media":[%s]}}""".formatted(images(5)));
        Response linkCounts23 = send("POST", publications(ws), """
                {"calendarEntryId":"entry-link","contentVersion":1,"channelId":"masto","action":"publish",
                 "content":{"body":"%s https://example.com/%s"}}""".formatted("b".repeat(470), "c".repeat(100)));

        assertThat(tooLong.status()).as(tooLong.toString()).isEqualTo(400);
        assertThat(tooLong.json().get("code").asText()).isEqualTo("validation_failed");
        assertThat(tooLong.body()).contains("content.body").contains("mastodon").contains("500");
        assertThat(tooMany.status()).as(tooMany.toString()).isEqualTo(400);
        assertThat(tooMany.json().get("code").asText()).isEqualTo("validation_failed");
        assertThat(tooMany.body()).contains("content.media");
        assertThat(linkCounts23.status()).as(linkCounts23.toString()).isEqualTo(202);
        // the accepted one is in the view: the refused ones would be by now
        awaitJson(publications(ws) + "/" + linkCounts23.json().get("publicationId").asText(), v -> true);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM publication_view WHERE workspace_id = ? AND "
                + "calendar_entry_id IN ('entry-long', 'entry-many')", Long.class, ws)).isZero();
    }

    private String account(String token) {
        return send("POST", "/sandbox/_admin/mastodon/accounts", "{\"username\":\"it" + ACCOUNTS.incrementAndGet()
                + "\",\"token\":\"" + token + "\"}").json().get("id").asText();
    }

    private Response connect(String ws, String channel, String token) {
        return send("PUT", "/api/v1/workspaces/" + ws + "/channels/" + channel, "{\"type\":\"mastodon\","
                + "\"instanceUrl\":\"" + instanceUrl() + "\",\"accessToken\":\"" + token + "\"}");
    }

    private String instanceUrl() {
        return "http://localhost:" + port + "/sandbox/mastodon";
    }

    private static String images(int n) {
        StringBuilder media = new StringBuilder();
        for (int i = 1; i <= n; i++) {
            media.append(i > 1 ? "," : "").append("{\"mediaId\":\"med_").append(String.valueOf(i).repeat(64))
                    .append("\"}");
        }
        return media.toString();
    }

    private static String publications(String ws) {
        return "/api/v1/workspaces/" + ws + "/publications";
    }

    private String publish(String ws, String entry, String text) {
        Response r = send("POST", publications(ws), """
                {"calendarEntryId":"%s","contentVersion":1,"channelId":"masto","action":"publish",
                 "content":{"body":"%s"}}""".formatted(entry, text));
        assertThat(r.status()).as(r.toString()).isEqualTo(202);
        return r.json().get("publicationId").asText();
    }
}
