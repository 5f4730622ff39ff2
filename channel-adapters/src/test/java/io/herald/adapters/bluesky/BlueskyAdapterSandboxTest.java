package io.herald.adapters.bluesky;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.herald.adapters.SandboxTestSupport;
import io.herald.adapters.port.CapabilityReport;
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
import io.herald.sandbox.bluesky.BlueskyFaults;
import io.herald.sandbox.bluesky.BlueskySandboxClient;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import javax.imageio.ImageIO;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class BlueskyAdapterSandboxTest extends SandboxTestSupport {

    private static final String APP_PASSWORD = "abcd-efgh-ijkl-mnop";
    private static final Instant REQUESTED_AT = Instant.parse("2026-12-04T10:15:30.123456789Z");

    private final BlueskySandboxClient pds = new BlueskySandboxClient(server.baseUrl());
    private final BlueskyAdapter adapter = bluesky(SHORT_READ_TIMEOUT);
    private String handle;
    private String did;
    private ChannelConnection connection;
    private int requests;

    @BeforeEach
    void account() {
        handle = unique("acct") + ".bsky.test";
        did = pds.account(handle, APP_PASSWORD);
        connection = new ChannelConnection(new WorkspaceId("acme"), new ChannelId("bsky-" + handle),
                BlueskyPlugin.TYPE, new BlueskySettings(handle, pds.pdsUrl()), new BlueskySecrets(APP_PASSWORD), false);
    }

    @Test
    void publishesUnderItsOwnKeyWithLinkFacetsAndACardAndReadsItBackExactly() {
        PublishRequest request = request(new Content("Café notes", "Café — read https://example.com/a, please", null));

        PublishOutcome outcome = result(adapter.publish(request));

        assertThat(outcome).isInstanceOf(PublishOutcome.Published.class);
        ProviderRef ref = ((PublishOutcome.Published) outcome).providerRef();
        String rkey = ref.id().substring(ref.id().lastIndexOf('/') + 1);
        assertThat(ref.id()).isEqualTo("at://" + did + "/app.bsky.feed.post/" + rkey);
        assertThat(BlueskyKeys.isTid(rkey)).isTrue();
        assertThat(ref.url()).isEqualTo("https://bsky.app/profile/" + handle + "/post/" + rkey);
        JsonNode value = onlyRecord().path("value");
        assertThat(value.path("text").asText()).isEqualTo("Café — read https://example.com/a, please");
        assertThat(value.path("createdAt").asText()).isEqualTo("2026-12-04T10:15:30.123456Z");
        JsonNode index = value.path("facets").get(0).path("index");
        // "Café — read " is 15 bytes in UTF-8 (é 2, — 3); the comma after the link is not part of it
        assertThat(index.path("byteStart").asInt()).isEqualTo(15);
        assertThat(index.path("byteEnd").asInt()).isEqualTo(15 + "https://example.com/a".length());
        assertThat(value.path("facets").get(0).path("features").get(0).path("uri").asText())
                .isEqualTo("https://example.com/a");
        assertThat(value.path("embed").path("$type").asText()).isEqualTo("app.bsky.embed.external");
        assertThat(value.path("embed").path("external").path("title").asText()).isEqualTo("Café notes");

        ReadBackOutcome read = result(adapter.readBack(readBack(request)));
        assertThat(read).isInstanceOfSatisfying(ReadBackOutcome.Found.class,
                found -> assertThat(found.providerRef()).isEqualTo(ref));
    }

    @Test
    void readBackOfAPublicationNeverSentIsNotFound() {
        result(adapter.publish(request(new Content(null, "one post", null))));

        ReadBackOutcome read = result(adapter.readBack(readBack(request(new Content(null, "never sent", null)))));

        assertThat(read).isInstanceOf(ReadBackOutcome.NotFound.class);
    }

    @Test
    void anUnknownCreateSentAgainLeavesOnePostUnderTheSameUri() {
        PublishRequest request = request(new Content(null, "sent twice, posted once", "https://example.com/x"));
        pds.fault(new BlueskyFaults.Fault(handle, "com.atproto.repo.putRecord", BlueskyFaults.Type.DELAY_ANSWER,
                15_000, 1));

        PublishOutcome first = result(adapter.publish(request));
        PublishOutcome again = result(adapter.publish(next(request)));

        assertThat(first).isInstanceOfSatisfying(PublishOutcome.OutcomeUnknown.class,
                unknown -> assertThat(unknown.cause()).isEqualTo(UnknownCause.READ_TIMEOUT));
        assertThat(again).isInstanceOf(PublishOutcome.Published.class);
        assertThat(((PublishOutcome.Published) again).providerRef().id()).isEqualTo(onlyRecord().path("uri").asText());
        assertThat(first.trace().requestFingerprint()).isEqualTo(again.trace().requestFingerprint());
    }

    @Test
    void aServerErrorAfterTheWriteIsUnknownAndTheReadBackFindsThePost() {
        PublishRequest request = request(new Content(null, "written, then 502", null));
        pds.fault(new BlueskyFaults.Fault(handle, "com.atproto.repo.putRecord",
                BlueskyFaults.Type.ERROR_5XX_WITH_EFFECT, 0, 1));

        PublishOutcome outcome = result(adapter.publish(request));

        assertThat(outcome).isInstanceOfSatisfying(PublishOutcome.OutcomeUnknown.class,
                unknown -> assertThat(unknown.cause()).isEqualTo(UnknownCause.SERVER_ERROR));
        assertThat(result(adapter.readBack(readBack(request)))).isInstanceOf(ReadBackOutcome.Found.class);
    }

    @Test
    void aSuccessAnswerWithoutTheRecordsUriAndCidIsAnUnknownOutcomeNeverASuccess() {
        PublishRequest request = request(new Content(null, "written, answered with nothing", null));
        pds.fault(new BlueskyFaults.Fault(handle, "com.atproto.repo.putRecord",
                BlueskyFaults.Type.OK_WITHOUT_RECORD, 0, 1));

        PublishOutcome outcome = result(adapter.publish(request));

        assertThat(outcome).isInstanceOfSatisfying(PublishOutcome.OutcomeUnknown.class, unknown -> {
            assertThat(unknown.cause()).isEqualTo(UnknownCause.UNPARSABLE_RESPONSE);
            assertThat(unknown.detail()).contains("without the record's uri and cid");
        });
        // the write took effect: the read-back under the key settles it
        assertThat(result(adapter.readBack(readBack(request)))).isInstanceOfSatisfying(ReadBackOutcome.Found.class,
                found -> assertThat(found.providerRef().id()).isEqualTo(onlyRecord().path("uri").asText()));
    }

    @Test
    void aConnectionIsCheckedByResolvingItsHandleAndMakingASession() {
        ChannelConnection unknown = new ChannelConnection(new WorkspaceId("acme"), new ChannelId("bsky-unknown"),
                BlueskyPlugin.TYPE, new BlueskySettings("nobody-" + handle, pds.pdsUrl()),
                new BlueskySecrets(APP_PASSWORD), false);
        ChannelConnection wrongPassword = new ChannelConnection(new WorkspaceId("acme"), new ChannelId("bsky-wrong"),
                BlueskyPlugin.TYPE, new BlueskySettings(handle, pds.pdsUrl()), new BlueskySecrets("wrong-password"),
                false);
        ChannelConnection byDid = new ChannelConnection(new WorkspaceId("acme"), new ChannelId("bsky-did"),
                BlueskyPlugin.TYPE, new BlueskySettings(did, pds.pdsUrl()), new BlueskySecrets(APP_PASSWORD), false);
        ChannelConnection unreachable = new ChannelConnection(new WorkspaceId("acme"), new ChannelId("bsky-gone"),
                BlueskyPlugin.TYPE, new BlueskySettings(handle, "http://127.0.0.1:1"), new BlueskySecrets(APP_PASSWORD),
                false);

        assertThat(result(adapter.verify(connection))).isEmpty();
        assertThat(result(adapter.verify(byDid))).isEmpty();
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
                assertThat(v.message()).contains("bluesky").contains("401").doesNotContain("wrong-password");
            });
        });
        assertThat(result(adapter.verify(unreachable))).hasValueSatisfying(refused -> {
            assertThat(refused.code()).isEqualTo(ErrorCode.UNAVAILABLE);
            assertThat(refused.violations()).isEmpty();
            assertThat(refused.detail()).contains("bluesky").contains("nothing was stored");
        });
        // the session the check made is the one the connection's first write uses
        long sessions = pds.sessionsMade(handle);
        assertThat(result(adapter.publish(request(new Content(null, "after the check", null)))))
                .isInstanceOf(PublishOutcome.Published.class);
        assertThat(pds.sessionsMade(handle)).isEqualTo(sessions);
    }

    @Test
    void aPostAnEarlierVersionWroteUnderItsLegacyKeyIsFoundAndNeverWrittenAgain() throws Exception {
        PublishRequest request = request(new Content(null, "written by an earlier version", null));
        BlueskyKeys.Key legacy = BlueskyKeys.legacyPost(request.publicationId(), request.requestedAt(),
                request.scheduledAt()).orElseThrow();
        // what the earlier version's first attempt wrote: the same record under the legacy key
        String earlier = putUnder(legacy, BlueskyPosts.post(request.content(), List.of(), legacy));

        ReadBackOutcome read = result(adapter.readBack(readBack(request)));
        PublishOutcome again = result(adapter.publish(next(request)));

        assertThat(read).isInstanceOfSatisfying(ReadBackOutcome.Found.class,
                found -> assertThat(found.providerRef().id()).isEqualTo(earlier));
        assertThat(again).isInstanceOfSatisfying(PublishOutcome.Published.class,
                published -> assertThat(published.providerRef().id()).isEqualTo(earlier));
        assertThat(onlyRecord().path("uri").asText()).isEqualTo(earlier);
    }

    @Test
    void anotherPostUnderTheLegacyKeyIsNotTakenForThisOne() throws Exception {
        PublishRequest request = request(new Content(null, "this publication's post", null));
        BlueskyKeys.Key legacy = BlueskyKeys.legacyPost(request.publicationId(), request.requestedAt(),
                request.scheduledAt()).orElseThrow();
        putUnder(legacy, BlueskyPosts.post(new Content(null, "another publication's post", null), List.of(), legacy));

        ReadBackOutcome read = result(adapter.readBack(readBack(request)));
        PublishOutcome again = result(adapter.publish(next(request)));

        assertThat(read).isInstanceOf(ReadBackOutcome.NotFound.class);
        assertThat(again).isInstanceOfSatisfying(PublishOutcome.Published.class, published -> assertThat(
                published.providerRef().id()).endsWith("/" + BlueskyKeys.post(request.publicationId(),
                request.requestedAt(), request.scheduledAt()).orElseThrow().rkey()));
        assertThat(pds.records(handle)).hasSize(2);
    }

    /** Writes {@code record} under {@code key} with the connection's session, as an earlier version did. */
    private String putUnder(BlueskyKeys.Key key, com.fasterxml.jackson.databind.node.ObjectNode record)
            throws Exception {
        assertThat(result(adapter.probe(connection)).publish().available()).isTrue();
        BlueskySessions.Session session = adapter.sessions().held(connection).orElseThrow();
        com.fasterxml.jackson.databind.node.ObjectNode body = io.herald.platform.wire.Json.object()
                .put("repo", session.did()).put("collection", BlueskyPosts.POST_COLLECTION).put("rkey", key.rkey());
        body.set("record", record);
        body.putNull("swapRecord");
        java.net.http.HttpResponse<String> answer = java.net.http.HttpClient.newHttpClient().send(
                java.net.http.HttpRequest.newBuilder(java.net.URI.create(pds.pdsUrl()
                                + "/xrpc/com.atproto.repo.putRecord"))
                        .header("Authorization", "Bearer " + session.accessJwt())
                        .header("Content-Type", "application/json")
                        .POST(java.net.http.HttpRequest.BodyPublishers.ofString(
                                io.herald.platform.wire.Json.write(body))).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        return io.herald.platform.wire.Json.text(io.herald.platform.wire.Json.parse(answer.body()), "uri");
    }

    @Test
    void otherContentUnderThePublicationsKeyIsRefusedAndNeverMovesToAnotherKey() {
        PublishRequest request = request(new Content(null, "the original", null));
        result(adapter.publish(request));
        PublishRequest changed = new PublishRequest(request.publicationId(), 2, PublicationAction.PUBLISH,
                new Content(null, "something else", null), null, connection, List.of(), request.requestedAt());

        PublishOutcome outcome = result(adapter.publish(changed));

        assertThat(outcome).isInstanceOfSatisfying(PublishOutcome.Failed.class, failed -> {
            assertThat(failed.kind()).isEqualTo(FailureKind.REJECTED);
            assertThat(failed.errorCode()).isEqualTo("record_key_taken");
            assertThat(failed.trace().providerCode()).isEqualTo("InvalidSwap");
        });
        assertThat(onlyRecord().path("value").path("text").asText()).isEqualTo("the original");
    }

    @Test
    void imagesAreBlobsWithAltTextAndAspectRatio() throws Exception {
        byte[] png = png(40, 20);
        MediaId mediaId = mediaId(png);
        PublishOutcome uploaded = result(adapter.uploadMedia(new UploadRequest(publicationId("img"), 1, mediaId,
                "a wide picture", "image/png", png, connection)));
        assertThat(uploaded).isInstanceOf(PublishOutcome.Published.class);
        ProviderRef blob = ((PublishOutcome.Published) uploaded).providerRef();
        Content content = new Content(null, "with a picture", "https://example.com/p",
                List.of(new ContentMedia(mediaId, "a wide picture")), null);

        PublishOutcome outcome = result(adapter.publish(new PublishRequest(publicationId(unique("e")), 1,
                PublicationAction.PUBLISH, content, null, connection,
                List.of(new UploadedMedia(mediaId, "a wide picture", blob)), REQUESTED_AT)));

        assertThat(outcome).isInstanceOf(PublishOutcome.Published.class);
        JsonNode embed = onlyRecord().path("value").path("embed");
        assertThat(embed.path("$type").asText()).isEqualTo("app.bsky.embed.images");
        JsonNode image = embed.path("images").get(0);
        assertThat(image.path("alt").asText()).isEqualTo("a wide picture");
        assertThat(image.path("aspectRatio").path("width").asInt()).isEqualTo(40);
        assertThat(image.path("aspectRatio").path("height").asInt()).isEqualTo(20);
        assertThat(image.path("image").path("size").asLong()).isEqualTo(png.length);
        assertThat(image.path("image").path("mimeType").asText()).isEqualTo("image/png");
    }

    @Test
    void theFirstCommentIsAReplyToThePostAndARepeatIsTheSameReply() {
        PublishRequest request = request(new Content(null, "a post with a reply", null));
        ProviderRef post = ((PublishOutcome.Published) result(adapter.publish(request))).providerRef();
        CommentRequest comment = new CommentRequest(request.publicationId(), 2, post, "the first comment",
                connection);

        PublishOutcome first = result(adapter.comment(comment));
        PublishOutcome again = result(adapter.comment(comment));

        assertThat(first).isInstanceOf(PublishOutcome.Published.class);
        assertThat(again).isInstanceOf(PublishOutcome.Published.class);
        ProviderRef reply = ((PublishOutcome.Published) first).providerRef();
        assertThat(((PublishOutcome.Published) again).providerRef()).isEqualTo(reply);
        JsonNode records = pds.records(handle);
        assertThat(records).hasSize(2);
        JsonNode replyRecord = records.get(0).path("uri").asText().equals(reply.id()) ? records.get(0) : records.get(1);
        JsonNode postRecord = records.get(0) == replyRecord ? records.get(1) : records.get(0);
        assertThat(replyRecord.path("value").path("reply").path("root").path("uri").asText()).isEqualTo(post.id());
        assertThat(replyRecord.path("value").path("reply").path("parent").path("cid").asText())
                .isEqualTo(postRecord.path("cid").asText());
        ReadBackOutcome read = result(adapter.readBack(new ReadBackRequest(request.publicationId(), 2,
                PublicationAction.PUBLISH, request.content(), Instant.now(), connection, PublicationStep.FIRST_COMMENT,
                post, REQUESTED_AT, null)));
        assertThat(read).isInstanceOfSatisfying(ReadBackOutcome.Found.class,
                found -> assertThat(found.providerRef().id()).isEqualTo(reply.id()));
    }

    @Test
    void deleteRemovesThePostAndDeletingItAgainIsDone() {
        PublishRequest request = request(new Content(null, "to be deleted", null));
        ProviderRef post = ((PublishOutcome.Published) result(adapter.publish(request))).providerRef();
        PostChangeRequest delete = new PostChangeRequest(publicationId(unique("d")), 1, PublicationAction.DELETE,
                request.content(), post, connection);

        PublishOutcome first = result(adapter.delete(delete));
        PublishOutcome again = result(adapter.delete(delete));

        assertThat(first).isInstanceOf(PublishOutcome.Published.class);
        assertThat(again).isInstanceOf(PublishOutcome.Published.class);
        assertThat(pds.records(handle)).isEmpty();
        assertThat(result(adapter.readPost(new PostReadRequest(post, null, connection))))
                .isInstanceOf(PostReading.Gone.class);
    }

    @Test
    void anExpiredAccessTokenIsRefreshedWithoutANewSession() {
        assertThat(result(adapter.publish(request(new Content(null, "first", null)))))
                .isInstanceOf(PublishOutcome.Published.class);
        pds.expireAccess(handle);

        PublishOutcome second = result(adapter.publish(request(new Content(null, "second", null))));
        PublishOutcome third = result(adapter.publish(request(new Content(null, "third", null))));

        assertThat(second).isInstanceOf(PublishOutcome.Published.class);
        assertThat(third).isInstanceOf(PublishOutcome.Published.class);
        assertThat(pds.sessionsMade(handle)).isEqualTo(1);
        assertThat(pds.records(handle)).hasSize(3);
    }

    @Test
    void aRevokedAppPasswordLosesTheConnectionsCredentials() {
        result(adapter.publish(request(new Content(null, "before", null))));
        pds.revoke(handle);

        PublishOutcome outcome = result(adapter.publish(request(new Content(null, "after", null))));
        CapabilityReport report = result(adapter.probe(connection));

        assertThat(outcome).isInstanceOfSatisfying(PublishOutcome.AuthLost.class,
                lost -> assertThat(lost.reason()).contains("app password").doesNotContain(APP_PASSWORD));
        assertThat(report.authLost()).isNotNull();
        assertThat(report.publish().available()).isFalse();
        assertThat(pds.records(handle)).hasSize(1);
    }

    @Test
    void theProbeMakesASessionAndReportsAnExactReadBack() {
        CapabilityReport report = result(adapter.probe(connection));

        assertThat(report.publish().available()).isTrue();
        assertThat(report.reconcile().available()).isTrue();
        assertThat(report.reconcile().reason()).contains("exact");
        assertThat(report.authLost()).isNull();
    }

    @Test
    void aRateLimitWaitsForTheAnnouncedReset() {
        pds.fault(new BlueskyFaults.Fault(handle, "com.atproto.repo.putRecord", BlueskyFaults.Type.RATE_LIMIT,
                120_000, 1));

        PublishOutcome outcome = result(adapter.publish(request(new Content(null, "too many", null))));

        assertThat(outcome).isInstanceOfSatisfying(PublishOutcome.Failed.class, failed -> {
            assertThat(failed.kind()).isEqualTo(FailureKind.RATE_LIMITED);
            assertThat(failed.retryAfter()).isBetween(Duration.ofSeconds(100), Duration.ofSeconds(130));
        });
        assertThat(pds.records(handle)).isEmpty();
    }

    @Test
    void noAppPasswordOrSessionTokenInAnyOutcomeOrLogLine() {
        Logger root = (Logger) LoggerFactory.getLogger("io.herald");
        Level previous = root.getLevel();
        ListAppender<ILoggingEvent> logs = new ListAppender<>();
        logs.start();
        root.addAppender(logs);
        root.setLevel(Level.TRACE);
        List<Object> outcomes = new ArrayList<>();
        try {
            outcomes.add(result(adapter.probe(connection)));
            outcomes.add(result(adapter.publish(request(new Content(null, "fine", null)))));
            for (BlueskyFaults.Type type : BlueskyFaults.Type.values()) {
                pds.fault(new BlueskyFaults.Fault(handle, "com.atproto.repo.putRecord", type, 5_000, 1));
                outcomes.add(result(adapter.publish(request(new Content(null, "fault " + type, null)))));
            }
            pds.expireAccess(handle);
            outcomes.add(result(adapter.publish(request(new Content(null, "refreshed", null)))));
            pds.revoke(handle);
            outcomes.add(result(adapter.publish(request(new Content(null, "revoked", null)))));
            outcomes.add(result(adapter.probe(connection)));
        } finally {
            root.detachAppender(logs);
            root.setLevel(previous);
        }

        List<String> texts = new ArrayList<>();
        outcomes.forEach(o -> texts.add(o.toString()));
        logs.list.forEach(e -> texts.add(e.getFormattedMessage()));
        assertThat(outcomes).hasSize(5 + BlueskyFaults.Type.values().length);
        assertThat(texts).noneMatch(text -> text.contains(APP_PASSWORD) || text.contains("sbx-access-")
                || text.contains("sbx-refresh-"));
    }

    @Test
    void intakeCountsGraphemesAndBytesAndRefusesUpdatesAsUnsupported() {
        // "e" and a combining acute accent: one grapheme, two chars, three bytes
        String accented = "e\u0301";
        assertThat(adapter.validate(new Content(null, accented.repeat(300), null), PublicationAction.PUBLISH))
                .isEmpty();
        assertThat(adapter.validate(new Content(null, "a".repeat(301), null), PublicationAction.PUBLISH))
                .singleElement().satisfies(v -> {
                    assertThat(v.field()).isEqualTo("content.body");
                    assertThat(v.message()).contains("bluesky").contains("300");
                });
        // 300 graphemes of eleven bytes each: within the grapheme limit, over the 3,000 bytes
        String heavy = "e" + "\u0301\u0302\u0303\u0304\u0306";
        assertThat(adapter.validate(new Content(null, heavy.repeat(300), null), PublicationAction.PUBLISH))
                .singleElement().satisfies(v -> assertThat(v.message()).contains("3000 bytes"));
        assertThat(adapter.unsupported(PublicationAction.UPDATE)).get(InstanceOfAssertFactories.STRING)
                .contains("bluesky");
        assertThat(adapter.unsupported(PublicationAction.PUBLISH)).isEmpty();
        assertThat(adapter.unsupported(PublicationAction.DELETE)).isEmpty();
        assertThat(adapter.validate(new Content(null, "ok", null, List.of(image(1), image(2), image(3), image(4),
                image(5)), null), PublicationAction.PUBLISH)).extracting(v -> v.field()).containsExactly("content.media");
    }

    private static ContentMedia image(int n) {
        return new ContentMedia(MediaId.of("med_" + String.valueOf(n).repeat(64)), null);
    }

    /** Each publication of a test requested a microsecond after the one before, the first at {@link #REQUESTED_AT}. */
    private PublishRequest request(Content content) {
        return new PublishRequest(publicationId(UUID.randomUUID().toString()), 1, PublicationAction.PUBLISH, content,
                null, connection, List.of(), REQUESTED_AT.plusNanos(1_000L * requests++));
    }

    private static PublishRequest next(PublishRequest request) {
        return new PublishRequest(request.publicationId(), request.attemptNo() + 1, request.action(),
                request.content(), request.scheduledAt(), request.connection(), request.uploads(),
                request.requestedAt());
    }

    private static ReadBackRequest readBack(PublishRequest request) {
        return new ReadBackRequest(request.publicationId(), request.attemptNo(), request.action(), request.content(),
                Instant.now(), request.connection(), null, null, request.requestedAt(), request.scheduledAt());
    }

    private JsonNode onlyRecord() {
        JsonNode records = pds.records(handle);
        assertThat(records).hasSize(1);
        return records.get(0);
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
