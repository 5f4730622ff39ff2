package io.herald.deploy.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * Every endpoint of docs/api.md#authentication-and-roles (and the few extra ones Herald serves) against every kind of caller:
 * no key, each role, the system key, a revoked key and another workspace's key. Also every
 * actuator path, open or not, and paths and methods no rule names: those are refused for every
 * key (deny by default).
 */
class RoleMatrixIT extends SecurityIntegrationTest {

    private static final String NONE = "no key";
    private static final String SYSTEM = "system";
    private static final String REVOKED = "revoked key";
    private static final String OTHER = "other workspace (all roles)";

    /**
     * One endpoint: who may call it, and what an allowed caller gets. {@code pending} marks an
     * endpoint docs/api.md names that no module serves yet: there an allowed caller gets 404/405.
     */
    private record Endpoint(String method, String path, String body, Set<String> roles, Set<Integer> allowed,
                            boolean pending, boolean open, byte[] image) {
        Endpoint(String method, String path, String body, Set<String> roles, Set<Integer> allowed, boolean pending) {
            this(method, path, body, roles, allowed, pending, false, null);
        }

        /** Open for reading to every caller, with or without a key. */
        static Endpoint openRead(String method, String path, Integer... statuses) {
            return new Endpoint(method, path, null, Set.of(), Set.of(statuses), false, true, null);
        }

        /** Named by no rule: refused for every key. */
        static Endpoint unlisted(String method, String path, String body) {
            return new Endpoint(method, path, body, Set.of(), Set.of(), false, false, null);
        }

        /** A media upload: the body is a PNG, not JSON. */
        static Endpoint upload(String path, byte[] png, Set<String> roles, Integer... statuses) {
            return new Endpoint("POST", path, null, roles, Set.of(statuses), false, false, png);
        }

        boolean workspacePath() {
            return path.startsWith("/api/v1/workspaces/");
        }
    }

