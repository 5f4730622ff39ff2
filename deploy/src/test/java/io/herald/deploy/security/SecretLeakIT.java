package io.herald.deploy.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * A run with known secret values — channel tokens and passwords, raw API keys, the system key, a
 * signing secret — including provider answers that carry a token back (Facebook's paging links
 * and a token error), then a search for every one of them in every table, the audit exports,
 * the read endpoints and the log output.
 */
@ExtendWith(OutputCaptureExtension.class)
class SecretLeakIT extends SecurityIntegrationTest {

    private static final String PAGE_ID = "424242424242";

    @Test
    void noSecretAppearsInTheStoreTheExportsOrTheLogs(CapturedOutput output) throws Exception {
        String suffix = Long.toString(System.nanoTime(), 36);
        String pageToken = "EAAB-leak-page-token-" + suffix;
        String linkedInToken = "AQX-leak-linkedin-token-" + suffix;
        String wordPressPassword = "leak wpap pass word " + suffix;
        String signingSecret = "leak-signing-secret-0123456789-" + suffix;

        // the sandbox knows the Page token and has posts, so a read carries the token back in its paging links
        sendAs(null, "POST", "/sandbox/_admin/facebook/tokens",
                "{\"token\":\"" + pageToken + "\",\"pageId\":\"" + PAGE_ID + "\",\"kind\":\"PAGE\"}");
        for (int i = 0; i < 3; i++) {
            sendAs(null, "POST", "/sandbox/_admin/facebook/" + PAGE_ID + "/posts", "{\"text\":\"older post " + i + "\"}");
        }
        // the provider's answer to a read does carry the token back (its paging link): Herald must drop it
        Response echo = sendBytesAs(null, "GET", "/sandbox/facebook/v25.0/" + PAGE_ID + "/feed?limit=1", null, null,
                Map.of("Authorization", "Bearer " + pageToken));
        assertThat(echo.body()).contains(pageToken);
        sendAs(null, "POST", "/sandbox/_admin/faults", "{\"provider\":\"facebook\",\"target\":\"" + PAGE_ID
                + "\",\"type\":\"TOKEN_ERROR\",\"operation\":\"PUBLISH\",\"times\":1}");

        String ws = newWorkspace("leak");
        createWorkspace(ws);
        String admin = createKey(ws, List.of("admin"), "admin");
        String publisher = createKey(ws, List.of("publisher"), "calendar");
        String operator = createKey(ws, List.of("operator"), "desk");
        String auditor = createKey(ws, List.of("auditor"), "audit");
        String base = "/api/v1/workspaces/" + ws;
        assertThat(sendAs(admin, "PUT", base + "/channels/fb-leak", "{\"type\":\"facebook\",\"pageId\":\"" + PAGE_ID
                + "\",\"pageAccessToken\":\"" + pageToken + "\",\"readAccessToken\":\"" + pageToken + "\"}").status())
                .isIn(200, 201);
        assertThat(sendAs(admin, "PUT", base + "/channels/li-leak", "{\"type\":\"linkedin\",\"authorUrn\":"
                + "\"urn:li:person:leak\",\"accessToken\":\"" + linkedInToken + "\",\"scopes\":[\"w_member_social\"]}")
                .status()).isIn(200, 201);
        assertThat(sendAs(admin, "PUT", base + "/channels/wp-leak", "{\"type\":\"wordpress\",\"siteUrl\":"
                + "\"https://blog.example\",\"username\":\"editor\",\"applicationPassword\":\"" + wordPressPassword
                + "\"}").status()).isIn(200, 201);
        sendAs(admin, "POST", base + "/channels/fb-leak/probe", null);

        Response hook = sendAs(admin, "PUT", base + "/webhooks/leak",
                "{\"url\":\"https://calendar.example/leak\",\"events\":[\"*\"]}");
        assertThat(hook.status()).isEqualTo(201);
        String webhookSecret = hook.json().get("secret").asText();
        String rotatedWebhookSecret = sendAs(admin, "POST", base + "/webhooks/leak/secret", null).json()
                .get("secret").asText();

        Response requested = sendAs(publisher, "POST", base + "/publications", "{\"calendarEntryId\":\"leak-1\","
                + "\"contentVersion\":1,\"channelId\":\"fb-leak\",\"action\":\"publish\",\"content\":{\"body\":\"leak test\"}}");
        assertThat(requested.status()).isEqualTo(202);
        String publication = requested.json().get("publicationId").asText();
        sendAs(publisher, "POST", base + "/publications/" + publication + "/execute", null);
        // the first attempt meets the token error; wait until it is recorded either way
        awaitJson(base + "/publications/" + publication, v -> !v.get("attempts").isEmpty()
                && !"IN_FLIGHT".equals(v.get("attempts").get(0).path("outcome").asText()));
        sendAs(operator, "POST", base + "/publications/" + publication + "/reconcile", null);

        assertThat(sendAs(admin, "PUT", base + "/signing-secret", "{\"secret\":\"" + signingSecret + "\"}").status())
                .isEqualTo(200);
        long now = Instant.now().getEpochSecond();
        String signedBody = "{\"calendarEntryId\":\"leak-2\",\"contentVersion\":1,\"channelId\":\"fb-leak\","
                + "\"action\":\"draft\",\"content\":{\"body\":\"signed\"}}";
        sendBytesAs(publisher, "POST", base + "/publications", signedBody.getBytes(StandardCharsets.UTF_8),
                "application/json", Map.of("X-Herald-Signature",
                        Signatures.v2Header(signingSecret, now, "POST", base + "/publications", signedBody)));
        sendAs(publisher, "POST", base + "/publications", signedBody); // unsigned: refused

        Map<String, String> secrets = new LinkedHashMap<>();
        secrets.put("Facebook Page token", pageToken);
        secrets.put("LinkedIn token", linkedInToken);
        secrets.put("WordPress application password", wordPressPassword);
        secrets.put("signing secret", signingSecret);
        // the key part alone: whsec_ is only its prefix
        secrets.put("webhook secret", webhookSecret.substring("whsec_".length()));
        secrets.put("rotated webhook secret", rotatedWebhookSecret.substring("whsec_".length()));
        secrets.put("admin key", admin);
        secrets.put("publisher key", publisher);
        secrets.put("operator key", operator);
        secrets.put("auditor key", auditor);
        secrets.put("system key", SYSTEM_KEY);
        // the secret part alone, in case a key were split
        secrets.put("admin key secret", admin.substring(admin.indexOf('.') + 1));

        List<String> readable = new ArrayList<>();
        for (String path : List.of(base + "/publications/" + publication + "/events", base + "/audit/events",
                base + "/audit/verify", base + "/publications/" + publication, base + "/publications")) {
            readable.add(sendAs(auditor, "GET", path, null).body());
        }
        readable.add(sendAs(operator, "GET", base + "/channels", null).body());
        readable.add(sendAs(operator, "GET", base + "/decisions", null).body());
        readable.add(sendAs(admin, "GET", base + "/keys", null).body());
        readable.add(sendAs(operator, "GET", base + "/webhooks", null).body());
        readable.add(sendAs(operator, "GET", base + "/webhooks/leak/deliveries", null).body());
        readable.add(sendAs(SYSTEM_KEY, "GET", "/api/v1/audit/events", null).body());
        readable.add(sendAs(SYSTEM_KEY, "GET", "/api/v1/admin/projections", null).body());

        List<String> columns = jdbc.queryForList("""
                SELECT table_name || '.' || column_name || ':' || data_type FROM information_schema.columns
                 WHERE table_schema = current_schema()
                   AND data_type IN ('bytea', 'text', 'character varying', 'jsonb', 'json')
                 ORDER BY 1""", String.class);
        int cells = 0;
        List<String> found = new ArrayList<>();
        for (Map.Entry<String, String> secret : secrets.entrySet()) {
            for (String column : columns) {
                String table = column.substring(0, column.indexOf('.'));
                String name = column.substring(column.indexOf('.') + 1, column.indexOf(':'));
                String type = column.substring(column.indexOf(':') + 1);
                String condition = switch (type) {
                    case "bytea" -> "position(convert_to(?, 'UTF8') in \"" + name + "\") > 0";
                    default -> "\"" + name + "\"::text LIKE '%' || ? || '%'";
                };
                long hits = jdbc.queryForObject("SELECT count(*) FROM \"" + table + "\" WHERE " + condition,
                        Long.class, secret.getValue());
                cells++;
                if (hits > 0) {
                    found.add(secret.getKey() + " in " + column);
                }
            }
            for (String body : readable) {
                if (body.contains(secret.getValue())) {
                    found.add(secret.getKey() + " in an HTTP answer");
                }
            }
            if (output.getAll().contains(secret.getValue())) {
                found.add(secret.getKey() + " in the log output");
            }
        }
        System.out.printf("secret leak scan: %d secrets x %d columns = %d column scans, %d HTTP answers, %d log"
                        + " characters; found: %s%n", secrets.size(), columns.size(), cells, readable.size(),
                output.getAll().length(), found);
        assertThat(columns).isNotEmpty();
        assertThat(output.getAll()).contains(publication);
        assertThat(found).isEmpty();
    }
}
