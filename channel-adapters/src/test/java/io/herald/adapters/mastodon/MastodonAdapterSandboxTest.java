package io.herald.adapters.mastodon;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.adapters.SandboxTestSupport;
import io.herald.adapters.port.CapabilityReport;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.CommentRequest;
import io.herald.adapters.port.PostChangeRequest;
import io.herald.adapters.port.PostOwnership;
import io.herald.adapters.port.PostOwnershipRequest;
import io.herald.adapters.port.PostReadRequest;
import io.herald.adapters.port.PostReading;
import io.herald.adapters.port.PublishOutcome;
import io.herald.adapters.port.PublishRequest;
import io.herald.adapters.port.ReadBackOutcome;
import io.herald.adapters.port.ReadBackRequest;
import io.herald.adapters.port.UploadRequest;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.media.MediaId;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.ContentMedia;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.PublicationStep;
import io.herald.contracts.publication.UnknownCause;
import io.herald.contracts.publication.UploadedMedia;
import io.herald.sandbox.mastodon.MastodonFaults;
import io.herald.sandbox.mastodon.MastodonFaults.Operation;
import io.herald.sandbox.mastodon.MastodonFaults.Type;
import io.herald.sandbox.mastodon.MastodonSandboxClient;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class MastodonAdapterSandboxTest extends SandboxTestSupport {

    private final MastodonSandboxClient instance = new MastodonSandboxClient(server.baseUrl());
    private final MastodonAdapter adapter = mastodon(SHORT_READ_TIMEOUT);
    private String token;
    private String account;
    private ChannelConnection connection;

    @BeforeEach
    void account() {
        token = unique("masto-token-");
        account = instance.account(unique("user"), token);
        connection = connection(token, null);
    }

    private ChannelConnection connection(String accessToken, String accountId) {
        return new ChannelConnection(new WorkspaceId("acme"), new ChannelId("masto-" + accessToken),
                MastodonPlugin.TYPE, new MastodonSettings(instance.instanceUrl(), accountId),
                new MastodonSecrets(accessToken), false);
    }

    @Test
    void aCreateCarriesItsKeyAndARepeatWithTheSameKeyIsTheSameStatus() {
        PublishRequest request = request(new Content(null, "Hello & <welcome>\nsecond line", "https://example.com/a"));

        PublishOutcome first = result(adapter.publish(request));
        PublishOutcome again = result(adapter.publish(next(request)));

        ProviderRef ref = published(first);
        assertThat(published(again)).isEqualTo(ref);
        assertThat(ref.url()).startsWith(instance.instanceUrl() + "/@");
        JsonNode status = onlyStatus();
        assertThat(status.path("id").asText()).isEqualTo(ref.id());
        assertThat(status.path("text").asText()).isEqualTo("Hello & <welcome>\nsecond line\n\nhttps://example.com/a");
        assertThat(first.trace().requestFingerprint()).isEqualTo(again.trace().requestFingerprint());
        assertThat(MastodonApi.idempotencyKey(request.publicationId(), PublicationStep.CREATE_POST))
                .isEqualTo(request.publicationId().value() + ":create_post");
        assertThat(result(adapter.readBack(readBack(request)))).isInstanceOfSatisfying(ReadBackOutcome.Found.class,
                found -> assertThat(found.providerRef().id()).isEqualTo(ref.id()));
    }

    @Test
    void anAnswerHeldPastTheTimeoutIsUnknownAndTheRepeatWithTheKeyLeavesOneStatus() {
        PublishRequest request = request(new Content(null, "sent twice, posted once", null));
        instance.fault(new MastodonFaults.Fault(account, Operation.CREATE, Type.HOLD_AFTER_CREATE, 15_000, 1));

        PublishOutcome first = result(adapter.publish(request));
        PublishOutcome again = result(adapter.publish(next(request)));

        assertThat(first).isInstanceOfSatisfying(PublishOutcome.OutcomeUnknown.class,
                unknown -> assertThat(unknown.cause()).isEqualTo(UnknownCause.READ_TIMEOUT));
        assertThat(published(again).id()).isEqualTo(onlyStatus().path("id").asText());
    }

    @Test
    void aResetAfterTheCreateIsUnknownAndTheReadBackFindsTheStatus() {
        PublishRequest request = request(new Content(null, "written, then the connection dropped @friend@other.example #herald", null));
        instance.fault(new MastodonFaults.Fault(account, Operation.CREATE, Type.RESET_AFTER_CREATE, 0, 1));

        PublishOutcome outcome = result(adapter.publish(request));

        assertThat(outcome).isInstanceOfSatisfying(PublishOutcome.OutcomeUnknown.class,
                unknown -> assertThat(unknown.cause()).isEqualTo(UnknownCause.CONNECTION_RESET));
        assertThat(result(adapter.readBack(readBack(request)))).isInstanceOfSatisfying(ReadBackOutcome.Found.class,
                found -> assertThat(found.providerRef().id()).isEqualTo(onlyStatus().path("id").asText()));
    }

    @Test
    void aServerErrorBeforeTheCreateIsUnknownAndTheReadBackFindsNothing() {
        PublishRequest request = request(new Content(null, "never written", null));
        instance.fault(new MastodonFaults.Fault(account, Operation.CREATE, Type.ERROR_500_BEFORE_CREATE, 0, 1));

        PublishOutcome outcome = result(adapter.publish(request));

        assertThat(outcome).isInstanceOfSatisfying(PublishOutcome.OutcomeUnknown.class,
                unknown -> assertThat(unknown.cause()).isEqualTo(UnknownCause.SERVER_ERROR));
        assertThat(result(adapter.readBack(readBack(request)))).isInstanceOf(ReadBackOutcome.NotFound.class);
        assertThat(instance.statuses(account)).isEmpty();
    }

    @Test
    void anInstanceThatAnswersARepeatedKeyWithA500LeavesItToTheReadBack() {
        PublishRequest request = request(new Content(null, "repeated key, server error", null));
        ProviderRef ref = published(result(adapter.publish(request)));
        instance.repeatedKeyError(true);
        PublishOutcome again;
        try {
            again = result(adapter.publish(next(request)));
        } finally {
            instance.repeatedKeyError(false);
        }

        assertThat(again).isInstanceOfSatisfying(PublishOutcome.OutcomeUnknown.class,
                unknown -> assertThat(unknown.cause()).isEqualTo(UnknownCause.SERVER_ERROR));
        assertThat(result(adapter.readBack(readBack(request)))).isInstanceOfSatisfying(ReadBackOutcome.Found.class,
                found -> assertThat(found.providerRef().id()).isEqualTo(ref.id()));
        assertThat(instance.statuses(account)).hasSize(1);
    }

    @Test
    void twoStatusesWithTheTextOrAnUnreadableListAreUnknownAndAnOlderOneIsNotFound() {
        PublishRequest request = request(new Content(null, "typed twice by hand", null));
        instance.seed(account, "typed twice by hand", null, Instant.now().minus(Duration.ofHours(2)));
        assertThat(result(adapter.readBack(readBack(request)))).isInstanceOf(ReadBackOutcome.NotFound.class);

        instance.seed(account, "typed twice by hand", null, Instant.now().minusSeconds(30));
        instance.seed(account, "typed twice by hand", null, Instant.now().minusSeconds(20));
        assertThat(result(adapter.readBack(readBack(request)))).isInstanceOf(ReadBackOutcome.Unknown.class);

        instance.fault(new MastodonFaults.Fault(account, Operation.READ, Type.ERROR_500_BEFORE_CREATE, 0, 1));
        assertThat(result(adapter.readBack(readBack(request(new Content(null, "anything", null))))))
                .isInstanceOf(ReadBackOutcome.Unknown.class);
    }

    @Test
    void theReadBackPagesThroughTheWindowByMaxId() {
        for (int i = 0; i < 45; i++) {
            instance.seed(account, "filler " + i, null, Instant.now().minusSeconds(100 - i));
        }
        PublishRequest request = request(new Content(null, "the oldest in the window", null));
        instance.seed(account, "the oldest in the window", null, Instant.now().minusSeconds(200));

        assertThat(result(adapter.readBack(readBack(request)))).isInstanceOf(ReadBackOutcome.Found.class);
    }

    @Test
    void imagesAreUploadedReadyOrAfterProcessingAndAttachedWithTheirAltText() throws Exception {
        byte[] png = png(40, 20);
        MediaId mediaId = mediaId(png);
        ProviderRef ready = published(result(adapter.uploadMedia(upload(mediaId, png))));
        instance.processing(account, 0);
        ProviderRef afterCheck = published(result(adapter.uploadMedia(upload(mediaId, png))));
        instance.processing(account, -1);

        Content content = new Content(null, "two pictures", null,
                List.of(new ContentMedia(mediaId, "a wide picture"), new ContentMedia(mediaId, "a wide picture")), null);
        PublishRequest post = new PublishRequest(publicationId(unique("img")), 1, PublicationAction.PUBLISH, content,
                null, connection, List.of(new UploadedMedia(mediaId, "a wide picture", ready),
                new UploadedMedia(mediaId, "a wide picture", afterCheck)));
        published(result(adapter.publish(post)));
        JsonNode status = onlyStatus();
        assertThat(status.path("mediaIds")).extracting(JsonNode::asText).containsExactly(ready.id(), afterCheck.id());
    }

    @Test
    void anImageStillProcessingIsPolledUntilReadyWithinTheWaitAndUploadedOnce() throws Exception {
        byte[] png = png(30, 30);
        MediaId mediaId = mediaId(png);
        // 202, then "still processing" (206) to the next three checks, then ready
        instance.processing(account, 3);
        long started = System.nanoTime();
        PublishOutcome upload;
        try {
            upload = result(adapter.uploadMedia(upload(mediaId, png)));
        } finally {
            instance.processing(account, -1);
        }

        ProviderRef attachment = published(upload);
        // pauses of 250, 500 and 1,000 ms between the four checks
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(1_700));
        PublishRequest post = new PublishRequest(publicationId(unique("polled")), 1, PublicationAction.PUBLISH,
                new Content(null, "after processing", null, List.of(new ContentMedia(mediaId, null)), null), null,
                connection, List.of(new UploadedMedia(mediaId, null, attachment)));
        published(result(adapter.publish(post)));
        assertThat(onlyStatus().path("mediaIds")).extracting(JsonNode::asText).containsExactly(attachment.id());
    }

    @Test
    void anImageStillProcessingWhenTheWaitEndsFailsTheUploadAsRetryable() throws Exception {
        MastodonAdapter impatient = mastodon(SHORT_READ_TIMEOUT, Duration.ofSeconds(1));
        byte[] png = png(20, 20);
        MediaId mediaId = mediaId(png);
        instance.processing(account, 1_000);
        long started = System.nanoTime();
        PublishOutcome processing;
        try {
            processing = result(impatient.uploadMedia(upload(mediaId, png)));
        } finally {
            instance.processing(account, -1);
        }

        Duration took = Duration.ofNanos(System.nanoTime() - started);
        assertThat(processing).isInstanceOfSatisfying(PublishOutcome.Failed.class, failed -> {
            assertThat(failed.kind()).isEqualTo(FailureKind.NOT_SENT);
            assertThat(failed.kind().provablyNotExecuted()).isTrue();
            assertThat(failed.errorCode()).isEqualTo("media_processing");
            // checked more than once: at 0, 250 and 750 ms, and when the second ends
            assertThat(failed.detail()).containsPattern("after [3-9] checks in 1 s");
        });
        assertThat(took).isGreaterThanOrEqualTo(Duration.ofSeconds(1)).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void aStatusWithAnImageStillProcessingIsSentAgainLater() throws Exception {
        byte[] png = png(10, 10);
        MediaId mediaId = mediaId(png);
        instance.processing(account, 1_000);
        PublishOutcome upload;
        try {
            upload = result(mastodon(SHORT_READ_TIMEOUT, Duration.ofMillis(300)).uploadMedia(upload(mediaId, png)));
        } finally {
            instance.processing(account, -1);
        }
        String attachment = processingAttachment(upload);
        PublishRequest post = new PublishRequest(publicationId(unique("early")), 1, PublicationAction.PUBLISH,
                new Content(null, "too early", null, List.of(new ContentMedia(mediaId, null)), null), null,
                connection, List.of(new UploadedMedia(mediaId, null, new ProviderRef(attachment, null))));

        PublishOutcome outcome = result(adapter.publish(post));

        assertThat(outcome).isInstanceOfSatisfying(PublishOutcome.Failed.class, failed -> {
            assertThat(failed.kind()).isEqualTo(FailureKind.NOT_SENT);
            assertThat(failed.errorCode()).isEqualTo("media_processing");
        });
        assertThat(instance.statuses(account)).isEmpty();
    }

    @Test
    void theFirstCommentIsAReplyARepeatIsTheSameReplyAndTheReadBackFindsIt() {
        PublishRequest request = request(new Content(null, "a post with a reply", null));
        ProviderRef post = published(result(adapter.publish(request)));
        CommentRequest comment = new CommentRequest(request.publicationId(), 2, post, "the first comment", connection);

        ProviderRef reply = published(result(adapter.comment(comment)));
        assertThat(published(result(adapter.comment(comment)))).isEqualTo(reply);

        JsonNode statuses = instance.statuses(account);
        assertThat(statuses).hasSize(2);
        assertThat(statuses.get(0).path("inReplyToId").asText()).isEqualTo(post.id());
        ReadBackOutcome read = result(adapter.readBack(new ReadBackRequest(request.publicationId(), 2,
                PublicationAction.PUBLISH, new Content(null, "a post with a reply", null, List.of(),
                "the first comment"), Instant.now(), connection, PublicationStep.FIRST_COMMENT, post)));
        assertThat(read).isInstanceOfSatisfying(ReadBackOutcome.Found.class,
                found -> assertThat(found.providerRef().id()).isEqualTo(reply.id()));
        // the post's own read-back does not take the reply for it
        assertThat(result(adapter.readBack(readBack(request(new Content(null, "the first comment", null))))))
                .isInstanceOf(ReadBackOutcome.NotFound.class);
    }

    @Test
    void anUpdateKeepsTheAttachmentsAndAnEditOfAGoneStatusFails() throws Exception {
        byte[] png = png(8, 8);
        MediaId mediaId = mediaId(png);
        ProviderRef image = published(result(adapter.uploadMedia(upload(mediaId, png))));
        PublishRequest request = new PublishRequest(publicationId(unique("upd")), 1, PublicationAction.PUBLISH,
                new Content(null, "before", null, List.of(new ContentMedia(mediaId, null)), null), null, connection,
                List.of(new UploadedMedia(mediaId, null, image)));
        ProviderRef post = published(result(adapter.publish(request)));
        Content edited = new Content(null, "after", null, List.of(new ContentMedia(mediaId, null)), null);
        PostChangeRequest update = new PostChangeRequest(publicationId(unique("u")), 1, PublicationAction.UPDATE,
                edited, post, connection);

        assertThat(published(result(adapter.edit(update)))).isEqualTo(post);
        JsonNode status = onlyStatus();
        assertThat(status.path("text").asText()).isEqualTo("after");
        assertThat(status.path("mediaIds")).extracting(JsonNode::asText).containsExactly(image.id());
        assertThat(result(adapter.readPost(new PostReadRequest(post, edited, connection))))
                .isInstanceOfSatisfying(PostReading.Present.class, present -> assertThat(present.asWanted()).isTrue());

        published(result(adapter.delete(new PostChangeRequest(update.publicationId(), 2, PublicationAction.DELETE,
                edited, post, connection))));
        assertThat(result(adapter.edit(update))).isInstanceOfSatisfying(PublishOutcome.Failed.class, failed -> {
            assertThat(failed.kind()).isEqualTo(FailureKind.REJECTED);
            assertThat(failed.errorCode()).isEqualTo("status_gone");
        });
    }

    @Test
    void aDeleteRemovesTheStatusAndAGoneStatusIsDone() {
        PublishRequest request = request(new Content(null, "to be deleted", null));
        ProviderRef post = published(result(adapter.publish(request)));
        PostChangeRequest delete = new PostChangeRequest(publicationId(unique("d")), 1, PublicationAction.DELETE,
                request.content(), post, connection);

        assertThat(published(result(adapter.delete(delete)))).isEqualTo(post);
        assertThat(published(result(adapter.delete(delete)))).isEqualTo(post);
        assertThat(onlyStatus().path("deleted").asBoolean()).isTrue();
        assertThat(result(adapter.readPost(new PostReadRequest(post, null, connection))))
                .isInstanceOf(PostReading.Gone.class);
    }

    @Test
    void aStatusTheModeratorsRemovedAfterItsSuccessReadsAsGone() {
        ProviderRef post = published(result(adapter.publish(request(new Content(null, "soon removed", null)))));
        assertThat(result(adapter.readPost(new PostReadRequest(post, null, connection))))
                .isInstanceOf(PostReading.Present.class);

        instance.remove(post.id());

        assertThat(onlyStatus().path("deleted").asBoolean()).isTrue();
        assertThat(result(adapter.readPost(new PostReadRequest(post, null, connection))))
                .isInstanceOfSatisfying(PostReading.Gone.class, gone -> assertThat(gone.detail()).contains(post.id())
                        .doesNotContain(token));
    }

    @Test
    void intakeCountsALinkAs23CharactersAndRefusesMoreThanFourImages() {
        String url = "https://example.com/" + "a".repeat(80);
        assertThat(adapter.validate(new Content(null, "a".repeat(470) + " " + url, null), PublicationAction.PUBLISH))
                .isEmpty();
        assertThat(adapter.validate(new Content(null, "a".repeat(501), null), PublicationAction.PUBLISH))
                .singleElement().satisfies(v -> {
                    assertThat(v.field()).isEqualTo("content.body");
                    assertThat(v.message()).contains("mastodon").contains("500").contains("501");
                });
        assertThat(adapter.validate(new Content(null, "ok", null, List.of(image(1), image(2), image(3), image(4),
                image(5)), null), PublicationAction.PUBLISH)).extracting(v -> v.field()).containsExactly("content.media");
        assertThat(adapter.validate(new Content(null, "ok", null, List.of(), "b".repeat(501)),
                PublicationAction.PUBLISH)).extracting(v -> v.field()).containsExactly("content.firstComment");
        assertThat(adapter.validate(new Content(null, "ok", null), PublicationAction.DRAFT))
                .extracting(v -> v.field()).containsExactly("action");
    }

    @Test
    void theInstanceRefusingTheTextIsARejectionWithItsMessage() {
        PublishOutcome outcome = result(adapter.publish(request(new Content(null, "x".repeat(501), null))));

        assertThat(outcome).isInstanceOfSatisfying(PublishOutcome.Failed.class, failed -> {
            assertThat(failed.kind()).isEqualTo(FailureKind.REJECTED);
            assertThat(failed.errorCode()).isEqualTo("http_422");
            assertThat(failed.detail()).contains("character limit of 500 exceeded");
        });
    }

    @Test
    void aRateLimitWaitsForTheAnnouncedReset() {
        instance.fault(new MastodonFaults.Fault(account, Operation.CREATE, Type.RATE_LIMIT, 120_000, 1));

        PublishOutcome outcome = result(adapter.publish(request(new Content(null, "too many", null))));

        assertThat(outcome).isInstanceOfSatisfying(PublishOutcome.Failed.class, failed -> {
            assertThat(failed.kind()).isEqualTo(FailureKind.RATE_LIMITED);
            assertThat(failed.retryAfter()).isBetween(Duration.ofSeconds(100), Duration.ofSeconds(125));
        });
        assertThat(instance.statuses(account)).isEmpty();
    }

    @Test
    void aSuccessWhoseBodyCannotBeReadIsUnknownNeverSuccess() {
        instance.fault(new MastodonFaults.Fault(account, Operation.CREATE, Type.GARBLED_AFTER_CREATE, 0, 1));

        PublishOutcome outcome = result(adapter.publish(request(new Content(null, "garbled answer", null))));

        assertThat(outcome).isInstanceOfSatisfying(PublishOutcome.OutcomeUnknown.class,
                unknown -> assertThat(unknown.cause()).isEqualTo(UnknownCause.UNPARSABLE_RESPONSE));
    }

    @Test
    void theProbeNamesTheAccountAndTheLimitsAndARevokedTokenIsLost() {
        CapabilityReport report = result(adapter.probe(connection));
        assertThat(report.publish().available()).isTrue();
        assertThat(report.publish().reason()).contains("500 characters").contains("4 images");
        assertThat(report.reconcile().available()).isTrue();
        assertThat(report.authLost()).isNull();

        CapabilityReport other = result(adapter.probe(connection(token, "123")));
        assertThat(other.publish().available()).isFalse();
        assertThat(other.publish().reason()).contains(account);

        instance.revoke(account);
        PublishOutcome outcome = result(adapter.publish(request(new Content(null, "after revoking", null))));
        CapabilityReport lost = result(adapter.probe(connection));
        assertThat(outcome).isInstanceOfSatisfying(PublishOutcome.AuthLost.class,
                auth -> assertThat(auth.reason()).contains("access token").doesNotContain(token));
        assertThat(lost.authLost()).isNotNull().doesNotContain(token);
        assertThat(List.of(outcome.toString(), lost.toString(), report.toString())).noneMatch(t -> t.contains(token));
    }

    @Test
    void aTokenWithoutReadStatusesCannotReadBack() {
        String writeOnly = unique("masto-write-");
        instance.account(unique("writer"), writeOnly, List.of("write", "read:accounts"));
        ChannelConnection narrow = connection(writeOnly, null);

        CapabilityReport report = result(adapter.probe(narrow));
        ReadBackOutcome read = result(adapter.readBack(readBack(new PublishRequest(publicationId(unique("n")), 1,
                PublicationAction.PUBLISH, new Content(null, "x", null), null, narrow))));

        assertThat(report.publish().available()).isTrue();
        assertThat(report.reconcile().available()).isFalse();
        assertThat(report.reconcile().reason()).contains("read:statuses");
        assertThat(read).isInstanceOfSatisfying(ReadBackOutcome.Unavailable.class,
                unavailable -> assertThat(unavailable.reason()).contains("read:statuses"));
    }

    @Test
    void theOwnerCheckTellsTheAccountsStatusFromAnothersByIdOrAddress() {
        ProviderRef own = published(result(adapter.publish(request(new Content(null, "mine", null)))));
        String otherToken = unique("masto-other-");
        String other = instance.account(unique("other"), otherToken);
        String foreign = instance.seed(other, "theirs", null, Instant.now());

        assertThat(result(adapter.readOwnership(new PostOwnershipRequest(own, null, connection))))
                .isInstanceOf(PostOwnership.Owned.class);
        assertThat(result(adapter.readOwnership(new PostOwnershipRequest(new ProviderRef(null, own.url()), null,
                connection)))).isInstanceOfSatisfying(PostOwnership.Owned.class,
                owned -> assertThat(owned.post().id()).isEqualTo(own.id()));
        assertThat(result(adapter.readOwnership(new PostOwnershipRequest(new ProviderRef(foreign, null), null,
                connection)))).isInstanceOf(PostOwnership.NotOwned.class);
        assertThat(result(adapter.readOwnership(new PostOwnershipRequest(new ProviderRef("999", null), null,
                connection)))).isInstanceOf(PostOwnership.NotOwned.class);
    }

    private String processingAttachment(PublishOutcome upload) {
        assertThat(upload).isInstanceOf(PublishOutcome.Failed.class);
        assertThat(((PublishOutcome.Failed) upload).detail()).contains("attachment ");
        String detail = ((PublishOutcome.Failed) upload).detail();
        return detail.substring(detail.indexOf("attachment ") + 11).split(" ")[0];
    }

    private UploadRequest upload(MediaId mediaId, byte[] png) {
        return new UploadRequest(publicationId(unique("img")), 1, mediaId, "a wide picture", "image/png", png,
                connection);
    }

    private static ProviderRef published(PublishOutcome outcome) {
        assertThat(outcome).isInstanceOf(PublishOutcome.Published.class);
        return ((PublishOutcome.Published) outcome).providerRef();
    }

    private JsonNode onlyStatus() {
        JsonNode statuses = instance.statuses(account);
        assertThat(statuses).hasSize(1);
        return statuses.get(0);
    }

    private PublishRequest request(Content content) {
        return new PublishRequest(publicationId(UUID.randomUUID().toString()), 1, PublicationAction.PUBLISH, content,
                null, connection);
    }

    private static PublishRequest next(PublishRequest request) {
        return new PublishRequest(request.publicationId(), request.attemptNo() + 1, request.action(),
                request.content(), request.scheduledAt(), request.connection(), request.uploads(),
                request.requestedAt());
    }

    private static ReadBackRequest readBack(PublishRequest request) {
        return readBack(request, Instant.now());
    }

    private static ContentMedia image(int n) {
        return new ContentMedia(MediaId.of("med_" + String.valueOf(n).repeat(64)), null);
    }

    private static byte[] png(int width, int height) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB), "png", out);
        return out.toByteArray();
    }

    private static MediaId mediaId(byte[] bytes) throws Exception {
        return MediaId.of("med_" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes)));
    }
}
