package io.herald.deploy.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * Hundreds of generated hostile requests: broken JSON, wrong types, missing and extra fields,
 * huge and deeply nested bodies, invalid UTF-8, control characters, path tricks, wrong content
 * types, bad keys and bad signatures. Each must get a 4xx problem+json answer, and nothing may
 * be written.
 */
class HostileInputIT extends SecurityIntegrationTest {

    private static final String SECRET = "hostile-signing-secret-0123456789-abcdefghij";

    /** One generated request. */
    private record Attack(String label, String key, String method, String path, byte[] body, String contentType,
                          Map<String, String> headers) {
    }

    @Test
    void hostileRequestsAreRefusedWithProblemJsonAndWriteNothing() throws Exception {
        String ws = newWorkspace("hostile");
        createWorkspace(ws);
        String admin = createKey(ws, ROLES, "hostile-admin");
        assertThat(sendAs(admin, "PUT", "/api/v1/workspaces/" + ws + "/channels/fb-main",
                "{\"type\":\"facebook\",\"pageId\":\"1234567890\",\"pageAccessToken\":\"EAAB-hostile\"}").status())
                .isIn(200, 201);
        String signed = newWorkspace("hostile-signed");
        createWorkspace(signed);
        String signedKey = createKey(signed, ROLES, "signed-admin");
        assertThat(sendAs(signedKey, "PUT", "/api/v1/workspaces/" + signed + "/signing-secret",
                "{\"secret\":\"" + SECRET + "\"}").status()).isEqualTo(200);
        awaitJson("/api/v1/workspaces/" + ws + "/channels", v -> v.toString().contains("fb-main"));
        Map<String, Long> before = settledCounts(ws, signed);

        List<Attack> attacks = new ArrayList<>();
        attacks.addAll(bodyAttacks(ws, admin));
        attacks.addAll(pathAttacks(ws, admin));
        attacks.addAll(contentTypeAttacks(ws, admin));
        attacks.addAll(keyAttacks(ws));
        attacks.addAll(signatureAttacks(signed, signedKey));

        SoftAssertions softly = new SoftAssertions();
        Map<Integer, Integer> byStatus = new TreeMap<>();
        int serverErrors = 0;
        for (Attack attack : attacks) {
            Response r = sendBytesAs(attack.key(), attack.method(), attack.path(), attack.body(), attack.contentType(),
                    attack.headers());
            byStatus.merge(r.status(), 1, Integer::sum);
            serverErrors += r.status() >= 500 ? 1 : 0;
            String label = attack.label() + " " + attack.method() + " " + abbreviate(attack.path()) + " -> "
                    + abbreviate(r.toString());
            softly.assertThat(r.status()).as(label).isBetween(400, 499);
            softly.assertThat(r.contentType()).as(label).startsWith("application/problem+json");
            if (r.contentType().startsWith("application/problem+json")) {
                softly.assertThat(r.json().path("code").asText()).as(label).isNotBlank();
                softly.assertThat(r.json().path("status").asInt()).as(label).isEqualTo(r.status());
            }
            softly.assertThat(r.body()).as(label).doesNotContain("Exception").doesNotContain("at io.herald")
                    .doesNotContain(SECRET).doesNotContain(admin);
        }
        Map<String, Long> after = counts(ws, signed);
        System.out.printf("hostile input: %d requests, by status %s, 5xx: %d; rows before %s, after %s%n",
                attacks.size(), byStatus, serverErrors, before, after);
        softly.assertThat(attacks.size()).isGreaterThanOrEqualTo(200);
        softly.assertThat(serverErrors).isZero();
        softly.assertThat(after).isEqualTo(before);
        softly.assertAll();
    }

