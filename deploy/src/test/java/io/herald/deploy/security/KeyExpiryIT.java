package io.herald.deploy.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A key may be issued with an expiry; keys list their expiry and last use, written at most once a minute. */
class KeyExpiryIT extends SecurityIntegrationTest {

    @Test
    void aKeyWorksUntilItsExpiryAndIsThenRefusedWithKeyExpired() throws Exception {
        String ws = newWorkspace("expiring");
        createWorkspace(ws);
        String admin = createKey(ws, List.of("admin"), "admin");
        Instant expiresAt = Instant.now().plusSeconds(4).truncatedTo(ChronoUnit.MILLIS);
        Response issued = sendAs(admin, "POST", "/api/v1/workspaces/" + ws + "/keys",
                "{\"roles\":[\"auditor\"],\"label\":\"short-lived\",\"expiresAt\":\"" + expiresAt + "\"}");
        assertThat(issued.status()).as(issued.toString()).isEqualTo(201);
        assertThat(Instant.parse(issued.json().get("expiresAt").asText())).isEqualTo(expiresAt);
        String key = issued.json().get("key").asText();
        String keyId = issued.json().get("keyId").asText();
        String path = "/api/v1/workspaces/" + ws + "/publications";

        assertThat(sendAs(key, "GET", path, null).status()).isEqualTo(200);
        JsonNode listed = listed(admin, ws, keyId);
        assertThat(Instant.parse(listed.get("expiresAt").asText())).isEqualTo(expiresAt);
        Instant firstUse = Instant.parse(listed.get("lastUsedAt").asText());
        // within the minute a second use does not write again
        assertThat(sendAs(key, "GET", path, null).status()).isEqualTo(200);
        assertThat(Instant.parse(listed(admin, ws, keyId).get("lastUsedAt").asText())).isEqualTo(firstUse);

        while (Instant.now().isBefore(expiresAt.plusMillis(200))) {
            Thread.sleep(100);
        }
        Response refused = sendAs(key, "GET", path, null);
        assertThat(refused.status()).as(refused.toString()).isEqualTo(401);
        assertThat(refused.contentType()).startsWith("application/problem+json");
        assertThat(refused.json().get("code").asText()).isEqualTo("key_expired");
        assertThat(refused.json().get("type").asText()).isEqualTo("urn:herald:problem:key_expired");
        assertThat(refused.body()).doesNotContain(key);

        // the expiry is told only to the holder of the whole key: a wrong secret is just unknown
        String wrongSecret = keyId + "." + "A".repeat(43);
        Response unknown = sendAs(wrongSecret, "GET", path, null);
        assertThat(unknown.status()).isEqualTo(401);
        assertThat(unknown.json().get("code").asText()).isEqualTo("unauthenticated");
    }

    @Test
    void aKeyWithoutExpiryListsNoneAndAnExpiryInThePastIsRefused() {
        String ws = newWorkspace("no-expiry");
        createWorkspace(ws);
        String admin = createKey(ws, List.of("admin"), "admin");
        JsonNode listed = listed(admin, ws, admin.substring(0, admin.indexOf('.')));
        assertThat(listed.path("expiresAt").isMissingNode() || listed.path("expiresAt").isNull()).isTrue();
        assertThat(listed.path("lastUsedAt").isNull()).isFalse();

        Response past = sendAs(admin, "POST", "/api/v1/workspaces/" + ws + "/keys",
                "{\"roles\":[\"auditor\"],\"label\":\"late\",\"expiresAt\":\"2020-01-01T00:00:00Z\"}");
        assertThat(past.status()).as(past.toString()).isEqualTo(400);
        assertThat(past.json().get("code").asText()).isEqualTo("validation_failed");
        assertThat(past.json().path("errors").findValuesAsText("field")).containsExactly("expiresAt");
    }

    private JsonNode listed(String admin, String ws, String keyId) {
        Response list = sendAs(admin, "GET", "/api/v1/workspaces/" + ws + "/keys", null);
        assertThat(list.status()).as(list.toString()).isEqualTo(200);
        for (JsonNode item : list.json().get("items")) {
            if (item.get("keyId").asText().equals(keyId)) {
                return item;
            }
        }
        throw new AssertionError("key " + keyId + " not listed: " + list);
    }
}
