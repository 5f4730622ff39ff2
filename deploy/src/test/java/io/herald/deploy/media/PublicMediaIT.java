package io.herald.deploy.media;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.adapters.port.PublicMediaLinks;
import io.herald.command.channel.ConnectProperties;
import io.herald.command.media.MediaProperties;
import io.herald.command.media.SignedMediaLinks;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.media.MediaId;
import io.herald.deploy.HeraldIntegrationTest;
import io.herald.platform.secrets.CredentialCipher;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The addresses providers fetch images at, over real HTTP without a key: the image's bytes while
 * the publication its token names is in flight; the same 404 for a token that expired, was
 * changed, names another workspace or a publication that finished.
 */
class PublicMediaIT extends HeraldIntegrationTest {

    private static final AtomicInteger SEEDS = new AtomicInteger(31_000);
    private static final HttpClient PLAIN = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Autowired
    PublicMediaLinks links;

    @Autowired
    ConnectProperties connect;

    @Autowired
    CredentialCipher cipher;

    @Autowired
    MediaProperties mediaProperties;

    private String ws;
    private byte[] png;
    private String media;

    private record Fetched(int status, String contentType, byte[] body) {
    }

    @BeforeEach
    void workspaceWithAnImage() {
        ws = newWorkspace("public-media");
        png = MediaImages.image("png", 9, 7, SEEDS.incrementAndGet());
        media = upload(ws, png);
        String page = "77" + SEEDS.incrementAndGet() + System.nanoTime() % 100_000;
        String token = "EAAB-public-" + page;
        sandbox("POST", "/facebook/tokens", "{\"token\":\"" + token + "\",\"pageId\":\"" + page + "\",\"kind\":\"PAGE\"}");
        Response put = send("PUT", "/api/v1/workspaces/" + ws + "/channels/fb", "{\"type\":\"facebook\","
                + "\"pageId\":\"" + page + "\",\"pageAccessToken\":\"" + token + "\"}");
        assertThat(put.status()).as(put.toString()).isIn(200, 201);
    }

    private String upload(String workspace, byte[] bytes) {
        Response created = sendBytesAs(keyFor("/api/v1/workspaces/" + workspace), "POST", "/api/v1/workspaces/"
                + workspace + "/media", bytes, "image/png", Map.of());
        assertThat(created.status()).as(created.toString()).isIn(200, 201);
        return created.json().get("mediaId").asText();
    }

    private String publish(String entry, OffsetDateTime at) {
        Response r = send("POST", "/api/v1/workspaces/" + ws + "/publications", """
                {"calendarEntryId":"%s","contentVersion":1,"channelId":"fb","action":"publish",%s"content":%s}"""
                .formatted(entry, at == null ? "" : "\"scheduledAt\":\"" + at + "\",",
                        MediaImages.contentWithImages("public " + entry, List.of(media), null)));
        assertThat(r.status()).as(r.toString()).isEqualTo(202);
        return r.json().get("publicationId").asText();
    }

    private String waitingPublication() {
        return publish("later-" + SEEDS.incrementAndGet(), OffsetDateTime.now(ZoneOffset.UTC).plusDays(2).withNano(0));
    }

