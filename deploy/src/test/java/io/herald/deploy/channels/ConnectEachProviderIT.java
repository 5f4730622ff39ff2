package io.herald.deploy.channels;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.deploy.HeraldIntegrationTest;
import io.herald.sandbox.SandboxDemo;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.EnumSource.Mode;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * Every channel type that connects through its provider's OAuth, against the sandbox, the
 * browser's part played by the test: connect, choose where the grant allows several, the probed
 * connection ACTIVE and publishing; a revoked token's channel (NEEDS_REAUTH) reconnected through the
 * same flow resumes its held publications; a declined consent, a failed exchange (the code, or
 * Instagram's and Threads' long-lived token exchange) and a replayed, expired, forged or other
 * type's state store nothing; LinkedIn's organization choice; Instagram's and Threads' long-lived
 * token stored with its expiry; and no client secret, code or token the sandbox handed out in the
 * logs, the store, the views or the redirects.
 */
class ConnectEachProviderIT extends HeraldIntegrationTest {

    private static final HttpClient BROWSER = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private static final String ORGANIZATION = "urn:li:organization:5515715";
    private static final AtomicInteger IMAGES = new AtomicInteger();

    /** What differs between the providers; the test flow is the same for each. */
    enum Provider {
        FACEBOOK("facebook", "100200300400600", "/facebook/login", "authorization code has been used"),
        LINKEDIN("linkedin", null, "/linkedin/login", "Unable to retrieve access token"),
        MASTODON("mastodon", null, "/mastodon/login", "authorization grant is invalid"),
        INSTAGRAM("instagram", null, "/instagram/login", "Matching code was not found or was already used"),
        THREADS("threads", null, "/threads/login", "Invalid verification code format");

        final String type;
        /** The choice the test makes when the grant allows several (null: one connection, stored at once). */
        final String choice;
        final String consentSwitch;
        /** Part of the provider's own reason when it refuses a code. */
        final String exchangeRefusal;

        Provider(String type, String choice, String consentSwitch, String exchangeRefusal) {
            this.type = type;
            this.choice = choice;
            this.consentSwitch = consentSwitch;
            this.exchangeRefusal = exchangeRefusal;
        }
    }

