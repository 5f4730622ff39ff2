package io.herald.deploy.media;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.deploy.HeraldIntegrationTest;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/** The table of docs/api.md#media over real HTTP on a real PostgreSQL: every row, the roles and workspace isolation. */
class MediaIntakeIT extends HeraldIntegrationTest {

    private final HttpClient http = HttpClient.newHttpClient();

    private Response upload(String ws, byte[] bytes, String contentType) {
        return sendBytesAs(keyFor("/api/v1/workspaces/" + ws), "POST", "/api/v1/workspaces/" + ws + "/media", bytes,
                contentType, Map.of());
    }

    private long stored(String ws) {
        return jdbc.queryForObject("SELECT count(*) FROM media WHERE workspace_id = ?", Long.class, ws);
    }

    @Test
    void eachAcceptedTypeIsStoredWithItsSizeAndServedBack() throws Exception {
        String ws = newWorkspace("media-types");
        record Sample(String contentType, byte[] bytes, int width, int height) {
        }
        List<Sample> samples = List.of(
                new Sample("image/png", MediaImages.image("png", 120, 63, 1), 120, 63),
                new Sample("image/jpeg", MediaImages.image("jpg", 64, 48, 2), 64, 48),
                new Sample("image/gif", MediaImages.image("gif", 17, 5, 3), 17, 5),
                new Sample("image/webp", MediaImages.WEBP_1X1, 1, 1));
        for (Sample sample : samples) {
            Instant before = Instant.now();
            Response created = upload(ws, sample.bytes(), sample.contentType());
            assertThat(created.status()).as(created.toString()).isEqualTo(201);
            String id = MediaImages.idOf(sample.bytes());
            JsonNode view = created.json();
            assertThat(view.get("mediaId").asText()).isEqualTo(id);
            assertThat(view.get("contentType").asText()).isEqualTo(sample.contentType());
            assertThat(view.get("bytes").asLong()).isEqualTo(sample.bytes().length);
            assertThat(view.get("width").asInt()).isEqualTo(sample.width());
            assertThat(view.get("height").asInt()).isEqualTo(sample.height());
            assertThat(Instant.parse(view.get("createdAt").asText())).isAfterOrEqualTo(before.minusSeconds(1));
            assertThat(created.location()).isEqualTo("/api/v1/workspaces/" + ws + "/media/" + id);

            Response read = send("GET", created.location(), null, null);
            assertThat(read.status()).isEqualTo(200);
            assertThat(read.json()).isEqualTo(view);

            HttpResponse<byte[]> content = http.send(HttpRequest.newBuilder(uri(created.location() + "/content"))
                    .header("Authorization", "Bearer " + keyFor(created.location())).GET().build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertThat(content.statusCode()).isEqualTo(200);
            assertThat(content.body()).isEqualTo(sample.bytes());
            assertThat(content.headers().firstValue("Content-Type")).contains(sample.contentType());
            assertThat(content.headers().firstValue("X-Content-Type-Options")).contains("nosniff");
            assertThat(content.headers().firstValue("Content-Disposition").orElseThrow())
                    .startsWith("attachment;").contains(id);
            assertThat(content.headers().firstValue("Cache-Control").orElseThrow())
                    .contains("immutable").contains("private").doesNotContain("no-store");
            assertThat(content.headers().firstValue("ETag")).contains("\"" + id + "\"");
        }
        assertThat(stored(ws)).isEqualTo(samples.size());
    }

    @Test
    void theSameBytesAgainAreTheSameMedia() {
        String ws = newWorkspace("media-again");
        byte[] png = MediaImages.image("png", 10, 10, 11);
        Response first = upload(ws, png, "image/png");
        Response again = upload(ws, png, "image/png");
        assertThat(first.status()).isEqualTo(201);
        assertThat(again.status()).as(again.toString()).isEqualTo(200);
        assertThat(again.json()).isEqualTo(first.json());
        assertThat(again.location()).isEqualTo(first.location());
        assertThat(stored(ws)).isEqualTo(1);
    }

    @Test
    void theSameBytesInAnotherWorkspaceAreThatWorkspacesOwn() {
        String a = newWorkspace("media-own-a");
        String b = newWorkspace("media-own-b");
        byte[] png = MediaImages.image("png", 12, 12, 12);
        Response inA = upload(a, png, "image/png");
        Response inB = upload(b, png, "image/png");
        assertThat(inA.status()).isEqualTo(201);
        assertThat(inB.status()).as(inB.toString()).isEqualTo(201);
        assertThat(inB.json().get("mediaId")).isEqualTo(inA.json().get("mediaId"));
        assertThat(stored(a)).isEqualTo(1);
        assertThat(stored(b)).isEqualTo(1);
    }

    @Test
    void anotherWorkspacesMediaIsNotFound() {
        String a = newWorkspace("media-iso-a");
        String b = newWorkspace("media-iso-b");
        byte[] png = MediaImages.image("png", 9, 9, 13);
        String id = upload(a, png, "image/png").json().get("mediaId").asText();
        String keyOfB = keyFor("/api/v1/workspaces/" + b);
        for (String path : List.of("/api/v1/workspaces/" + a + "/media/" + id,
                "/api/v1/workspaces/" + a + "/media/" + id + "/content",
                // B's own path, where B never uploaded these bytes
                "/api/v1/workspaces/" + b + "/media/" + id,
                "/api/v1/workspaces/" + b + "/media/" + id + "/content")) {
            Response response = sendAs(keyOfB, "GET", path, null, null, Map.of());
            assertThat(response.status()).as(path + " " + response).isEqualTo(404);
            assertThat(response.json().get("code").asText()).isEqualTo("not_found");
        }
        Response upload = sendBytesAs(keyOfB, "POST", "/api/v1/workspaces/" + a + "/media",
                MediaImages.image("png", 9, 9, 14), "image/png", Map.of());
        assertThat(upload.status()).isEqualTo(404);
        assertThat(stored(a)).isEqualTo(1);
    }

    @Test
    void unknownAndMalformedIdsAreNotFound() {
        String ws = newWorkspace("media-unknown");
        for (String id : List.of("med_" + "0".repeat(64), "med_" + "A".repeat(64), "med_1", "nothing")) {
            Response view = send("GET", "/api/v1/workspaces/" + ws + "/media/" + id, null, null);
            Response content = send("GET", "/api/v1/workspaces/" + ws + "/media/" + id + "/content", null, null);
            assertThat(view.status()).as(id + " " + view).isEqualTo(404);
            assertThat(view.json().get("code").asText()).isEqualTo("not_found");
            assertThat(content.status()).as(id + " " + content).isEqualTo(404);
        }
    }

    @Test
    void aTypeOutsideTheListIsRefused() {
        String ws = newWorkspace("media-type");
        byte[] png = MediaImages.image("png", 8, 8, 15);
        for (String type : List.of("image/svg+xml", "image/bmp", "application/octet-stream", "application/json",
                "text/plain", "multipart/form-data; boundary=x", "application/x-www-form-urlencoded")) {
            Response refused = upload(ws, png, type);
            assertThat(refused.status()).as(type + " " + refused).isEqualTo(415);
            assertThat(refused.contentType()).startsWith("application/problem+json");
            assertThat(refused.json().get("code").asText()).isEqualTo("unsupported_media_type");
        }
        Response noType = upload(ws, png, null);
        assertThat(noType.status()).as(noType.toString()).isEqualTo(415);
        assertThat(stored(ws)).isZero();
    }

    @Test
    void bytesOfAnotherTypeThanDeclaredAreRefused() {
        String ws = newWorkspace("media-mismatch");
        byte[] png = MediaImages.image("png", 8, 8, 16);
        Response pngAsJpeg = upload(ws, png, "image/jpeg");
        assertThat(pngAsJpeg.status()).as(pngAsJpeg.toString()).isEqualTo(415);
        assertThat(pngAsJpeg.json().get("code").asText()).isEqualTo("unsupported_media_type");
        assertThat(pngAsJpeg.json().get("detail").asText()).contains("image/png").contains("image/jpeg");
        Response gifAsWebp = upload(ws, MediaImages.image("gif", 4, 4, 17), "image/webp");
        assertThat(gifAsWebp.status()).isEqualTo(415);
        Response html = upload(ws, "<html><script>alert(1)</script></html>".getBytes(), "image/png");
        assertThat(html.status()).isEqualTo(415);
        assertThat(stored(ws)).isZero();
    }

    @Test
    void aValidHeaderOverUndecodableDataIsInvalid() {
        String ws = newWorkspace("media-garbage");
        Response garbage = upload(ws, MediaImages.pngHeaderOverGarbage(18), "image/png");
        assertThat(garbage.status()).as(garbage.toString()).isEqualTo(422);
        assertThat(garbage.contentType()).startsWith("application/problem+json");
        assertThat(garbage.json().get("code").asText()).isEqualTo("media_invalid");
        assertThat(garbage.body()).doesNotContain("Exception").doesNotContain("at io.");
        Response empty = upload(ws, new byte[0], "image/png");
        assertThat(empty.status()).as(empty.toString()).isEqualTo(422);
        assertThat(empty.json().get("code").asText()).isEqualTo("media_invalid");
        assertThat(stored(ws)).isZero();
    }

    @Test
    void anImageLargerThanAJsonBodyMayBeUploaded() {
        String ws = newWorkspace("media-large");
        // noise does not compress: well over the 256 KiB of a JSON body
        byte[] png = MediaImages.image("png", 400, 400, 19);
        assertThat(png.length).isGreaterThan(256 * 1024);
        Response created = upload(ws, png, "image/png");
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(created.json().get("bytes").asLong()).isEqualTo(png.length);
    }

    @Test
    void onlyPublishersUploadAndPublishersOperatorsAndAuditorsRead() {
        String ws = newWorkspace("media-roles");
        createWorkspace(ws);
        byte[] png = MediaImages.image("png", 6, 6, 20);
        String id = MediaImages.idOf(png);
        for (String role : List.of("operator", "auditor", "admin")) {
            Response refused = sendBytesAs(createKey(ws, List.of(role), role), "POST",
                    "/api/v1/workspaces/" + ws + "/media", png, "image/png", Map.of());
            assertThat(refused.status()).as(role + " " + refused).isEqualTo(403);
            assertThat(refused.json().get("code").asText()).isEqualTo("forbidden");
        }
        assertThat(stored(ws)).isZero();
        Response created = sendBytesAs(createKey(ws, List.of("publisher"), "publisher"), "POST",
                "/api/v1/workspaces/" + ws + "/media", png, "image/png", Map.of());
        assertThat(created.status()).isEqualTo(201);
        for (String role : List.of("publisher", "operator", "auditor", "admin")) {
            String key = createKey(ws, List.of(role), role + "-reader");
            int expected = role.equals("admin") ? 403 : 200;
            assertThat(sendAs(key, "GET", "/api/v1/workspaces/" + ws + "/media/" + id, null, null, Map.of())
                    .status()).as(role).isEqualTo(expected);
            assertThat(sendAs(key, "GET", "/api/v1/workspaces/" + ws + "/media/" + id + "/content", null, null,
                    Map.of()).status()).as(role).isEqualTo(expected);
        }
        Response anonymous = sendBytesAs(null, "POST", "/api/v1/workspaces/" + ws + "/media", png, "image/png",
                Map.of());
        assertThat(anonymous.status()).isEqualTo(401);
    }

    @Test
    void aWorkspaceThatSignsRequestsSignsTheImageBytes() throws Exception {
        String ws = newWorkspace("media-signed");
        String secret = "media-signing-secret-0123456789abcdef";
        Response set = send("PUT", "/api/v1/workspaces/" + ws + "/signing-secret", "{\"secret\":\"" + secret + "\"}");
        assertThat(set.status()).as(set.toString()).isBetween(200, 204);
        byte[] png = MediaImages.image("png", 7, 7, 22);
        String path = "/api/v1/workspaces/" + ws + "/media";
        Response unsigned = upload(ws, png, "image/png");
        assertThat(unsigned.status()).isEqualTo(401);
        assertThat(unsigned.json().get("code").asText()).isEqualTo("signature_invalid");

        long t = Instant.now().getEpochSecond();
        String bodyHash = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(png));
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        String v2 = HexFormat.of().formatHex(mac.doFinal((t + "\nPOST\n" + path + "\n" + bodyHash)
                .getBytes(StandardCharsets.UTF_8)));
        Response signed = sendBytesAs(keyFor(path), "POST", path, png, "image/png",
                Map.of("X-Herald-Signature", "t=" + t + ",v2=" + v2));
        assertThat(signed.status()).as(signed.toString()).isEqualTo(201);
        assertThat(stored(ws)).isEqualTo(1);
    }

