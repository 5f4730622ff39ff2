package io.herald.deploy.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.standardwebhooks.Webhook;
import io.herald.deploy.HeraldIntegrationTest;
import io.herald.deploy.audit.PublicationScenarios;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Webhooks end to end on the real application: subscriptions over the API, publications moved
 * through their states, and real receivers on 127.0.0.1 that are down, slow, failing and
 * redirecting. The test configuration shortens the retry schedule (1 s to 3 s, 11 tries) and the
 * try timeout (2 s).
 */
class WebhooksIT extends HeraldIntegrationTest {

    @Autowired
    CommandGateway commands;

    private String hooks(String ws) {
        return "/api/v1/workspaces/" + ws + "/webhooks";
    }

    private String subscribe(String ws, String webhookId, String url, String events) {
        Response created = send("PUT", hooks(ws) + "/" + webhookId,
                "{\"url\":\"" + url + "\",\"events\":" + events + "}");
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        return created.json().get("secret").asText();
    }

    /**
     * A publication that changes right after the subscription's PUT answered is reported: the
     * subscription is in place when the PUT commits, not when a processor gets to it.
     */
    @Test
    void aSubscriptionIsInPlaceWhenItsPutAnswers() throws Exception {
        String ws = newWorkspace("hooks-at-once");
        facebookChannel(ws, "fb-main", "EAAB-token-hooks");
        WebhookReceiver receiver = new WebhookReceiver();
        receiver.start();
        try {
            subscribe(ws, "calendar", receiver.url("/hooks"), "[\"publication.succeeded\"]");
            assertThat(jdbc.queryForObject("SELECT events::text FROM webhook_subscription_view WHERE workspace_id = ?",
                    String.class, ws)).isEqualTo("{publication.succeeded}");
            PublicationScenarios drive = new PublicationScenarios(commands);
            String id = requestScheduled(ws, "at-once");
            drive.succeed(id, drive.startAttempt(id));
            eventually("the delivery", () -> deliveries(ws, "calendar", "DELIVERED").size() == 1);
        } finally {
            receiver.stop();
        }
    }