    @ParameterizedTest
    @EnumSource(Provider.class)
    void aChannelConnectsThroughItsProviderIsProbedActiveAndPublishes(Provider provider) throws Exception {
        String ws = newWorkspace("oauth-" + provider.type);
        JsonNode connection = connect(ws, "ch", provider);
        assertThat(connection.get("type").asText()).isEqualTo(provider.type);
        assertThat(connection.get("capabilities").get("publish").get("available").asBoolean())
                .as(connection.toString()).isTrue();
        awaitJson(channels(ws), v -> v.path(0).path("status").asText().equals("ACTIVE"));
        String publication = publish(ws, "ch", provider, "entry-" + provider.type,
                "Connected through " + provider.type + " in " + ws);
        awaitJson(publication, v -> v.get("status").asText().equals("SUCCEEDED"));
        assertThat(stored(ws)).isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(Provider.class)
    void aRevokedTokensChannelReconnectedThroughItsProviderResumesItsHeldPublications(Provider provider)
            throws Exception {
        String ws = newWorkspace("oauth-revoked-" + provider.type);
        int before = issued(provider).size();
        JsonNode connection = connect(ws, "ch", provider);
        revoke(provider, connection, issued(provider).subList(before, issued(provider).size()));

        String publication = publish(ws, "ch", provider, "entry-held-" + provider.type,
                "Held until " + ws + " reconnects");
        awaitJson(publication, v -> v.get("status").asText().equals("HELD"));
        awaitJson(channels(ws), v -> v.path(0).path("status").asText().equals("NEEDS_REAUTH")
                && v.get(0).get("heldPublications").asInt() == 1);

        JsonNode reconnected = connect(ws, "ch", provider);
        assertThat(reconnected.get("capabilities").get("publish").get("available").asBoolean())
                .as(reconnected.toString()).isTrue();
        awaitJson(publication, v -> v.get("status").asText().equals("SUCCEEDED"));
        awaitJson(channels(ws), v -> v.path(0).path("status").asText().equals("ACTIVE")
                && v.get(0).get("heldPublications").asInt() == 0);
    }

    @ParameterizedTest
    @EnumSource(Provider.class)
    void aDeclinedConsentStoresNothingAndSaysTheUserDeclined(Provider provider) throws Exception {
        String ws = newWorkspace("oauth-declined-" + provider.type);
        sandbox("POST", provider.consentSwitch, "{\"declines\":true}");
        try {
            URI declined = authorize(start(ws, "ch", provider));
            assertThat(declined.getRawQuery()).contains("error=").doesNotContainPattern("(^|&)code=");
            Response answer = browse(declined);
            assertThat(answer.status()).as(answer.toString()).isEqualTo(422);
            assertThat(answer.json().get("code").asText()).isEqualTo("oauth_failed");
            assertThat(answer.json().get("detail").asText()).contains("declined");

            // the admin's browser is sent back to the console, which says the user declined
            Response page = sendAs(null, "GET", pathAndQuery(authorize(start(ws, "ch", provider))), null, null,
                    Map.of("Accept", "text/html"));
            assertThat(page.status()).as(page.toString()).isEqualTo(303);
            JsonNode shown = fragment(page.location());
            assertThat(shown.get("error").asText()).isEqualTo("oauth_failed");
            assertThat(shown.get("detail").asText()).contains("declined");
            assertThat(page.location()).startsWith("/console?ws=" + ws + "#connect=");
            assertThat(shown.get("workspace").asText()).isEqualTo(ws);
            assertThat(shown.get("channelId").asText()).isEqualTo("ch");
        } finally {
            sandbox("POST", provider.consentSwitch, "{\"declines\":false}");
        }
        assertThat(stored(ws)).isZero();
        assertThat(waitingStates(ws)).isZero();
    }

    @ParameterizedTest
    @EnumSource(Provider.class)
    void aReplayedExpiredForgedOrOtherTypesStateIsRefusedAndStoresNothing(Provider provider) throws Exception {
        String ws = newWorkspace("oauth-state-" + provider.type);
        String other = newWorkspace("oauth-state-other-" + provider.type);

        // expired: the provider approved, but the state no longer holds
        URI expired = authorize(start(ws, "ch", provider));
        jdbc.update("UPDATE oauth_connect_state SET expires_at = now() - interval '1 second' WHERE workspace_id = ?",
                ws);
        assertStateInvalid(browse(expired));

        // another workspace's signature on this workspace's state: not this workspace's
        URI mine = authorize(start(ws, "ch", provider));
        String theirs = state(authorize(start(other, "ch", provider)));
        String mineState = state(mine);
        assertStateInvalid(browse(withState(mine, mineState.substring(0, mineState.indexOf('.'))
                + theirs.substring(theirs.indexOf('.')))));
        // the state of another channel type's callback
        Provider otherType = provider == Provider.FACEBOOK ? Provider.LINKEDIN : Provider.FACEBOOK;
        assertStateInvalid(sendAs(null, "GET", "/oauth/callback/" + otherType.type + "?" + mine.getRawQuery(), null,
                null, Map.of("Accept", "application/json")));
        assertThat(stored(ws)).isZero();

        // replayed: the first return is taken, the same one again is refused and stores nothing more
        Response first = browse(mine);
        assertThat(first.status()).as(first.toString()).isEqualTo(200);
        long events = eventsOf(ws);
        assertStateInvalid(browse(mine));
        assertThat(eventsOf(ws)).isEqualTo(events);
        assertThat(stored(other)).isZero();
    }

    @ParameterizedTest
    @EnumSource(Provider.class)
    void anExchangeTheProviderRefusesGivesItsReasonAndStoresNothing(Provider provider) throws Exception {
        String ws = newWorkspace("oauth-exchange-" + provider.type);
        URI approved = authorize(start(ws, "ch", provider));
        URI forgedCode = URI.create(approved.getScheme() + "://" + approved.getRawAuthority() + approved.getRawPath()
                + "?code=not-the-code-" + provider.type + "&state=" + state(approved));
        Response refused = browse(forgedCode);
        assertThat(refused.status()).as(refused.toString()).isEqualTo(422);
        assertThat(refused.json().get("code").asText()).isEqualTo("oauth_failed");
        assertThat(refused.json().get("detail").asText()).contains(provider.exchangeRefusal)
                .doesNotContain("not-the-code");
        assertThat(stored(ws)).isZero();
        // the state was used by the failed exchange
        assertStateInvalid(browse(approved));
        assertThat(stored(ws)).isZero();
    }

    @ParameterizedTest
    @EnumSource(value = Provider.class, names = {"INSTAGRAM", "THREADS"}, mode = Mode.INCLUDE)
    void aLongLivedTokenExchangeTheProviderRefusesGivesItsReasonAndStoresNothing(Provider provider)
            throws Exception {
        String ws = newWorkspace("oauth-long-lived-" + provider.type);
        URI approved = authorize(start(ws, "ch", provider));
        sandbox("POST", provider.consentSwitch, "{\"refusesExchange\":true}");
        Response refused;
        try {
            refused = browse(approved);
        } finally {
            sandbox("POST", provider.consentSwitch, "{\"refusesExchange\":false}");
        }
        assertThat(refused.status()).as(refused.toString()).isEqualTo(422);
        assertThat(refused.json().get("code").asText()).isEqualTo("oauth_failed");
        assertThat(refused.json().get("detail").asText()).contains("long-lived token exchange was refused")
                .contains("Application does not have permission");
        assertThat(stored(ws)).isZero();
        assertThat(waitingStates(ws)).isZero();
        assertStateInvalid(browse(approved));
        assertThat(stored(ws)).isZero();
    }

    @ParameterizedTest
    @EnumSource(value = Provider.class, names = {"INSTAGRAM", "THREADS"}, mode = Mode.INCLUDE)
    void aLongLivedTokenIsStoredWithItsExpirySoHeraldRefreshesIt(Provider provider) throws Exception {
        String ws = newWorkspace("oauth-expiry-" + provider.type);
        JsonNode connection = connect(ws, "ch", provider);
        String user = provider == Provider.INSTAGRAM ? connection.get("settings").get("igUserId").asText()
                : connection.get("settings").get("threadsUserId").asText();
        assertThat(user).isEqualTo(provider == Provider.INSTAGRAM ? SandboxDemo.INSTAGRAM_USER_ID
                : SandboxDemo.THREADS_USER_ID);
        JsonNode listed = awaitJson(channels(ws), v -> v.path(0).hasNonNull("tokenExpiresAt"));
        Instant expires = Instant.parse(listed.get(0).get("tokenExpiresAt").asText());
        // the long-lived token's 60 days, not the short-lived token's hour
        assertThat(expires).isAfter(Instant.now().plus(Duration.ofDays(50)))
                .isBefore(Instant.now().plus(Duration.ofDays(61)));
    }

    @Test
    void aLinkedInOrganizationTheMemberAdministersIsChosenAndPublishesAsTheOrganization() throws Exception {
        String ws = newWorkspace("oauth-li-organization");
        sandbox("POST", "/linkedin/login", "{\"organizations\":[\"" + ORGANIZATION + "\"]}");
        try {
            Response choices = browse(authorize(start(ws, "li", Provider.LINKEDIN)));
            assertThat(choices.status()).as(choices.toString()).isEqualTo(200);
            assertThat(choices.json().get("choices").findValuesAsText("kind"))
                    .containsExactly("member", "organization");
            assertThat(choices.json().get("choices").findValuesAsText("id"))
                    .containsExactly("urn:li:person:demo-reader", ORGANIZATION);
            assertThat(choices.body()).doesNotContain("AQV");
            assertThat(stored(ws)).isZero();

            Response chosen = send("POST", channel(ws, "li") + "/connect/choice",
                    "{\"state\":\"" + choices.json().get("state").asText() + "\",\"id\":\"" + ORGANIZATION + "\"}");
            assertThat(chosen.status()).as(chosen.toString()).isEqualTo(200);
            JsonNode connection = chosen.json().get("connection");
            assertThat(connection.get("settings").get("authorUrn").asText()).isEqualTo(ORGANIZATION);
            assertThat(connection.get("capabilities").get("publish").get("available").asBoolean())
                    .as(chosen.toString()).isTrue();
            String publication = publish(ws, "li", Provider.LINKEDIN, "entry-organization",
                    "Posted as the organization in " + ws);
            awaitJson(publication, v -> v.get("status").asText().equals("SUCCEEDED"));
            assertThat(sandboxTruth("linkedin", ORGANIZATION).findValuesAsText("text"))
                    .contains("Posted as the organization in " + ws);
        } finally {
            sandbox("POST", "/linkedin/login", "{\"organizations\":[]}");
        }
    }

    @Test
    @ExtendWith(OutputCaptureExtension.class)
    void noClientSecretCodeOrTokenReachesTheLogsTheEventsTheViewsOrTheRedirects(CapturedOutput output)
            throws Exception {
        String ws = newWorkspace("oauth-secrets");
        Map<Provider, Integer> before = new LinkedHashMap<>();
        for (Provider provider : Provider.values()) {
            before.put(provider, issued(provider).size());
        }
        List<String> answers = new ArrayList<>();
        for (Provider provider : Provider.values()) {
            String channel = provider.type + "-secrets";
            // through the API's JSON, and through the admin's browser sent back to the console
            answers.add(connect(ws, channel, provider).toString());
            Response page = sendAs(null, "GET", pathAndQuery(authorize(start(ws, channel, provider))), null, null,
                    Map.of("Accept", "text/html"));
            assertThat(page.status()).as(page.toString()).isEqualTo(303);
            answers.add(page.location());
            JsonNode shown = fragment(page.location());
            if (shown.has("state")) {
                Response chosen = send("POST", channel(ws, channel) + "/connect/choice",
                        "{\"state\":\"" + shown.get("state").asText() + "\",\"id\":\"" + provider.choice + "\"}");
                assertThat(chosen.status()).as(chosen.toString()).isEqualTo(200);
                answers.add(chosen.body());
            } else {
                assertThat(shown.get("connected").asBoolean()).as(shown.toString()).isTrue();
            }
        }
        JsonNode listed = awaitJson(channels(ws), v -> v.size() == Provider.values().length
                && v.findValuesAsText("status").stream().allMatch("ACTIVE"::equals));
        answers.add(listed.toString());

        Map<String, String> secrets = new LinkedHashMap<>();
        for (Provider provider : Provider.values()) {
            List<JsonNode> all = issued(provider);
            for (int i = 0; i < all.size(); i++) {
                JsonNode value = all.get(i);
                // every client secret, and the codes and tokens handed out during this test
                if (value.get("kind").asText().equals("client_secret") || i >= before.get(provider)) {
                    secrets.put(provider.type + " " + value.get("kind").asText() + " #" + i,
                            value.get("value").asText());
                }
            }
        }
        assertThat(secrets.keySet()).anyMatch(k -> k.startsWith("facebook code"))
                .anyMatch(k -> k.startsWith("facebook token")).anyMatch(k -> k.startsWith("linkedin token"))
                .anyMatch(k -> k.startsWith("mastodon token")).anyMatch(k -> k.startsWith("mastodon client_secret"))
                .anyMatch(k -> k.startsWith("instagram code")).anyMatch(k -> k.startsWith("instagram token"))
                .anyMatch(k -> k.startsWith("instagram client_secret")).anyMatch(k -> k.startsWith("threads code"))
                .anyMatch(k -> k.startsWith("threads token")).anyMatch(k -> k.startsWith("threads client_secret"));

        List<String> events = jdbc.queryForList("""
                SELECT convert_from(payload, 'UTF8') || coalesce(convert_from(meta_data, 'UTF8'), '')
                FROM domain_event_entry WHERE aggregate_identifier LIKE '%' || ? || '%'""", String.class, ws);
        assertThat(events).isNotEmpty();
        List<String> columns = jdbc.queryForList("""
                SELECT table_name || '.' || column_name || ':' || data_type FROM information_schema.columns
                 WHERE table_schema = current_schema()
                   AND data_type IN ('bytea', 'text', 'character varying', 'jsonb', 'json')
                 ORDER BY 1""", String.class);
        String log = output.getAll();
        List<String> found = new ArrayList<>();
        for (Map.Entry<String, String> secret : secrets.entrySet()) {
            String value = secret.getValue();
            if (log.contains(value)) {
                found.add(secret.getKey() + " in the log output");
            }
            if (events.stream().anyMatch(e -> e.contains(value))) {
                found.add(secret.getKey() + " in an event");
            }
            if (answers.stream().anyMatch(a -> a.contains(value) || decodedFragment(a).contains(value))) {
                found.add(secret.getKey() + " in an answer or redirect");
            }
            for (String column : columns) {
                String table = column.substring(0, column.indexOf('.'));
                String name = column.substring(column.indexOf('.') + 1, column.indexOf(':'));
                String condition = column.endsWith(":bytea") ? "position(convert_to(?, 'UTF8') in \"" + name + "\") > 0"
                        : "\"" + name + "\"::text LIKE '%' || ? || '%'";
                if (jdbc.queryForObject("SELECT count(*) FROM \"" + table + "\" WHERE " + condition, Long.class,
                        value) > 0) {
                    found.add(secret.getKey() + " in " + column);
                }
            }
        }
        assertThat(log).contains("connected through facebook").contains("connected through linkedin")
                .contains("connected through mastodon").contains("connected through instagram")
                .contains("connected through threads");
        assertThat(found).as("%d values, %d events, %d answers, %d columns, %d log characters", secrets.size(),
                events.size(), answers.size(), columns.size(), log.length()).isEmpty();
    }

    // ---- the flow, as the admin's browser and the console make it ------------------------------------

    /** Connects the channel through the provider, choosing where the grant allows several: the stored connection. */
    private JsonNode connect(String ws, String channel, Provider provider) throws Exception {
        Response answer = browse(authorize(start(ws, channel, provider)));
        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        if (provider.choice == null) {
            assertThat(answer.json().has("choices")).as(answer.toString()).isFalse();
            return answer.json().get("connection");
        }
        assertThat(answer.json().get("choices").findValuesAsText("id")).contains(provider.choice);
        Response chosen = send("POST", channel(ws, channel) + "/connect/choice",
                "{\"state\":\"" + answer.json().get("state").asText() + "\",\"id\":\"" + provider.choice + "\"}");
        assertThat(chosen.status()).as(chosen.toString()).isEqualTo(200);
        return chosen.json().get("connection");
    }

    private String start(String ws, String channel, Provider provider) {
        String body = provider == Provider.MASTODON
                ? "{\"type\":\"mastodon\",\"instanceUrl\":\"http://localhost:" + port + "/sandbox/mastodon\"}"
                : "{\"type\":\"" + provider.type + "\"}";
        Response started = send("POST", channel(ws, channel) + "/connect", body);
        assertThat(started.status()).as(started.toString()).isEqualTo(200);
        return started.json().get("authorizeUrl").asText();
    }

    /** The token stops working at the provider, as when the user revokes Herald's access. */
    private void revoke(Provider provider, JsonNode connection, List<JsonNode> issuedDuringConnect) {
        if (provider == Provider.MASTODON) {
            sandbox("POST", "/mastodon/accounts/" + connection.get("settings").get("accountId").asText() + "/revoke",
                    null);
            return;
        }
        List<String> tokens = issuedDuringConnect.stream().filter(v -> v.get("kind").asText().equals("token"))
                .map(v -> v.get("value").asText()).toList();
        assertThat(tokens).isNotEmpty();
        if (provider == Provider.THREADS) {
            tokens.forEach(token -> sandbox("POST", "/threads/tokens/revoke", "{\"token\":\"" + token + "\"}"));
            return;
        }
        tokens.forEach(token -> sandbox("POST", "/lapses", "{\"provider\":\"" + provider.type + "\",\"credential\":\""
                + token + "\",\"afterPosts\":0,\"kind\":\"REVOKED\"}"));
    }

    private List<JsonNode> issued(Provider provider) {
        Response list = send("GET", "/sandbox/_admin/oauth/issued?provider=" + provider.type, null, null);
        assertThat(list.status()).as(list.toString()).isEqualTo(200);
        List<JsonNode> values = new ArrayList<>();
        list.json().get("issued").forEach(values::add);
        return values;
    }

    /** A publication of {@code body}, with an image where the provider needs one (Instagram). */
    private String publish(String ws, String channel, Provider provider, String entry, String body) {
        String media = provider == Provider.INSTAGRAM ? ",\"media\":[{\"mediaId\":\"" + upload(ws)
                + "\",\"altText\":\"a square\"}]" : "";
        Response published = send("POST", "/api/v1/workspaces/" + ws + "/publications", "{\"calendarEntryId\":\""
                + entry + "\",\"contentVersion\":1,\"channelId\":\"" + channel + "\",\"action\":\"publish\","
                + "\"content\":{\"body\":\"" + body + "\"" + media + "}}");
        assertThat(published.status()).as(published.toString()).isEqualTo(202);
        return "/api/v1/workspaces/" + ws + "/publications/" + published.json().get("publicationId").asText();
    }

    /** A small JPEG uploaded to the workspace: its media id. */
    private String upload(String ws) {
        BufferedImage image = new BufferedImage(40, 30, BufferedImage.TYPE_INT_RGB);
        image.setRGB(IMAGES.incrementAndGet() % 40, 3, 0xcc2233);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            ImageIO.write(image, "jpg", out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Response uploaded = sendBytesAs(keyFor("/api/v1/workspaces/" + ws), "POST", "/api/v1/workspaces/" + ws
                + "/media", out.toByteArray(), "image/jpeg", Map.of());
        assertThat(uploaded.status()).as(uploaded.toString()).isIn(200, 201);
        return uploaded.json().get("mediaId").asText();
    }

    /** The provider's page, approving or declining: where it sends the browser back (its fragment dropped). */
    private static URI authorize(String authorizeUrl) throws Exception {
        HttpResponse<String> page = BROWSER.send(HttpRequest.newBuilder(URI.create(authorizeUrl)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(page.statusCode()).as(page.body()).isEqualTo(302);
        String location = page.headers().firstValue("Location").orElseThrow();
        int fragment = location.indexOf('#');
        return URI.create(fragment < 0 ? location : location.substring(0, fragment));
    }

    /** An API client arriving at Herald's callback: no key, JSON. */
    private Response browse(URI callback) {
        return sendAs(null, "GET", pathAndQuery(callback), null, null, Map.of("Accept", "application/json"));
    }

    private static String pathAndQuery(URI uri) {
        return uri.getRawPath() + "?" + uri.getRawQuery();
    }

    private static String state(URI callback) {
        return Stream.of(callback.getRawQuery().split("&")).filter(p -> p.startsWith("state="))
                .map(p -> URLDecoder.decode(p.substring("state=".length()), StandardCharsets.UTF_8)).findFirst()
                .orElseThrow();
    }

    private static URI withState(URI callback, String state) {
        String query = Stream.of(callback.getRawQuery().split("&")).filter(p -> !p.startsWith("state="))
                .reduce("state=" + java.net.URLEncoder.encode(state, StandardCharsets.UTF_8), (a, b) -> a + "&" + b);
        return URI.create(callback.getScheme() + "://" + callback.getRawAuthority() + callback.getRawPath() + "?"
                + query);
    }

    /** What the console reads from the address the browser is sent back to. */
    private JsonNode fragment(String location) throws Exception {
        assertThat(location).startsWith("/console").contains("#connect=");
        return json.readTree(decodedFragment(location));
    }

    private static String decodedFragment(String text) {
        int at = text.indexOf("#connect=");
        if (at < 0) {
            return "";
        }
        return new String(Base64.getUrlDecoder().decode(text.substring(at + "#connect=".length())),
                StandardCharsets.UTF_8);
    }

    private static void assertStateInvalid(Response answer) {
        assertThat(answer.status()).as(answer.toString()).isEqualTo(400);
        assertThat(answer.json().get("code").asText()).isEqualTo("oauth_state_invalid");
    }

    private long stored(String ws) {
        return jdbc.queryForObject("SELECT count(*) FROM channel_connection WHERE workspace_id = ?", Long.class, ws);
    }

    private long waitingStates(String ws) {
        return jdbc.queryForObject("SELECT count(*) FROM oauth_connect_state WHERE workspace_id = ?"
                + " AND stage <> 'DONE'", Long.class, ws);
    }

    private long eventsOf(String ws) {
        return jdbc.queryForObject("SELECT count(*) FROM domain_event_entry WHERE aggregate_identifier LIKE '%' || ? || '%'",
                Long.class, ws);
    }

    private static String channels(String ws) {
        return "/api/v1/workspaces/" + ws + "/channels";
    }

    private static String channel(String ws, String channel) {
        return channels(ws) + "/" + channel;
    }
}
