package io.herald.deploy.publishing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.deploy.HeraldIntegrationTest;
import io.herald.deploy.webhooks.WebhookReceiver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The verification after success over real HTTP, against the sandbox's Facebook Page
 * ({@code herald.verification.delay} is 1 s here): a post still there is verified and the
 * publication stays SUCCEEDED; a post the Page's moderators remove after success is recorded as
 * vanished, reported by the {@code publication.vanished} webhook and put in the decision queue,
 * which {@code confirm_removed} clears; a connection that does not verify is never read again.
 */
class VerificationAfterSuccessIT extends HeraldIntegrationTest {

    private static final String FAULTS = "/sandbox/_admin/faults";

    @Test
    void aPostStillThereIsVerifiedAndOneRemovedAfterSuccessVanishesIntoTheDecisionQueue() throws Exception {
        String ws = newWorkspace("verify");
        String page = "88" + (System.nanoTime() % 1_000_000_000L);
        String token = "EAAB-verify-" + page;
        sandbox("POST", "/facebook/tokens", "{\"token\":\"" + token + "\",\"pageId\":\"" + page
                + "\",\"kind\":\"PAGE\"}");
        String base = "/api/v1/workspaces/" + ws;
        String connection = "{\"type\":\"facebook\",\"pageId\":\"" + page + "\",\"pageAccessToken\":\"" + token
                + "\",\"verifyAfterSuccess\":%s}";
        assertThat(send("PUT", base + "/channels/fb-verify", connection.formatted("true")).status()).isEqualTo(201);
        assertThat(send("PUT", base + "/channels/fb-quiet", connection.formatted("false")).status()).isEqualTo(201);
        poll(base + "/channels", list -> list.size() == 2
                && channel(list, "fb-verify").path("verifyAfterSuccess").asBoolean()
                && !channel(list, "fb-quiet").path("verifyAfterSuccess").asBoolean(true));

        WebhookReceiver receiver = new WebhookReceiver();
        receiver.start();
        try {
            Response hook = send("PUT", base + "/webhooks/calendar", "{\"url\":\"" + receiver.url("/hooks")
                    + "\",\"events\":[\"publication.vanished\"]}");
            assertThat(hook.status()).as(hook.toString()).isEqualTo(201);

            // a connection that does not verify: its success is never read again
            String quiet = publish(base, "fb-quiet", "quiet");
            poll(base + "/publications/" + quiet, v -> "SUCCEEDED".equals(v.path("status").asText()));

            // still there: verified a second later, and the publication stays SUCCEEDED
            String kept = publish(base, "fb-verify", "kept");
            JsonNode verified = poll(base + "/publications/" + kept, v -> !v.path("verifiedAt").isNull()
                    && v.has("verifiedAt"));
            assertThat(verified.path("status").asText()).isEqualTo("SUCCEEDED");
            assertThat(verified.path("vanishedAt").isNull()).isTrue();
            assertThat(verified.path("needsDecision").asBoolean()).isFalse();
            JsonNode keptEvents = send("GET", base + "/publications/" + kept + "/events", null).json();
            JsonNode verifiedEvent = event(keptEvents, "PublicationVerifiedEvent");
            assertThat(verifiedEvent.at("/payload/providerRef/id").asText())
                    .isEqualTo(verified.at("/providerRef/id").asText());
            assertThat(types(keptEvents)).contains("PublicationVerificationDueEvent", "PublicationVerifiedEvent")
                    .doesNotContain("PublicationVanishedEvent");

            // the quiet connection's success came first: had it been scheduled, it would have been read by now
            JsonNode quietView = send("GET", base + "/publications/" + quiet, null).json();
            assertThat(quietView.path("verifiedAt").isNull()).isTrue();
            assertThat(types(send("GET", base + "/publications/" + quiet + "/events", null).json()))
                    .noneMatch(type -> type.contains("Verif") || type.contains("Vanish"));
            assertThat(jdbc.queryForObject("SELECT count(*) FROM publication_timer WHERE publication_id = ?",
                    Long.class, quiet)).isZero();

            // removed after success: the Page's reads fail (inconclusive, read again) until the post is gone
            sandbox("POST", "/faults", "{\"provider\":\"facebook\",\"target\":\"" + page
                    + "\",\"type\":\"ERROR_5XX_NO_EFFECT\",\"operation\":\"READ\",\"times\":100000}");
            String removed;
            try {
                removed = publish(base, "fb-verify", "removed");
                JsonNode published = poll(base + "/publications/" + removed,
                        v -> "SUCCEEDED".equals(v.path("status").asText()));
                String postId = published.at("/providerRef/id").asText();
                assertThat(send("DELETE", "/sandbox/_admin/facebook/" + page + "/posts/" + postId, null).status())
                        .isEqualTo(204);
                assertThat(send("GET", base + "/publications/" + removed, null).json().path("verifiedAt").isNull())
                        .isTrue();
            } finally {
                assertThat(send("DELETE", FAULTS, null).status()).isEqualTo(204);
            }
            JsonNode gone = poll(base + "/publications/" + removed, v -> v.has("vanishedAt")
                    && !v.path("vanishedAt").isNull());
            assertThat(gone.path("status").asText()).isEqualTo("SUCCEEDED");
            assertThat(gone.path("needsDecision").asBoolean()).isTrue();
            assertThat(gone.path("decisionReason").asText()).contains("vanished after success")
                    .contains("version 2");
            JsonNode vanishedEvent = event(send("GET", base + "/publications/" + removed + "/events", null).json(),
                    "PublicationVanishedEvent");
            assertThat(vanishedEvent.at("/payload/detail").asText()).contains("does not exist");
            assertThat(vanishedEvent.toString()).doesNotContain(token);
            JsonNode queue = poll(base + "/decisions", page1 -> ids(page1).contains(removed));
            assertThat(ids(queue)).doesNotContain(kept, quiet);

            eventually("the publication.vanished webhook", () -> !receiver.received().isEmpty());
            JsonNode delivered = json.readTree(receiver.received().get(0).body());
            assertThat(delivered.path("type").asText()).isEqualTo("publication.vanished");
            assertThat(delivered.toString()).contains(removed).doesNotContain(token);

            // a vanished post takes no re-attempt, and nothing is posted again on Herald's own
            Response reattempt = send("POST", base + "/publications/" + removed + "/decisions",
                    "{\"decision\":\"reattempt\"}");
            assertThat(reattempt.status()).as(reattempt.toString()).isEqualTo(409);
            Response confirmed = send("POST", base + "/publications/" + removed + "/decisions",
                    "{\"decision\":\"confirm_removed\",\"note\":\"the moderators removed it\"}");
            assertThat(confirmed.status()).as(confirmed.toString()).isEqualTo(200);
            poll(base + "/decisions", page1 -> !ids(page1).contains(removed));
            JsonNode settled = poll(base + "/publications/" + removed, v -> !v.path("needsDecision").asBoolean());
            assertThat(settled.path("status").asText()).isEqualTo("SUCCEEDED");
            assertThat(settled.path("vanishedAt").isNull()).isFalse();
            assertThat(types(send("GET", base + "/publications/" + removed + "/events", null).json()))
                    .contains("PublicationVanishDecidedEvent");
        } finally {
            receiver.stop();
        }
    }

