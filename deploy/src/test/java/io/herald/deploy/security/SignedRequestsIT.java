package io.herald.deploy.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SignedRequestsIT extends SecurityIntegrationTest {

    private static final String SECRET = "whsec-signed-requests-0123456789abcdefghij";

    @Test
    void aWorkspaceWithASigningSecretAcceptsEachCorrectlySignedBodyOnce() throws Exception {
        String ws = newWorkspace("signed");
        createWorkspace(ws);
        String admin = createKey(ws, List.of("admin"), "admin");
        String publisher = createKey(ws, List.of("publisher"), "calendar");
        assertThat(sendAs(admin, "PUT", "/api/v1/workspaces/" + ws + "/channels/fb-main",
                "{\"type\":\"facebook\",\"pageId\":\"1234567890\",\"pageAccessToken\":\"EAAB-signed\"}").status())
                .isEqualTo(201);
        Response enabled = sendAs(admin, "PUT", "/api/v1/workspaces/" + ws + "/signing-secret",
                "{\"secret\":\"" + SECRET + "\"}");
        assertThat(enabled.status()).isEqualTo(200);
        assertThat(enabled.body()).doesNotContain(SECRET);
        String path = "/api/v1/workspaces/" + ws + "/publications";
        // non-ASCII text: the signature covers the raw bytes, and the same bytes must reach the handler
        String body = "{\"calendarEntryId\":\"entry-s\",\"contentVersion\":2,\"channelId\":\"fb-main\","
                + "\"action\":\"publish\",\"content\":{\"body\":\"Grüße — signed ✓\"}}";
        long now = Instant.now().getEpochSecond();
        String signature = "t=" + now + ",v1=" + HostileInputIT.sign(SECRET, now, body);

        Response unsigned = sendAs(publisher, "POST", path, body);
        Response accepted = post(publisher, path, body, signature);
        Response replayed = post(publisher, path, body, signature);
        Response tampered = post(publisher, path, body.replace("signed", "forged"), signature);
        long old = now - 301;
        Response expired = post(publisher, path, body, "t=" + old + ",v1=" + HostileInputIT.sign(SECRET, old, body));
        Response read = sendAs(publisher, "GET", path, null);

        assertSignatureInvalid(unsigned);
        assertThat(accepted.status()).as(accepted.toString()).isEqualTo(202);
        assertThat(accepted.json().get("calendarEntryId").asText()).isEqualTo("entry-s");
        assertThat(jdbc.queryForObject("""
                SELECT count(*) FROM domain_event_entry
                 WHERE aggregate_identifier = ? AND position(convert_to(?, 'UTF8') in payload) > 0""",
                Long.class, accepted.json().get("publicationId").asText(), "Grüße — signed ✓"))
                .as("the handler read the very bytes that were signed").isEqualTo(1);
        assertSignatureInvalid(replayed);
        assertSignatureInvalid(tampered);
        assertSignatureInvalid(expired);
        assertThat(read.status()).as("reads need no signature").isEqualTo(200);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM herald_signing_secret WHERE workspace_id = ?"
                + " AND position(convert_to(?, 'UTF8') in secret_ciphertext) = 0", Long.class, ws, SECRET))
                .as("stored encrypted").isEqualTo(1);

        long later = Instant.now().getEpochSecond();
        String removal = "t=" + later + ",v1=" + HostileInputIT.sign(SECRET, later, "");
        Response off = sendBytesAs(admin, "DELETE", "/api/v1/workspaces/" + ws + "/signing-secret", null, null,
                Map.of("X-Herald-Signature", removal));
        assertThat(off.status()).as(off.toString()).isEqualTo(204);
        assertThat(sendAs(publisher, "POST", path, body.replace("entry-s", "entry-u")).status()).isEqualTo(202);
    }

    private Response post(String key, String path, String body, String signature) {
        return sendBytesAs(key, "POST", path, body.getBytes(StandardCharsets.UTF_8), "application/json",
                Map.of("X-Herald-Signature", signature));
    }

    private static void assertSignatureInvalid(Response response) {
        assertThat(response.status()).as(response.toString()).isEqualTo(401);
        assertThat(response.contentType()).startsWith("application/problem+json");
        assertThat(response.json().get("code").asText()).isEqualTo("signature_invalid");
    }
}
