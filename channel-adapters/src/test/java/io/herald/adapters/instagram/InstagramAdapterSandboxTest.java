package io.herald.adapters.instagram;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.herald.adapters.ChannelAdaptersConfiguration;
import io.herald.adapters.SandboxTestSupport;
import io.herald.adapters.port.CapabilityReport;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.CommentRequest;
import io.herald.adapters.port.PrepareRequest;
import io.herald.adapters.port.PublishOutcome;
import io.herald.adapters.port.PublishRequest;
import io.herald.adapters.port.ReadBackOutcome;
import io.herald.adapters.port.ReadBackRequest;
import io.herald.adapters.port.TokenRefresh;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.media.MediaId;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.ContentMedia;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.PublicationFailedEvent;
import io.herald.contracts.publication.PublicationStep;
import io.herald.contracts.publication.UnknownCause;
import io.herald.contracts.publication.UploadedMedia;
import io.herald.sandbox.instagram.InstagramAccounts.Fault;
import io.herald.sandbox.instagram.InstagramSandboxClient;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Instagram adapter against the sandbox's Graph API over real HTTP; the sandbox fetches each
 * image from the address the container names, as Instagram does, here from a small image server.
 */
class InstagramAdapterSandboxTest extends SandboxTestSupport {

    private static HttpServer images;
    private static final byte[] JPEG = image("jpg");

    private final InstagramSandboxClient instagram = new InstagramSandboxClient(server.baseUrl());
    private final InstagramAdapter adapter = ChannelAdaptersConfiguration.instagram(
            new InstagramProperties(instagram.graphBaseUrl(), Duration.ofSeconds(2), SHORT_READ_TIMEOUT,
                    Duration.ofSeconds(7), "https://www.instagram.com", "https://api.instagram.com", null, null),
            clock);
    private String token;
    private String account;
    private ChannelConnection connection;