    @Test
    void subscriptionsAreShownWithoutTheirSecretRotatedDeletedAndRecordedAsEvents() throws Exception {
        String ws = newWorkspace("hooks-crud");
        Response created = send("PUT", hooks(ws) + "/calendar",
                "{\"url\":\"https://calendar.example/hooks\",\"events\":[\"publication.succeeded\"]}");
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        String secret = created.json().get("secret").asText();
        assertThat(secret).startsWith("whsec_");
        assertThat(Base64.getDecoder().decode(secret.substring("whsec_".length()))).hasSize(32);
        assertThat(created.json().get("enabled").asBoolean()).isTrue();

        Response updated = send("PUT", hooks(ws) + "/calendar",
                "{\"url\":\"https://calendar.example/hooks2\",\"events\":[\"*\"],\"enabled\":false}");
        assertThat(updated.status()).as(updated.toString()).isEqualTo(200);
        assertThat(updated.json().has("secret")).isFalse();
        Response listed = send("GET", hooks(ws), null);
        assertThat(listed.status()).isEqualTo(200);
        assertThat(listed.json().at("/items/0/webhookId").asText()).isEqualTo("calendar");
        assertThat(listed.json().at("/items/0/url").asText()).isEqualTo("https://calendar.example/hooks2");
        assertThat(listed.json().at("/items/0/events/0").asText()).isEqualTo("*");
        assertThat(listed.json().at("/items/0/enabled").asBoolean()).isFalse();
        assertThat(listed.json().at("/items/0/createdAt").asText()).isNotBlank();
        assertThat(listed.body()).doesNotContain("secret").doesNotContain("whsec_");

        Response rotated = send("POST", hooks(ws) + "/calendar/secret", null);
        assertThat(rotated.status()).as(rotated.toString()).isEqualTo(200);
        String newSecret = rotated.json().get("secret").asText();
        assertThat(newSecret).startsWith("whsec_").isNotEqualTo(secret);

        assertThat(send("DELETE", hooks(ws) + "/calendar", null).status()).isEqualTo(204);
        assertThat(send("GET", hooks(ws), null).json().get("items")).isEmpty();
        Response again = send("DELETE", hooks(ws) + "/calendar", null);
        assertThat(again.status()).isEqualTo(404);
        assertThat(send("POST", hooks(ws) + "/calendar/secret", null).status()).isEqualTo(404);

        // the history an auditor replays: every change, never a secret
        List<Map<String, Object>> history = jdbc.queryForList("""
                SELECT payload_type, convert_from(payload, 'UTF8') AS payload FROM domain_event_entry
                WHERE aggregate_identifier = ? ORDER BY sequence_number""", "whk_" + ws + "/calendar");
        assertThat(history).extracting(e -> ((String) e.get("payload_type")).replaceAll(".*\\.", "")).containsExactly(
                "WebhookCreatedEvent", "WebhookUpdatedEvent", "WebhookSecretRotatedEvent", "WebhookDeletedEvent");
        for (String s : List.of(secret, newSecret)) {
            String key = s.substring("whsec_".length());
            assertThat(history).allSatisfy(e -> assertThat((String) e.get("payload")).doesNotContain(key)
                    .doesNotContain("whsec_"));
            byte[] stored = jdbc.queryForObject("SELECT coalesce(secret_ciphertext, ''::bytea) || "
                    + "coalesce(previous_ciphertext, ''::bytea) FROM webhook_subscription WHERE workspace_id = ?",
                    byte[].class, ws);
            assertThat(new String(stored, StandardCharsets.ISO_8859_1)).doesNotContain(key);
        }
        // the export lists what the audit chain has reached: wait until it holds the workspace's events
        long events = jdbc.queryForObject("SELECT count(*) FROM domain_event_entry WHERE workspace_id = ?",
                Long.class, ws);
        awaitJson("/api/v1/admin/audit/chain", progress -> jdbc.queryForObject(
                "SELECT count(*) FROM audit_chain WHERE workspace_id = ?", Long.class, ws) == events);
        Response audit = send("GET", "/api/v1/workspaces/" + ws + "/audit/events", null);
        assertThat(audit.status()).isEqualTo(200);
        assertThat(audit.body()).contains("WebhookCreatedEvent").contains("WebhookSecretRotatedEvent")
                .doesNotContain("whsec_");

        // a new subscription under the same id is a new secret, shown once again
        Response recreated = send("PUT", hooks(ws) + "/calendar",
                "{\"url\":\"https://calendar.example/hooks\",\"events\":[\"publication.failed\"]}");
        assertThat(recreated.status()).isEqualTo(201);
        assertThat(recreated.json().get("secret").asText()).isNotIn(secret, newSecret);
    }

    @Test
    void badUrlsAndUnknownEventTypesAreRefusedAndNothingIsStored() {
        String ws = newWorkspace("hooks-bad");
        for (String url : List.of("ftp://calendar.example/hooks", "javascript:alert(1)", "file:///etc/passwd",
                "http://editor:pw@calendar.example/hooks", "https://calendar.example/hooks#admin",
                "not a url at all", "https:///no-host")) {
            Response r = send("PUT", hooks(ws) + "/bad", "{\"url\":\"" + url + "\",\"events\":[\"*\"]}");
            assertThat(r.status()).as(url + " -> " + r).isEqualTo(422);
            assertThat(r.contentType()).startsWith("application/problem+json");
            assertThat(r.json().get("code").asText()).isEqualTo("destination_not_allowed");
            assertThat(r.body()).doesNotContain("Exception");
        }
        Response unknown = send("PUT", hooks(ws) + "/bad", "{\"url\":\"https://calendar.example/hooks\","
                + "\"events\":[\"publication.succeeded\",\"publication.exploded\",\"everything\"]}");
        assertThat(unknown.status()).as(unknown.toString()).isEqualTo(400);
        assertThat(unknown.json().get("code").asText()).isEqualTo("validation_failed");
        assertThat(unknown.json().at("/errors/0/field").asText()).isEqualTo("events");
        assertThat(unknown.json().at("/errors/0/message").asText()).contains("publication.exploded")
                .contains("everything").doesNotContain("publication.succeeded");
        for (String body : List.of("{\"events\":[\"*\"]}", "{\"url\":\"https://calendar.example/h\",\"events\":[]}",
                "{\"url\":\"https://calendar.example/h\"}", "{\"url\":\"https://calendar.example/h\",\"events\":[\"*\"],"
                        + "\"secret\":\"whsec_mine\"}")) {
            Response r = send("PUT", hooks(ws) + "/bad", body);
            assertThat(r.status()).as(body + " -> " + r).isEqualTo(400);
        }
        assertThat(jdbc.queryForObject("SELECT count(*) FROM webhook_subscription WHERE workspace_id = ?", Long.class,
                ws)).isZero();
        assertThat(eventCount("whk_" + ws + "/bad")).isZero();
    }

