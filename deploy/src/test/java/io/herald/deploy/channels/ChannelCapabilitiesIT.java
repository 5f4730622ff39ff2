package io.herald.deploy.channels;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.deploy.HeraldIntegrationTest;
import org.junit.jupiter.api.Test;

/** Capabilities are probed at the provider (here the sandbox) and shown with their reasons. */
class ChannelCapabilitiesIT extends HeraldIntegrationTest {

    @Test
    void aFacebookReadTokenThatIsAUserTokenCannotReadBack() {
        String ws = newWorkspace("caps-fb");
        sandbox("POST", "/facebook/tokens", "{\"token\":\"EAAB-caps-page\",\"pageId\":\"777001\",\"kind\":\"PAGE\"}");
        sandbox("POST", "/facebook/tokens", "{\"token\":\"EAAB-caps-user\",\"pageId\":\"777001\",\"kind\":\"USER\"}");

        Response put = send("PUT", "/api/v1/workspaces/" + ws + "/channels/fb", "{\"type\":\"facebook\","
                + "\"pageId\":\"777001\",\"pageAccessToken\":\"EAAB-caps-page\",\"readAccessToken\":\"EAAB-caps-user\"}");

        assertThat(put.status()).isEqualTo(201);
        JsonNode caps = put.json().get("capabilities");
        assertThat(caps.get("publish").get("available").asBoolean()).isTrue();
        assertThat(caps.get("reconcile").get("available").asBoolean()).isFalse();
        assertThat(caps.get("reconcile").get("reason").asText()).contains("Page Access Token");
        JsonNode listed = awaitJson("/api/v1/workspaces/" + ws + "/channels",
                list -> list.size() == 1 && list.get(0).get("capabilities").get("reconcile").has("reason")
                        && list.get(0).get("capabilities").get("reconcile").get("reason").asText()
                        .contains("Page Access Token"));
        assertThat(listed.toString()).doesNotContain("EAAB-caps");
    }

    @Test
    void linkedInWithoutReadScopeCannotReadBackAndAProbeSeesNewCredentials() {
        String ws = newWorkspace("caps-li");
        sandbox("POST", "/linkedin/tokens", "{\"token\":\"li-caps-w\",\"author\":\"urn:li:person:caps1\","
                + "\"scopes\":[\"w_member_social\"]}");
        sandbox("POST", "/linkedin/tokens", "{\"token\":\"li-caps-rw\",\"author\":\"urn:li:person:caps1\","
                + "\"scopes\":[\"w_member_social\",\"r_member_social\"]}");

        Response put = send("PUT", "/api/v1/workspaces/" + ws + "/channels/li", "{\"type\":\"linkedin\","
                + "\"authorUrn\":\"urn:li:person:caps1\",\"accessToken\":\"li-caps-w\"}");
        assertThat(put.json().get("capabilities").get("reconcile").get("reason").asText()).contains("r_member_social");

        send("PUT", "/api/v1/workspaces/" + ws + "/channels/li", "{\"type\":\"linkedin\","
                + "\"authorUrn\":\"urn:li:person:caps1\",\"accessToken\":\"li-caps-rw\"}");
        Response probed = send("POST", "/api/v1/workspaces/" + ws + "/channels/li/probe", null, null);

        assertThat(probed.status()).isEqualTo(200);
        assertThat(probed.json().get("reconcile").get("available").asBoolean()).isTrue();
        awaitJson("/api/v1/workspaces/" + ws + "/channels",
                list -> list.size() == 1
                        && list.get(0).get("capabilities").get("reconcile").get("available").asBoolean());
    }

    @Test
    void probingAnUnknownChannelIsNotFound() {
        String ws = newWorkspace("caps-none");
        Response r = send("POST", "/api/v1/workspaces/" + ws + "/channels/nope/probe", null, null);
        assertThat(r.status()).isEqualTo(404);
        assertThat(r.json().get("code").asText()).isEqualTo("not_found");
    }
}
