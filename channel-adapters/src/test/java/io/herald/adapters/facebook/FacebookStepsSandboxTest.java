package io.herald.adapters.facebook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.adapters.SandboxTestSupport;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.CommentRequest;
import io.herald.adapters.port.PublishOutcome;
import io.herald.adapters.port.PublishRequest;
import io.herald.adapters.port.ReadBackOutcome;
import io.herald.adapters.port.ReadBackRequest;
import io.herald.adapters.port.UploadRequest;
import io.herald.sandbox.SandboxFault;
import io.herald.sandbox.SandboxFault.Type;
import io.herald.sandbox.SandboxState.FacebookTokenKind;
import io.herald.contracts.media.MediaId;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.ContentMedia;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.PublicationStep;
import io.herald.contracts.publication.UploadedMedia;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Facebook's upload and comment steps against the sandbox, over real HTTP (docs/channels.md#facebook-pages). */
class FacebookStepsSandboxTest extends SandboxTestSupport {

    private String pageId;
    private ChannelConnection connection;
    private final FacebookAdapter adapter = facebook(SHORT_READ_TIMEOUT);

    @BeforeEach
    void registerPage() {
        pageId = numericId();
        String pageToken = unique("EAAPage");
        sandbox.facebookToken(pageToken, pageId, FacebookTokenKind.PAGE);
        connection = facebookConnection(pageId, pageToken, null);
    }

    @Test
    void uploadsUnpublishedPhotosAndAttachesThemToThePostInOrder() {
        List<UploadedMedia> uploads = new ArrayList<>();
        for (String alt : List.of("a red door", "a blue gate")) {
            byte[] png = png(alt.length(), 7);
            MediaId id = mediaId(png);
            PublishOutcome uploaded = result(adapter.uploadMedia(new UploadRequest(publicationId("e1"), 1, id, alt,
                    "image/png", png, connection)));
            assertThat(uploaded).isInstanceOf(PublishOutcome.Published.class);
            uploads.add(new UploadedMedia(id, alt, ((PublishOutcome.Published) uploaded).providerRef()));
        }
        JsonNode photos = sandbox.media("facebook", pageId);
        assertThat(photos).hasSize(2);
        assertThat(photos.get(0).path("status").asText()).isEqualTo("unpublished");
        assertThat(photos.get(0).path("altText").asText()).isEqualTo("a red door");
        assertThat(photos.get(1).path("width").asInt()).isEqualTo("a blue gate".length());

        Content content = new Content(null, "Two photos", null, List.of(
                new ContentMedia(uploads.get(0).mediaId(), "a red door"),
                new ContentMedia(uploads.get(1).mediaId(), "a blue gate")), null);
        PublishOutcome post = result(adapter.publish(new PublishRequest(publicationId("e1"), 3,
                PublicationAction.PUBLISH, content, null, connection, uploads)));

        assertThat(post).isInstanceOf(PublishOutcome.Published.class);
        JsonNode truth = sandbox.truth("facebook", pageId);
        assertThat(truth).hasSize(1);
        assertThat(truth.get(0).path("media").get(0).path("id").asText()).isEqualTo(uploads.get(0).providerRef().id());
        assertThat(truth.get(0).path("media").get(1).path("id").asText()).isEqualTo(uploads.get(1).providerRef().id());
    }

    @Test
    void bytesThatAreNoImageFacebookTakesAreARejectedUploadWithTheProvidersReason() {
        byte[] notAnImage = "plain text, no image".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        PublishOutcome outcome = result(adapter.uploadMedia(new UploadRequest(publicationId("e2"), 1,
                mediaId(notAnImage), null, "image/gif", notAnImage, connection)));
        assertThat(outcome).isInstanceOfSatisfying(PublishOutcome.Failed.class, failed -> {
            assertThat(failed.kind()).isEqualTo(FailureKind.REJECTED);
            assertThat(failed.detail()).contains("Missing or invalid image file");
        });
        assertThat(sandbox.media("facebook", pageId)).isEmpty();
    }