    @BeforeAll
    static void serveImages() throws IOException {
        images = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        images.createContext("/img/", exchange -> {
            boolean missing = exchange.getRequestURI().getPath().contains("missing");
            exchange.getResponseHeaders().add("Content-Type", "image/jpeg");
            exchange.sendResponseHeaders(missing ? 404 : 200, missing ? -1 : JPEG.length);
            if (!missing) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(JPEG);
                }
            }
            exchange.close();
        });
        images.start();
    }

    @AfterAll
    static void stopImages() {
        images.stop(0);
    }

    @BeforeEach
    void account() {
        token = unique("ig-token-");
        account = instagram.account(unique("gram"), token);
        connection = connection(token);
        instagram.processing(0);
    }

    @AfterEach
    void processingAsUsual() {
        instagram.processing(300);
    }

    private ChannelConnection connection(String accessToken) {
        return new ChannelConnection(new WorkspaceId("acme"), new ChannelId("ig-" + accessToken),
                InstagramPlugin.TYPE, new InstagramSettings(account), new InstagramSecrets(accessToken, null), false);
    }

    @Test
    void aSingleImageBecomesAContainerThatIsPublishedAndReadBackThroughIt() {
        Content content = content("A red square #herald", 1);
        PrepareRequest prepare = prepare(content, 1);

        ProviderRef container = published(result(adapter.prepare(prepare)));
        JsonNode made = instagram.containers(account).get(0);
        assertThat(made.path("id").asText()).isEqualTo(container.id());
        assertThat(made.path("imageUrl").asText()).isEqualTo(prepare.images().get(0).publicUrl().toString());
        assertThat(made.path("altText").asText()).isEqualTo("alt 0");
        assertThat(made.path("caption").asText()).isEqualTo("A red square #herald");

        PublishRequest publish = publishOf(content, container);
        ProviderRef media = published(result(adapter.publish(publish)));

        JsonNode posted = instagram.media(account);
        assertThat(posted).hasSize(1);
        assertThat(posted.get(0).path("id").asText()).isEqualTo(media.id());
        assertThat(result(adapter.readBack(readBack(publish, container)))).isInstanceOfSatisfying(
                ReadBackOutcome.Found.class, found -> assertThat(found.providerRef().id()).isEqualTo(media.id()));
    }

    @Test
    void aCarouselIsAContainerOverOneChildPerImage() {
        Content content = content("Three squares", 3);
        ProviderRef container = published(result(adapter.prepare(prepare(content, 3))));
        ProviderRef media = published(result(adapter.publish(publishOf(content, container))));

        JsonNode made = instagram.containers(account);
        assertThat(made).hasSize(4);
        assertThat(made.get(3).path("children")).hasSize(3);
        assertThat(made.get(3).path("id").asText()).isEqualTo(container.id());
        JsonNode posted = instagram.media(account);
        assertThat(posted.get(0).path("id").asText()).isEqualTo(media.id());
        assertThat(posted.get(0).path("items").asInt()).isEqualTo(3);
    }

    @Test
    void aContainerStillProcessingIsNotReadyAndItsReadBackInconclusive() {
        instagram.processing(60_000);
        Content content = content("Slow to process", 1);
        ProviderRef container = published(result(adapter.prepare(prepare(content, 1))));
        PublishRequest publish = publishOf(content, container);

        PublishOutcome outcome = result(adapter.publish(publish));

        assertThat(outcome).isInstanceOfSatisfying(PublishOutcome.Failed.class, failed -> {
            assertThat(failed.kind()).isEqualTo(FailureKind.NOT_READY);
            assertThat(failed.retryAfter()).isEqualTo(Duration.ofSeconds(7));
        });
        assertThat(result(adapter.readBack(readBack(publish, container))))
                .isInstanceOf(ReadBackOutcome.Unknown.class);
        assertThat(instagram.media(account)).isEmpty();
    }

    @Test
    void aPublishThatTimesOutAfterPublishingIsUnknownAndFoundThroughTheContainer() {
        Content content = content("Published, then silence", 1);
        ProviderRef container = published(result(adapter.prepare(prepare(content, 1))));
        instagram.fault(account, Fault.PUBLISH_HOLD_AFTER, 15_000, 1);
        PublishRequest publish = publishOf(content, container);

        PublishOutcome outcome = result(adapter.publish(publish));

        assertThat(outcome).isInstanceOfSatisfying(PublishOutcome.OutcomeUnknown.class,
                unknown -> assertThat(unknown.cause()).isEqualTo(UnknownCause.READ_TIMEOUT));
        String mediaId = instagram.media(account).get(0).path("id").asText();
        assertThat(result(adapter.readBack(readBack(publish, container)))).isInstanceOfSatisfying(
                ReadBackOutcome.Found.class, found -> assertThat(found.providerRef().id()).isEqualTo(mediaId));
    }

    @Test
    void aPublishThatTimesOutBeforePublishingIsNotFoundAndTheSameContainerIsPublishedAfter() {
        Content content = content("Silence, then published", 1);
        ProviderRef container = published(result(adapter.prepare(prepare(content, 1))));
        instagram.fault(account, Fault.PUBLISH_HOLD_BEFORE, 15_000, 1);
        PublishRequest publish = publishOf(content, container);

        assertThat(result(adapter.publish(publish))).isInstanceOf(PublishOutcome.OutcomeUnknown.class);
        assertThat(result(adapter.readBack(readBack(publish, container)))).isInstanceOf(ReadBackOutcome.NotFound.class);

        ProviderRef media = published(result(adapter.publish(publishOf(content, container))));
        assertThat(instagram.media(account)).hasSize(1);
        assertThat(instagram.media(account).get(0).path("id").asText()).isEqualTo(media.id());
    }

    @Test
    void mediaNotFoundAfterThePublishIsUnknownAndTheContainerSaysPublished() {
        Content content = content("Media not found, but published", 1);
        ProviderRef container = published(result(adapter.prepare(prepare(content, 1))));
        instagram.fault(account, Fault.PUBLISH_MEDIA_NOT_FOUND_AFTER, 0, 1);
        PublishRequest publish = publishOf(content, container);

        assertThat(result(adapter.publish(publish))).isInstanceOfSatisfying(PublishOutcome.OutcomeUnknown.class,
                unknown -> assertThat(unknown.detail()).contains("24/4279009").contains("container's status"));
        String mediaId = instagram.media(account).get(0).path("id").asText();
        assertThat(result(adapter.readBack(readBack(publish, container)))).isInstanceOfSatisfying(
                ReadBackOutcome.Found.class, found -> assertThat(found.providerRef().id()).isEqualTo(mediaId));
        assertThat(instagram.containers(account)).hasSize(1);
    }

    @Test
    void doesNotExistWithoutPublishingIsUnknownAndTheFinishedContainerIsNotFound() {
        Content content = content("Does not exist, not published", 1);
        ProviderRef container = published(result(adapter.prepare(prepare(content, 1))));
        instagram.fault(account, Fault.PUBLISH_MEDIA_NOT_FOUND_BEFORE, 0, 1);
        PublishRequest publish = publishOf(content, container);

        assertThat(result(adapter.publish(publish))).isInstanceOfSatisfying(PublishOutcome.OutcomeUnknown.class,
                unknown -> assertThat(unknown.detail()).contains("100/33"));
        assertThat(instagram.media(account)).isEmpty();
        assertThat(result(adapter.readBack(readBack(publish, container)))).isInstanceOf(ReadBackOutcome.NotFound.class);
    }

    @Test
    void aContainerInErrorFailsThePublishWithItsErrorAndIsNotFound() {
        instagram.fault(account, Fault.CONTAINER_ERROR, 0, 1);
        Content content = content("Broken upload", 1);
        ProviderRef container = published(result(adapter.prepare(prepare(content, 1))));
        PublishRequest publish = publishOf(content, container);

        assertThat(result(adapter.publish(publish))).isInstanceOfSatisfying(PublishOutcome.Failed.class, failed -> {
            assertThat(failed.kind()).isEqualTo(FailureKind.REJECTED);
            assertThat(failed.errorCode()).isEqualTo("container_error");
            assertThat(failed.detail()).contains("2207001");
        });
        assertThat(result(adapter.readBack(readBack(publish, container)))).isInstanceOf(ReadBackOutcome.NotFound.class);
    }

    @Test
    void anExpiredContainerAsksForANewOne() {
        instagram.fault(account, Fault.CONTAINER_EXPIRED, 0, 1);
        Content content = content("Too late", 1);
        ProviderRef container = published(result(adapter.prepare(prepare(content, 1))));
        PublishRequest publish = publishOf(content, container);

        assertThat(result(adapter.publish(publish))).isInstanceOfSatisfying(PublishOutcome.Failed.class, failed -> {
            assertThat(failed.kind()).isEqualTo(FailureKind.NOT_SENT);
            assertThat(failed.errorCode()).isEqualTo(PublicationFailedEvent.PREPARATION_EXPIRED);
        });
        assertThat(result(adapter.readBack(readBack(publish, container)))).isInstanceOf(ReadBackOutcome.NotFound.class);
    }

    @Test
    void anImageInstagramCannotFetchIsRefused() {
        PrepareRequest unreachable = new PrepareRequest(publicationId(UUID.randomUUID().toString()), 1,
                PublicationAction.PUBLISH, content("Nowhere", 1), List.of(new PrepareRequest.Image(media(0),
                        URI.create(imageBase() + "missing.jpg"), "image/jpeg", null)), connection, Instant.now());
        assertThat(result(adapter.prepare(unreachable))).isInstanceOfSatisfying(PublishOutcome.Failed.class,
                failed -> assertThat(failed.errorCode()).isEqualTo("9004/2207052"));
        assertThat(instagram.containers(account)).isEmpty();
    }

    @Test
    void anImageServedAsAJpegMadeOfItIsSaidInTheContainerStepsSuccess() {
        PrepareRequest png = new PrepareRequest(publicationId(UUID.randomUUID().toString()), 1,
                PublicationAction.PUBLISH, content("A png", 2), List.of(
                        new PrepareRequest.Image(media(0), URI.create(imageBase() + unique("p") + ".jpg"),
                                "image/jpeg", null, "image/png"),
                        new PrepareRequest.Image(media(1), URI.create(imageBase() + unique("j") + ".jpg"),
                                "image/jpeg", null)), connection, Instant.now());
        assertThat(result(adapter.prepare(png))).isInstanceOfSatisfying(PublishOutcome.Published.class,
                made -> assertThat(made.note()).isEqualTo("image converted to JPEG for Instagram: "
                        + media(0).value() + " (image/png)"));
        assertThat(instagram.containers(account)).hasSize(3);

        PublishOutcome asUploaded = result(adapter.prepare(prepare(content("A jpeg", 1), 1)));
        assertThat(asUploaded).isInstanceOfSatisfying(PublishOutcome.Published.class,
                made -> assertThat(made.note()).isNull());
    }

    @Test
    void overThePublishingLimitThePublicationWaitsForTheWindow() {
        instagram.publishingLimit(account, 1, 12);
        Content first = content("First of the window", 1);
        published(result(adapter.publish(publishOf(first, published(result(adapter.prepare(prepare(first, 1))))))));
        Content second = content("Second of the window", 1);
        ProviderRef container = published(result(adapter.prepare(prepare(second, 1))));

        assertThat(result(adapter.publish(publishOf(second, container)))).isInstanceOfSatisfying(
                PublishOutcome.Failed.class, failed -> {
                    assertThat(failed.kind()).isEqualTo(FailureKind.RATE_LIMITED);
                    assertThat(failed.errorCode()).isEqualTo("publishing_limit_reached");
                    assertThat(failed.retryAfter()).isEqualTo(Duration.ofSeconds(3));
                });
        assertThat(instagram.media(account)).hasSize(1);
    }

    @Test
    void theFirstCommentIsWrittenAndReadBack() {
        Content content = new Content(null, "With a comment", null, List.of(new ContentMedia(media(0), null)),
                "first!");
        ProviderRef container = published(result(adapter.prepare(prepare(content, 1))));
        PublishRequest publish = publishOf(content, container);
        ProviderRef media = published(result(adapter.publish(publish)));

        ProviderRef comment = published(result(adapter.comment(new CommentRequest(publish.publicationId(), 3, media,
                "first!", connection))));

        assertThat(instagram.media(account).get(0).path("comments").get(0).asText()).isEqualTo("first!");
        ReadBackRequest read = new ReadBackRequest(publish.publicationId(), 3, PublicationAction.PUBLISH, content,
                Instant.now().minusSeconds(60), connection, PublicationStep.FIRST_COMMENT, media);
        assertThat(result(adapter.readBack(read))).isInstanceOfSatisfying(ReadBackOutcome.Found.class,
                found -> assertThat(found.providerRef().id()).isEqualTo(comment.id()));
    }

    @Test
    void aTokenIsRefreshedOnceADayOldAndARevokedOneIsInvalid() {
        InstagramTokens tokens = adapter.tokens();
        TokenRefresh.Result renewed = result(tokens.refresh(connection));
        assertThat(renewed).isInstanceOfSatisfying(TokenRefresh.Result.Renewed.class, r -> {
            assertThat(((InstagramSecrets) r.secrets()).accessToken()).isNotEqualTo(token);
            assertThat(r.expiresAt()).isAfter(Instant.now().plus(Duration.ofDays(59)));
        });
        assertThat(instagram.tokens(account)).hasSize(2);

        String young = unique("ig-young-");
        instagram.account(unique("gram"), young, null, 60L);
        ChannelConnection tooNew = new ChannelConnection(new WorkspaceId("acme"), new ChannelId("ig-young"),
                InstagramPlugin.TYPE, new InstagramSettings(account), new InstagramSecrets(young, null), false);
        assertThat(result(tokens.refresh(tooNew))).isInstanceOf(TokenRefresh.Result.NotYet.class);
        assertThat(result(tokens.refresh(connection(unique("not-a-token-")))))
                .isInstanceOf(TokenRefresh.Result.Invalid.class);
    }

    @Test
    void theProbeReadsThePublishingLimitWithTheToken() {
        CapabilityReport ok = result(adapter.probe(connection));
        assertThat(ok.publish().available()).isTrue();
        assertThat(ok.reconcile().available()).isTrue();
        CapabilityReport bad = result(adapter.probe(connection(unique("not-a-token-"))));
        assertThat(bad.publish().available()).isFalse();
    }

    private static Content content(String caption, int images) {
        List<ContentMedia> media = new ArrayList<>();
        for (int i = 0; i < images; i++) {
            media.add(new ContentMedia(media(i), i == 1 ? null : "alt " + i));
        }
        return new Content(null, caption, null, media, null);
    }

    private PrepareRequest prepare(Content content, int images) {
        List<PrepareRequest.Image> list = new ArrayList<>();
        for (int i = 0; i < images; i++) {
            list.add(new PrepareRequest.Image(media(i), URI.create(imageBase() + unique("m") + ".jpg"), "image/jpeg",
                    content.media().get(i).altText()));
        }
        return new PrepareRequest(publicationId(UUID.randomUUID().toString()), 1, PublicationAction.PUBLISH,
                content, list, connection, Instant.now());
    }

    private PublishRequest publishOf(Content content, ProviderRef container) {
        return new PublishRequest(publicationId(UUID.randomUUID().toString()), 2, PublicationAction.PUBLISH, content,
                null, connection, List.of(new UploadedMedia(null, null, container)), Instant.now());
    }

    private ReadBackRequest readBack(PublishRequest publish, ProviderRef container) {
        return new ReadBackRequest(publish.publicationId(), 2, PublicationAction.PUBLISH, publish.content(),
                Instant.now().minusSeconds(30), connection, InstagramPlugin.PUBLISH_CONTAINER, null, null, null,
                container);
    }

    private static ProviderRef published(PublishOutcome outcome) {
        assertThat(outcome).isInstanceOf(PublishOutcome.Published.class);
        return ((PublishOutcome.Published) outcome).providerRef();
    }

    private static String imageBase() {
        return "http://127.0.0.1:" + images.getAddress().getPort() + "/img/";
    }

    private static MediaId media(int i) {
        return MediaId.of("med_" + HexFormat.of().formatHex(new byte[32]).substring(1) + i);
    }

    private static byte[] image(String format) {
        BufferedImage image = new BufferedImage(8, 8, BufferedImage.TYPE_INT_RGB);
        try (ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            ImageIO.write(image, format, out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
