package io.herald.deploy.secrets;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.herald.platform.secrets.CredentialCipher;
import io.herald.command.webhook.WebhookStore;
import io.herald.contracts.id.WorkspaceId;
import io.herald.deploy.HeraldApplication;
import io.herald.access.SigningSecrets;
import io.herald.testsupport.TestDatabase;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Key rotation end to end, on one database and three starts of Herald: secrets are written under
 * key A; Herald restarts with key B in front of A and re-encrypts; it restarts with B alone, and
 * every channel connection still publishes to the sandbox, the webhook's secrets (current and
 * previous) and the signing secret still decrypt.
 */
class KeyRotationIT {

    private static final String KEY_A = Base64.getEncoder().encodeToString(bytes(0x0A));
    private static final String KEY_B = Base64.getEncoder().encodeToString(bytes(0x0B));
    private static final String SYSTEM_KEY = "hs.key-rotation-test-system-key-0123456789abcdefghijk";
    private static final String WS = "rotation";
    private static final String SIGNED_WS = "rotation-signed";
    private static final List<String> CHANNELS = List.of("fb", "li", "wp");
    private static final String SECRET_COLUMNS = """
            SELECT secrets_ciphertext FROM channel_connection WHERE workspace_id = 'rotation'
            UNION ALL SELECT secret_ciphertext FROM webhook_subscription WHERE workspace_id = 'rotation'
            UNION ALL SELECT previous_ciphertext FROM webhook_subscription WHERE workspace_id = 'rotation'
            UNION ALL SELECT secret_ciphertext FROM herald_signing_secret WHERE workspace_id = 'rotation-signed'""";

    @TempDir
    Path dataDir;

    private final HttpClient http = HttpClient.newHttpClient();
    private final ObjectMapper json = new ObjectMapper();
    private final TestDatabase database = TestDatabase.shared().freshSibling();
    /** One port for every start: the connections' sandbox URLs stay valid across restarts. */
    private final int port = freePort();
    private String workspaceKey;

    @Test
    void secretsWrittenUnderKeyAStillWorkAfterBIsPutInFrontTheyAreReEncryptedAndAIsRemoved() throws Exception {
        try (ConfigurableApplicationContext underA = start(KEY_A)) {
            writeSecrets();
            assertThat(keyIdsInTables(underA)).containsOnly(CredentialCipher.keyId(bytes(0x0A)));
        }

        try (ConfigurableApplicationContext rotating = start(KEY_B + "," + KEY_A)) {
            JsonNode resealed = call(SYSTEM_KEY, "POST", "/api/v1/admin/secrets/re-encrypt", null, 200);
            assertThat(resealed.get("keyId").asText()).isEqualTo(CredentialCipher.keyId(bytes(0x0B)));
            assertThat(resealed.get("channelConnections").asInt()).isGreaterThanOrEqualTo(CHANNELS.size());
            assertThat(resealed.get("webhookSecrets").asInt()).isEqualTo(2);
            assertThat(resealed.get("signingSecrets").asInt()).isEqualTo(1);
            assertThat(keyIdsInTables(rotating)).containsOnly(CredentialCipher.keyId(bytes(0x0B)));

            JsonNode again = call(SYSTEM_KEY, "POST", "/api/v1/admin/secrets/re-encrypt", null, 200);
            assertThat(again.get("channelConnections").asInt() + again.get("webhookSecrets").asInt()
                    + again.get("signingSecrets").asInt()).as("nothing is left under key A").isZero();
        }

        try (ConfigurableApplicationContext underB = start(KEY_B)) {
            for (String channel : CHANNELS) {
                String id = call(workspaceKey, "POST", "/api/v1/workspaces/" + WS + "/publications", """
                        {"calendarEntryId":"after-rotation-%s","contentVersion":1,"channelId":"%s",
                         "action":"publish","content":{"title":"Rotated","body":"published after the key rotation"}}"""
                        .formatted(channel, channel), 202).get("publicationId").asText();
                JsonNode view = await("/api/v1/workspaces/" + WS + "/publications/" + id,
                        v -> !v.get("status").asText().matches("REQUESTED|ATTEMPTING|RETRY_SCHEDULED"));
                assertThat(view.path("status").asText()).as(channel + ": " + view).isEqualTo("SUCCEEDED");
            }
            WebhookStore.Target hook = underB.getBean(WebhookStore.class)
                    .target(new WorkspaceId(WS), "calendar", Instant.now()).orElseThrow();
            assertThat(hook.secrets()).hasSize(2).allMatch(s -> s.startsWith("whsec_"));
            assertThat(underB.getBean(SigningSecrets.class).secret(SIGNED_WS)).isPresent();
        }
    }