    /**
     * The receiver is down, then slow (answers after the try timed out), then answers 500, then
     * 200. Every delivery arrives; after de-duplication by webhook-id each arrived once, every try
     * of it carried the same body, every signature verifies with the specification's library, and
     * the deliveries about one publication first arrived in the order of its events. Tries that
     * get no answer in a row pause the webhook (five, refused connections and timeouts alike): as
     * an admin would, the test resumes it whenever it finds it paused, and the order holds across.
     */
    @Test
    void aReceiverThatIsDownSlowAndFailingGetsEveryDeliveryOnceInEventOrderSigned() throws Exception {
        String ws = newWorkspace("hooks-flaky");
        facebookChannel(ws, "fb-main", "EAAB-token-hooks");
        WebhookReceiver receiver = new WebhookReceiver();
        String secret = subscribe(ws, "calendar", receiver.url("/hooks"), "[\"*\"]");
        awaitSubscribed(ws, "calendar");
        PublicationScenarios drive = new PublicationScenarios(commands);

        // receiver down: publications change state, deliveries pile up and are retried
        List<String> failing = new ArrayList<>();
        List<String> succeeding = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            String id = requestScheduled(ws, "fail-" + i);
            drive.rejected(id, drive.startAttempt(id));
            failing.add(id);
            String ok = requestScheduled(ws, "ok-" + i);
            drive.succeed(ok, drive.startAttempt(ok));
            succeeding.add(ok);
        }
        eventually("tries against a receiver that is down", () -> deliveries(ws, "calendar", null).stream()
                .anyMatch(d -> d.path("tries").asInt() >= 2 && d.path("lastError").asText().length() > 0));
        for (String id : failing) {
            Response abandoned = send("POST", "/api/v1/workspaces/" + ws + "/publications/" + id + "/decisions",
                    "{\"decision\":\"abandon\",\"note\":\"not needed\"}");
            assertThat(abandoned.status()).as(abandoned.toString()).isEqualTo(200);
        }

        // slow: each request is read, but answered after the 2 s try timeout
        receiver.answer(WebhookReceiver.Answer.slow(2_500));
        receiver.start();
        eventually("a slow answer", () -> resumedIfPaused(ws, "calendar") && receiver.received().size() >= 2);
        receiver.answer(WebhookReceiver.Answer.status(500));
        Thread.sleep(2_500);
        receiver.answer(WebhookReceiver.Answer.status(200));

        int expected = failing.size() * 3 + succeeding.size();
        eventually("every delivery delivered", () -> {
            resumedIfPaused(ws, "calendar");
            List<JsonNode> all = deliveries(ws, "calendar", null);
            return all.size() == expected && all.stream().allMatch(d -> d.path("status").asText().equals("DELIVERED"));
        });

