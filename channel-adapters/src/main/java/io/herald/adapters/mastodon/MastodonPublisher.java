package io.herald.adapters.mastodon;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.adapters.http.Exchange;
import io.herald.adapters.http.Fingerprints;
import io.herald.adapters.http.Multipart;
import io.herald.adapters.http.OutcomeLog;
import io.herald.adapters.http.OutgoingRequest;
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
import io.herald.contracts.publication.PublicationStep;
import io.herald.contracts.publication.UploadedMedia;
import io.herald.platform.wire.Forms;
import io.herald.platform.wire.Json;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The write steps on a Mastodon account. A status and its first comment (a reply,
 * {@code in_reply_to_id}) are created with an {@code Idempotency-Key} made from the publication and
 * the step, so the instance answers a repeat within its hour with the same status. Images go
 * through {@code POST /api/v2/media}: 200 is ready; 202 is polled with {@code GET /api/v1/media/:id}
 * (the same attachment, at growing intervals, without holding a thread) for at most
 * {@code media-processing-wait}, and only an image still processing then fails the (repeatable)
 * upload step as retryable. An edit re-sends the status's attachments (left
 * out, the instance would drop them); a 404 on edit means the status is gone, which the update
 * cannot fix; a 404 on delete is done.
 */
final class MastodonPublisher {

    /** The first pause between two checks of an attachment being processed; each next one is twice as long. */
    static final Duration FIRST_POLL = Duration.ofMillis(250);
    /** The longest pause between two checks. */
    static final Duration LONGEST_POLL = Duration.ofSeconds(4);

    private final MastodonApi api;
    private final Duration mediaProcessingWait;

    private MastodonPublisher(MastodonApi api, Duration mediaProcessingWait) {
        this.api = api;
        this.mediaProcessingWait = mediaProcessingWait;
    }

    static ProviderAdapter.Publisher steps(MastodonApi api, Duration mediaProcessingWait) {
        MastodonPublisher publisher = new MastodonPublisher(api, mediaProcessingWait);
        return new ProviderAdapter.Publisher(publisher::publish, publisher::upload, publisher::comment,
                publisher::edit, publisher::delete);
    }

    CompletableFuture<PublishOutcome> publish(PublishRequest request) {
        ObjectNode body = Json.object().put("status", MastodonText.of(request.content()));
        ArrayNode mediaIds = body.putArray("media_ids");
        for (UploadedMedia upload : request.uploads()) {
            mediaIds.add(upload.providerRef().id());
        }
        return create(request.connection(), body, MastodonApi.idempotencyKey(request.publicationId(),
                PublicationStep.CREATE_POST))
                .whenComplete((outcome, failure) -> OutcomeLog.publish("mastodon", request, outcome));
    }

    CompletableFuture<PublishOutcome> comment(CommentRequest request) {
        if (request.post() == null || Texts.blank(request.post().id()) || Texts.blank(request.text())) {
            return refused("unknown_post", "The status to reply to is not known, or the comment is empty; nothing "
                    + "was sent.", request.connection());
        }
        ObjectNode body = Json.object().put("status", request.text().strip())
                .put("in_reply_to_id", request.post().id());
        return create(request.connection(), body, MastodonApi.idempotencyKey(request.publicationId(),
                PublicationStep.FIRST_COMMENT));
    }

    /** {@code POST /api/v1/statuses} with the key; a 404 names a status to reply to that is gone. */
    private CompletableFuture<PublishOutcome> create(ChannelConnection connection, ObjectNode body, String key) {
        String fingerprint = Fingerprints.ofJson("POST", "/api/v1/statuses", body.deepCopy().put("_key", key));
        String target = MastodonApi.instance(connection);
        Instant startedAt = api.clock().instant();
        OutgoingRequest post = MastodonApi.request(connection, "POST", "/api/v1/statuses", Json.write(body),
                "application/json", fingerprint, target, Map.of("Idempotency-Key", key), null);
        return UnclassifiedFailure.asPublishOutcome(api.send(post)
                .thenApply(exchange -> {
                    api.reportUsage(connection, exchange);
                    return MastodonOutcome.of(exchange, api.clock(), MastodonApi::status);
                }),
                fingerprint, target, startedAt, List.of());
    }

