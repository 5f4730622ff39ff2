package io.herald.adapters.bluesky;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.adapters.http.Exchange;
import io.herald.adapters.http.Fingerprints;
import io.herald.adapters.http.OutcomeLog;
import io.herald.adapters.http.OutgoingRequest;
import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.http.Texts;
import io.herald.adapters.http.Traces;
import io.herald.adapters.http.UnclassifiedFailure;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.CommentRequest;
import io.herald.adapters.port.PostChangeRequest;
import io.herald.adapters.port.ProviderAdapter;
import io.herald.adapters.port.PublishOutcome;
import io.herald.adapters.port.PublishRequest;
import io.herald.adapters.port.UploadRequest;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.UploadedMedia;
import io.herald.platform.wire.Json;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;

/**
 * The write steps on a Bluesky account. The post and its first comment are written with
 * {@code putRecord} and {@code swapRecord: null} under keys derived from the publication
 * ({@link BlueskyKeys}), byte-identical on every attempt: the PDS answers a repeat with the same
 * record, never a second post. Images are blobs ({@code uploadBlob}, repeatable: an unused blob is
 * dropped); a delete of a missing record is a no-op, so it converges; posts cannot be edited.
 */
final class BlueskyPublisher {

    private final ProviderHttp http;
    private final BlueskySessions sessions;

    BlueskyPublisher(ProviderHttp http, BlueskySessions sessions) {
        this.http = http;
        this.sessions = sessions;
    }

    static ProviderAdapter.Publisher steps(ProviderHttp http, BlueskySessions sessions) {
        BlueskyPublisher publisher = new BlueskyPublisher(http, sessions);
        return new ProviderAdapter.Publisher(publisher::publish, publisher::upload, publisher::comment,
                publisher::edit, publisher::delete);
    }

    CompletableFuture<PublishOutcome> publish(PublishRequest request) {
        ChannelConnection connection = request.connection();
        Optional<BlueskyKeys.Key> key = BlueskyKeys.post(request.publicationId(), request.requestedAt(),
                request.scheduledAt());
        if (key.isEmpty()) {
            return refused("missing_request_time", "The publication carries no request time to derive its Bluesky "
                    + "record key from; nothing was sent.", connection);
        }
        ObjectNode record;
        try {
            record = BlueskyPosts.post(request.content(), request.uploads(), key.get());
        } catch (IllegalArgumentException badUpload) {
            return refused("unknown_media", "A recorded upload is not a Bluesky blob; nothing was sent.", connection);
        }
        CompletableFuture<PublishOutcome> written = request.attemptNo() > 1
                ? underLegacyKey(request, record).thenCompose(earlier -> earlier.isPresent()
                        ? CompletableFuture.completedFuture(earlier.get()) : put(connection, key.get().rkey(), record))
                : put(connection, key.get().rkey(), record);
        return written.whenComplete((outcome, failure) -> OutcomeLog.publish("bluesky", request, outcome));
    }

    /**
     * Before a later attempt of a post: the record under the key Herald derived before keys spread
     * the publication id ({@link BlueskyKeys#legacyPost}), when it holds this post (same
     * {@code createdAt} and text: an earlier attempt wrote it), so that attempt's post is the
     * outcome and no second one is written under today's key. Empty when nothing of this post is
     * there; a read without an answer stops the attempt (nothing written).
     */
    private CompletableFuture<Optional<PublishOutcome>> underLegacyKey(PublishRequest request, ObjectNode record) {
        ChannelConnection connection = request.connection();
        Optional<BlueskyKeys.Key> legacy = BlueskyKeys.legacyPost(request.publicationId(), request.requestedAt(),
                request.scheduledAt());
        if (legacy.isEmpty()) {
            return CompletableFuture.completedFuture(Optional.empty());
        }
        AtUri wanted = new AtUri(sessions.repoOf(connection), BlueskyPosts.POST_COLLECTION, legacy.get().rkey());
        return BlueskyReads.getRecord(http, connection, wanted).thenApply(exchange -> {
            if (BlueskyReads.notFound(exchange)) {
                return Optional.empty();
            }
            if (exchange instanceof Exchange.Answered answered && answered.status() == 200) {
                JsonNode body = Json.parse(answered.body());
                Optional<AtUri> uri = AtUri.parse(Json.text(body, "uri"));
                JsonNode value = body.path("value");
                boolean ours = Objects.equals(Json.text(record, "createdAt"), Json.text(value, "createdAt"))
                        && Objects.equals(Json.text(record, "text"), Json.text(value, "text"));
                if (!ours || uri.isEmpty() || Json.text(body, "cid") == null) {
                    return Optional.empty();
                }
                return Optional.of(new PublishOutcome.Published(new ProviderRef(uri.get().uri(),
                        webUrl(connection, uri.get())), null, Traces.of(exchange, null, null)));
            }
            return Optional.of(new PublishOutcome.Failed(FailureKind.NOT_SENT, null, "The record key an earlier "
                    + "attempt of this post may have used could not be read, so the post was not sent again: "
                    + BlueskyReads.describe(exchange), null, Traces.of(exchange, null, null)));
        });
    }