    @Test
    void anUploadThatTimesOutIsUnknownAndUploadingAgainLeavesTheFirstUnused() {
        byte[] png = png(5, 5);
        sandbox.fault(SandboxFault.of("facebook", pageId, Type.DELAY_THEN_CREATE).withDelayMillis(15_000)
                .withOperation(SandboxFault.Operation.UPLOAD));
        UploadRequest upload = new UploadRequest(publicationId("e3"), 1, mediaId(png), "a dot", "image/png", png,
                connection);
        assertThat(result(adapter.uploadMedia(upload))).isInstanceOf(PublishOutcome.OutcomeUnknown.class);
        PublishOutcome again = result(adapter.uploadMedia(upload));
        assertThat(again).isInstanceOf(PublishOutcome.Published.class);
    }

    @Test
    void commentsUnderThePostAndReadsTheCommentBackByItsText() {
        PublishOutcome.Published post = (PublishOutcome.Published) result(adapter.publish(publish(connection,
                new Content(null, "A post with a comment", null))));
        ProviderRef postRef = post.providerRef();
        PublishOutcome comment = result(adapter.comment(new CommentRequest(publicationId("e4"), 2, postRef,
                "Link in the first comment", connection)));
        assertThat(comment).isInstanceOf(PublishOutcome.Published.class);
        assertThat(sandbox.truth("facebook", pageId).get(0).path("comments")).hasSize(1);

        ReadBackOutcome found = result(adapter.readBack(commentReadBack(postRef, "Link in the first comment")));
        assertThat(found).isInstanceOfSatisfying(ReadBackOutcome.Found.class, f -> assertThat(f.providerRef().id())
                .isEqualTo(((PublishOutcome.Published) comment).providerRef().id()));
        assertThat(result(adapter.readBack(commentReadBack(postRef, "Another text"))))
                .isInstanceOf(ReadBackOutcome.NotFound.class);
    }

    @Test
    void aCommentThatTimesOutIsUnknownAndItsReadBackFindsTheOneComment() {
        PublishOutcome.Published post = (PublishOutcome.Published) result(adapter.publish(publish(connection,
                new Content(null, "A post whose comment times out", null))));
        sandbox.fault(SandboxFault.of("facebook", pageId, Type.DELAY_THEN_CREATE).withDelayMillis(15_000)
                .withOperation(SandboxFault.Operation.COMMENT));
        PublishOutcome comment = result(adapter.comment(new CommentRequest(publicationId("e5"), 2,
                post.providerRef(), "Slow comment", connection)));
        assertThat(comment).isInstanceOf(PublishOutcome.OutcomeUnknown.class);

        assertThat(result(adapter.readBack(commentReadBack(post.providerRef(), "Slow comment"))))
                .isInstanceOf(ReadBackOutcome.Found.class);
        assertThat(sandbox.truth("facebook", pageId).get(0).path("comments")).hasSize(1);
    }

    @Test
    void validatesImagesLinksAndCommentsAtIntake() {
        List<ContentMedia> eleven = new ArrayList<>();
        for (int i = 0; i < 11; i++) {
            eleven.add(new ContentMedia(mediaId(new byte[] {(byte) i}), null));
        }
        assertThat(adapter.validate(new Content(null, "x", null, eleven, null), PublicationAction.PUBLISH))
                .extracting(v -> v.field()).containsExactly("content.media");
        assertThat(adapter.validate(new Content(null, "x", "https://example.org", eleven.subList(0, 1), null),
                PublicationAction.PUBLISH)).extracting(v -> v.field()).containsExactly("content.link");
        assertThat(adapter.validate(new Content(null, "x", null, List.of(), "c".repeat(1251)),
                PublicationAction.PUBLISH)).extracting(v -> v.field()).containsExactly("content.firstComment");
        assertThat(adapter.validate(new Content(null, "x", null, eleven.subList(0, 10), "c".repeat(1250)),
                PublicationAction.PUBLISH)).isEmpty();
    }

    private ReadBackRequest commentReadBack(ProviderRef post, String text) {
        return new ReadBackRequest(publicationId("rb"), 2, PublicationAction.PUBLISH,
                new Content(null, "post", null, List.of(), text), Instant.now(), connection,
                PublicationStep.FIRST_COMMENT, post);
    }

    private static MediaId mediaId(byte[] bytes) {
        try {
            return MediaId.of("med_" + java.util.HexFormat.of().formatHex(
                    java.security.MessageDigest.getInstance("SHA-256").digest(bytes)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static byte[] png(int width, int height) {
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        image.setRGB(0, 0, 0x336699);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            ImageIO.write(image, "png", out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