    private final AtomicInteger entries = new AtomicInteger(100);
    private String disposableKeyId;
    private String mediaId;
    /** A 1 x 1 PNG: the upload in the matrix and the media its reads find. */
    private static final byte[] MATRIX_PNG = java.util.Base64.getDecoder().decode(
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==");

    @Test
    void everyEndpointAnswersEveryCallerAsTheMatrixSays() {
        SecuredWorkspace a = securedWorkspace("matrix", "EAAB-matrix-token");
        SecuredWorkspace b = securedWorkspace("matrix-other", "EAAB-matrix-other-token");
        String revoked = createKey(a.id(), ROLES, "revoked");
        String revokedId = revoked.substring(0, revoked.indexOf('.'));
        assertThat(sendAs(a.key("admin"), "DELETE", "/api/v1/workspaces/" + a.id() + "/keys/" + revokedId, null)
                .status()).isEqualTo(204);
        String otherKey = createKey(b.id(), ROLES, "other");
        String disposable = createKey(a.id(), List.of("publisher"), "disposable");
        disposableKeyId = disposable.substring(0, disposable.indexOf('.'));
        awaitJson("/api/v1/workspaces/" + a.id() + "/publications/" + a.publicationId(), v -> true);
        Response uploaded = sendBytesAs(a.key("publisher"), "POST", "/api/v1/workspaces/" + a.id() + "/media",
                MATRIX_PNG, "image/png", Map.of());
        assertThat(uploaded.status()).as(uploaded.toString()).isEqualTo(201);
        mediaId = uploaded.json().get("mediaId").asText();

        Map<String, String> callers = new LinkedHashMap<>();
        callers.put(NONE, null);
        ROLES.forEach(role -> callers.put(role, a.key(role)));
        callers.put(SYSTEM, SYSTEM_KEY);
        callers.put(REVOKED, revoked);
        callers.put(OTHER, otherKey);

        Map<String, Integer> counts = new TreeMap<>();
        int requests = 0;
        SoftAssertions softly = new SoftAssertions();
        for (Endpoint endpoint : endpoints(a)) {
            for (Map.Entry<String, String> caller : callers.entrySet()) {
                String body = endpoint.body() == null ? null
                        : endpoint.body().replace("{entry}", "entry-" + entries.incrementAndGet());
                Response response = endpoint.image() != null
                        ? sendBytesAs(caller.getValue(), "POST", endpoint.path(), endpoint.image(), "image/png", Map.of())
                        : sendAs(caller.getValue(), endpoint.method(), endpoint.path(), body);
                requests++;
                String label = caller.getKey() + " " + endpoint.method() + " " + endpoint.path() + " -> " + response;
                String expectation = expect(endpoint, caller.getKey(), response, label, softly);
                counts.merge(expectation, 1, Integer::sum);
            }
        }
        System.out.printf("role matrix: %d endpoints x %d callers = %d requests; by expectation %s%n",
                endpoints(a).size(), callers.size(), requests, counts);
        softly.assertAll();
        assertThat(requests).isEqualTo(endpoints(a).size() * callers.size());
    }

    private static String expect(Endpoint endpoint, String caller, Response response, String label,
                                 SoftAssertions softly) {
        if (endpoint.open()) {
            softly.assertThat(response.status()).as(label).isIn(endpoint.allowed().toArray());
            return "open";
        }
        if (caller.equals(NONE) || caller.equals(REVOKED)) {
            problem(softly, response, 401, "unauthenticated", label);
            return "401 unauthenticated";
        }
        if (caller.equals(OTHER) && endpoint.workspacePath()) {
            problem(softly, response, 404, "not_found", label);
            return "404 other workspace";
        }
        boolean allowed = caller.equals(OTHER) ? endpoint.roles().containsAll(ROLES)
                : endpoint.roles().contains(caller);
        if (!allowed) {
            problem(softly, response, 403, "forbidden", label);
            if (endpoint.roles().isEmpty() && response.contentType().startsWith("application/problem+json")) {
                softly.assertThat(response.json().path("detail").asText()).as(label)
                        .isEqualTo("no key may send this method to this path");
                return "403 no rule names it";
            }
            return "403 forbidden";
        }
        if (endpoint.pending()) {
            softly.assertThat(response.status()).as(label).isIn(404, 405);
            return "allowed, endpoint not served yet (404/405)";
        }
        softly.assertThat(response.status()).as(label).isIn(endpoint.allowed().toArray());
        return "allowed";
    }

    private static void problem(SoftAssertions softly, Response response, int status, String code, String label) {
        softly.assertThat(response.status()).as(label).isEqualTo(status);
        softly.assertThat(response.contentType()).as(label).startsWith("application/problem+json");
        if (response.contentType().startsWith("application/problem+json")) {
            JsonNode json = response.json();
            softly.assertThat(json.path("code").asText()).as(label).isEqualTo(code);
            softly.assertThat(json.path("status").asInt()).as(label).isEqualTo(status);
        }
    }

    private List<Endpoint> endpoints(SecuredWorkspace a) {
        String ws = "/api/v1/workspaces/" + a.id();
        String pub = ws + "/publications/" + a.publicationId();
        String newPublication = "{\"calendarEntryId\":\"{entry}\",\"contentVersion\":1,\"channelId\":\"fb-main\","
                + "\"action\":\"publish\",\"content\":{\"body\":\"matrix {entry}\"}}";
        String channel = "{\"type\":\"facebook\",\"pageId\":\"1234567890\",\"pageAccessToken\":\"EAAB-matrix-token\"}";
        List<Endpoint> list = new ArrayList<>();
        list.add(new Endpoint("POST", ws + "/publications", newPublication, Set.of("publisher"), Set.of(202), false));
        list.add(new Endpoint("GET", ws + "/publications", null, Set.of("publisher", "operator", "auditor"),
                Set.of(200), false));
        list.add(new Endpoint("GET", pub, null, Set.of("publisher", "operator", "auditor"), Set.of(200), false));
        // the view as it stood at an instant is for those who look back; the calendar system reads it as it is
        list.add(new Endpoint("GET", pub + "?asOf=" + java.time.Instant.now().plusSeconds(3600), null,
                Set.of("operator", "auditor"), Set.of(200), false));
        // the first allowed execute starts an attempt; the state then refuses repeats with 409
        list.add(new Endpoint("POST", pub + "/execute", null, Set.of("publisher"), Set.of(202, 409), false));
        list.add(new Endpoint("GET", ws + "/decisions", null, Set.of("operator"), Set.of(200), false));
        list.add(new Endpoint("POST", pub + "/decisions", "{\"decision\":\"confirm_not_published\",\"note\":\"m\"}",
                Set.of("operator"), Set.of(200, 409), false));
        list.add(new Endpoint("POST", pub + "/reconcile", null, Set.of("operator"), Set.of(200, 202, 409, 422), false));
        list.add(new Endpoint("GET", ws + "/counts", null, Set.of("operator", "auditor"), Set.of(200), false));
        list.add(new Endpoint("GET", ws + "/stats", null, Set.of("operator", "auditor"), Set.of(200), false));
        list.add(new Endpoint("GET", ws + "/channels", null, Set.of("publisher", "operator", "admin"), Set.of(200),
                false));
        list.add(new Endpoint("GET", ws + "/channel-types", null, Set.of("publisher", "operator", "admin"),
                Set.of(200), false));
        list.add(new Endpoint("PUT", ws + "/channels/fb-main", channel, Set.of("admin"), Set.of(200, 201), false));
        list.add(new Endpoint("POST", ws + "/channels/fb-main/probe", null, Set.of("admin"), Set.of(200), false));
        list.add(new Endpoint("POST", ws + "/channels/fb-oauth/connect", "{\"type\":\"facebook\"}", Set.of("admin"),
                Set.of(200), false));
        list.add(new Endpoint("POST", ws + "/channels/fb-oauth/connect/choice", "{\"state\":\"x.y\",\"id\":\"1\"}",
                Set.of("admin"), Set.of(400), false));
        // webhooks: admin manages, operator reads and redelivers (the PUT comes first, so the rest find it)
        String hook = ws + "/webhooks/matrix";
        list.add(new Endpoint("PUT", hook, "{\"url\":\"https://calendar.example/matrix\",\"events\":[\"*\"]}",
                Set.of("admin"), Set.of(200, 201), false));
        list.add(new Endpoint("GET", ws + "/webhooks", null, Set.of("admin", "operator"), Set.of(200), false));
        list.add(new Endpoint("POST", hook + "/secret", null, Set.of("admin"), Set.of(200), false));
        list.add(new Endpoint("POST", hook + "/resume", null, Set.of("admin"), Set.of(200), false));
        list.add(new Endpoint("GET", hook + "/deliveries", null, Set.of("admin", "operator"), Set.of(200), false));
        // no such delivery: reaching the endpoint's own 404 shows the caller was let through
        list.add(new Endpoint("POST", hook + "/deliveries/msg_none/redeliver", null, Set.of("admin", "operator"),
                Set.of(404), false));
        list.add(new Endpoint("DELETE", ws + "/webhooks/matrix-gone", null, Set.of("admin"), Set.of(204, 404),
                false));
        list.add(new Endpoint("GET", pub + "/events", null, Set.of("auditor"), Set.of(200), false));
        // the same bytes as the set-up's upload: 200 for every allowed caller
        list.add(Endpoint.upload(ws + "/media", MATRIX_PNG, Set.of("publisher"), 200));
        list.add(new Endpoint("GET", ws + "/media/" + mediaId, null, Set.of("publisher", "operator", "auditor"),
                Set.of(200), false));
        list.add(new Endpoint("GET", ws + "/media/" + mediaId + "/content", null,
                Set.of("publisher", "operator", "auditor"), Set.of(200), false));
        list.add(new Endpoint("GET", ws + "/audit/events", null, Set.of("auditor"), Set.of(200), false));
        list.add(new Endpoint("GET", ws + "/audit/verify", null, Set.of("auditor"), Set.of(200), false));
        list.add(new Endpoint("POST", ws + "/keys", "{\"roles\":[\"publisher\"],\"label\":\"matrix\"}",
                Set.of("admin", SYSTEM), Set.of(201), false));
        list.add(new Endpoint("GET", ws + "/keys", null, Set.of("admin", SYSTEM), Set.of(200), false));
        // revoking is idempotent: every allowed caller revokes the same disposable key
        list.add(new Endpoint("DELETE", ws + "/keys/" + disposableKeyId, null, Set.of("admin", SYSTEM),
                Set.of(204), false));
        // an incomplete body: reaching validation (400) shows the caller was let through, and
        // signatures stay off for the rest of the matrix
        list.add(new Endpoint("PUT", ws + "/signing-secret", "{}", Set.of("admin"), Set.of(400), false));
        list.add(new Endpoint("DELETE", ws + "/signing-secret", null, Set.of("admin", SYSTEM), Set.of(204), false));
        list.add(new Endpoint("POST", "/api/v1/admin/workspaces", "{\"workspaceId\":\"" + a.id()
                + "-made\",\"name\":\"made\"}", Set.of(SYSTEM), Set.of(200, 201), false));
        list.add(new Endpoint("GET", "/api/v1/admin/projections", null, Set.of(SYSTEM), Set.of(200), false));
        list.add(new Endpoint("GET", "/api/v1/admin/dead-letters", null, Set.of(SYSTEM), Set.of(200), false));
        // a job resource no job has: the endpoint answers 404 itself (starting jobs is AuditVerificationIT's)
        list.add(new Endpoint("GET", "/api/v1/admin/audit/verify/no-such-job", null, Set.of(SYSTEM), Set.of(404),
                false));
        // everything is under the one configured key already: re-encrypting changes nothing, and may run any time
        list.add(new Endpoint("POST", "/api/v1/admin/secrets/re-encrypt", null, Set.of(SYSTEM), Set.of(200), false));
        list.add(new Endpoint("GET", "/actuator/info", null, Set.of(SYSTEM), Set.of(200), false));
        // a name no projection has: the endpoint answers 404 itself, and nothing is rebuilt under the other tests
        list.add(new Endpoint("POST", "/api/v1/admin/projections/no-such-projection/rebuild", null, Set.of(SYSTEM),
                Set.of(404), false));
        list.add(new Endpoint("GET", "/api/v1/audit/events", null, Set.of(SYSTEM), Set.of(200), false));
        list.add(new Endpoint("GET", "/api/v1/audit/verify", null, Set.of(SYSTEM), Set.of(200), false));
        list.add(new Endpoint("GET", "/api/v1/admin/audit/chain", null, Set.of(SYSTEM), Set.of(200), false));

        // the public keys of the audit checkpoints: anyone may check a signature
        list.add(Endpoint.openRead("GET", "/api/v1/audit/keys", 200));
        // actuator: health (with its subpaths, the probe groups) and the scrape are open, info is the
        // system key's (above); nothing else is. A test application exports no metrics unless asked
        // to: there 404 shows the request was let through, not refused
        list.add(Endpoint.openRead("GET", "/actuator/health", 200));
        list.add(Endpoint.openRead("HEAD", "/actuator/health", 200));
        list.add(Endpoint.openRead("GET", "/actuator/health/liveness", 200));
        list.add(Endpoint.openRead("GET", "/actuator/health/readiness", 200));
        list.add(Endpoint.openRead("GET", "/actuator/health/db", 200, 404));
        list.add(Endpoint.openRead("GET", "/actuator/prometheus", 200, 404));
        list.add(Endpoint.openRead("GET", "/v3/api-docs", 200));
        list.add(Endpoint.openRead("GET", "/swagger-ui/index.html", 200));
        list.add(Endpoint.openRead("GET", "/console", 200));
        list.add(Endpoint.openRead("GET", "/console/console.js", 200));
        for (String actuator : List.of("/actuator", "/actuator/metrics",
                "/actuator/metrics/jvm.memory.used", "/actuator/env", "/actuator/env/java.home", "/actuator/beans",
                "/actuator/configprops", "/actuator/loggers", "/actuator/mappings", "/actuator/threaddump",
                "/actuator/heapdump", "/actuator/scheduledtasks", "/actuator/conditions", "/actuator/caches",
                "/actuator/sbom", "/actuator/%6Detrics")) {
            list.add(Endpoint.unlisted("GET", actuator, null));
        }
        list.add(Endpoint.unlisted("POST", "/actuator/shutdown", null));
        list.add(Endpoint.unlisted("POST", "/actuator/loggers/ROOT", "{\"configuredLevel\":\"TRACE\"}"));
        // unlisted methods on open and on listed paths
        list.add(Endpoint.unlisted("POST", "/actuator/health", null));
        list.add(Endpoint.unlisted("DELETE", "/console", null));
        list.add(Endpoint.unlisted("PATCH", ws + "/publications", "{}"));
        list.add(Endpoint.unlisted("DELETE", pub, null));
        // an image that does not exist: publishers may delete, and the missing image answers 404 (deleting the
        // matrix's own image would take it from the reads above)
        list.add(new Endpoint("DELETE", ws + "/media/med_" + "0".repeat(64), null, Set.of("publisher"), Set.of(404),
                false));
        list.add(Endpoint.unlisted("PUT", ws + "/media/" + mediaId, null));
        list.add(Endpoint.unlisted("GET", ws + "/media", null));
        list.add(Endpoint.unlisted("PUT", ws + "/keys", "{}"));
        list.add(Endpoint.unlisted("OPTIONS", ws + "/publications", null));
        list.add(Endpoint.unlisted("PUT", "/api/v1/admin/workspaces", "{}"));
        list.add(Endpoint.unlisted("POST", ws + "/webhooks", "{}"));
        list.add(Endpoint.unlisted("GET", ws + "/webhooks/matrix", null));
        // unlisted paths, inside a workspace, beside it and outside the API
        list.add(Endpoint.unlisted("GET", ws + "/nothing-here", null));
        list.add(Endpoint.unlisted("GET", ws, null));
        list.add(Endpoint.unlisted("GET", ws + "/publications/", null));
        list.add(Endpoint.unlisted("GET", "/api/v1/nothing-here", null));
        list.add(Endpoint.unlisted("GET", "/api/v1/admin/nothing-here", null));
        list.add(Endpoint.unlisted("GET", "/api/v1/audit/nothing-here", null));
        list.add(Endpoint.unlisted("GET", "/api/v2/workspaces/" + a.id() + "/publications", null));
        list.add(Endpoint.unlisted("GET", "/nothing-here", null));
        list.add(Endpoint.unlisted("GET", "/error", null));
        return list;
    }

    @Test
    void creatingAWorkspaceTwiceReturnsTheSameOneAndAnotherNameIsRefused() {
        String ws = newWorkspace("twice");
        String body = "{\"workspaceId\":\"" + ws + "\",\"name\":\"Twice\"}";
        assertThat(sendAs(SYSTEM_KEY, "POST", "/api/v1/admin/workspaces", body).status()).isEqualTo(201);
        assertThat(sendAs(SYSTEM_KEY, "POST", "/api/v1/admin/workspaces", body).status()).isEqualTo(200);
        Response renamed = sendAs(SYSTEM_KEY, "POST", "/api/v1/admin/workspaces", body.replace("Twice", "Other"));
        assertThat(renamed.status()).isEqualTo(400);
        assertThat(renamed.json().get("code").asText()).isEqualTo("validation_failed");
    }

    @Test
    void openPathsNeedNoKey() {
        for (String path : List.of("/actuator/health", "/v3/api-docs", "/swagger-ui/index.html", "/console",
                "/console/console.js")) {
            Response response = sendAs(null, "GET", path, null);
            assertThat(response.status()).as(path + " -> " + response).isEqualTo(200);
        }
        JsonNode docs = sendAs(null, "GET", "/v3/api-docs", null).json();
        assertThat(docs.at("/components/securitySchemes/apiKey/scheme").asText()).isEqualTo("bearer");
        assertThat(docs.at("/security/0").has("apiKey")).isTrue();
        // a provider's callback carries no key: its state authenticates it (or it is refused as invalid)
        Response callback = sendAs(null, "GET", "/oauth/callback/facebook?code=c&state=x.y", null);
        assertThat(callback.status()).as(callback.toString()).isEqualTo(400);
        assertThat(callback.json().get("code").asText()).isEqualTo("oauth_state_invalid");
        Response api = sendAs(null, "GET", "/api/v1/workspaces/acme/publications", null);
        assertThat(api.status()).isEqualTo(401);
        Response garbage = sendAs("not-a-key-but-long-enough", "GET", "/api/v1/workspaces/acme/publications", null);
        assertThat(garbage.status()).isEqualTo(401);
        assertThat(garbage.json().get("code").asText()).isEqualTo("unauthenticated");
    }

    @Test
    void anotherWorkspacesPublicationLooksExactlyLikeAMissingOne() {
        SecuredWorkspace a = securedWorkspace("iso-a", "EAAB-iso-a");
        SecuredWorkspace b = securedWorkspace("iso-b", "EAAB-iso-b");
        String missing = "pub_" + "0".repeat(64);
        awaitJson("/api/v1/workspaces/" + b.id() + "/publications/" + b.publicationId(), v -> true);

        Response existing = sendAs(a.key("auditor"), "GET",
                "/api/v1/workspaces/" + b.id() + "/publications/" + b.publicationId(), null);
        Response absent = sendAs(a.key("auditor"), "GET",
                "/api/v1/workspaces/" + b.id() + "/publications/" + missing, null);
        Response ownAbsent = sendAs(a.key("auditor"), "GET",
                "/api/v1/workspaces/" + a.id() + "/publications/" + missing, null);

        assertThat(existing.status()).isEqualTo(404);
        assertThat(withoutInstance(existing)).isEqualTo(withoutInstance(absent));
        assertThat(existing.json().get("code").asText()).isEqualTo("not_found");
        List<String> shape = new ArrayList<>();
        existing.json().fieldNames().forEachRemaining(shape::add);
        List<String> ownShape = new ArrayList<>();
        ownAbsent.json().fieldNames().forEachRemaining(ownShape::add);
        assertThat(shape).containsExactlyInAnyOrderElementsOf(ownShape);
        assertThat(existing.contentType()).isEqualTo(ownAbsent.contentType());
        assertThat(existing.json().get("detail").asText()).doesNotContain(b.id()).doesNotContain(a.id());
    }

    private static JsonNode withoutInstance(Response response) {
        com.fasterxml.jackson.databind.node.ObjectNode copy = response.json().deepCopy();
        copy.remove("instance");
        return copy;
    }
}