    CompletableFuture<PublishOutcome> comment(CommentRequest request) {
        ChannelConnection connection = request.connection();
        Optional<AtUri> post = AtUri.parse(request.post() == null ? null : request.post().id());
        Optional<BlueskyKeys.Key> key = post.flatMap(p -> BlueskyKeys.comment(request.publicationId(), p.rkey()));
        if (key.isEmpty() || Texts.blank(request.text())) {
            return refused("unknown_post", "The post to reply to is not a Bluesky record Herald wrote, or the "
                    + "comment is empty; nothing was sent.", connection);
        }
        // the reply names the post's CID: read it first (no authentication needed, nothing written)
        return BlueskyReads.getRecord(http, connection, post.get()).thenCompose(exchange -> {
            if (exchange instanceof Exchange.Answered answered && answered.status() == 200) {
                String cid = Json.text(Json.parse(answered.body()), "cid");
                if (cid != null) {
                    return put(connection, key.get().rkey(),
                            BlueskyPosts.reply(request.text(), post.get().uri(), cid, key.get()));
                }
            }
            if (BlueskyReads.notFound(exchange)) {
                return refused("post_not_found", "The post to reply to no longer exists on Bluesky; nothing was sent.",
                        connection);
            }
            return CompletableFuture.completedFuture(new PublishOutcome.Failed(FailureKind.NOT_SENT, null,
                    "The post to reply to could not be read, so the reply was not sent: "
                            + BlueskyReads.describe(exchange), null, Traces.of(exchange, null, null)));
        });
    }

    CompletableFuture<PublishOutcome> upload(UploadRequest request) {
        ChannelConnection connection = request.connection();
        String fingerprint = Fingerprints.ofParams("POST", "com.atproto.repo.uploadBlob",
                Map.of("media", request.mediaId().value()));
        int[] size = pictureSize(request.bytes());
        String target = connection.settings(BlueskySettings.class).handle();
        Instant startedAt = http.clock().instant();
        return UnclassifiedFailure.asPublishOutcome(sessions.call(connection, session -> new OutgoingRequest("POST",
                        BlueskySessions.xrpc(connection, "com.atproto.repo.uploadBlob"),
                        BlueskySessions.bearer(session.accessJwt()), null, request.contentType(), fingerprint, target,
                        BlueskySessions.secretsOf(connection, session), request.bytes()))
                .thenApply(call -> BlueskyOutcome.of(call, http.clock(), fingerprint, body -> {
                    JsonNode blob = body.path("blob");
                    String cid = Json.text(blob.path("ref"), "$link");
                    String mimeType = Json.text(blob, "mimeType");
                    if (cid == null || mimeType == null || !blob.path("size").canConvertToLong()) {
                        return Optional.empty();
                    }
                    return Optional.of(new ProviderRef(new BlueskyBlob(cid, mimeType, blob.path("size").asLong(),
                            size[0], size[1]).id(), null));
                })), fingerprint, target, startedAt, List.of());
    }

    CompletableFuture<PublishOutcome> edit(PostChangeRequest request) {
        return refused("action_not_supported", "Bluesky posts cannot be edited; nothing was sent.",
                request.connection());
    }