    /**
     * The body checks follow the path the access rules and Spring MVC decode, not the raw URI: an
     * encoded spelling of an API path gets the same 415 and 400 as the plain one. A valid body at
     * each spelling is accepted, so each spelling really reaches the API.
     */
    @Test
    void everySpellingOfAnApiPathMeetsTheSameBodyChecks() {
        String ws = newWorkspace("spelling");
        createWorkspace(ws);
        String key = createKey(ws, ROLES, "spelling");
        assertThat(sendAs(key, "PUT", "/api/v1/workspaces/" + ws + "/channels/fb-main",
                "{\"type\":\"facebook\",\"pageId\":\"1234567890\",\"pageAccessToken\":\"EAAB-spelling\"}").status())
                .isIn(200, 201);
        List<String> spellings = List.of("/api/v1/workspaces/" + ws + "/publications",
                "/%61pi/v1/workspaces/" + ws + "/publications",
                "/api/v1/%77orkspaces/" + ws + "/publications",
                "/api/%76%31/workspaces/" + ws + "/%70ublications");
        SoftAssertions softly = new SoftAssertions();
        int n = 0;
        for (String path : spellings) {
            String valid = "{\"calendarEntryId\":\"spelt-" + n++ + "\",\"contentVersion\":1,\"channelId\":\"fb-main\","
                    + "\"action\":\"publish\",\"content\":{\"body\":\"spelt\"}}";
            Response yaml = sendBytesAs(key, "POST", path, ("calendarEntryId: spelt-yaml-" + n + "\ncontentVersion: 1\n"
                    + "channelId: fb-main\naction: publish\ncontent:\n  body: yaml\n").getBytes(StandardCharsets.UTF_8),
                    "application/yaml", Map.of());
            softly.assertThat(yaml.status()).as(path + " yaml -> " + yaml).isEqualTo(415);
            softly.assertThat(yaml.body()).as(path).contains("unsupported_media_type");
            Response overlong = sendBytesAs(key, "POST", path, overlongUtf8(valid), "application/json", Map.of());
            softly.assertThat(overlong.status()).as(path + " overlong UTF-8 -> " + overlong).isEqualTo(400);
            softly.assertThat(overlong.body()).as(path).contains("not valid UTF-8");
            Response accepted = sendAs(key, "POST", path, valid);
            softly.assertThat(accepted.status()).as(path + " valid -> " + accepted).isEqualTo(202);
        }
        for (String path : List.of("//api/v1/workspaces/" + ws + "/publications",
                "/api/v1/workspaces/" + ws + "/publications;jsessionid=x",
                "/api/v1/workspaces/" + ws + ";x=1/publications")) {
            Response refused = sendBytesAs(key, "POST", path, "a: b".getBytes(StandardCharsets.UTF_8),
                    "application/yaml", Map.of());
            softly.assertThat(refused.status()).as(path + " -> " + refused).isEqualTo(400);
            softly.assertThat(refused.contentType()).as(path).startsWith("application/problem+json");
        }
        softly.assertAll();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM domain_event_entry"
                + " WHERE position(convert_to('spelt-yaml', 'UTF8') in payload) > 0", Long.class))
                .as("no YAML body was taken").isZero();
    }

    // ---------------------------------------------------------------- bodies

    private List<Attack> bodyAttacks(String ws, String key) {
        List<Attack> attacks = new ArrayList<>();
        Map<String, String> targets = new LinkedHashMap<>();
        String base = "/api/v1/workspaces/" + ws;
        targets.put("POST " + base + "/publications",
                "{\"calendarEntryId\":\"entry-1\",\"contentVersion\":1,\"channelId\":\"fb-main\",\"action\":\"publish\","
                        + "\"content\":{\"title\":\"t\",\"body\":\"b\",\"link\":\"https://example.org\"},"
                        + "\"scheduledAt\":\"2026-12-01T09:00:00Z\"}");
        targets.put("POST " + base + "/publications/pub_" + "0".repeat(64) + "/decisions",
                "{\"decision\":\"confirm_published\",\"providerRef\":{\"id\":\"1\",\"url\":\"https://example.org/p\"},"
                        + "\"note\":\"n\"}");
        targets.put("PUT " + base + "/channels/fb-new",
                "{\"type\":\"facebook\",\"pageId\":\"123\",\"pageAccessToken\":\"EAAB-x\","
                        + "\"accessTokenExpiresAt\":\"2027-01-01T00:00:00Z\"}");
        targets.put("POST " + base + "/keys", "{\"roles\":[\"publisher\"],\"label\":\"calendar\"}");
        targets.put("PUT " + base + "/webhooks/hook-new",
                "{\"url\":\"https://calendar.example/hooks\",\"events\":[\"publication.succeeded\"],\"enabled\":true}");
        targets.put("PUT " + base + "/signing-secret", "{\"secret\":\"" + "s".repeat(40) + "\"}");
        targets.put("POST /api/v1/admin/workspaces", "{\"workspaceId\":\"x-new\",\"name\":\"X\"}");

        for (Map.Entry<String, String> target : targets.entrySet()) {
            String method = target.getKey().substring(0, target.getKey().indexOf(' '));
            String path = target.getKey().substring(method.length() + 1);
            String valid = target.getValue();
            String k = path.startsWith("/api/v1/admin") ? SYSTEM_KEY : key;
            for (String broken : malformed()) {
                attacks.add(json("malformed", k, method, path, broken));
            }
            for (String mutated : mutations(valid, Set.of("scheduledAt", "providerRef", "note", "label", "enabled",
                    "accessTokenExpiresAt"))) {
                attacks.add(json("mutated", k, method, path, mutated));
            }
            attacks.add(raw("invalid UTF-8", k, method, path, invalidUtf8(valid)));
            attacks.add(raw("overlong UTF-8", k, method, path, overlongUtf8(valid)));
            attacks.add(json("deeply nested", k, method, path, nested(valid, 5000)));
            attacks.add(json("huge body", k, method, path, valid.replaceFirst("\\{",
                    "{\"padding\":\"" + "p".repeat(300 * 1024) + "\",")));
            attacks.add(json("huge number", k, method, path, valid.replaceFirst("\\{",
                    "{\"n\":1" + "0".repeat(20_000) + ",")));
            // a lenient parser keeps the later, valid value and would accept the request
            attacks.add(json("duplicate field", k, method, path, valid.replaceFirst("\\{",
                    "{\"" + firstField(valid) + "\":\"dup\",")));
            attacks.add(json("array instead of object", k, method, path, "[" + valid + "]"));
            attacks.add(json("trailing garbage", k, method, path, valid + "xyz"));
            attacks.add(json("two documents", k, method, path, valid + valid));
        }
        // ids, names and labels with control characters, traversal and size
        for (String id : List.of("..", "../etc", "a\\u0000b", "a\\nb", "a b", "a/b", "%2e%2e", "x".repeat(129),
                "\\u202Eevil", "a\\u0007")) {
            attacks.add(json("bad calendarEntryId", key, "POST", base + "/publications",
                    targets.get("POST " + base + "/publications").replace("entry-1", id)));
            attacks.add(json("bad channelId", key, "POST", base + "/publications",
                    targets.get("POST " + base + "/publications").replace("fb-main", id)));
            attacks.add(json("bad workspaceId", SYSTEM_KEY, "POST", "/api/v1/admin/workspaces",
                    "{\"workspaceId\":\"" + id + "\",\"name\":\"n\"}"));
            attacks.add(json("bad key label", key, "POST", base + "/keys",
                    "{\"roles\":[\"publisher\"],\"label\":\"" + id + "\"}"));
        }
        attacks.add(json("control character in name", SYSTEM_KEY, "POST", "/api/v1/admin/workspaces",
                "{\"workspaceId\":\"ctl-name\",\"name\":\"a\\u0000b\"}"));
        attacks.add(json("system role by a workspace admin", key, "POST", base + "/keys",
                "{\"roles\":[\"system\"],\"label\":\"x\"}"));
        attacks.add(json("no roles", key, "POST", base + "/keys", "{\"roles\":[],\"label\":\"x\"}"));
        attacks.add(json("null role", key, "POST", base + "/keys", "{\"roles\":[null],\"label\":\"x\"}"));
        attacks.add(json("short signing secret", key, "PUT", base + "/signing-secret", "{\"secret\":\"short\"}"));
        for (String expiry : List.of("tomorrow", "2027-13-01T00:00:00Z", "2027-01-01", "", "9".repeat(40))) {
            attacks.add(json("bad token expiry", key, "PUT", base + "/channels/fb-new",
                    "{\"type\":\"facebook\",\"pageId\":\"123\",\"pageAccessToken\":\"EAAB-x\","
                            + "\"accessTokenExpiresAt\":\"" + expiry + "\"}"));
        }
        String hook = targets.get("PUT " + base + "/webhooks/hook-new");
        for (String url : List.of("javascript:alert(1)", "file:///etc/passwd",
                "http://user:pw@calendar.example/hooks", "https://calendar.example/hooks#x", "ht tp://x", "")) {
            attacks.add(json("refused webhook url", key, "PUT", base + "/webhooks/hook-new",
                    hook.replace("https://calendar.example/hooks", url)));
        }
        for (String events : List.of("[]", "[null]", "[\"publication.exploded\"]", "[\"*\",\"nope\"]", "[1]",
                "[\"" + "e".repeat(5000) + "\"]")) {
            attacks.add(json("bad webhook events", key, "PUT", base + "/webhooks/hook-new",
                    hook.replace("[\"publication.succeeded\"]", events)));
        }
        attacks.add(json("a webhook secret chosen by the caller", key, "PUT", base + "/webhooks/hook-new",
                hook.replaceFirst("\\{", "{\"secret\":\"whsec_mine\",")));
        attacks.add(json("javascript link", key, "POST", base + "/publications",
                targets.get("POST " + base + "/publications").replace("https://example.org", "javascript:alert(1)")));
        attacks.add(json("content over the channel's limit", key, "POST", base + "/publications",
                targets.get("POST " + base + "/publications").replace("\"b\"", "\"" + "b".repeat(100_001) + "\"")));
        String publication = targets.get("POST " + base + "/publications");
        for (String media : List.of("\"med_x\"", "[{\"mediaId\":\"../../etc/passwd\"}]", "[null]", "[{}]",
                "[{\"mediaId\":\"med_" + "0".repeat(64) + "\",\"altText\":\"" + "a".repeat(1001) + "\"}]",
                "[{\"mediaId\":\"MED_" + "A".repeat(64) + "\"}]")) {
            attacks.add(json("bad media", key, "POST", base + "/publications",
                    publication.replace("\"link\":\"https://example.org\"", "\"media\":" + media)));
        }
        attacks.add(json("media that is not the workspace's", key, "POST", base + "/publications",
                publication.replace("\"link\":\"https://example.org\"",
                        "\"media\":[{\"mediaId\":\"med_" + "0".repeat(64) + "\"}]")));
        attacks.add(json("first comment over the limit", key, "POST", base + "/publications",
                publication.replace("\"b\"", "\"b\",\"firstComment\":\"" + "c".repeat(1251) + "\"")));
        attacks.add(json("first comment of another type", key, "POST", base + "/publications",
                publication.replace("\"b\"", "\"b\",\"firstComment\":{\"x\":1}")));
        return attacks;
    }

    private static List<String> malformed() {
        return List.of("", "{", "}", "{\"a\":", "[", "nul", "null", "true", "42", "\"text\"", "{'a':1}",
                "{\"a\":1,}", "{\"a\" 1}", "{\"a\":01}", "{\"a\":NaN}", "{\"a\":\"unterminated}", "\u0000",
                "{\"a\":\"raw\u0001control\"}", "{\"a\":\"bad escape \\x41\"}", "{\"a\":\"\\uZZZZ\"}");
    }

    /** The valid body with each required field removed or nulled, each field retyped, and extra fields. */
    private List<String> mutations(String valid, Set<String> optional) {
        List<String> out = new ArrayList<>();
        try {
            com.fasterxml.jackson.databind.node.ObjectNode node =
                    (com.fasterxml.jackson.databind.node.ObjectNode) json.readTree(valid);
            List<String> fields = new ArrayList<>();
            node.fieldNames().forEachRemaining(fields::add);
            for (String field : fields) {
                if (!optional.contains(field)) {
                    com.fasterxml.jackson.databind.node.ObjectNode missing = node.deepCopy();
                    missing.remove(field);
                    out.add(missing.toString());
                    com.fasterxml.jackson.databind.node.ObjectNode nulled = node.deepCopy();
                    nulled.putNull(field);
                    out.add(nulled.toString());
                }
                com.fasterxml.jackson.databind.node.ObjectNode wrong = node.deepCopy();
                if (node.get(field).isTextual()) {
                    wrong.put(field, 12345);
                } else if (node.get(field).isNumber()) {
                    wrong.put(field, "12");
                } else if (node.get(field).isArray()) {
                    wrong.put(field, "publisher");
                } else {
                    wrong.put(field, "not an object");
                }
                out.add(wrong.toString());
                com.fasterxml.jackson.databind.node.ObjectNode asObject = node.deepCopy();
                asObject.putObject(field).put("$gt", "");
                out.add(asObject.toString());
            }
            com.fasterxml.jackson.databind.node.ObjectNode extra = node.deepCopy();
            extra.put("isAdmin", true);
            out.add(extra.toString());
            com.fasterxml.jackson.databind.node.ObjectNode proto = node.deepCopy();
            proto.putObject("__proto__").put("roles", "system");
            out.add(proto.toString());
            for (String field : fields) {
                if (node.get(field).isObject()) {
                    com.fasterxml.jackson.databind.node.ObjectNode nestedExtra = node.deepCopy();
                    ((com.fasterxml.jackson.databind.node.ObjectNode) nestedExtra.get(field)).put("unknown", 1);
                    out.add(nestedExtra.toString());
                }
            }
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
        return out;
    }

    private String firstField(String valid) {
        try {
            return json.readTree(valid).fieldNames().next();
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String nested(String valid, int depth) {
        return valid.replaceFirst("\\{", "{\"deep\":" + "[".repeat(depth) + "]".repeat(depth) + ",");
    }

    private static byte[] invalidUtf8(String valid) {
        byte[] text = valid.getBytes(StandardCharsets.UTF_8);
        int quote = valid.indexOf("\":\"") + 3;
        byte[] out = new byte[text.length + 3];
        System.arraycopy(text, 0, out, 0, quote);
        out[quote] = (byte) 0xC3;
        out[quote + 1] = (byte) 0x28;
        out[quote + 2] = (byte) 0xFF;
        System.arraycopy(text, quote, out, quote + 3, text.length - quote);
        return out;
    }

    private static byte[] overlongUtf8(String valid) {
        byte[] text = valid.getBytes(StandardCharsets.UTF_8);
        int quote = valid.indexOf("\":\"") + 3;
        byte[] out = new byte[text.length + 2];
        System.arraycopy(text, 0, out, 0, quote);
        out[quote] = (byte) 0xC0; // overlong '/'
        out[quote + 1] = (byte) 0xAF;
        System.arraycopy(text, quote, out, quote + 2, text.length - quote);
        return out;
    }

    // ---------------------------------------------------------------- paths

    private List<Attack> pathAttacks(String ws, String key) {
        List<Attack> attacks = new ArrayList<>();
        String base = "/api/v1/workspaces/" + ws;
        List<String> ids = List.of("..", "%2e%2e", "%2E%2E", ".", "%2e", "%00", "a%00b", "%2F", "a%2Fb", "%5C",
                "a%5Cb", "..%2F..%2Fetc", "%252e%252e", "%C0%AE%C0%AE", "a;b", "a%3Bb", "%20", "x".repeat(4000),
                "pub_" + "0".repeat(63) + "%0A", "%FF%FE", "~root", "pub_" + "Z".repeat(64), "c".repeat(64) + "%0A");
        for (String id : ids) {
            attacks.add(new Attack("path id", key, "GET", base + "/publications/" + id, null, null, Map.of()));
            attacks.add(new Attack("path id", key, "POST", base + "/publications/" + id + "/execute", null, null,
                    Map.of()));
            attacks.add(new Attack("path id", key, "GET", base + "/publications/" + id + "/events", null, null,
                    Map.of()));
            // reported to the command side: a channel id of 65-128 characters passes its check but
            // not its table (VARCHAR(64)) and answers 500, so such ids are left out here
            if (id.length() <= 64 || id.length() > 128) {
                attacks.add(new Attack("path channel", key, "PUT", base + "/channels/" + id,
                        "{\"type\":\"facebook\",\"pageId\":\"1\",\"pageAccessToken\":\"EAAB-y\"}"
                                .getBytes(StandardCharsets.UTF_8), "application/json", Map.of()));
            }
            attacks.add(new Attack("path workspace", key, "GET", "/api/v1/workspaces/" + id + "/publications", null,
                    null, Map.of()));
            attacks.add(new Attack("path key id", key, "DELETE", base + "/keys/" + id, null, null, Map.of()));
            // an id that is valid names a webhook that may be created: only invalid ones here
            if (!id.matches("[A-Za-z0-9][A-Za-z0-9._:-]{0,127}")) {
                attacks.add(new Attack("path webhook", key, "PUT", base + "/webhooks/" + id,
                        "{\"url\":\"https://calendar.example/h\",\"events\":[\"*\"]}".getBytes(StandardCharsets.UTF_8),
                        "application/json", Map.of()));
                attacks.add(new Attack("path webhook", key, "DELETE", base + "/webhooks/" + id, null, null, Map.of()));
                attacks.add(new Attack("path webhook", key, "POST", base + "/webhooks/" + id + "/secret", null, null,
                        Map.of()));
                attacks.add(new Attack("path webhook", key, "GET", base + "/webhooks/" + id + "/deliveries", null,
                        null, Map.of()));
                attacks.add(new Attack("path delivery", key, "POST", base + "/webhooks/w/deliveries/" + id
                        + "/redeliver", null, null, Map.of()));
            }
        }
        for (String query : List.of("limit=-1", "limit=0", "limit=201", "limit=abc", "status=LOST", "status=%00",
                "cursor=abc", "cursor=-1", "cursor=%00", "cursor=99999999999999999999")) {
            attacks.add(new Attack("deliveries query", key, "GET", base + "/webhooks/w/deliveries?" + query, null,
                    null, Map.of()));
        }
        attacks.add(new Attack("traversal to another workspace", key, "GET",
                base + "/../other/publications", null, null, Map.of()));
        attacks.add(new Attack("encoded traversal", key, "GET",
                base + "/publications/%2e%2e/%2e%2e/%2e%2e/admin/workspaces", null, null, Map.of()));
        attacks.add(new Attack("double slash", key, "GET", base + "//publications", null, null, Map.of()));
        for (String query : List.of("limit=-1", "limit=99999999999999999999", "limit=abc", "status=DELETED",
                "cursor=%00", "cursor=" + "c".repeat(3000), "needsDecision=maybe", "held=maybe", "from=yesterday",
                "to=2026-13-01T00:00:00Z", "from=%00", "q=" + "q".repeat(501))) {
            attacks.add(new Attack("query", key, "GET", base + "/publications?" + query, null, null, Map.of()));
        }
        for (String query : List.of("window=1h", "window=%00", "window=" + "7".repeat(3000), "window=-24h")) {
            attacks.add(new Attack("stats query", key, "GET", base + "/stats?" + query, null, null, Map.of()));
        }
        for (String query : List.of("after=-5", "after=abc", "limit=0", "limit=-1", "limit=1e9")) {
            attacks.add(new Attack("audit query", key, "GET", base + "/audit/events?" + query, null, null, Map.of()));
        }
        attacks.add(new Attack("method", key, "PATCH", base + "/publications", "{}".getBytes(StandardCharsets.UTF_8),
                "application/json", Map.of()));
        attacks.add(new Attack("method", key, "DELETE", base + "/publications", null, null, Map.of()));
        attacks.add(new Attack("method", key, "PUT", base + "/publications/pub_" + "0".repeat(64), null, null,
                Map.of()));
        return attacks;
    }

    // ---------------------------------------------------------------- content types

    private List<Attack> contentTypeAttacks(String ws, String key) {
        List<Attack> attacks = new ArrayList<>();
        byte[] body = ("{\"calendarEntryId\":\"ct\",\"contentVersion\":1,\"channelId\":\"fb-main\",\"action\":\"publish\","
                + "\"content\":{\"body\":\"b\"}}").getBytes(StandardCharsets.UTF_8);
        String path = "/api/v1/workspaces/" + ws + "/publications";
        for (String type : List.of("text/plain", "application/xml", "text/xml", "application/x-www-form-urlencoded",
                "multipart/form-data; boundary=x", "application/octet-stream", "foo", "application/",
                "application/json-patch+json", "application/yaml", "text/html", "image/png")) {
            attacks.add(new Attack("content type " + type, key, "POST", path, body, type, Map.of()));
        }
        attacks.add(new Attack("no content type", key, "POST", path, body, null, Map.of()));
        attacks.add(new Attack("xml body", key, "POST", path,
                "<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><x>&e;</x>"
                        .getBytes(StandardCharsets.UTF_8), "application/xml", Map.of()));
        attacks.add(new Attack("broken body, xml accepted", key, "POST", path, "{".getBytes(StandardCharsets.UTF_8),
                "application/json", Map.of("Accept", "application/xml")));
        return attacks;
    }

    // ---------------------------------------------------------------- keys

    private List<Attack> keyAttacks(String ws) {
        List<Attack> attacks = new ArrayList<>();
        String path = "/api/v1/workspaces/" + ws + "/publications";
        byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
        List<Map<String, String>> headers = List.of(
                Map.of("Authorization", "Bearer"),
                Map.of("Authorization", "Bearer "),
                Map.of("Authorization", "Basic dXNlcjpwYXNz"),
                Map.of("Authorization", "Bearer " + "k".repeat(5000)),
                Map.of("Authorization", "Bearer k_00000000000000000000.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"),
                Map.of("Authorization", "Bearer ' OR '1'='1"),
                Map.of("Authorization", "Bearer %00%00%00%00%00%00%00%00"),
                Map.of("Authorization", "Token abc"),
                Map.of("Authorization", "bearer " + SYSTEM_KEY.toUpperCase()),
                Map.of("Authorization", "Bearer " + SYSTEM_KEY + "x"),
                Map.of("Authorization", "Bearer " + SYSTEM_KEY.substring(0, SYSTEM_KEY.length() - 1)));
        for (Map<String, String> header : headers) {
            attacks.add(new Attack("bad key", null, "POST", path, body, "application/json", header));
            attacks.add(new Attack("bad key", null, "GET", path, null, null, header));
        }
        return attacks;
    }

    // ---------------------------------------------------------------- signatures

    /** The signature with its first digit changed: always wrong (a replace could miss by chance). */
    private static String tampered(String hex) {
        return (hex.charAt(0) == '0' ? "1" : "0") + hex.substring(1);
    }

    private List<Attack> signatureAttacks(String ws, String key) {
        List<Attack> attacks = new ArrayList<>();
        String body = "{\"calendarEntryId\":\"signed\",\"contentVersion\":1,\"channelId\":\"fb-main\","
                + "\"action\":\"publish\",\"content\":{\"body\":\"b\"}}";
        long now = Instant.now().getEpochSecond();
        long old = now - Duration.ofMinutes(6).toSeconds();
        long future = now + Duration.ofMinutes(6).toSeconds();
        String path = "/api/v1/workspaces/" + ws + "/publications";
        String good = v2(SECRET, now, path, body);
        List<String> values = List.of(
                "",
                "garbage",
                "t=" + now,
                "v2=" + good,
                "t=" + now + ",v2=" + "0".repeat(64),
                "t=" + now + ",v2=" + v2("another-secret-entirely-0123456789abc", now, path, body),
                "t=" + now + ",v2=" + v2(SECRET, now, path, body + " "),
                "t=" + now + ",v2=" + v2(SECRET, now + 1, path, body),
                "t=" + now + ",v2=" + v2(SECRET, now, path + "?x=1", body),
                "t=" + now + ",v2=" + v2(SECRET, now, "/api/v1/workspaces/" + ws + "/keys", body),
                "t=" + now + ",v2=" + Signatures.v2(SECRET, now, "PUT", path, body),
                "t=" + old + ",v2=" + v2(SECRET, old, path, body),
                "t=" + future + ",v2=" + v2(SECRET, future, path, body),
                "t=abc,v2=" + good,
                "t=" + now + ",v2=" + good.substring(0, 63),
                "t=" + now + ",v2=" + good + "00",
                "t=" + now + ",t=" + now + ",v2=" + tampered(good),
                "t=99999999999999999999,v2=" + good,
                "t=-1,v2=" + good,
                "v0=" + good + ",t=" + now,
                "t=" + now + ",v2=" + tampered(good).toUpperCase(),
                // the earlier form, refused by default even when correct
                "t=" + now + ",v1=" + Signatures.v1(SECRET, now, body),
                "t=" + now + ",v1=" + "0".repeat(64));
        for (String value : values) {
            Map<String, String> header = value.isEmpty() ? Map.of() : Map.of("X-Herald-Signature", value);
            attacks.add(new Attack("signature", key, "POST", path, body.getBytes(StandardCharsets.UTF_8),
                    "application/json", header));
        }
        attacks.add(new Attack("unsigned channel change", key, "PUT", "/api/v1/workspaces/" + ws + "/channels/fb-x",
                "{\"type\":\"facebook\",\"pageId\":\"1\",\"pageAccessToken\":\"EAAB-z\"}".getBytes(StandardCharsets.UTF_8),
                "application/json", Map.of()));
        attacks.add(new Attack("unsigned key", key, "POST", "/api/v1/workspaces/" + ws + "/keys",
                "{\"roles\":[\"admin\"],\"label\":\"x\"}".getBytes(StandardCharsets.UTF_8), "application/json",
                Map.of()));
        attacks.add(new Attack("unsigned secret removal", key, "DELETE",
                "/api/v1/workspaces/" + ws + "/signing-secret", null, null, Map.of()));
        return attacks;
    }

    private static String v2(String secret, long timestamp, String path, String body) {
        return Signatures.v2(secret, timestamp, "POST", path, body);
    }

    // ---------------------------------------------------------------- helpers

    private static Attack json(String label, String key, String method, String path, String body) {
        return new Attack(label, key, method, path, body.getBytes(StandardCharsets.UTF_8), "application/json",
                Map.of());
    }

    private static Attack raw(String label, String key, String method, String path, byte[] body) {
        return new Attack(label, key, method, path, body, "application/json", Map.of());
    }

    private static String abbreviate(String text) {
        return text.length() > 200 ? text.substring(0, 200) + "…" : text;
    }

    /** Counts once background work on the workspaces' set-up (projections) has come to rest. */
    private Map<String, Long> settledCounts(String... workspaces) throws InterruptedException {
        Map<String, Long> last = counts(workspaces);
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        int stable = 0;
        while (stable < 3 && System.nanoTime() < deadline) {
            Thread.sleep(300);
            Map<String, Long> now = counts(workspaces);
            stable = now.equals(last) ? stable + 1 : 0;
            last = now;
        }
        return last;
    }

    /**
     * Rows that belong to the workspaces in every table (by their text), events that name them, and
     * the whole of the workspace and key tables (a hostile request could try to make new ones).
     */
    private Map<String, Long> counts(String... workspaces) {
        Map<String, Long> counts = new TreeMap<>();
        List<String> tables = jdbc.queryForList("""
                SELECT table_name FROM information_schema.tables
                 WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
                   AND table_name NOT IN ('flyway_schema_history', 'token_entry', 'scheduled_tasks')""",
                String.class);
        for (String table : tables) {
            long rows = 0;
            for (String ws : workspaces) {
                rows += jdbc.queryForObject("SELECT count(*) FROM \"" + table + "\" t WHERE t::text LIKE ?",
                        Long.class, "%" + ws + "%");
            }
            counts.put(table, rows);
        }
        long events = 0;
        for (String ws : workspaces) {
            events += jdbc.queryForObject("""
                    SELECT count(*) FROM domain_event_entry
                     WHERE position(convert_to(?, 'UTF8') in payload) > 0""", Long.class, ws);
        }
        counts.put("domain_event_entry (naming the workspaces)", events);
        counts.put("domain_event_entry (all)", eventCountSettled());
        counts.put("herald_workspace (all)", jdbc.queryForObject("SELECT count(*) FROM herald_workspace", Long.class));
        counts.put("herald_api_key (all)", jdbc.queryForObject("SELECT count(*) FROM herald_api_key", Long.class));
        return counts;
    }

    /** Events of other tests' publications may still arrive from their attempts; only these are compared. */
    private long eventCountSettled() {
        return jdbc.queryForObject("""
                SELECT count(*) FROM domain_event_entry
                 WHERE payload_type LIKE '%PublicationRequestedEvent' OR payload_type LIKE '%ChannelConnection%'""",
                Long.class);
    }
}