    @Test
    void theProviderSandboxTakesImagesLargerThanAJsonBody() {
        String site = "media-sandbox-" + System.nanoTime() % 100_000;
        sandbox("POST", "/wordpress/sites", "{\"site\":\"" + site + "\",\"username\":\"editor\","
                + "\"applicationPassword\":\"pw\",\"plugin\":false}");
        byte[] png = MediaImages.image("png", 400, 400, 23);
        assertThat(png.length).isGreaterThan(256 * 1024);
        Response uploaded = sendBytesAs(null, "POST", "/sandbox/wordpress/" + site + "/wp-json/wp/v2/media", png,
                "image/png", Map.of("Authorization", "Basic " + java.util.Base64.getEncoder()
                        .encodeToString("editor:pw".getBytes(StandardCharsets.UTF_8)),
                        "Content-Disposition", "attachment; filename=\"big.png\""));
        assertThat(uploaded.status()).as(uploaded.toString()).isEqualTo(201);
        assertThat(uploaded.json().path("media_details").path("filesize").asLong()).isEqualTo(png.length);
    }

    @Test
    void theApiDocumentNamesTheImageBody() {
        JsonNode upload = send("GET", "/v3/api-docs", null, null).json()
                .path("paths").path("/api/v1/workspaces/{ws}/media").path("post");
        assertThat(upload.path("requestBody").path("content").path("image/webp").path("schema").path("format")
                .asText()).isEqualTo("binary");
        assertThat(upload.path("requestBody").path("content").has("application/json")).isFalse();
    }

    @Test
    void anUnchangedCopyIsNotSentAgain() throws IOException, InterruptedException {
        String ws = newWorkspace("media-etag");
        byte[] png = MediaImages.image("png", 5, 5, 21);
        String location = upload(ws, png, "image/png").location();
        HttpResponse<byte[]> again = http.send(HttpRequest.newBuilder(uri(location + "/content"))
                .header("Authorization", "Bearer " + keyFor(location))
                .header("If-None-Match", "\"" + MediaImages.idOf(png) + "\"").GET().build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(again.statusCode()).isEqualTo(304);
        assertThat(again.body()).isEmpty();
    }
}