        List<WebhookReceiver.Received> received = receiver.received();
        Map<String, List<WebhookReceiver.Received>> byId = new LinkedHashMap<>();
        for (WebhookReceiver.Received r : received) {
            byId.computeIfAbsent(r.id(), k -> new ArrayList<>()).add(r);
            assertThat(r.contentType()).startsWith("application/json");
            new Webhook(secret).verify(r.body(), Map.of("webhook-id", List.of(r.id()),
                    "webhook-timestamp", List.of(r.timestamp()), "webhook-signature", List.of(r.signature())));
        }
        Set<String> logged = new LinkedHashSet<>();
        deliveries(ws, "calendar", "DELIVERED").forEach(d -> logged.add(d.path("deliveryId").asText()));
        assertThat(byId.keySet()).as("every delivery arrived, nothing else did").containsExactlyInAnyOrderElementsOf(
                logged);
        assertThat(byId.values()).allSatisfy(tries -> assertThat(tries).extracting(WebhookReceiver.Received::body)
                .as("every try of a delivery carries the same body").containsOnly(tries.get(0).body()));
        assertThat(received.size()).as("some deliveries arrived more than once (slow answers)")
                .isGreaterThan(byId.size());

        Map<String, List<String>> typesByPublication = new TreeMap<>();
        for (List<WebhookReceiver.Received> tries : byId.values()) {
            JsonNode body = json.readTree(tries.get(0).body());
            typesByPublication.computeIfAbsent(body.at("/data/publicationId").asText(), k -> new ArrayList<>())
                    .add(body.get("type").asText());
        }
        for (String id : failing) {
            assertThat(typesByPublication.get(id)).as(id).containsExactly("publication.failed",
                    "publication.needs_decision", "publication.abandoned");
        }
        for (String id : succeeding) {
            assertThat(typesByPublication.get(id)).as(id).containsExactly("publication.succeeded");
        }
        JsonNode tries = deliveries(ws, "calendar", null).get(0);
        assertThat(tries.path("tries").asInt()).isGreaterThanOrEqualTo(1);
        receiver.stop();
    }

    @Test
    void afterARotationEveryTryCarriesBothSignaturesNewFirst() throws Exception {
        String ws = newWorkspace("hooks-rotate");
        facebookChannel(ws, "fb-main", "EAAB-token-hooks");
        WebhookReceiver receiver = new WebhookReceiver();
        receiver.start();
        String old = subscribe(ws, "calendar", receiver.url("/hooks"), "[\"publication.succeeded\"]");
        String rotated = send("POST", hooks(ws) + "/calendar/secret", null).json().get("secret").asText();
        awaitSubscribed(ws, "calendar");
        PublicationScenarios drive = new PublicationScenarios(commands);
        String id = requestScheduled(ws, "rotate-1");
        drive.succeed(id, drive.startAttempt(id));

        eventually("the delivery", () -> !receiver.received().isEmpty());
        WebhookReceiver.Received r = receiver.received().get(0);
        String[] signatures = r.signature().split(" ");
        assertThat(signatures).hasSize(2);
        long timestamp = Long.parseLong(r.timestamp());
        assertThat(signatures[0]).isEqualTo(new Webhook(rotated).sign(r.id(), timestamp, r.body()));
        assertThat(signatures[1]).isEqualTo(new Webhook(old).sign(r.id(), timestamp, r.body()));
        assertThat(Math.abs(timestamp - System.currentTimeMillis() / 1000)).isLessThan(60);
        receiver.stop();
    }

    @Test
    void aRedirectIsNotFollowedButRetriedAClientErrorFailsAtOnceAndARedeliveryKeepsTheId() throws Exception {
        String ws = newWorkspace("hooks-redirect");
        facebookChannel(ws, "fb-main", "EAAB-token-hooks");
        WebhookReceiver receiver = new WebhookReceiver();
        receiver.answer(new WebhookReceiver.Answer(302, 0, receiver.url("/elsewhere"), null));
        receiver.start();
        subscribe(ws, "calendar", receiver.url("/hooks"), "[\"publication.succeeded\"]");
        awaitSubscribed(ws, "calendar");
        PublicationScenarios drive = new PublicationScenarios(commands);
        String id = requestScheduled(ws, "redirect-1");
        drive.succeed(id, drive.startAttempt(id));

        eventually("tries answered 302", () -> receiver.received().size() >= 2);
        JsonNode pending = deliveries(ws, "calendar", "PENDING").get(0);
        assertThat(pending.path("lastStatusCode").asInt()).isEqualTo(302);
        assertThat(pending.path("lastError").asText()).contains("redirects are not followed");
        assertThat(receiver.received()).extracting(WebhookReceiver.Received::path).containsOnly("/hooks");

        receiver.answer(WebhookReceiver.Answer.status(410));
        eventually("failed at once on 410", () -> !deliveries(ws, "calendar", "FAILED").isEmpty());
        JsonNode failed = deliveries(ws, "calendar", "FAILED").get(0);
        int triesWhenFailed = failed.path("tries").asInt();
        assertThat(failed.path("lastStatusCode").asInt()).isEqualTo(410);
        assertThat(failed.path("nextTryAt").isNull()).isTrue();
        Thread.sleep(1_500);
        assertThat(deliveries(ws, "calendar", "FAILED").get(0).path("tries").asInt())
                .as("not tried again").isEqualTo(triesWhenFailed);
        assertThat(receiver.received()).hasSize(triesWhenFailed);

        receiver.answer(WebhookReceiver.Answer.status(204));
        String deliveryId = failed.path("deliveryId").asText();
        Response redeliver = send("POST", hooks(ws) + "/calendar/deliveries/" + deliveryId + "/redeliver", null);
        assertThat(redeliver.status()).as(redeliver.toString()).isEqualTo(202);
        eventually("redelivered", () -> !deliveries(ws, "calendar", "DELIVERED").isEmpty());
        JsonNode delivered = deliveries(ws, "calendar", "DELIVERED").get(0);
        assertThat(delivered.path("deliveryId").asText()).isEqualTo(deliveryId);
        assertThat(delivered.path("tries").asInt()).isEqualTo(triesWhenFailed + 1);
        assertThat(delivered.path("deliveredAt").asText()).isNotBlank();
        assertThat(receiver.received()).extracting(WebhookReceiver.Received::id).containsOnly(deliveryId);
        assertThat(send("POST", hooks(ws) + "/calendar/deliveries/msg_nope/redeliver", null).status()).isEqualTo(404);
        assertThat(send("GET", hooks(ws) + "/calendar/deliveries?status=LOST", null).status()).isEqualTo(400);
        receiver.stop();
    }

    @Test
    void theDeliveryLogPagesNewestFirst() throws Exception {
        String ws = newWorkspace("hooks-log");
        facebookChannel(ws, "fb-main", "EAAB-token-hooks");
        WebhookReceiver receiver = new WebhookReceiver();
        receiver.start();
        subscribe(ws, "calendar", receiver.url("/hooks"), "[\"publication.succeeded\"]");
        awaitSubscribed(ws, "calendar");
        PublicationScenarios drive = new PublicationScenarios(commands);
        for (int i = 0; i < 3; i++) {
            String id = requestScheduled(ws, "log-" + i);
            drive.succeed(id, drive.startAttempt(id));
        }
        eventually("three deliveries", () -> deliveries(ws, "calendar", "DELIVERED").size() == 3);
        Response first = send("GET", hooks(ws) + "/calendar/deliveries?limit=2", null);
        assertThat(first.json().get("items")).hasSize(2);
        String cursor = first.json().get("nextCursor").asText();
        Response second = send("GET", hooks(ws) + "/calendar/deliveries?limit=2&cursor=" + cursor, null);
        assertThat(second.json().get("items")).hasSize(1);
        assertThat(second.json().get("nextCursor").isNull()).isTrue();
        List<String> ids = new ArrayList<>();
        first.json().get("items").forEach(d -> ids.add(d.path("deliveryId").asText()));
        second.json().get("items").forEach(d -> ids.add(d.path("deliveryId").asText()));
        assertThat(ids).doesNotHaveDuplicates().hasSize(3);
        assertThat(second.json().at("/items/0/type").asText()).isEqualTo("publication.succeeded");
        assertThat(second.json().at("/items/0/publicationId").asText()).startsWith("pub_");
        receiver.stop();
    }

    /** A rebuild folds history that was reported when it happened: nothing is sent again, and new events still are. */
    @Test
    void rebuildingThePublicationViewWritesNoDeliveriesAndKeepsTheSubscriptions() throws Exception {
        String ws = newWorkspace("hooks-rebuild");
        facebookChannel(ws, "fb-main", "EAAB-token-hooks");
        WebhookReceiver receiver = new WebhookReceiver();
        receiver.start();
        subscribe(ws, "calendar", receiver.url("/hooks"), "[\"*\"]");
        awaitSubscribed(ws, "calendar");
        PublicationScenarios drive = new PublicationScenarios(commands);
        String first = requestScheduled(ws, "rebuild-1");
        drive.succeed(first, drive.startAttempt(first));
        eventually("the first delivery", () -> deliveries(ws, "calendar", "DELIVERED").size() == 1);
        long outboxBefore = jdbc.queryForObject("SELECT count(*) FROM webhook_delivery", Long.class);

        // the subscriptions are written with the webhook's own events, not folded by the view: a rebuild
        // of the view leaves them as they are
        Response rebuild = send("POST", "/api/v1/admin/projections/publication-view/rebuild", null, null);
        assertThat(rebuild.status()).as(rebuild.toString()).isEqualTo(202);
        eventually("the processor runs again", () -> {
            for (JsonNode p : send("GET", "/api/v1/admin/projections", null, null).json()) {
                if (p.path("name").asText().equals("publication-view")) {
                    return p.path("running").asBoolean() && p.path("caughtUp").asBoolean();
                }
            }
            return false;
        });
        assertThat(jdbc.queryForObject("SELECT count(*) FROM webhook_delivery", Long.class)).isEqualTo(outboxBefore);
        assertThat(jdbc.queryForObject("SELECT events::text FROM webhook_subscription_view WHERE workspace_id = ?",
                String.class, ws)).isEqualTo("{*}");

        String second = requestScheduled(ws, "rebuild-2");
        drive.succeed(second, drive.startAttempt(second));
        eventually("the delivery after the rebuild", () -> deliveries(ws, "calendar", "DELIVERED").size() == 2);
        assertThat(receiver.received()).extracting(WebhookReceiver.Received::id).doesNotHaveDuplicates().hasSize(2);
        receiver.stop();
    }

    private String requestScheduled(String ws, String entry) {
        Response created = send("POST", "/api/v1/workspaces/" + ws + "/publications",
                PublicationScenarios.scheduledRequest(entry, 1, "fb-main", "Hooks " + entry));
        assertThat(created.status()).as(created.toString()).isEqualTo(202);
        String id = created.json().get("publicationId").asText();
        awaitJson("/api/v1/workspaces/" + ws + "/publications/" + id, v -> true);
        return id;
    }

    /** The projection learns of a subscription asynchronously; events before that are not reported to it. */
    private void awaitSubscribed(String ws, String webhookId) throws InterruptedException {
        eventually("the subscription reaches the projection", () -> jdbc.queryForObject(
                "SELECT count(*) FROM webhook_subscription_view WHERE workspace_id = ? AND webhook_id = ?",
                Long.class, ws, webhookId) == 1);
    }

    /** An admin's resume of a paused webhook; always true, for use inside a wait. */
    private boolean resumedIfPaused(String ws, String webhookId) {
        for (JsonNode hook : send("GET", hooks(ws), null).json().get("items")) {
            if (hook.path("webhookId").asText().equals(webhookId) && hook.path("paused").asBoolean()) {
                Response resumed = send("POST", hooks(ws) + "/" + webhookId + "/resume", null);
                assertThat(resumed.status()).as(resumed.toString()).isEqualTo(200);
            }
        }
        return true;
    }

    private List<JsonNode> deliveries(String ws, String webhookId, String status) {
        Response r = send("GET", hooks(ws) + "/" + webhookId + "/deliveries?limit=200"
                + (status == null ? "" : "&status=" + status), null);
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        List<JsonNode> items = new ArrayList<>();
        r.json().get("items").forEach(items::add);
        return items;
    }
}
