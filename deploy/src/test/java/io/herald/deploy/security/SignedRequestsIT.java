package io.herald.deploy.security;

import io.herald.access.SignatureVerificationFilter;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.deploy.SandboxLoopback;
import io.herald.deploy.process.HeraldProcess;
import io.herald.testsupport.TestDatabase;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Signed requests (docs/api.md#request-signatures, v2): the signature binds the timestamp, the method, the path and query
 * as sent and the body's hash; each is accepted once, on any node; v1 only where configured.
 */
class SignedRequestsIT extends SecurityIntegrationTest {

    private static final String SECRET = "whsec-signed-requests-0123456789abcdefghij";
    private static final String NEW_KEY = "{\"roles\":[\"publisher\"],\"label\":\"signed\"}";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path secondNodeData;

    /** A workspace that requires signatures, with one key holding every role. */
    private record SignedWorkspace(String id, String key) {
        String path(String suffix) {
            return "/api/v1/workspaces/" + id + suffix;
        }
    }

    private SignedWorkspace signedWorkspace(String purpose) {
        String ws = newWorkspace(purpose);
        createWorkspace(ws);
        String key = createKey(ws, ROLES, "signer");
        assertThat(sendAs(key, "PUT", "/api/v1/workspaces/" + ws + "/channels/fb-main",
                "{\"type\":\"facebook\",\"pageId\":\"1234567890\",\"pageAccessToken\":\"EAAB-signed\"}").status())
                .isIn(200, 201);
        Response enabled = sendAs(key, "PUT", "/api/v1/workspaces/" + ws + "/signing-secret",
                "{\"secret\":\"" + SECRET + "\"}");
        assertThat(enabled.status()).as(enabled.toString()).isEqualTo(200);
        assertThat(enabled.body()).doesNotContain(SECRET);
        return new SignedWorkspace(ws, key);
    }

    @Test
    void aWorkspaceWithASigningSecretAcceptsEachCorrectlySignedRequestOnce() {
        SignedWorkspace ws = signedWorkspace("signed");
        // the query is signed as sent, still percent-encoded
        String path = ws.path("/publications") + "?source=calendar%20sync";
        // non-ASCII text: the signature covers the raw bytes, and the same bytes must reach the handler
        String body = "{\"calendarEntryId\":\"entry-s\",\"contentVersion\":2,\"channelId\":\"fb-main\","
                + "\"action\":\"publish\",\"content\":{\"body\":\"Grüße — signed ✓\"}}";
        long now = Instant.now().getEpochSecond();
        String signature = Signatures.v2Header(SECRET, now, "POST", path, body);

        Response unsigned = sendAs(ws.key(), "POST", path, body);
        Response accepted = send(ws.key(), "POST", path, body, signature);
        Response replayed = send(ws.key(), "POST", path, body, signature);
        Response tampered = send(ws.key(), "POST", path, body.replace("signed", "forged"), signature);
        long old = now - 301;
        Response expired = send(ws.key(), "POST", path, body,
                Signatures.v2Header(SECRET, old, "POST", path, body));
        Response read = sendAs(ws.key(), "GET", ws.path("/publications"), null);

        assertSignatureInvalid(unsigned, "is missing");
        assertThat(accepted.status()).as(accepted.toString()).isEqualTo(202);
        assertThat(accepted.json().get("calendarEntryId").asText()).isEqualTo("entry-s");
        assertThat(jdbc.queryForObject("""
                SELECT count(*) FROM domain_event_entry
                 WHERE aggregate_identifier = ? AND position(convert_to(?, 'UTF8') in payload) > 0""",
                Long.class, accepted.json().get("publicationId").asText(), "Grüße — signed ✓"))
                .as("the handler read the very bytes that were signed").isEqualTo(1);
        assertSignatureInvalid(replayed, "already used");
        assertSignatureInvalid(tampered, "does not match");
        assertSignatureInvalid(expired, "outside the tolerance");
        assertThat(read.status()).as("reads need no signature").isEqualTo(200);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM herald_seen_signature WHERE workspace_id = ?",
                Long.class, ws.id())).as("the accepted signature is kept until it expires").isEqualTo(1);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM herald_signing_secret WHERE workspace_id = ?"
                + " AND position(convert_to(?, 'UTF8') in secret_ciphertext) = 0", Long.class, ws.id(), SECRET))
                .as("stored encrypted").isEqualTo(1);

        long later = Instant.now().getEpochSecond();
        Response off = send(ws.key(), "DELETE", ws.path("/signing-secret"), null,
                Signatures.v2Header(SECRET, later, "DELETE", ws.path("/signing-secret"), ""));
        assertThat(off.status()).as(off.toString()).isEqualTo(204);
        assertThat(sendAs(ws.key(), "POST", ws.path("/publications"), body.replace("entry-s", "entry-u")).status())
                .isEqualTo(202);
    }

    @Test
    void aV2SignatureMadeForOneCallIsRefusedOnEveryOtherCall() {
        SignedWorkspace ws = signedWorkspace("bound");
        long now = Instant.now().getEpochSecond();
        String keys = ws.path("/keys");
        String forKeys = Signatures.v2Header(SECRET, now, "POST", keys, NEW_KEY);
        String forRemoval = Signatures.v2Header(SECRET, now, "DELETE", ws.path("/signing-secret"), "");
        long keysBefore = keyCount(ws.id());

        Map<String, Response> elsewhere = new LinkedHashMap<>();
        elsewhere.put("another path", send(ws.key(), "POST", ws.path("/publications"), NEW_KEY, forKeys));
        elsewhere.put("another endpoint's path", send(ws.key(), "POST",
                ws.path("/publications/pub_" + "0".repeat(64) + "/execute"), NEW_KEY, forKeys));
        elsewhere.put("a query added", send(ws.key(), "POST", keys + "?label=other", NEW_KEY, forKeys));
        elsewhere.put("the path spelt encoded", send(ws.key(), "POST",
                keys.replace("/keys", "/%6Beys"), NEW_KEY, forKeys));
        elsewhere.put("another body", send(ws.key(), "POST", keys, NEW_KEY.replace("signed", "other"), forKeys));
        elsewhere.put("another method", send(ws.key(), "PUT", ws.path("/signing-secret"), null, forRemoval));

        SoftAssertions softly = new SoftAssertions();
        elsewhere.forEach((what, response) -> {
            softly.assertThat(response.status()).as(what + " -> " + response).isEqualTo(401);
            softly.assertThat(response.body()).as(what).contains("signature_invalid").contains("does not match");
        });
        softly.assertAll();
        assertThat(keyCount(ws.id())).as("no refused call made a key").isEqualTo(keysBefore);

        // the refusals did not use the signature up: the call it was made for still goes through
        Response intended = send(ws.key(), "POST", keys, NEW_KEY, forKeys);
        assertThat(intended.status()).as(intended.toString()).isEqualTo(201);
        assertThat(keyCount(ws.id())).isEqualTo(keysBefore + 1);
    }

    @Test
    void eachRefusalNamesThePartThatWasWrongAndNeverTheExpectedValue() {
        SignedWorkspace ws = signedWorkspace("refusals");
        String keys = ws.path("/keys");
        long now = Instant.now().getEpochSecond();
        long old = now - 600;
        String v2 = Signatures.v2(SECRET, now, "POST", keys, NEW_KEY);
        String v1 = Signatures.v1(SECRET, now, NEW_KEY);
        String elsewhere = Signatures.v2(SECRET, now, "POST", ws.path("/publications"), NEW_KEY);

        record Case(String header, String detail) {
        }
        Map<String, Case> cases = new LinkedHashMap<>();
        cases.put("missing", new Case(null, SignatureVerificationFilter.HEADER + " is missing"));
        cases.put("blank", new Case(" ", SignatureVerificationFilter.HEADER + " is missing"));
        cases.put("garbage", new Case("garbage", "must look like t=<unix seconds>,v2="));
        cases.put("no timestamp", new Case("v2=" + v2, "must look like t=<unix seconds>,v2="));
        cases.put("no signature", new Case("t=" + now, "must look like t=<unix seconds>,v2="));
        cases.put("short signature", new Case("t=" + now + ",v2=" + v2.substring(1), "must look like"));
        cases.put("two timestamps", new Case("t=" + now + ",t=" + now + ",v2=" + v2, "must carry one t="));
        cases.put("v1 only", new Case("t=" + now + ",v1=" + v1, "v1 signatures are not accepted"));
        cases.put("outside the tolerance", new Case(Signatures.v2Header(SECRET, old, "POST", keys, NEW_KEY),
                "timestamp is outside the tolerance"));
        cases.put("mismatch", new Case("t=" + now + ",v2=" + elsewhere, "v2 signature does not match"));

        SoftAssertions softly = new SoftAssertions();
        cases.forEach((what, c) -> {
            Response response = send(ws.key(), "POST", keys, NEW_KEY, c.header());
            assertRefusal(softly, what, response, c.detail(), List.of(v2, v1,
                    Signatures.v2(SECRET, old, "POST", keys, NEW_KEY), SECRET));
        });
        Response first = send(ws.key(), "POST", keys, NEW_KEY, "t=" + now + ",v2=" + v2);
        softly.assertThat(first.status()).as(first.toString()).isEqualTo(201);
        assertRefusal(softly, "reused", send(ws.key(), "POST", keys, NEW_KEY, "t=" + now + ",v2=" + v2),
                "already used", List.of(SECRET));
        softly.assertAll();
    }

    /**
     * A second Herald node (its own process, as in a cluster) on the same database, started with
     * v1 signatures allowed: v1 is refused on the first node (the default) and accepted on the
     * second; a signature used on either node is refused on the other.
     */
    @Test
    void v1IsAcceptedOnlyWithItsFlagAndASignatureIsUsedOnceAcrossNodes() throws Exception {
        SignedWorkspace ws = signedWorkspace("nodes");
        String keys = ws.path("/keys");
        HeraldProcess nodeB = secondNode();
        try {
            nodeB.start();
            int portB = nodeB.port();
            long now = Instant.now().getEpochSecond();
            String v1 = "t=" + now + ",v1=" + Signatures.v1(SECRET, now, NEW_KEY);

            assertSignatureInvalid(send(ws.key(), "POST", keys, NEW_KEY, v1), "v1 signatures are not accepted");
            Response v1OnB = sendTo(portB, ws.key(), "POST", keys, NEW_KEY, v1);
            assertThat(v1OnB.status()).as("v1 accepted where the flag is on: " + v1OnB).isEqualTo(201);
            assertSignatureInvalid(sendTo(portB, ws.key(), "POST", keys, NEW_KEY, v1), "already used");

            String usedOnA = Signatures.v2Header(SECRET, now, "POST", keys, NEW_KEY);
            assertThat(send(ws.key(), "POST", keys, NEW_KEY, usedOnA).status()).isEqualTo(201);
            assertSignatureInvalid(sendTo(portB, ws.key(), "POST", keys, NEW_KEY, usedOnA), "already used");

            String usedOnB = Signatures.v2Header(SECRET, now + 1, "POST", keys, NEW_KEY);
            assertThat(sendTo(portB, ws.key(), "POST", keys, NEW_KEY, usedOnB).status()).isEqualTo(201);
            assertSignatureInvalid(send(ws.key(), "POST", keys, NEW_KEY, usedOnB), "already used");
        } finally {
            nodeB.stop();
        }
    }

    /**
     * Another node of this Herald: same database and keys, its own JVM (so its own node id for
     * the event processors' claims). Its provider calls go to this test application's sandbox,
     * so work it picks up from other tests goes where theirs would.
     */
    private HeraldProcess secondNode() throws IOException {
        Path log = Path.of("target", "signed-requests-node-b.log");
        Files.deleteIfExists(log);
        String sandbox = "http://localhost:" + SandboxLoopback.port() + "/sandbox";
        return new HeraldProcess(List.of(
                "--herald.data-dir=" + secondNodeData,
                "--spring.datasource.url=" + TestDatabase.shared().jdbcUrl(),
                "--herald.secrets.encryption-key=MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
                "--herald.audit.signing-key=YXVkaXQtc2lnbmluZy1rZXktZm9yLXRlc3RzLTAxMjM=",
                "--herald.security.system-key=" + SYSTEM_KEY,
                "--herald.security.rate-limit.limit-for-period=1000000",
                "--herald.security.accept-v1-signatures=true",
                "--herald.outbound.allow-private-networks=true",
                "--herald.channels.facebook.graph-base-url=" + sandbox + "/facebook/v25.0",
                "--herald.channels.linkedin.api-base-url=" + sandbox + "/linkedin"), log);
    }

    private long keyCount(String ws) {
        return jdbc.queryForObject("SELECT count(*) FROM herald_api_key WHERE workspace_id = ?", Long.class, ws);
    }

    private Response send(String key, String method, String path, String body, String signature) {
        return sendTo(port, key, method, path, body, signature);
    }

    private Response sendTo(int port, String key, String method, String path, String body, String signature) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + key)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        if (signature != null) {
            request.header(SignatureVerificationFilter.HEADER, signature);
        }
        try {
            HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Response(response.statusCode(), response.body(),
                    response.headers().firstValue("Content-Type").orElse(""), null, null, null, json);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void assertRefusal(SoftAssertions softly, String what, Response response, String detail,
                                      List<String> neverShown) {
        softly.assertThat(response.status()).as(what + " -> " + response).isEqualTo(401);
        softly.assertThat(response.contentType()).as(what).startsWith("application/problem+json");
        if (response.contentType().startsWith("application/problem+json")) {
            softly.assertThat(response.json().path("code").asText()).as(what).isEqualTo("signature_invalid");
            softly.assertThat(response.json().path("detail").asText()).as(what).contains(detail);
        }
        for (String secret : neverShown) {
            softly.assertThat(response.body().toLowerCase()).as(what + ": shows no expected value")
                    .doesNotContain(secret.toLowerCase());
        }
    }

    private static void assertSignatureInvalid(Response response, String detail) {
        SoftAssertions softly = new SoftAssertions();
        assertRefusal(softly, "refusal", response, detail, List.of(SECRET));
        softly.assertAll();
    }
}
