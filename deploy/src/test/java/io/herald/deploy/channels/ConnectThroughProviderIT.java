package io.herald.deploy.channels;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.deploy.HeraldIntegrationTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Connecting channels through their providers against the sandbox, the browser's part played by
 * the test: connect, follow the authorize redirect, the callback (no key), the choice, and the
 * stored connection probed as a PUT would make it, with no token in any answer, event or row in the
 * clear; a choice with another workspace's or another admin key's state refused; Mastodon registers
 * Herald once per instance. What every OAuth channel type does alike (publish, reconnect, declined
 * consent, refused states and exchanges, no secret anywhere) is {@link ConnectEachProviderIT}.
 */
class ConnectThroughProviderIT extends HeraldIntegrationTest {

    private static final HttpClient BROWSER = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private static final String SECOND_PAGE = "100200300400600";

    @Test
    void aFacebookPageConnectsThroughFacebookLoginAndPublishes() throws Exception {
        String ws = newWorkspace("fb-oauth");
        Response started = send("POST", channel(ws, "fb") + "/connect", "{\"type\":\"facebook\"}");
        assertThat(started.status()).as(started.toString()).isEqualTo(200);
        String authorizeUrl = started.json().get("authorizeUrl").asText();
        assertThat(authorizeUrl).contains("/dialog/oauth").contains("code_challenge=").contains("S256")
                .contains("redirect_uri=" + java.net.URLEncoder.encode("http://localhost:" + port
                        + "/oauth/callback/facebook", StandardCharsets.UTF_8));
        assertThat(started.json().get("expiresAt").asText()).isNotBlank();

        URI callback = authorize(authorizeUrl);
        Response choices = browse(callback);
        assertThat(choices.status()).as(choices.toString()).isEqualTo(200);
        String state = choices.json().get("state").asText();
        assertThat(choices.json().get("choices").findValuesAsText("id"))
                .containsExactlyInAnyOrder("100200300400500", SECOND_PAGE);
        assertThat(choices.json().get("choices").findValuesAsText("kind")).containsOnly("page");
        assertThat(choices.body()).doesNotContainPattern("EAA[SLP]");

        Response replayed = browse(callback);
        assertThat(replayed.status()).as(replayed.toString()).isEqualTo(400);
        assertThat(replayed.json().get("code").asText()).isEqualTo("oauth_state_invalid");

        String other = newWorkspace("fb-oauth-other");
        Response foreign = send("POST", channel(other, "fb") + "/connect/choice",
                "{\"state\":\"" + state + "\",\"id\":\"" + SECOND_PAGE + "\"}");
        assertThat(foreign.status()).as(foreign.toString()).isEqualTo(400);
        assertThat(foreign.json().get("code").asText()).isEqualTo("oauth_state_invalid");
        String anotherAdmin = createKey(ws, List.of("admin"), "another-admin");
        Response otherKey = sendAs(anotherAdmin, "POST", channel(ws, "fb") + "/connect/choice",
                "{\"state\":\"" + state + "\",\"id\":\"" + SECOND_PAGE + "\"}", "application/json", Map.of());
        assertThat(otherKey.status()).as(otherKey.toString()).isEqualTo(400);
        Response notAChoice = send("POST", channel(ws, "fb") + "/connect/choice",
                "{\"state\":\"" + state + "\",\"id\":\"999\"}");
        assertThat(notAChoice.status()).as(notAChoice.toString()).isEqualTo(400);
        assertThat(notAChoice.json().get("code").asText()).isEqualTo("validation_failed");
        assertThat(stored(ws)).isZero();

        Response chosen = send("POST", channel(ws, "fb") + "/connect/choice",
                "{\"state\":\"" + state + "\",\"id\":\"" + SECOND_PAGE + "\"}");
        assertThat(chosen.status()).as(chosen.toString()).isEqualTo(200);
        JsonNode connection = chosen.json().get("connection");
        assertThat(connection.get("settings").get("pageId").asText()).isEqualTo(SECOND_PAGE);
        assertThat(connection.get("capabilities").get("publish").get("available").asBoolean())
                .as(chosen.toString()).isTrue();
        assertThat(connection.get("retrySafety").asText()).isEqualTo("read_back");
        assertThat(chosen.body()).doesNotContainPattern("EAA[SLP]");
        Response again = send("POST", channel(ws, "fb") + "/connect/choice",
                "{\"state\":\"" + state + "\",\"id\":\"" + SECOND_PAGE + "\"}");
        assertThat(again.status()).as(again.toString()).isEqualTo(400);
        assertThat(again.json().get("code").asText()).isEqualTo("oauth_state_invalid");

        JsonNode listed = awaitJson("/api/v1/workspaces/" + ws + "/channels",
                v -> v.toString().contains("ACTIVE"));
        assertThat(listed.toString()).doesNotContainPattern("EAA[SLP]");
        Response published = send("POST", "/api/v1/workspaces/" + ws + "/publications", """
                {"calendarEntryId":"entry-oauth-1","contentVersion":1,"channelId":"fb","action":"publish",
                 "content":{"body":"Connected through Facebook Login"}}""");
        assertThat(published.status()).as(published.toString()).isEqualTo(202);
        awaitJson("/api/v1/workspaces/" + ws + "/publications/" + published.json().get("publicationId").asText(),
                v -> v.get("status").asText().equals("SUCCEEDED"));

        // the sandbox's user, long-lived user and Page tokens start EAAS, EAAL and EAAP
        assertThat(jdbc.queryForObject("""
                SELECT count(*) FROM domain_event_entry WHERE aggregate_identifier LIKE '%' || ? || '%'""",
                Long.class, ws)).isPositive();
        assertThat(jdbc.queryForList("""
                SELECT payload_type || ': ' || substring(convert_from(payload, 'UTF8') from '.{0,80}EAA[SLP].{0,40}')
                FROM domain_event_entry WHERE aggregate_identifier LIKE '%' || ? || '%'
                  AND convert_from(payload, 'UTF8') ~ 'EAA[SLP]'""", String.class, ws)).isEmpty();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM oauth_connect_state WHERE workspace_id = ?"
                + " AND choices_ciphertext IS NOT NULL", Long.class, ws)).isZero();
    }

    @Test
    void anUnknownStateIsRefusedAndAFormTypeIsNotConnectedThroughAProvider() {
        String ws = newWorkspace("oauth-refused");
        Response forged = sendAs(null, "GET", "/oauth/callback/facebook?code=x&state=abc.def", null, null, Map.of());
        assertThat(forged.status()).as(forged.toString()).isEqualTo(400);
        assertThat(forged.json().get("code").asText()).isEqualTo("oauth_state_invalid");
        Response unsigned = sendAs(null, "GET", "/oauth/callback/facebook?code=x", null, null, Map.of());
        assertThat(unsigned.status()).as(unsigned.toString()).isEqualTo(400);
        assertThat(unsigned.json().get("code").asText()).isEqualTo("oauth_state_invalid");

        Response form = send("POST", channel(ws, "bs") + "/connect", "{\"type\":\"bluesky\"}");
        assertThat(form.status()).as(form.toString()).isEqualTo(400);
        assertThat(form.body()).contains("PUT");
        assertThat(stored(ws)).isZero();
    }

    @Test
    void mastodonRegistersHeraldOncePerInstanceAndConnectsTheAccount() throws Exception {
        String instance = "http://localhost:" + port + "/sandbox/mastodon";
        int before = send("GET", "/sandbox/_admin/mastodon/apps", null, null).json().get("count").asInt();
        String ws = newWorkspace("masto-oauth");
        Response first = send("POST", channel(ws, "m1") + "/connect",
                "{\"type\":\"mastodon\",\"instanceUrl\":\"" + instance + "\"}");
        assertThat(first.status()).as(first.toString()).isEqualTo(200);
        Response second = send("POST", channel(newWorkspace("masto-oauth-2"), "m1") + "/connect",
                "{\"type\":\"mastodon\",\"instanceUrl\":\"" + instance + "/\"}");
        assertThat(second.status()).as(second.toString()).isEqualTo(200);
        int after = send("GET", "/sandbox/_admin/mastodon/apps", null, null).json().get("count").asInt();
        assertThat(after - before).isLessThanOrEqualTo(1);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM oauth_app_registration WHERE server_url = ?",
                Long.class, instance)).isEqualTo(1);

        Response connected = browse(authorize(first.json().get("authorizeUrl").asText()));
        assertThat(connected.status()).as(connected.toString()).isEqualTo(200);
        JsonNode connection = connected.json().get("connection");
        assertThat(connection.get("settings").get("instanceUrl").asText()).isEqualTo(instance);
        assertThat(connection.get("capabilities").get("publish").get("available").asBoolean())
                .as(connected.toString()).isTrue();
        assertThat(connected.body()).doesNotContain("accessToken");
        assertThat(stored(ws)).isEqualTo(1);
    }

    @Test
    void aLinkedInMemberConnectsThroughSignInWithLinkedIn() throws Exception {
        String ws = newWorkspace("li-oauth");
        Response started = send("POST", channel(ws, "li") + "/connect", "{\"type\":\"linkedin\"}");
        assertThat(started.status()).as(started.toString()).isEqualTo(200);
        assertThat(started.json().get("authorizeUrl").asText()).contains("/oauth/v2/authorization")
                .contains("w_member_social");
        Response connected = browse(authorize(started.json().get("authorizeUrl").asText()));
        assertThat(connected.status()).as(connected.toString()).isEqualTo(200);
        JsonNode connection = connected.json().get("connection");
        assertThat(connection.get("settings").get("authorUrn").asText()).isEqualTo("urn:li:person:demo-reader");
        assertThat(connection.get("capabilities").get("publish").get("available").asBoolean())
                .as(connected.toString()).isTrue();
        assertThat(connected.body()).doesNotContain("AQV");
        JsonNode listed = awaitJson("/api/v1/workspaces/" + ws + "/channels",
                v -> v.toString().contains("tokenExpiresAt") && !v.get(0).path("tokenExpiresAt").isNull());
        assertThat(listed.toString()).doesNotContain("AQV");
    }

    private long stored(String ws) {
        return jdbc.queryForObject("SELECT count(*) FROM channel_connection WHERE workspace_id = ?", Long.class, ws);
    }

    private static String channel(String ws, String channel) {
        return "/api/v1/workspaces/" + ws + "/channels/" + channel;
    }

    /** The provider's page, approving: where it sends the browser back (its fragment dropped). */
    private static URI authorize(String authorizeUrl) throws Exception {
        HttpResponse<String> page = BROWSER.send(HttpRequest.newBuilder(URI.create(authorizeUrl)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(page.statusCode()).as(page.body()).isEqualTo(302);
        String location = page.headers().firstValue("Location").orElseThrow();
        int fragment = location.indexOf('#');
        return URI.create(fragment < 0 ? location : location.substring(0, fragment));
    }

    /** The browser arriving at Herald's callback: no key. */
    private Response browse(URI callback) {
        return sendAs(null, "GET", callback.getRawPath() + "?" + callback.getRawQuery(), null, null,
                Map.of("Accept", "application/json"));
    }
}
