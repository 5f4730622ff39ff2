package io.herald.deploy.health;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.standardwebhooks.Webhook;
import io.herald.command.health.ConnectionHealthProperties;
import io.herald.command.health.TokenExpiryWarnings;
import io.herald.deploy.HeraldIntegrationTest;
import io.herald.deploy.webhooks.WebhookReceiver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Connection health end to end, per provider: the sandbox lets the credentials make two more posts
 * in the middle of a batch, then answers as the provider does for expired or revoked ones. The
 * publications refused for it and every one due afterwards are HELD, the later ones with no
 * provider call at all; the connection is NEEDS_REAUTH with the provider's reason; new
 * credentials that pass the probe resume them, each published exactly once; the calendar's
 * webhook receives channel.needs_reauth, publication.held and channel.reauthorized.
 */
class ConnectionHealthIT extends HeraldIntegrationTest {

    private static final AtomicInteger TARGETS = new AtomicInteger();

    @Autowired
    CommandGateway commands;

    private static final int BATCH = 5;
    private static final int POSTS_BEFORE_LAPSE = 2;
    private static final int DUE_LATER = 2;

    /** How a provider's connection is made and given new credentials, and what the sandbox calls it. */
    private record Provider(String name, String target, String credential, String newCredential,
                            String connectBody, String reconnectBody, Runnable registerNew) {
    }

    @Test
    void facebookTokenExpiresMidBatch() throws Exception {
        String page = "77" + TARGETS.incrementAndGet();
        String token = "EAAB-health-old-" + page;
        String fresh = "EAAB-health-new-" + page;
        sandbox("POST", "/facebook/tokens", "{\"token\":\"" + token + "\",\"pageId\":\"" + page
                + "\",\"kind\":\"PAGE\"}");
        run(new Provider("facebook", page, token, fresh,
                "{\"type\":\"facebook\",\"pageId\":\"" + page + "\",\"pageAccessToken\":\"" + token + "\"}",
                "{\"type\":\"facebook\",\"pageId\":\"" + page + "\",\"pageAccessToken\":\"" + fresh + "\"}",
                () -> sandbox("POST", "/facebook/tokens", "{\"token\":\"" + fresh + "\",\"pageId\":\"" + page
                        + "\",\"kind\":\"PAGE\"}")), "EXPIRED", "190");
    }

    @Test
    void linkedInTokenIsRevokedMidBatch() throws Exception {
        String author = "urn:li:person:health" + TARGETS.incrementAndGet();
        String token = "AQX-health-old-" + author.hashCode();
        String fresh = "AQX-health-new-" + author.hashCode();
        sandbox("POST", "/linkedin/tokens", "{\"token\":\"" + token + "\",\"author\":\"" + author
                + "\",\"scopes\":[\"w_member_social\"]}");
        run(new Provider("linkedin", author, token, fresh,
                "{\"type\":\"linkedin\",\"authorUrn\":\"" + author + "\",\"accessToken\":\"" + token
                        + "\",\"scopes\":[\"w_member_social\"]}",
                "{\"type\":\"linkedin\",\"authorUrn\":\"" + author + "\",\"accessToken\":\"" + fresh
                        + "\",\"scopes\":[\"w_member_social\"]}",
                () -> sandbox("POST", "/linkedin/tokens", "{\"token\":\"" + fresh + "\",\"author\":\"" + author
                        + "\",\"scopes\":[\"w_member_social\"]}")), "REVOKED", "REVOKED_ACCESS_TOKEN");
    }

