package io.herald.adapters.bluesky;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.adapters.ChannelAdaptersConfiguration;
import io.herald.adapters.bluesky.live.BlueskyPds;
import io.herald.adapters.bluesky.live.HoldingProxy;
import io.herald.adapters.bluesky.live.Xrpc;
import io.herald.adapters.outbound.OutboundGuard;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.CommentRequest;
import io.herald.adapters.port.PostChangeRequest;
import io.herald.adapters.port.PostReadRequest;
import io.herald.adapters.port.PostReading;
import io.herald.adapters.port.PublishOutcome;
import io.herald.adapters.port.PublishRequest;
import io.herald.adapters.port.ReadBackOutcome;
import io.herald.adapters.port.ReadBackRequest;
import io.herald.adapters.port.UploadRequest;
import io.herald.contracts.error.ErrorCode;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.IdempotencyKeys;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.media.MediaId;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.ContentMedia;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.UnknownCause;
import io.herald.contracts.publication.UploadedMedia;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The Bluesky adapter against the reference PDS ({@link BlueskyPds}): a post, its read-back, an
 * unknown create settled by sending it again (the answer held by a {@link HoldingProxy} past the
 * adapter's read timeout), a repeated create, other content under the key, an image, a reply, a
 * delete, sessions whose tokens ran out, and the check of a connection before it is stored. Skipped where
 * the PDS is not installed, except on CI ({@code CI=true}), where that fails.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BlueskyLiveIT {

    private static final Duration READ_TIMEOUT = Duration.ofSeconds(3);
    private static final String POSTS = BlueskyPds.POST_COLLECTION;

    private final AtomicLong requested = new AtomicLong();
    private String skip;
    private BlueskyPds pds;
    private Xrpc xrpc;
    private BlueskyAdapter adapter;
    private BlueskyPds.Account account;
    private ChannelConnection connection;

    @BeforeAll
    void startThePds() {
        Optional<String> unavailable = BlueskyPds.whyUnavailable();
        // CI installs the reference PDS (.ci/bluesky.sh): there a missing one is a failure, never a skip
        if (unavailable.isPresent() && BlueskyPds.requiredHere()) {
            fail("CI=true but the reference PDS is not installed: " + unavailable.get());
        }
        if (unavailable.isPresent()) {
            skip = unavailable.get();
            System.err.println(BlueskyPds.skipMessage(skip));
            return;
        }
        try {
            pds = BlueskyPds.start();
        } catch (IllegalStateException | IOException e) {
            if (BlueskyPds.requiredHere()) {
                fail("the reference PDS is installed but did not start", e);
            }
            skip = "the PDS in " + BlueskyPds.home() + " did not start (" + e.getMessage() + ")";
            System.err.println(BlueskyPds.skipMessage(skip));
            return;
        }
        xrpc = pds.xrpc();
        adapter = adapter(READ_TIMEOUT);
    }

    @AfterAll
    void stopThePds() {
        if (pds != null) {
            pds.close();
        }
    }

    @BeforeEach
    void anAccount() throws Exception {
        assumeTrue(skip == null, () -> BlueskyPds.skipMessage(skip));
        account = pds.createAccount("live");
        connection = connection(pds.url());
    }

    @Test
    void aConnectionIsCheckedAgainstThePdsBeforeItIsStored() throws Exception {
        ChannelConnection unknown = new ChannelConnection(new WorkspaceId("acme"), new ChannelId("bsky-unknown"),
                BlueskyPlugin.TYPE, new BlueskySettings("nobody-" + System.nanoTime() + ".test", pds.url().toString()),
                new BlueskySecrets(account.appPassword()), false);
        ChannelConnection wrongPassword = new ChannelConnection(new WorkspaceId("acme"), new ChannelId("bsky-wrong"),
                BlueskyPlugin.TYPE, new BlueskySettings(account.handle(), pds.url().toString()),
                new BlueskySecrets("wrong-app-password"), false);

        assertThat(result(adapter.verify(connection))).isEmpty();
        assertThat(result(adapter.verify(unknown))).hasValueSatisfying(refused -> {
            assertThat(refused.code()).isEqualTo(ErrorCode.VALIDATION_FAILED);
            assertThat(refused.violations()).singleElement().satisfies(v -> {
                assertThat(v.field()).isEqualTo("handle");
                assertThat(v.message()).contains("bluesky").contains("400 HandleNotFound")
                        .contains("Unable to resolve handle");
            });
        });
        assertThat(result(adapter.verify(wrongPassword))).hasValueSatisfying(refused -> {
            assertThat(refused.code()).isEqualTo(ErrorCode.VALIDATION_FAILED);
            assertThat(refused.violations()).singleElement().satisfies(v -> {
                assertThat(v.field()).isEqualTo("appPassword");
                assertThat(v.message()).contains("401").doesNotContain("wrong-app-password");
            });
        });
    }

    @Test
    void publishesAPostAndReadsItBackByItsKey() throws Exception {
        PublishRequest request = request(new Content("A title", "Live on the reference PDS https://example.com/live",
                null));

        PublishOutcome outcome = result(adapter.publish(request));

        ProviderRef ref = published(outcome);
        AtUri uri = AtUri.parse(ref.id()).orElseThrow();
        assertThat(uri.repo()).isEqualTo(account.did());
        assertThat(ref.url()).isEqualTo("https://bsky.app/profile/" + account.handle() + "/post/" + uri.rkey());
        Xrpc.Answer stored = xrpc.getRecord(account.did(), POSTS, uri.rkey());
        assertThat(stored.status()).as("%s", stored).isEqualTo(200);
        assertThat(stored.body().path("value").path("text").asText())
                .isEqualTo("Live on the reference PDS https://example.com/live");
        assertThat(stored.body().path("value").path("facets").get(0).path("index").path("byteStart").asInt())
                .isEqualTo("Live on the reference PDS ".length());
        assertThat(result(adapter.readBack(readBack(request)))).isInstanceOfSatisfying(ReadBackOutcome.Found.class,
                found -> assertThat(found.providerRef()).isEqualTo(ref));
        assertThat(result(adapter.readBack(readBack(request(new Content(null, "never sent", null))))))
                .isInstanceOf(ReadBackOutcome.NotFound.class);
    }

    @Test
    void anUnknownCreateHeldPastTheReadTimeoutAndSentAgainIsOnePostUnderTheSameUri() throws Exception {
        try (HoldingProxy proxy = new HoldingProxy(pds.url())) {
            ChannelConnection viaProxy = connection(proxy.url());
            PublishRequest request = request(new Content(null, "held, then sent again", null), viaProxy);
            assertThat(result(adapter.probe(viaProxy)).publish().available()).isTrue();
            proxy.holdNextAnswer("POST", "/xrpc/com.atproto.repo.putRecord", READ_TIMEOUT.multipliedBy(3), 1);

            PublishOutcome first = result(adapter.publish(request));
            PublishOutcome again = result(adapter.publish(attempt(request, 2)));

            assertThat(first).isInstanceOfSatisfying(PublishOutcome.OutcomeUnknown.class,
                    unknown -> assertThat(unknown.cause()).isEqualTo(UnknownCause.READ_TIMEOUT));
            ProviderRef ref = published(again);
            assertThat(proxy.requests("POST", "/xrpc/com.atproto.repo.putRecord")).isEqualTo(2);
            assertThat(posts()).singleElement()
                    .satisfies(post -> assertThat(post.path("uri").asText()).isEqualTo(ref.id()));
            assertThat(result(adapter.readBack(readBack(request)))).isInstanceOf(ReadBackOutcome.Found.class);
        }
    }

    @Test
    void aRepeatedCreateIsAnsweredWithTheSameRecord() throws Exception {
        PublishRequest request = request(new Content(null, "the same create twice", null));

        ProviderRef first = published(result(adapter.publish(request)));
        ProviderRef again = published(result(adapter.publish(attempt(request, 2))));

        assertThat(again).isEqualTo(first);
        assertThat(posts()).hasSize(1);
    }

    @Test
    void otherContentUnderThePublicationsKeyIsRefusedAsKeyTaken() throws Exception {
        PublishRequest request = request(new Content(null, "the first content", null));
        published(result(adapter.publish(request)));

        PublishOutcome other = result(adapter.publish(new PublishRequest(request.publicationId(), 2,
                PublicationAction.PUBLISH, new Content(null, "other content", null), null, connection, List.of(),
                request.requestedAt())));

        assertThat(other).isInstanceOfSatisfying(PublishOutcome.Failed.class, failed -> {
            assertThat(failed.kind()).isEqualTo(FailureKind.REJECTED);
            assertThat(failed.errorCode()).isEqualTo(BlueskyOutcome.RECORD_KEY_TAKEN);
        });
        assertThat(posts()).singleElement().satisfies(post ->
                assertThat(post.path("value").path("text").asText()).isEqualTo("the first content"));
    }

    @Test
    void anImageIsABlobWithItsAltTextAndAspectRatio() throws Exception {
        byte[] png = png(64, 48);
        MediaId mediaId = MediaId.of("med_" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(png)));
        PublicationId publication = publicationId();
        ProviderRef blob = published(result(adapter.uploadMedia(new UploadRequest(publication, 1, mediaId,
                "a test card", "image/png", png, connection))));

        ProviderRef post = published(result(adapter.publish(new PublishRequest(publication, 2,
                PublicationAction.PUBLISH, new Content(null, "with an image", null,
                List.of(new ContentMedia(mediaId, "a test card")), null), null, connection,
                List.of(new UploadedMedia(mediaId, "a test card", blob)), requestedAt()))));

        JsonNode image = xrpc.getRecord(account.did(), POSTS, AtUri.parse(post.id()).orElseThrow().rkey()).body()
                .path("value").path("embed").path("images").get(0);
        assertThat(image.path("alt").asText()).isEqualTo("a test card");
        assertThat(image.path("aspectRatio").path("width").asInt()).isEqualTo(64);
        assertThat(image.path("aspectRatio").path("height").asInt()).isEqualTo(48);
        assertThat(image.path("image").path("mimeType").asText()).isEqualTo("image/png");
    }

    @Test
    void theFirstCommentIsAReplyToThePost() throws Exception {
        PublishRequest request = request(new Content(null, "a post with a first comment", null));
        ProviderRef post = published(result(adapter.publish(request)));

        CommentRequest comment = new CommentRequest(request.publicationId(), 2, post, "the first comment", connection);
        ProviderRef reply = published(result(adapter.comment(comment)));
        ProviderRef repeated = published(result(adapter.comment(comment)));

        assertThat(repeated).isEqualTo(reply);
        JsonNode value = xrpc.getRecord(account.did(), POSTS, AtUri.parse(reply.id()).orElseThrow().rkey()).body()
                .path("value");
        assertThat(value.path("reply").path("root").path("uri").asText()).isEqualTo(post.id());
        assertThat(value.path("reply").path("parent").path("uri").asText()).isEqualTo(post.id());
        assertThat(posts()).hasSize(2);
    }

    @Test
    void deleteRemovesThePostAndAgainIsDone() throws Exception {
        PublishRequest request = request(new Content(null, "to be deleted", null));
        ProviderRef post = published(result(adapter.publish(request)));
        PostChangeRequest delete = new PostChangeRequest(publicationId(), 1, PublicationAction.DELETE,
                request.content(), post, connection);

        published(result(adapter.delete(delete)));
        published(result(adapter.delete(delete)));

        assertThat(xrpc.getRecord(account.did(), POSTS, AtUri.parse(post.id()).orElseThrow().rkey()).error())
                .isEqualTo("RecordNotFound");
        assertThat(result(adapter.readPost(new PostReadRequest(post, null, connection))))
                .isInstanceOf(PostReading.Gone.class);
    }

    @Test
    void anExpiredAccessTokenIsRefreshedAndARevokedRefreshTokenMakesANewSession() throws Exception {
        published(result(adapter.publish(request(new Content(null, "before the token ran out", null)))));
        String expired = pds.expiredCopyOf(adapter.sessions().held(connection).orElseThrow().accessJwt());
        adapter.sessions().replace(connection, s -> new BlueskySessions.Session(s.did(), s.handle(), expired,
                s.refreshJwt()));

        published(result(adapter.publish(request(new Content(null, "after a refresh", null)))));
        BlueskySessions.Session refreshed = adapter.sessions().held(connection).orElseThrow();
        // (a token issued in the same second as the first is the same text: compare with the expired one)
        assertThat(refreshed.accessJwt()).isNotEqualTo(expired);

        // the refresh token revoked too: only a new session helps
        Xrpc.Answer revoked = xrpc.post("com.atproto.server.deleteSession", refreshed.refreshJwt());
        assertThat(revoked.status()).as("%s", revoked).isEqualTo(200);
        adapter.sessions().replace(connection, s -> new BlueskySessions.Session(s.did(), s.handle(),
                pds.expiredCopyOf(s.accessJwt()), s.refreshJwt()));

        published(result(adapter.publish(request(new Content(null, "after a new session", null)))));
        assertThat(adapter.sessions().held(connection).orElseThrow().refreshJwt())
                .isNotEqualTo(refreshed.refreshJwt());
        assertThat(posts()).hasSize(3);
    }

    @Test
    void aWrongAppPasswordLosesTheCredentialsAndWritesNothing() throws Exception {
        ChannelConnection wrong = new ChannelConnection(new WorkspaceId("acme"), new ChannelId("bsky-wrong"),
                BlueskyPlugin.TYPE, new BlueskySettings(account.handle(), pds.url().toString()),
                new BlueskySecrets("wrong-pass-word-abcd"), false);

        PublishOutcome outcome = result(adapter.publish(request(new Content(null, "never written", null), wrong)));

        assertThat(outcome).isInstanceOfSatisfying(PublishOutcome.AuthLost.class,
                lost -> assertThat(lost.providerCode()).isEqualTo("AuthenticationRequired"));
        assertThat(result(adapter.probe(wrong)).authLost()).isNotNull();
        assertThat(posts()).isEmpty();
    }

    private BlueskyAdapter adapter(Duration readTimeout) {
        // the PDS listens on 127.0.0.1
        return ChannelAdaptersConfiguration.bluesky(new BlueskyProperties(Duration.ofSeconds(2), readTimeout),
                OutboundGuard.privateNetworksAllowed(),
                Clock.systemUTC());
    }

    private ChannelConnection connection(URI pdsUrl) {
        return new ChannelConnection(new WorkspaceId("acme"), new ChannelId("bsky-" + account.handle() + pdsUrl.getPort()),
                BlueskyPlugin.TYPE, new BlueskySettings(account.handle(), pdsUrl.toString()),
                new BlueskySecrets(account.appPassword()), false);
    }

    private JsonNode posts() throws Exception {
        Xrpc.Answer list = xrpc.listRecords(account.did(), POSTS);
        assertThat(list.status()).as("%s", list).isEqualTo(200);
        return list.body().path("records");
    }

    private PublishRequest request(Content content) {
        return request(content, connection);
    }

    private PublishRequest request(Content content, ChannelConnection to) {
        return new PublishRequest(publicationId(), 1, PublicationAction.PUBLISH, content, null, to, List.of(),
                requestedAt());
    }

    /** Now, a microsecond later for each request, so that no two publications of a test share a key's time. */
    private Instant requestedAt() {
        return Instant.now().truncatedTo(ChronoUnit.SECONDS).plus(requested.incrementAndGet(), ChronoUnit.MICROS);
    }

    private static PublishRequest attempt(PublishRequest request, int attemptNo) {
        return new PublishRequest(request.publicationId(), attemptNo, request.action(), request.content(),
                request.scheduledAt(), request.connection(), request.uploads(), request.requestedAt());
    }

    private static ReadBackRequest readBack(PublishRequest request) {
        return new ReadBackRequest(request.publicationId(), request.attemptNo(), request.action(), request.content(),
                Instant.now(), request.connection(), null, null, request.requestedAt(), request.scheduledAt());
    }

    private static PublicationId publicationId() {
        return IdempotencyKeys.publicationId(new WorkspaceId("acme"), UUID.randomUUID().toString(), 1,
                new ChannelId("bsky"), PublicationAction.PUBLISH);
    }

    private static ProviderRef published(PublishOutcome outcome) {
        assertThat(outcome).isInstanceOf(PublishOutcome.Published.class);
        return ((PublishOutcome.Published) outcome).providerRef();
    }

    private static byte[] png(int width, int height) throws IOException {
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        image.setRGB(1, 1, Color.ORANGE.getRGB());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(image, "png", out);
        return out.toByteArray();
    }

    private static <T> T result(CompletableFuture<T> future) {
        try {
            return future.get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("the adapter's future did not complete normally", e);
        }
    }
}