    CompletableFuture<PublishOutcome> upload(UploadRequest request) {
        ChannelConnection connection = request.connection();
        Map<String, String> fields = new LinkedHashMap<>();
        if (!Texts.blank(request.altText())) {
            fields.put("description", request.altText());
        }
        String hash = request.mediaId().value().substring(4);
        Multipart form = Multipart.of(fields, "file", request.fileName(), request.contentType(), request.bytes(), hash);
        String fingerprint = Fingerprints.ofParams("POST", "/api/v2/media",
                Map.of("media", request.mediaId().value(), "description", String.valueOf(request.altText())));
        String target = MastodonApi.instance(connection);
        Instant startedAt = api.clock().instant();
        OutgoingRequest upload = MastodonApi.request(connection, "POST", "/api/v2/media", null, form.contentType(),
                fingerprint, target, Map.of(), form.body());
        return UnclassifiedFailure.asPublishOutcome(api.send(upload).thenCompose(exchange -> {
            if (exchange instanceof Exchange.Answered answered && answered.status() == 202) {
                return MastodonApi.status(Json.parse(answered.body()))
                        .map(attachment -> processed(connection, attachment, exchange))
                        .orElseGet(() -> CompletableFuture.completedFuture(MastodonOutcome.of(exchange, api.clock(),
                                body -> Optional.empty())));
            }
            return CompletableFuture.completedFuture(MastodonOutcome.of(exchange, api.clock(),
                    MastodonApi::status));
        }), fingerprint, target, startedAt, List.of());
    }

    /**
     * An attachment the instance took but still processes, checked again (206: still processing)
     * until it is ready (200, the upload's success) or {@code media-processing-wait} has passed;
     * then, or on any other answer, this repeatable step fails as retryable (an unused attachment is
     * cleaned up by the instance). The pauses are timers, not sleeping threads.
     */
    private CompletableFuture<PublishOutcome> processed(ChannelConnection connection, ProviderRef attachment,
                                                        Exchange accepted) {
        Instant until = api.clock().instant().plus(mediaProcessingWait);
        return checkProcessed(connection, attachment, until, FIRST_POLL, 1).thenApply(checked -> {
            if (checked.exchange() instanceof Exchange.Answered answered && answered.status() == 200) {
                return MastodonOutcome.of(checked.exchange(), api.clock(), MastodonApi::status);
            }
            return new PublishOutcome.Failed(FailureKind.NOT_SENT, MastodonOutcome.MEDIA_PROCESSING,
                    "Mastodon took the image as attachment " + attachment.id() + " but was still processing it after "
                            + checked.checks() + " checks in " + mediaProcessingWait.toSeconds() + " s ("
                            + MastodonApi.describe(checked.exchange()) + "); the image is uploaded again later.", null,
                    Traces.of(accepted, "http_202", null));
        });
    }

    /** The last answer about an attachment, after how many checks. */
    private record Checked(Exchange exchange, int checks) {
    }

    private CompletableFuture<Checked> checkProcessed(ChannelConnection connection, ProviderRef attachment,
                                                      Instant until, Duration pause, int checks) {
        String path = "/api/v1/media/" + Forms.enc(attachment.id());
        return api.send(MastodonApi.get(connection, path, attachment.id())).thenCompose(exchange -> {
            boolean processing = exchange instanceof Exchange.Answered answered && answered.status() == 206;
            Duration left = Duration.between(api.clock().instant(), until);
            if (!processing || left.isNegative() || left.isZero()) {
                return CompletableFuture.completedFuture(new Checked(exchange, checks));
            }
            Duration wait = pause.compareTo(left) < 0 ? pause : left;
            Duration next = pause.multipliedBy(2).compareTo(LONGEST_POLL) < 0 ? pause.multipliedBy(2) : LONGEST_POLL;
            return CompletableFuture.supplyAsync(() -> null,
                            CompletableFuture.delayedExecutor(wait.toMillis(), TimeUnit.MILLISECONDS))
                    .thenCompose(ignored -> checkProcessed(connection, attachment, until, next, checks + 1));
        });
    }

