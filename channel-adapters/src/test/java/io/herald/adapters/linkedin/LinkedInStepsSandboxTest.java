package io.herald.adapters.linkedin;

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
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** LinkedIn's images API and comments against the sandbox, over real HTTP (docs/channels.md#linkedin). */
class LinkedInStepsSandboxTest extends SandboxTestSupport {

    private static final List<String> READ_WRITE = List.of("w_member_social", "r_member_social");

    private String author;
    private ChannelConnection connection;
    private final LinkedInAdapter adapter = linkedIn(SHORT_READ_TIMEOUT);

    @BeforeEach
    void registerMember() {
        author = "urn:li:person:" + unique("m");
        String token = unique("AQV");
        sandbox.linkedInToken(token, author, READ_WRITE);
        connection = linkedInConnection(author, token, READ_WRITE);
    }

    private UploadedMedia upload(int width, String alt) {
        byte[] png = png(width, 4);
        MediaId id = mediaId(png);
        PublishOutcome outcome = result(adapter.uploadMedia(new UploadRequest(publicationId("li"), 1, id, alt,
                "image/png", png, connection)));
        assertThat(outcome).isInstanceOf(PublishOutcome.Published.class);
        ProviderRef image = ((PublishOutcome.Published) outcome).providerRef();
        assertThat(image.id()).startsWith("urn:li:image:");
        return new UploadedMedia(id, alt, image);
    }

    private PublishOutcome post(String text, List<UploadedMedia> uploads) {
        List<ContentMedia> media = uploads.stream().map(u -> new ContentMedia(u.mediaId(), u.altText())).toList();
        return result(adapter.publish(new PublishRequest(publicationId(unique("e")), 2, PublicationAction.PUBLISH,
                new Content(null, text, null, media, null), null, connection, uploads)));
    }

    @Test
    void postsOneImage() {
        UploadedMedia image = upload(3, "one square");
        assertThat(sandbox.media("linkedin", author).get(0).path("status").asText()).isEqualTo("AVAILABLE");
        assertThat(post("One image", List.of(image))).isInstanceOf(PublishOutcome.Published.class);
        JsonNode truth = sandbox.truth("linkedin", author);
        assertThat(truth.get(0).path("media")).hasSize(1);
        assertThat(truth.get(0).path("media").get(0).path("id").asText()).isEqualTo(image.providerRef().id());
        assertThat(truth.get(0).path("media").get(0).path("altText").asText()).isEqualTo("one square");
    }

    @Test
    void postsSeveralImagesAsAMultiImagePostInOrder() {
        List<UploadedMedia> images = List.of(upload(3, "first"), upload(4, "second"), upload(5, "third"));
        assertThat(post("Three images", images)).isInstanceOf(PublishOutcome.Published.class);
        JsonNode media = sandbox.truth("linkedin", author).get(0).path("media");
        assertThat(media).hasSize(3);
        for (int i = 0; i < 3; i++) {
            assertThat(media.get(i).path("id").asText()).isEqualTo(images.get(i).providerRef().id());
        }
    }

    @Test
    void anImageThatIsNotTheAuthorsIsARejectedPost() {
        UploadedMedia foreign = new UploadedMedia(mediaId(new byte[] {1}), null,
                new ProviderRef("urn:li:image:D4E10AQnotours", null));
        assertThat(post("Someone else's image", List.of(foreign))).isInstanceOfSatisfying(
                PublishOutcome.Failed.class, failed -> assertThat(failed.kind()).isEqualTo(FailureKind.REJECTED));
        assertThat(sandbox.truth("linkedin", author)).isEmpty();
    }

    @Test
    void anImageLinkedInCannotProcessIsARejectedUpload() {
        byte[] notAnImage = "not an image".getBytes(StandardCharsets.US_ASCII);
        PublishOutcome outcome = result(adapter.uploadMedia(new UploadRequest(publicationId("li"), 1,
                mediaId(notAnImage), null, "image/png", notAnImage, connection)));
        assertThat(outcome).isInstanceOfSatisfying(PublishOutcome.Failed.class, failed -> {
            assertThat(failed.kind()).isEqualTo(FailureKind.REJECTED);
            assertThat(failed.errorCode()).isEqualTo("PROCESSING_FAILED");
        });
    }

    @Test
    void anUploadThatTimesOutIsUnknownAndUploadingAgainWorks() {
        sandbox.fault(SandboxFault.of("linkedin", author, Type.DELAY_THEN_CREATE).withDelayMillis(15_000)
                .withOperation(SandboxFault.Operation.UPLOAD));
        byte[] png = png(6, 6);
        UploadRequest request = new UploadRequest(publicationId("li"), 1, mediaId(png), null, "image/png", png,
                connection);
        assertThat(result(adapter.uploadMedia(request))).isInstanceOf(PublishOutcome.OutcomeUnknown.class);
        assertThat(result(adapter.uploadMedia(request))).isInstanceOf(PublishOutcome.Published.class);
    }

    @Test
    void commentsAndReadsTheCommentBackAfterATimeout() {
        ProviderRef post = ((PublishOutcome.Published) post("Comment below", List.of())).providerRef();
        sandbox.fault(SandboxFault.of("linkedin", author, Type.DELAY_THEN_CREATE).withDelayMillis(15_000)
                .withOperation(SandboxFault.Operation.COMMENT));
        assertThat(result(adapter.comment(new CommentRequest(publicationId("li"), 3, post, "The link: below",
                connection)))).isInstanceOf(PublishOutcome.OutcomeUnknown.class);

        ReadBackRequest readBack = new ReadBackRequest(publicationId("li"), 3, PublicationAction.PUBLISH,
                new Content(null, "Comment below", null, List.of(), "The link: below"), Instant.now(), connection,
                PublicationStep.FIRST_COMMENT, post);
        assertThat(result(adapter.readBack(readBack))).isInstanceOf(ReadBackOutcome.Found.class);
        assertThat(sandbox.truth("linkedin", author).get(0).path("comments")).hasSize(1);
        ReadBackRequest other = new ReadBackRequest(publicationId("li"), 3, PublicationAction.PUBLISH,
                new Content(null, "Comment below", null, List.of(), "another text"), Instant.now(), connection,
                PublicationStep.FIRST_COMMENT, post);
        assertThat(result(adapter.readBack(other))).isInstanceOf(ReadBackOutcome.NotFound.class);
    }

    @Test
    void withoutAReadScopeTheCommentCannotBeReadBack() {
        ProviderRef post = ((PublishOutcome.Published) post("Write only", List.of())).providerRef();
        String writeOnly = unique("AQW");
        sandbox.linkedInToken(writeOnly, author, List.of("w_member_social"));
        ChannelConnection noRead = linkedInConnection(author, writeOnly, List.of("w_member_social"));
        ReadBackRequest readBack = new ReadBackRequest(publicationId("li"), 3, PublicationAction.PUBLISH,
                new Content(null, "Write only", null, List.of(), "hello"), Instant.now(), noRead,
                PublicationStep.FIRST_COMMENT, post);
        assertThat(result(adapter.readBack(readBack))).isInstanceOf(ReadBackOutcome.Unavailable.class);
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