    CompletableFuture<PublishOutcome> delete(PostChangeRequest request) {
        ChannelConnection connection = request.connection();
        Optional<AtUri> post = AtUri.parse(request.target() == null ? null : request.target().id());
        if (post.isEmpty()) {
            return refused("unknown_post", "The post is not a Bluesky record; nothing was sent.", connection);
        }
        ObjectNode body = Json.object().put("repo", post.get().repo()).put("collection", post.get().collection())
                .put("rkey", post.get().rkey());
        String fingerprint = Fingerprints.ofJson("POST", "com.atproto.repo.deleteRecord", body);
        Instant startedAt = http.clock().instant();
        return UnclassifiedFailure.asPublishOutcome(sessions.call(connection, session -> new OutgoingRequest("POST",
                        BlueskySessions.xrpc(connection, "com.atproto.repo.deleteRecord"),
                        BlueskySessions.bearer(session.accessJwt()), Json.write(body), "application/json", fingerprint,
                        post.get().uri(), BlueskySessions.secretsOf(connection, session)))
                // a missing record is a 200 no-op: deleted either way
                .thenApply(call -> BlueskyOutcome.of(call, http.clock(), fingerprint,
                        answer -> Optional.of(request.target()))), fingerprint, post.get().uri(), startedAt, List.of());
    }

    /** {@code putRecord} of {@code record} under {@code rkey}, in the session's own repository. */
    private CompletableFuture<PublishOutcome> put(ChannelConnection connection, String rkey, ObjectNode record) {
        // the fingerprint leaves the repository out: it is the session's DID, the same on every attempt
        ObjectNode fingerprinted = Json.object().put("collection", BlueskyPosts.POST_COLLECTION).put("rkey", rkey);
        fingerprinted.set("record", record);
        String fingerprint = Fingerprints.ofJson("POST", "com.atproto.repo.putRecord", fingerprinted);
        String target = connection.settings(BlueskySettings.class).handle();
        Instant startedAt = http.clock().instant();
        return UnclassifiedFailure.asPublishOutcome(sessions.call(connection, session -> {
                    ObjectNode body = Json.object().put("repo", session.did())
                            .put("collection", BlueskyPosts.POST_COLLECTION).put("rkey", rkey);
                    body.set("record", record);
                    body.putNull("swapRecord");
                    return new OutgoingRequest("POST", BlueskySessions.xrpc(connection, "com.atproto.repo.putRecord"),
                            BlueskySessions.bearer(session.accessJwt()), Json.write(body), "application/json",
                            fingerprint, target, BlueskySessions.secretsOf(connection, session));
                })
                .thenApply(call -> BlueskyOutcome.of(call, http.clock(), fingerprint, answer -> {
                    Optional<AtUri> uri = AtUri.parse(Json.text(answer, "uri"));
                    if (uri.isEmpty() || Json.text(answer, "cid") == null) {
                        return Optional.empty();
                    }
                    return Optional.of(new ProviderRef(uri.get().uri(), webUrl(connection, uri.get())));
                })), fingerprint, target, startedAt, List.of());
    }

    /** {@code https://bsky.app/profile/<handle>/post/<rkey>}. */
    String webUrl(ChannelConnection connection, AtUri uri) {
        return "https://bsky.app/profile/" + sessions.handleOf(connection) + "/post/" + uri.rkey();
    }

    private static CompletableFuture<PublishOutcome> refused(String code, String detail, ChannelConnection connection) {
        return CompletableFuture.completedFuture(new PublishOutcome.Failed(FailureKind.REJECTED, code, detail, null,
                Traces.notCalled(null, connection.settings(BlueskySettings.class).handle())));
    }

    /**
     * Width and height of the picture, read from its header without decoding it, or zeros when the
     * JDK has no reader for it (the post then leaves the ratio out).
     */
    private static int[] pictureSize(byte[] bytes) {
        try (ImageInputStream in = ImageIO.createImageInputStream(new ByteArrayInputStream(bytes))) {
            Iterator<ImageReader> readers = in == null ? null : ImageIO.getImageReaders(in);
            if (readers == null || !readers.hasNext()) {
                return new int[] {0, 0};
            }
            ImageReader reader = readers.next();
            try {
                reader.setInput(in, true, true);
                return new int[] {reader.getWidth(0), reader.getHeight(0)};
            } finally {
                reader.dispose();
            }
        } catch (IOException | RuntimeException unreadable) {
            return new int[] {0, 0};
        }
    }
}