    private static Fetched fetch(URI address) {
        try {
            HttpResponse<byte[]> answer = PLAIN.send(HttpRequest.newBuilder(address).GET().build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            return new Fetched(answer.statusCode(), answer.headers().firstValue("Content-Type").orElse(""),
                    answer.body());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private URI link(String workspace, String image, String publication) {
        return links.linkFor(new WorkspaceId(workspace), MediaId.of(image), PublicationId.of(publication));
    }

    private static void assertNotFound(Fetched fetched) {
        assertThat(fetched.status()).isEqualTo(404);
        // nothing that tells a guess from a real image of a finished publication
        assertThat(new String(fetched.body(), StandardCharsets.UTF_8)).contains("not_found")
                .doesNotContain("expired").doesNotContain("signature").doesNotContain("publication");
    }

    @Test
    void anImageOfAPublicationInFlightIsServedWithoutAKey() {
        String publication = waitingPublication();
        URI address = link(ws, media, publication);
        assertThat(links.available()).isTrue();
        assertThat(address.toString()).startsWith("http://localhost:" + port + "/media/public/");

        Fetched fetched = fetch(address);
        assertThat(fetched.status()).isEqualTo(200);
        assertThat(fetched.contentType()).isEqualTo("image/png");
        assertThat(fetched.body()).isEqualTo(png);
    }

    @Test
    void theJpegAddressAnswersAJpegOfTheSameImage() throws IOException {
        String publication = waitingPublication();
        Fetched fetched = fetch(links.jpegLinkFor(new WorkspaceId(ws), MediaId.of(media),
                PublicationId.of(publication)));
        assertThat(fetched.status()).isEqualTo(200);
        assertThat(fetched.contentType()).isEqualTo("image/jpeg");
        assertThat(Arrays.copyOf(fetched.body(), 3)).isEqualTo(new byte[] {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF});
        BufferedImage decoded = ImageIO.read(new ByteArrayInputStream(fetched.body()));
        assertThat(decoded.getWidth()).isEqualTo(9);
        assertThat(decoded.getHeight()).isEqualTo(7);
    }

    @Test
    void anExpiredTokenIsNotFound() {
        String publication = waitingPublication();
        Clock earlier = Clock.offset(Clock.systemUTC(), mediaProperties.publicLinkTtl().plusMinutes(1).negated());
        SignedMediaLinks madeEarlier = new SignedMediaLinks(connect, cipher, earlier, mediaProperties);
        assertNotFound(fetch(madeEarlier.linkFor(new WorkspaceId(ws), MediaId.of(media),
                PublicationId.of(publication))));
        // made by the same key a moment ago, it is served: only the time differs
        Clock recently = Clock.offset(Clock.systemUTC(), Duration.ofMinutes(-1));
        assertThat(fetch(new SignedMediaLinks(connect, cipher, recently, mediaProperties).linkFor(
                new WorkspaceId(ws), MediaId.of(media), PublicationId.of(publication))).status()).isEqualTo(200);
    }

    @Test
    void aChangedTokenIsNotFound() {
        String publication = waitingPublication();
        String address = link(ws, media, publication).toString();
        String token = address.substring(address.lastIndexOf('/') + 1);
        String payload = new String(Base64.getUrlDecoder().decode(token.substring(0, token.indexOf('.'))),
                StandardCharsets.UTF_8);
        String signature = token.substring(token.indexOf('.') + 1);
        String base = address.substring(0, address.lastIndexOf('/') + 1);
        Base64.Encoder url = Base64.getUrlEncoder().withoutPadding();

        // a later expiry, with the signature of the original
        String[] parts = payload.split("\n");
        parts[4] = Long.toString(Long.parseLong(parts[4]) + 86_400);
        assertNotFound(fetch(URI.create(base + url.encodeToString(String.join("\n", parts)
                .getBytes(StandardCharsets.UTF_8)) + "." + signature)));
        // one character of the signature changed
        char last = signature.charAt(signature.length() - 2);
        String flipped = signature.substring(0, signature.length() - 2) + (last == 'A' ? 'B' : 'A')
                + signature.charAt(signature.length() - 1);
        assertNotFound(fetch(URI.create(base + token.substring(0, token.indexOf('.') + 1) + flipped)));
        // no signature, garbage, a made-up media id
        assertNotFound(fetch(URI.create(base + token.substring(0, token.indexOf('.')))));
        assertNotFound(fetch(URI.create(base + "not-a-token")));
        assertNotFound(fetch(URI.create(base + url.encodeToString(payload.replace(media, "med_" + "0".repeat(64))
                .getBytes(StandardCharsets.UTF_8)) + "." + signature)));
        // the original still answers
        assertThat(fetch(URI.create(address)).status()).isEqualTo(200);
    }

    @Test
    void anotherWorkspaceCannotReachTheImage() {
        String publication = waitingPublication();
        String other = newWorkspace("public-media-other");
        // the same bytes, the same id, in the other workspace: its own image, which that publication never named
        assertThat(upload(other, png)).isEqualTo(media);
        assertNotFound(fetch(link(other, media, publication)));
        // a token signed for a workspace with the payload changed to name the other one
        String address = link(other, media, publication).toString();
        String token = address.substring(address.lastIndexOf('/') + 1);
        String payload = new String(Base64.getUrlDecoder().decode(token.substring(0, token.indexOf('.'))),
                StandardCharsets.UTF_8).replace(other, ws);
        assertNotFound(fetch(URI.create(address.substring(0, address.lastIndexOf('/') + 1)
                + Base64.getUrlEncoder().withoutPadding().encodeToString(payload.getBytes(StandardCharsets.UTF_8))
                + token.substring(token.indexOf('.')))));
        // a publication of this workspace that does not name the image
        String otherImage = upload(ws, MediaImages.image("png", 5, 5, SEEDS.incrementAndGet()));
        assertNotFound(fetch(link(ws, otherImage, publication)));
        assertThat(fetch(link(ws, media, publication)).status()).isEqualTo(200);
    }

    @Test
    void onceThePublicationFinishedItsAddressIsNotFound() {
        String publication = publish("now-" + SEEDS.incrementAndGet(), null);
        awaitJson("/api/v1/workspaces/" + ws + "/publications/" + publication,
                v -> v.get("status").asText().equals("SUCCEEDED"));
        assertNotFound(fetch(link(ws, media, publication)));
        // the image itself is still the workspace's
        assertThat(send("GET", "/api/v1/workspaces/" + ws + "/media/" + media, null).status()).isEqualTo(200);
    }
}