    /** Channel credentials, a webhook with a rotated secret (so a previous one too) and a signing secret. */
    private void writeSecrets() throws Exception {
        call(SYSTEM_KEY, "POST", "/api/v1/admin/workspaces", "{\"workspaceId\":\"" + WS + "\",\"name\":\"r\"}", 201);
        workspaceKey = call(SYSTEM_KEY, "POST", "/api/v1/workspaces/" + WS + "/keys",
                "{\"roles\":[\"publisher\",\"operator\",\"admin\"],\"label\":\"rotation\"}", 201).get("key").asText();
        String base = "http://localhost:" + port + "/sandbox";
        // the sandbox's demo credentials, registered again on every start
        call(workspaceKey, "PUT", "/api/v1/workspaces/" + WS + "/channels/fb",
                "{\"type\":\"facebook\",\"pageId\":\"100200300400500\",\"pageAccessToken\":\"demo-fb-page-token\"}",
                201);
        call(workspaceKey, "PUT", "/api/v1/workspaces/" + WS + "/channels/li", """
                {"type":"linkedin","authorUrn":"urn:li:person:demo-reader","accessToken":"demo-li-reader-token",
                 "scopes":["w_member_social","r_member_social"]}""", 201);
        call(workspaceKey, "PUT", "/api/v1/workspaces/" + WS + "/channels/wp", """
                {"type":"wordpress","siteUrl":"%s/wordpress/blog","username":"editor",
                 "applicationPassword":"demo abcd efgh ijkl"}""".formatted(base), 201);
        call(workspaceKey, "PUT", "/api/v1/workspaces/" + WS + "/webhooks/calendar",
                "{\"url\":\"" + base + "/nowhere\",\"events\":[\"publication.failed\"],\"enabled\":false}", 201);
        call(workspaceKey, "POST", "/api/v1/workspaces/" + WS + "/webhooks/calendar/secret", null, 200);

        call(SYSTEM_KEY, "POST", "/api/v1/admin/workspaces",
                "{\"workspaceId\":\"" + SIGNED_WS + "\",\"name\":\"s\"}", 201);
        String signedKey = call(SYSTEM_KEY, "POST", "/api/v1/workspaces/" + SIGNED_WS + "/keys",
                "{\"roles\":[\"admin\"],\"label\":\"rotation\"}", 201).get("key").asText();
        call(signedKey, "PUT", "/api/v1/workspaces/" + SIGNED_WS + "/signing-secret",
                "{\"secret\":\"rotation-signing-secret-0123456789abcdefghij\"}", 200);
    }

    /** The key id in the header of every secret this test stored. */
    private static List<String> keyIdsInTables(ConfigurableApplicationContext context) {
        return context.getBean(JdbcTemplate.class).queryForList(SECRET_COLUMNS, byte[].class).stream()
                .map(sealed -> {
                    assertThat(new String(sealed, 0, 2, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("HK");
                    return HexFormat.of().formatHex(sealed, 3, 7);
                }).toList();
    }

    private ConfigurableApplicationContext start(String keys) {
        return new SpringApplicationBuilder(HeraldApplication.class).run(
                "--spring.datasource.url=" + database.jdbcUrl(),
                "--herald.data-dir=" + dataDir,
                "--herald.secrets.encryption-keys=" + keys,
                "--herald.audit.signing-key=YXVkaXQtc2lnbmluZy1rZXktZm9yLXRlc3RzLTAxMjM=",
                "--herald.security.system-key=" + SYSTEM_KEY,
                "--herald.security.rate-limit.limit-for-period=1000000",
                "--server.port=" + port,
                "--herald.test.sandbox-loopback=false",
                "--herald.sandbox.enabled=true");
    }

    private JsonNode call(String key, String method, String path, String body, int expected) throws Exception {
        HttpResponse<String> response = exchange(key, method, path, body);
        assertThat(response.statusCode()).as(method + " " + path + ": " + response.body()).isEqualTo(expected);
        return response.body().isEmpty() ? json.nullNode() : json.readTree(response.body());
    }

    private HttpResponse<String> exchange(String key, String method, String path, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .timeout(Duration.ofSeconds(30)).header("Authorization", "Bearer " + key)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private JsonNode await(String path, Predicate<JsonNode> done) throws Exception {
        JsonNode last = json.nullNode();
        for (int i = 0; i < 300; i++) {
            // the view follows the intake shortly after: 404 until then
            HttpResponse<String> response = exchange(workspaceKey, "GET", path, null);
            if (response.statusCode() == 200) {
                last = json.readTree(response.body());
                if (done.test(last)) {
                    return last;
                }
            }
            Thread.sleep(100);
        }
        return last;
    }

    private static byte[] bytes(int value) {
        byte[] key = new byte[32];
        java.util.Arrays.fill(key, (byte) value);
        return key;
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