    /**
     * {@code PUT /api/v1/statuses/:id} with the new text and the status's own attachments, read first
     * (the request names no new uploads, and leaving them out would drop them).
     */
    CompletableFuture<PublishOutcome> edit(PostChangeRequest request) {
        ChannelConnection connection = request.connection();
        if (request.target() == null || Texts.blank(request.target().id())) {
            return refused("unknown_post", "The status to edit is not known; nothing was sent.", connection);
        }
        String id = request.target().id();
        String path = "/api/v1/statuses/" + Forms.enc(id);
        Instant startedAt = api.clock().instant();
        return UnclassifiedFailure.asPublishOutcome(api.send(MastodonApi.get(connection, path, id))
                .thenCompose(read -> {
                    if (!(read instanceof Exchange.Answered answered && answered.status() == 200)) {
                        return CompletableFuture.completedFuture(editNotSent(read, id));
                    }
                    ObjectNode body = Json.object().put("status", MastodonText.of(request.content()));
                    ArrayNode mediaIds = body.putArray("media_ids");
                    Json.parse(answered.body()).path("media_attachments")
                            .forEach(media -> mediaIds.add(media.path("id").asText()));
                    String fingerprint = Fingerprints.ofJson("PUT", "/api/v1/statuses/:id", body);
                    OutgoingRequest put = MastodonApi.request(connection, "PUT", path, Json.write(body),
                            "application/json", fingerprint, id, Map.of(), null);
                    return api.send(put).thenApply(exchange -> gone(exchange)
                            ? new PublishOutcome.Failed(FailureKind.REJECTED, "status_gone", "The status " + id
                            + " no longer exists on the instance (404 on edit): it was removed outside Herald, so "
                            + "it cannot be updated.", null, Traces.of(exchange, "http_404", null))
                            : MastodonOutcome.of(exchange, api.clock(), answer -> Optional.of(request.target())));
                }), null, id, startedAt, List.of());
    }

    /** The read before an edit did not return the status: nothing was sent. */
    private PublishOutcome editNotSent(Exchange read, String id) {
        if (gone(read)) {
            return new PublishOutcome.Failed(FailureKind.REJECTED, "status_gone", "The status " + id + " no longer "
                    + "exists on the instance (404): it was removed outside Herald, so it cannot be updated.", null,
                    Traces.of(read, "http_404", null));
        }
        PublishOutcome outcome = MastodonOutcome.of(read, api.clock(), body -> Optional.empty());
        if (outcome instanceof PublishOutcome.Failed || outcome instanceof PublishOutcome.AuthLost) {
            return outcome;
        }
        // a read that left no answer changed nothing: the edit was not sent
        return new PublishOutcome.Failed(FailureKind.NOT_SENT, null, "The status " + id + " could not be read "
                + "before the edit (" + MastodonApi.describe(read) + "); nothing was sent.", null,
                Traces.of(read, null, null));
    }

    CompletableFuture<PublishOutcome> delete(PostChangeRequest request) {
        ChannelConnection connection = request.connection();
        if (request.target() == null || Texts.blank(request.target().id())) {
            return refused("unknown_post", "The status to delete is not known; nothing was sent.", connection);
        }
        String id = request.target().id();
        String fingerprint = Fingerprints.ofParams("DELETE", "/api/v1/statuses/:id", Map.of("id", id));
        Instant startedAt = api.clock().instant();
        OutgoingRequest delete = MastodonApi.request(connection, "DELETE", "/api/v1/statuses/" + Forms.enc(id), null,
                null, fingerprint, id, Map.of(), null);
        return UnclassifiedFailure.asPublishOutcome(api.send(delete).thenApply(exchange -> gone(exchange)
                // already gone: deleted either way
                ? new PublishOutcome.Published(request.target(), null, Traces.of(exchange, "http_404", null))
                : MastodonOutcome.of(exchange, api.clock(), answer -> Optional.of(request.target()))),
                fingerprint, id, startedAt, List.of());
    }

    private static boolean gone(Exchange exchange) {
        return exchange instanceof Exchange.Answered answered && answered.status() == 404;
    }

    private static CompletableFuture<PublishOutcome> refused(String code, String detail, ChannelConnection connection) {
        return CompletableFuture.completedFuture(new PublishOutcome.Failed(FailureKind.REJECTED, code, detail, null,
                Traces.notCalled(null, MastodonApi.instance(connection))));
    }
}