    /** Polls a GET until the predicate holds, with room for a loaded machine. */
    private JsonNode poll(String path, java.util.function.Predicate<JsonNode> until) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        Response last = null;
        while (System.nanoTime() < deadline) {
            last = send("GET", path, null, null);
            if (last.status() == 200 && until.test(last.json())) {
                return last.json();
            }
            Thread.sleep(100);
        }
        throw new AssertionError("condition not reached within 60 s on " + path + "; last answer: " + last);
    }

    private String publish(String base, String channel, String entry) {
        Response r = send("POST", base + "/publications", """
                {"calendarEntryId":"%s","contentVersion":1,"channelId":"%s","action":"publish",
                 "content":{"body":"%s %s"}}""".formatted(entry, channel, entry, base));
        assertThat(r.status()).as(r.toString()).isEqualTo(202);
        return r.json().get("publicationId").asText();
    }

    private static JsonNode channel(JsonNode channels, String id) {
        for (JsonNode c : channels) {
            if (id.equals(c.path("channelId").asText())) {
                return c;
            }
        }
        return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }

    private static List<String> types(JsonNode events) {
        List<String> types = new ArrayList<>();
        events.forEach(e -> types.add(e.path("type").asText().replaceAll(".*\\.", "")));
        return types;
    }

    private static JsonNode event(JsonNode events, String type) {
        for (JsonNode e : events) {
            if (e.path("type").asText().endsWith(type)) {
                return e;
            }
        }
        throw new AssertionError("no " + type + " in " + events);
    }

    private static List<String> ids(JsonNode page) {
        List<String> ids = new ArrayList<>();
        page.path("items").forEach(item -> ids.add(item.path("publicationId").asText()));
        return ids;
    }
}