    @Test
    void wordPressApplicationPasswordIsRevokedMidBatch() throws Exception {
        String site = "health" + TARGETS.incrementAndGet();
        String password = "abcd efgh " + site;
        String fresh = "wxyz uvst " + site;
        String siteUrl = "http://localhost:" + port + "/sandbox/wordpress/" + site;
        sandbox("POST", "/wordpress/sites", "{\"site\":\"" + site + "\",\"username\":\"editor\","
                + "\"applicationPassword\":\"" + password + "\",\"plugin\":true}");
        run(new Provider("wordpress", site, password, fresh,
                "{\"type\":\"wordpress\",\"siteUrl\":\"" + siteUrl + "\",\"username\":\"editor\","
                        + "\"applicationPassword\":\"" + password + "\"}",
                "{\"type\":\"wordpress\",\"siteUrl\":\"" + siteUrl + "\",\"username\":\"editor\","
                        + "\"applicationPassword\":\"" + fresh + "\"}",
                () -> sandbox("POST", "/wordpress/sites", "{\"site\":\"" + site + "\",\"username\":\"editor\","
                        + "\"applicationPassword\":\"" + fresh + "\",\"plugin\":true}")), "REVOKED", "401");
    }

    /**
     * A token whose known expiry is within the warning window (7 days) is warned of once per
     * connection and expiry; one further out is not; a new token's expiry is warned of again.
     */
    @Test
    void aTokenThatExpiresSoonIsWarnedOfOncePerExpiry() throws Exception {
        String ws = newWorkspace("health-expiry");
        String channels = "/api/v1/workspaces/" + ws + "/channels";
        String author = "urn:li:person:expiry" + TARGETS.incrementAndGet();
        WebhookReceiver receiver = new WebhookReceiver();
        receiver.start();
        try {
            Response hook = send("PUT", "/api/v1/workspaces/" + ws + "/webhooks/calendar",
                    "{\"url\":\"" + receiver.url("/hooks") + "\",\"events\":[\"channel.token_expiring\"]}");
            assertThat(hook.status()).as(hook.toString()).isEqualTo(201);
            eventually("the subscription reaches the projection", () -> jdbc.queryForObject(
                    "SELECT count(*) FROM webhook_subscription_view WHERE workspace_id = ?", Long.class, ws) == 1);
            java.time.Instant far = java.time.Instant.now().plus(Duration.ofDays(30)).truncatedTo(
                    java.time.temporal.ChronoUnit.SECONDS);
            java.time.Instant soon = java.time.Instant.now().plus(Duration.ofDays(2)).truncatedTo(
                    java.time.temporal.ChronoUnit.SECONDS);
            String body = "{\"type\":\"linkedin\",\"authorUrn\":\"" + author + "\",\"accessToken\":\"%s\","
                    + "\"scopes\":[\"w_member_social\"],\"accessTokenExpiresAt\":\"%s\"}";
            assertThat(send("PUT", channels + "/li", body.formatted("tok-a", far)).status()).isEqualTo(201);
            awaitJson(channels, list -> list.size() == 1 && far.toString().equals(
                    list.get(0).path("tokenExpiresAt").asText()));
            assertThat(send("PUT", channels + "/li", body.formatted("tok-b", soon)).status()).isEqualTo(200);
            eventually("the warning", () -> receiver.received().size() == 1);
            // the same expiry again, and a sweep, warn no more
            assertThat(send("PUT", channels + "/li", body.formatted("tok-b", soon)).status()).isEqualTo(200);
            assertThat(send("PUT", channels + "/li", body.formatted("tok-b", soon)).status()).isEqualTo(200);
            java.time.Instant sooner = soon.minus(Duration.ofHours(1));
            assertThat(send("PUT", channels + "/li", body.formatted("tok-c", sooner)).status()).isEqualTo(200);
            eventually("the new token's warning", () -> receiver.received().size() == 2);
            Thread.sleep(1_000);
            assertThat(receiver.received()).hasSize(2);
            JsonNode first = json.readTree(receiver.received().get(0).body());
            assertThat(first.get("type").asText()).isEqualTo("channel.token_expiring");
            assertThat(first.at("/data/channelId").asText()).isEqualTo("li");
            assertThat(first.at("/data/tokenExpiresAt").asText()).isEqualTo(soon.toString());
            assertThat(json.readTree(receiver.received().get(1).body()).at("/data/tokenExpiresAt").asText())
                    .isEqualTo(sooner.toString());
            assertThat(receiver.received()).allSatisfy(r -> assertThat(r.body()).doesNotContain("tok-"));
            assertThat(eventTypes("chn_" + ws + "/li")).filteredOn("ChannelTokenExpiringEvent"::equals).hasSize(2);

            // as time passes, the sweep warns of an expiry that entered the window (its clock 25 days on)
            java.time.Instant later = far.plus(Duration.ofDays(1));
            assertThat(send("PUT", channels + "/li", body.formatted("tok-d", later)).status()).isEqualTo(200);
            awaitJson(channels, list -> later.toString().equals(list.get(0).path("tokenExpiresAt").asText()));
            TokenExpiryWarnings inTwentyFiveDays = new TokenExpiryWarnings(jdbc, commands,
                    new ConnectionHealthProperties(Duration.ofDays(7), Duration.ofMinutes(10), Duration.ofDays(60),
                            Duration.ofDays(7), Duration.ofHours(1)),
                    java.time.Clock.offset(java.time.Clock.systemUTC(), Duration.ofDays(25)));
            assertThat(receiver.received()).hasSize(2);
            assertThat(inTwentyFiveDays.sweep()).isPositive();
            assertThat(inTwentyFiveDays.sweep()).as("warned once").isZero();
            eventually("the swept warning", () -> receiver.received().size() == 3);
            assertThat(json.readTree(receiver.received().get(2).body()).at("/data/tokenExpiresAt").asText())
                    .isEqualTo(later.toString());
        } finally {
            receiver.stop();
        }
    }

