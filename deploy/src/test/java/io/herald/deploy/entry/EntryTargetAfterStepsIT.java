package io.herald.deploy.entry;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.deploy.HeraldIntegrationTest;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The post an update acts on is the post the publish created, not another step's result: a first
 * comment written after the post must not become the entry's post.
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

    @Test
    void anUpdateAfterAFirstCommentChangesThePostNotTheComment() {
        ws = newWorkspace("entry-target");
        String page = "93" + TARGETS.incrementAndGet() + System.nanoTime() % 100_000;
        String token = "EAAB-target-" + page;
        sandbox("POST", "/facebook/tokens", "{\"token\":\"" + token + "\",\"pageId\":\"" + page
                + "\",\"kind\":\"PAGE\"}");
        Response put = send("PUT", "/api/v1/workspaces/" + ws + "/channels/fb", "{\"type\":\"facebook\",\"pageId\":\""
                + page + "\",\"pageAccessToken\":\"" + token + "\"}");
        assertThat(put.status()).as(put.toString()).isIn(200, 201);
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
}
