package io.herald.adapters.wordpress;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.adapters.SandboxTestSupport;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.PublishOutcome;
import io.herald.adapters.port.PublishRequest;
import io.herald.adapters.port.UploadRequest;
import io.herald.sandbox.SandboxFault;
import io.herald.sandbox.SandboxFault.Type;
import io.herald.contracts.media.MediaId;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.ContentMedia;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.PublicationStep;
import io.herald.contracts.publication.UploadedMedia;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** WordPress media uploads and a post with a featured image and figures, against the sandbox. */
class WordPressStepsSandboxTest extends SandboxTestSupport {

    private static final String PASSWORD = "abcd EFGH ijkl MNOP qrst UVWX";

    private String site;
    private ChannelConnection connection;
    private final WordPressAdapter adapter = wordPress(SHORT_READ_TIMEOUT);

    @BeforeEach
    void registerSite() {
        site = unique("blog");
        sandbox.wordPressSite(site, "editor", PASSWORD.replace(" ", ""), true);
        connection = wordPressConnection(sandbox.wordPressSiteUrl(site), "editor", PASSWORD);
    }

    private UploadedMedia upload(int width, String alt) {
        byte[] png = png(width, 3);
        MediaId id = mediaId(png);
        PublishOutcome outcome = result(adapter.uploadMedia(new UploadRequest(publicationId("wp"), 1, id, alt,
                "image/png", png, connection)));
        assertThat(outcome).isInstanceOf(PublishOutcome.Published.class);
        return new UploadedMedia(id, alt, ((PublishOutcome.Published) outcome).providerRef());
    }

    @Test
    void theFirstImageIsFeaturedAndEveryImageIsInTheContentWithItsAltText() {
        List<UploadedMedia> images = List.of(upload(3, "a \"quoted\" view"), upload(4, "the second"));
        JsonNode attachments = sandbox.media("wordpress", site);
        assertThat(attachments).hasSize(2);
        assertThat(attachments.get(0).path("altText").asText()).isEqualTo("a \"quoted\" view");

        List<ContentMedia> media = images.stream().map(u -> new ContentMedia(u.mediaId(), u.altText())).toList();
        PublishOutcome post = result(adapter.publish(new PublishRequest(publicationId(unique("e")), 3,
                PublicationAction.PUBLISH, new Content("Title", "Body", null, media, null), null, connection,
                images)));

        assertThat(post).isInstanceOf(PublishOutcome.Published.class);
        JsonNode truth = sandbox.truth("wordpress", site).get(0);
        assertThat(truth.path("featuredMedia").asText()).isEqualTo(images.get(0).providerRef().id());
        String text = truth.path("storedText").asText(truth.path("text").asText());
        assertThat(text).contains("Body").contains(images.get(0).providerRef().url())
                .contains(images.get(1).providerRef().url()).contains("alt=\"a &quot;quoted&quot; view\"")
                .contains("alt=\"the second\"");
    }

    @Test
    void bytesWordPressRefusesAreARejectedUploadNotAnUnknownOne() {
        byte[] text = "no image here".getBytes(StandardCharsets.US_ASCII);
        PublishOutcome outcome = result(adapter.uploadMedia(new UploadRequest(publicationId("wp"), 1, mediaId(text),
                null, "image/png", text, connection)));
        assertThat(outcome).isInstanceOfSatisfying(PublishOutcome.Failed.class, failed -> {
            assertThat(failed.kind()).isEqualTo(FailureKind.REJECTED);
            assertThat(failed.detail()).contains("not allowed to upload this file type");
        });
    }

    @Test
    void anUploadThatTimesOutIsUnknownAndUploadingAgainWorks() {
        sandbox.fault(SandboxFault.of("wordpress", site, Type.DELAY_THEN_CREATE).withDelayMillis(15_000)
                .withOperation(SandboxFault.Operation.UPLOAD));
        byte[] png = png(7, 7);
        UploadRequest request = new UploadRequest(publicationId("wp"), 1, mediaId(png), null, "image/png", png,
                connection);
        assertThat(result(adapter.uploadMedia(request))).isInstanceOf(PublishOutcome.OutcomeUnknown.class);
        assertThat(result(adapter.uploadMedia(request))).isInstanceOf(PublishOutcome.Published.class);
    }

    @Test
    void aFirstCommentIsRefusedAtIntakeAsNotSupported() {
        WordPressPlugin plugin = new WordPressPlugin(adapter);
        Content withComment = new Content("t", "b", null, List.of(), "hello");
        assertThat(plugin.unsupported(PublicationAction.PUBLISH, withComment))
                .hasValueSatisfying(v -> assertThat(v.field()).isEqualTo("content.firstComment"));
        assertThat(plugin.unsupported(PublicationAction.DRAFT, new Content("t", "b", null))).isEmpty();
        assertThat(plugin.stepKinds(PublicationAction.PUBLISH)).doesNotContain(PublicationStep.FIRST_COMMENT);
    }

    private static MediaId mediaId(byte[] bytes) {
        try {
            return MediaId.of("med_" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] png(int width, int height) {
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            ImageIO.write(image, "png", out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