    private void run(Provider provider, String lapseKind, String reasonMentions) throws Exception {
        String ws = newWorkspace("health-" + provider.name());
        String channels = "/api/v1/workspaces/" + ws + "/channels";
        String publications = "/api/v1/workspaces/" + ws + "/publications";
        WebhookReceiver receiver = new WebhookReceiver();
        receiver.start();
        try {
            Response hook = send("PUT", "/api/v1/workspaces/" + ws + "/webhooks/calendar",
                    "{\"url\":\"" + receiver.url("/hooks") + "\",\"events\":[\"*\"]}");
            assertThat(hook.status()).as(hook.toString()).isEqualTo(201);
            String secret = hook.json().get("secret").asText();
            eventually("the subscription reaches the projection", () -> jdbc.queryForObject(
                    "SELECT count(*) FROM webhook_subscription_view WHERE workspace_id = ?", Long.class, ws) == 1);
            Response put = send("PUT", channels + "/ch", provider.connectBody());
            assertThat(put.status()).as(put.toString()).isEqualTo(201);
            JsonNode active = awaitJson(channels, list -> list.size() == 1).get(0);
            assertThat(active.get("status").asText()).isEqualTo("ACTIVE");
            assertThat(active.get("heldPublications").asInt()).isZero();

            // the credentials make two more posts, then lapse: in the middle of a batch of five
            sandbox("POST", "/lapses", "{\"provider\":\"" + provider.name() + "\",\"credential\":\""
                    + provider.credential() + "\",\"afterPosts\":" + POSTS_BEFORE_LAPSE + ",\"kind\":\""
                    + lapseKind + "\"}");
            Map<String, String> textById = new LinkedHashMap<>();
            for (int i = 0; i < BATCH; i++) {
                textById.put(publish(publications, "batch-" + i, provider.name() + " batch post " + i),
                        provider.name() + " batch post " + i);
            }
            eventually("two published, three held", () -> count(publications, textById, "SUCCEEDED")
                    == POSTS_BEFORE_LAPSE && count(publications, textById, "HELD") == BATCH - POSTS_BEFORE_LAPSE);
            JsonNode lost = awaitJson(channels, list -> list.get(0).get("status").asText().equals("NEEDS_REAUTH")
                    && list.get(0).get("heldPublications").asInt() == BATCH - POSTS_BEFORE_LAPSE).get(0);
            assertThat(lost.get("statusReason").asText()).contains(reasonMentions);
            assertThat(lost.toString()).doesNotContain(provider.credential());
            // the call that met the lapsed credentials is a refused attempt; a publication of the batch that
            // was not yet started when the connection turned NEEDS_REAUTH is held before any call
            int refusedCalls = 0;
            for (String id : textById.keySet()) {
                JsonNode view = send("GET", publications + "/" + id, null).json();
                if (view.get("status").asText().equals("HELD")) {
                    assertThat(view.get("heldReason").asText()).startsWith("the connection needs new credentials: ");
                    assertThat(view.get("needsDecision").asBoolean()).isFalse();
                    assertThat(view.get("attempts").size()).isLessThanOrEqualTo(1);
                    if (view.get("attempts").size() == 1) {
                        assertThat(view.get("attempts").get(0).get("outcome").asText()).isEqualTo("FAILED");
                        refusedCalls++;
                    }
                }
            }
            assertThat(refusedCalls).as("the provider refused at least the first call after the lapse")
                    .isGreaterThanOrEqualTo(1);
            assertThat(sandboxTruth(provider.name(), provider.target())).hasSize(POSTS_BEFORE_LAPSE);

            // publications due from now on are held before any call: no attempt, so no request
            List<String> dueLater = new ArrayList<>();
            for (int i = 0; i < DUE_LATER; i++) {
                String text = provider.name() + " later post " + i;
                String id = publish(publications, "later-" + i, text);
                textById.put(id, text);
                dueLater.add(id);
            }
            for (String id : dueLater) {
                JsonNode held = awaitJson(publications + "/" + id, v -> v.get("status").asText().equals("HELD"));
                assertThat(held.get("attempts")).as("held before any call").isEmpty();
                assertThat(held.get("heldReason").asText()).contains(reasonMentions);
                assertThat(eventTypes(id)).containsExactly("PublicationRequestedEvent", "PublicationHeldEvent");
            }
            Response heldList = send("GET", publications + "?status=HELD&channelId=ch", null);
            assertThat(heldList.status()).isEqualTo(200);
            assertThat(heldList.json().get("items")).hasSize(BATCH - POSTS_BEFORE_LAPSE + DUE_LATER);
            awaitJson(channels, list -> list.get(0).get("heldPublications").asInt()
                    == BATCH - POSTS_BEFORE_LAPSE + DUE_LATER);
            assertThat(sandboxTruth(provider.name(), provider.target())).hasSize(POSTS_BEFORE_LAPSE);

            // new credentials that pass the probe: ACTIVE again, every held publication resumes
            provider.registerNew().run();
            Response reconnected = send("PUT", channels + "/ch", provider.reconnectBody());
            assertThat(reconnected.status()).as(reconnected.toString()).isEqualTo(200);
            eventually("every publication published", () -> count(publications, textById, "SUCCEEDED")
                    == textById.size());
            JsonNode again = awaitJson(channels, list -> list.get(0).get("status").asText().equals("ACTIVE")
                    && list.get(0).get("heldPublications").asInt() == 0).get(0);
            assertThat(again.get("statusReason").isNull()).isTrue();

            // each published once: the provider holds exactly one post per publication
            List<String> posted = new ArrayList<>();
            sandboxTruth(provider.name(), provider.target()).forEach(p -> posted.add(p.path("text").asText()));
            assertThat(posted).hasSize(textById.size());
            for (String text : textById.values()) {
                assertThat(posted).as(text).filteredOn(p -> p.contains(text)).hasSize(1);
            }
            // the held ones resume oldest first: their releases are on record in the order of their requests
            List<String> released = jdbc.queryForList("""
                    SELECT aggregate_identifier FROM domain_event_entry
                     WHERE payload_type LIKE '%PublicationReleasedEvent' AND aggregate_identifier = ANY(?)
                     ORDER BY global_index""", String.class,
                    (Object) textById.keySet().toArray(String[]::new));
            List<String> heldInRequestOrder = new ArrayList<>(textById.keySet()).stream()
                    .filter(released::contains).toList();
            assertThat(released).hasSize(BATCH - POSTS_BEFORE_LAPSE + DUE_LATER)
                    .containsExactlyElementsOf(heldInRequestOrder);

            // the history an auditor replays: the connection lost and regained its credentials
            String connection = "chn_" + ws + "/ch";
            List<String> connectionEvents = eventTypes(connection);
            assertThat(connectionEvents).containsSubsequence("ChannelConnectionConfiguredEvent",
                    "ChannelAuthLostEvent", "ChannelConnectionConfiguredEvent", "ChannelAuthRegainedEvent");
            assertThat(connectionEvents).filteredOn("ChannelAuthLostEvent"::equals).hasSize(1);
            assertThat(jdbc.queryForList("SELECT convert_from(payload, 'UTF8') FROM domain_event_entry"
                    + " WHERE aggregate_identifier = ?", String.class, connection))
                    .allSatisfy(payload -> assertThat(payload).doesNotContain(provider.credential())
                            .doesNotContain(provider.newCredential()));

            // the calendar was told: channel.needs_reauth, publication.held for each, channel.reauthorized
            eventually("the channel deliveries", () -> types(receiver).contains("channel.reauthorized"));
            eventually("the held deliveries", () -> types(receiver).stream().filter("publication.held"::equals)
                    .count() >= BATCH - POSTS_BEFORE_LAPSE + DUE_LATER);
            Map<String, WebhookReceiver.Received> once = new LinkedHashMap<>();
            for (WebhookReceiver.Received r : receiver.received()) {
                new Webhook(secret).verify(r.body(), Map.of("webhook-id", List.of(r.id()),
                        "webhook-timestamp", List.of(r.timestamp()), "webhook-signature", List.of(r.signature())));
                assertThat(r.body()).doesNotContain(provider.credential()).doesNotContain(provider.newCredential());
                once.putIfAbsent(r.id(), r);
            }
            List<JsonNode> channelEvents = new ArrayList<>();
            for (WebhookReceiver.Received r : once.values()) {
                JsonNode body = json.readTree(r.body());
                if (body.get("type").asText().startsWith("channel.")) {
                    channelEvents.add(body);
                }
            }
            assertThat(channelEvents).extracting(b -> b.get("type").asText())
                    .containsExactly("channel.needs_reauth", "channel.reauthorized");
            assertThat(channelEvents.get(0).at("/data/channelId").asText()).isEqualTo("ch");
            assertThat(channelEvents.get(0).at("/data/status").asText()).isEqualTo("NEEDS_REAUTH");
            assertThat(channelEvents.get(0).at("/data/statusReason").asText()).contains(reasonMentions);
            assertThat(channelEvents.get(1).at("/data/status").asText()).isEqualTo("ACTIVE");
        } finally {
            receiver.stop();
        }
    }

    private String publish(String publications, String entry, String text) {
        Response r = send("POST", publications, """
                {"calendarEntryId":"%s","contentVersion":1,"channelId":"ch","action":"publish",
                 "content":{"title":"%s","body":"%s"}}""".formatted(entry, text, text));
        assertThat(r.status()).as(r.toString()).isEqualTo(202);
        return r.json().get("publicationId").asText();
    }

    private long count(String publications, Map<String, String> ids, String status) {
        return ids.keySet().stream().filter(id -> status.equals(send("GET", publications + "/" + id, null).json()
                .path("status").asText())).count();
    }

    private List<String> eventTypes(String aggregateId) {
        return jdbc.queryForList("SELECT payload_type FROM domain_event_entry WHERE aggregate_identifier = ?"
                + " ORDER BY sequence_number", String.class, aggregateId).stream()
                .map(type -> type.replaceAll(".*\\.", "")).toList();
    }

    private List<String> types(WebhookReceiver receiver) {
        List<String> types = new ArrayList<>();
        for (WebhookReceiver.Received r : receiver.received()) {
            try {
                types.add(json.readTree(r.body()).get("type").asText());
            } catch (java.io.IOException e) {
                throw new IllegalStateException(e);
            }
        }
        return types;
    }
}
