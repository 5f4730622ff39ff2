package io.herald.adapters.threads;

import io.herald.adapters.http.Exchange;
import io.herald.adapters.http.Fingerprints;
import io.herald.adapters.http.OutcomeLog;
import io.herald.adapters.http.PublishingLimit;
import io.herald.adapters.http.Texts;
import io.herald.adapters.http.Traces;
import io.herald.adapters.http.UnclassifiedFailure;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.CommentRequest;
import io.herald.adapters.port.PostChangeRequest;
import io.herald.adapters.port.PrepareRequest;
import io.herald.adapters.port.ProviderAdapter;
import io.herald.adapters.port.PublishOutcome;
import io.herald.adapters.port.PublishRequest;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationFailedEvent;
import io.herald.contracts.publication.UnknownCause;
import io.herald.platform.wire.Json;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The write steps on a Threads profile. The post is a container, then a publish:
 * <ul>
 * <li>{@code create_container} (repeatable): a TEXT container, an IMAGE container whose
 * {@code image_url} is Herald's public address of the image, or for 2 to 20 images one carousel
 * item per image (waited for in memory until FINISHED, at most {@code container-wait}) and a
 * CAROUSEL container naming them; its id is the step's result, on record before the publish;</li>
 * <li>{@code publish_container} (once only): reads the container's status first — IN_PROGRESS fails
 * {@code NOT_READY} (nothing sent, asked again after {@code container-poll-interval} on the
 * publication's timer), ERROR fails with Threads' message, EXPIRED fails {@code preparation_expired}
 * (a new container is made), PUBLISHED (an earlier publish whose answer was lost) is unknown and
 * read back — then the profile's publishing limit ({@link PublishingLimit}: used up, nothing is sent
 * and the publication waits rate limited), and publishes only a FINISHED one. Threads' "Media Not
 * Found" (24/4279009), which it answers also after publishing, is unknown: read back, never
 * re-created;</li>
 * <li>the first comment: a reply container ({@code reply_to_id}) waited for in memory, then
 * published as above against the replies' limit;</li>
 * <li>delete: {@code DELETE /{id}}; a post that does not exist is deleted already. No edit.</li>
 * </ul>
 */
final class ThreadsPublisher {

    static final Set<String> IMAGE_TYPES = Set.of("image/jpeg", "image/png");
    private static final Duration POLL = Duration.ofMillis(250);
    private static final Duration PERMALINK_WAIT = Duration.ofSeconds(2);

    private final ThreadsApi api;
    private final Duration containerWait;
    private final Duration pollInterval;

    /**
     * {@code containerWait}: how long a carousel item or a reply container is waited for in memory;
     * {@code pollInterval}: when a post's container still in progress is asked again (a timer).
     */
    ThreadsPublisher(ThreadsApi api, Duration containerWait, Duration pollInterval) {
        this.api = api;
        this.containerWait = containerWait;
        this.pollInterval = pollInterval;
    }

    ProviderAdapter.Publisher steps() {
        return new ProviderAdapter.Publisher(this::publish, null, this::comment, this::edit, this::delete,
                this::prepare);
    }

    /** A container's status as read: IN_PROGRESS, FINISHED, PUBLISHED, ERROR, EXPIRED; or the read that failed. */
    record Status(String status, String errorMessage, Exchange exchange) {

        boolean read() {
            return status != null;
        }
    }

    // ---- create_container

    CompletableFuture<PublishOutcome> prepare(PrepareRequest request) {
        ChannelConnection connection = request.connection();
        String text = ThreadsApi.text(request.content());
        List<PrepareRequest.Image> images = request.images();
        for (PrepareRequest.Image image : images) {
            String type = image.contentType() == null ? "" : image.contentType().toLowerCase(Locale.ROOT);
            if (!IMAGE_TYPES.contains(type)) {
                return refused("unsupported_media_type", "Threads takes JPEG and PNG images; image " + image.mediaId()
                        + " is " + image.contentType() + ". Nothing was sent.", connection);
            }
        }
        Instant startedAt = api.clock().instant();
        String target = ThreadsApi.user(connection);
        if (images.isEmpty()) {
            return container(connection, params("TEXT", text, null, null), startedAt);
        }
        if (images.size() == 1) {
            PrepareRequest.Image image = images.get(0);
            return container(connection, params("IMAGE", text, image.publicUrl().toString(), image.altText()),
                    startedAt);
        }
        return UnclassifiedFailure.asPublishOutcome(items(connection, images, 0, new ArrayList<>(), startedAt)
                .thenCompose(children -> {
                    if (children.failure() != null) {
                        return done(children.failure());
                    }
                    Map<String, String> carousel = params("CAROUSEL", text, null, null);
                    carousel.put("children", String.join(",", children.ids()));
                    return container(connection, carousel, startedAt);
                }), null, target, startedAt, List.of(ThreadsApi.token(connection)));
    }

    private record Children(List<String> ids, PublishOutcome failure) {
    }

    /** Creates the carousel items from {@code index} on, each waited for until FINISHED. */
    private CompletableFuture<Children> items(ChannelConnection connection, List<PrepareRequest.Image> images,
                                              int index, List<String> ids, Instant startedAt) {
        if (index == images.size()) {
            return done(new Children(ids, null));
        }
        PrepareRequest.Image image = images.get(index);
        Map<String, String> item = params("IMAGE", null, image.publicUrl().toString(), image.altText());
        item.put("is_carousel_item", "true");
        return container(connection, item, startedAt).thenCompose(outcome -> {
            if (!(outcome instanceof PublishOutcome.Published published)) {
                return done(new Children(ids, outcome));
            }
            String id = published.providerRef().id();
            return awaitReady(connection, id, api.clock().instant().plus(containerWait)).thenCompose(status -> {
                if (!"FINISHED".equals(status.status())) {
                    return done(new Children(ids, notFinished(connection, id, status)));
                }
                ids.add(id);
                return items(connection, images, index + 1, ids, startedAt);
            });
        });
    }

    /** A carousel item that did not finish: the container step is made again (it is repeatable). */
    private PublishOutcome notFinished(ChannelConnection connection, String id, Status status) {
        if ("IN_PROGRESS".equals(status.status())) {
            return new PublishOutcome.Failed(FailureKind.NOT_READY, "container_in_progress", "Threads has not"
                    + " finished the carousel item " + id + " within " + containerWait.toSeconds() + " s; nothing"
                    + " was published, the carousel is prepared again.", null, trace(status, connection));
        }
        if (!status.read()) {
            return new PublishOutcome.Failed(FailureKind.NOT_SENT, null, "The status of the carousel item " + id
                    + " could not be read (" + ThreadsApi.describe(status.exchange()) + "); nothing was published.",
                    null, trace(status, connection));
        }
        return new PublishOutcome.Failed(FailureKind.REJECTED, "container_error", "Threads could not take an image"
                + " of the carousel (item " + id + " is " + status.status() + ": " + status.errorMessage() + ").",
                null, trace(status, connection));
    }

    private static Map<String, String> params(String mediaType, String text, String imageUrl, String altText) {
        Map<String, String> params = new LinkedHashMap<>();
        params.put("media_type", mediaType);
        if (!Texts.blank(text)) {
            params.put("text", text);
        }
        if (imageUrl != null) {
            params.put("image_url", imageUrl);
        }
        if (!Texts.blank(altText)) {
            params.put("alt_text", altText);
        }
        return params;
    }

    /** {@code POST /{user}/threads}: a container's id. */
    private CompletableFuture<PublishOutcome> container(ChannelConnection connection, Map<String, String> params,
                                                        Instant startedAt) {
        String user = ThreadsApi.user(connection);
        // the image's address is signed and expires: the fingerprint names the kind of call, not the address
        Map<String, String> described = new LinkedHashMap<>(params);
        described.computeIfPresent("image_url", (k, v) -> "public media link");
        String fingerprint = Fingerprints.ofParams("POST", "/{user}/threads", described);
        return UnclassifiedFailure.asPublishOutcome(api.send(api.write(connection, "POST", "/"
                        + ThreadsApi.enc(user) + "/threads", params, fingerprint, user))
                .thenApply(exchange -> ThreadsOutcome.of(exchange, api.clock(), ThreadsOutcome::id)),
                fingerprint, user, startedAt, List.of(ThreadsApi.token(connection)));
    }

    // ---- publish_container

    CompletableFuture<PublishOutcome> publish(PublishRequest request) {
        ChannelConnection connection = request.connection();
        ProviderRef container = request.prepared();
        if (container == null || Texts.blank(container.id())) {
            return refused(PublicationFailedEvent.PREPARATION_EXPIRED, "No Threads container is on record for this"
                    + " post; nothing was sent, the container is made again.", connection, FailureKind.NOT_SENT);
        }
        return publishContainer(connection, container.id(), false)
                .whenComplete((outcome, failure) -> OutcomeLog.publish("threads", request, outcome));
    }

    /**
     * Reads the container's status, then the profile's publishing limit (of replies for a reply), then
     * publishes the container when it is FINISHED and the limit allows another post.
     */
    private CompletableFuture<PublishOutcome> publishContainer(ChannelConnection connection, String container,
                                                               boolean reply) {
        Instant startedAt = api.clock().instant();
        String user = ThreadsApi.user(connection);
        return UnclassifiedFailure.asPublishOutcome(status(connection, container).thenCompose(status -> {
            if (!status.read()) {
                if (ThreadsApi.tokenLost(status.exchange())) {
                    return done(ThreadsOutcome.of(status.exchange(), api.clock(), body -> java.util.Optional.empty()));
                }
                return done(new PublishOutcome.Failed(FailureKind.NOT_SENT, null, "The container " + container
                        + " could not be read before publishing (" + ThreadsApi.describe(status.exchange())
                        + "); nothing was published.", null, trace(status, connection)));
            }
            switch (status.status()) {
                case "FINISHED":
                    break;
                case "IN_PROGRESS":
                    return done(new PublishOutcome.Failed(FailureKind.NOT_READY, "container_in_progress", "Threads is"
                            + " still processing the container " + container + "; nothing was published, it is"
                            + " asked again in " + pollInterval.toMillis() + " ms.", pollInterval,
                            trace(status, connection)));
                case "EXPIRED":
                    return done(new PublishOutcome.Failed(FailureKind.NOT_SENT,
                            PublicationFailedEvent.PREPARATION_EXPIRED, "The container " + container + " expired"
                            + " unpublished; nothing was published, a new container is made.", null,
                            trace(status, connection)));
                case "PUBLISHED":
                    return done(new PublishOutcome.OutcomeUnknown(UnknownCause.SERVER_ERROR, "The container "
                            + container + " is already published (an earlier publish's answer was lost): the"
                            + " read-back finds the post.", trace(status, connection)));
                default:
                    return done(new PublishOutcome.Failed(FailureKind.REJECTED, "container_error", "Threads could"
                            + " not make the post from container " + container + " (" + status.status() + ": "
                            + status.errorMessage() + "). Fix the content, e.g. an image Threads cannot read.", null,
                            trace(status, connection)));
            }
            Map<String, String> params = Map.of("creation_id", container);
            String fingerprint = Fingerprints.ofParams("POST", "/{user}/threads_publish", params);
            return withinLimit(connection, reply).thenCompose(limited -> limited != null ? done(limited)
                    : api.send(api.write(connection, "POST", "/" + ThreadsApi.enc(user) + "/threads_publish", params,
                    fingerprint, user)).thenCompose(exchange -> {
                        PublishOutcome outcome = ThreadsOutcome.of(exchange, api.clock(), ThreadsOutcome::id);
                        if (outcome instanceof PublishOutcome.Published published) {
                            return withPermalink(connection, published);
                        }
                        return done(outcome);
                    }));
        }), null, user, startedAt, List.of(ThreadsApi.token(connection)));
    }

    /**
     * {@code GET /{user}/threads_publishing_limit}: null when the profile's rolling window allows
     * another post (or reply), or the limit cannot be read (the publish itself then tells, 9/2207042);
     * otherwise the publish is not sent and waits as rate limited ({@link PublishingLimit}).
     */
    private CompletableFuture<PublishOutcome> withinLimit(ChannelConnection connection, boolean reply) {
        String user = ThreadsApi.user(connection);
        return api.send(api.get(connection, "/" + ThreadsApi.enc(user) + "/threads_publishing_limit",
                "fields=" + ThreadsApi.enc("quota_usage,config,reply_quota_usage,reply_config"), user))
                .thenApply(exchange -> {
                    if (!ThreadsApi.ok(exchange)) {
                        return null;
                    }
                    return PublishingLimit.read(ThreadsApi.body(exchange), reply ? "reply_quota_usage" : "quota_usage",
                                    reply ? "reply_config" : "config")
                            .filter(PublishingLimit::reached)
                            .map(limit -> (PublishOutcome) limit.refusal(reply ? "replies" : "posts",
                                    Traces.of(exchange, null, null)))
                            .orElse(null);
                });
    }

    /**
     * The post's web address, read once after publishing (at most {@link #PERMALINK_WAIT}); without
     * it the post is still published.
     */
    private CompletableFuture<PublishOutcome> withPermalink(ChannelConnection connection,
                                                           PublishOutcome.Published published) {
        String id = published.providerRef().id();
        return api.send(api.get(connection, "/" + ThreadsApi.enc(id), "fields=id,permalink", id))
                .thenApply(exchange -> {
                    String permalink = ThreadsApi.ok(exchange) ? Json.text(ThreadsApi.body(exchange), "permalink")
                            : null;
                    return (PublishOutcome) new PublishOutcome.Published(new ProviderRef(id, permalink), null,
                            published.trace());
                })
                .exceptionally(failure -> published)
                // the post exists: a slow answer about its address does not hold the step
                .completeOnTimeout(published, PERMALINK_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** {@code GET /{container}?fields=status,error_message}. */
    CompletableFuture<Status> status(ChannelConnection connection, String container) {
        return api.send(api.get(connection, "/" + ThreadsApi.enc(container), "fields=status,error_message",
                container)).thenApply(exchange -> {
                    if (!ThreadsApi.ok(exchange)) {
                        return new Status(null, null, exchange);
                    }
                    var body = ThreadsApi.body(exchange);
                    String status = Json.text(body, "status");
                    return new Status(status == null ? null : status.toUpperCase(Locale.ROOT),
                            Json.text(body, "error_message"), exchange);
                });
    }

    /** The container's status once it is no longer IN_PROGRESS, or at {@code until}. */
    private CompletableFuture<Status> awaitReady(ChannelConnection connection, String container, Instant until) {
        return status(connection, container).thenCompose(status -> {
            if (!"IN_PROGRESS".equals(status.status()) || !api.clock().instant().isBefore(until)) {
                return done(status);
            }
            return CompletableFuture.supplyAsync(() -> null,
                            CompletableFuture.delayedExecutor(POLL.toMillis(), TimeUnit.MILLISECONDS))
                    .thenCompose(ignored -> awaitReady(connection, container, until));
        });
    }

    // ---- first comment

    /** A reply container under the post, waited for, then published. */
    CompletableFuture<PublishOutcome> comment(CommentRequest request) {
        ChannelConnection connection = request.connection();
        if (request.post() == null || Texts.blank(request.post().id()) || Texts.blank(request.text())) {
            return refused("unknown_post", "The thread to reply to is not known, or the comment is empty; nothing"
                    + " was sent.", connection);
        }
        String text = request.text().strip();
        Instant startedAt = api.clock().instant();
        Map<String, String> params = params("TEXT", text, null, null);
        params.put("reply_to_id", request.post().id());
        return container(connection, params, startedAt).thenCompose(created -> {
            if (!(created instanceof PublishOutcome.Published published)) {
                // no reply exists before its container is published: a failed or unknown container published nothing
                return done(created instanceof PublishOutcome.OutcomeUnknown unknown
                        ? new PublishOutcome.Failed(FailureKind.NOT_SENT, null, unknown.detail()
                                + " Only a container was asked for; nothing was published.", null, unknown.trace())
                        : created);
            }
            String id = published.providerRef().id();
            return awaitReady(connection, id, api.clock().instant().plus(containerWait))
                    .thenCompose(status -> "FINISHED".equals(status.status()) ? publishContainer(connection, id, true)
                            : done(notFinished(connection, id, status)));
        });
    }

    // ---- update and delete

    CompletableFuture<PublishOutcome> edit(PostChangeRequest request) {
        return refused("action_not_supported", "Threads posts cannot be edited through the API; nothing was sent.",
                request.connection());
    }

    CompletableFuture<PublishOutcome> delete(PostChangeRequest request) {
        ChannelConnection connection = request.connection();
        if (request.target() == null || Texts.blank(request.target().id())) {
            return refused("unknown_post", "The thread to delete is not known; nothing was sent.", connection);
        }
        String id = request.target().id();
        String fingerprint = Fingerprints.ofParams("DELETE", "/{media}", Map.of("id", id));
        Instant startedAt = api.clock().instant();
        return UnclassifiedFailure.asPublishOutcome(api.send(api.write(connection, "DELETE", "/"
                        + ThreadsApi.enc(id), Map.of(), fingerprint, id)).thenApply(exchange -> {
                            if (ThreadsApi.doesNotExist(exchange)) {
                                // already gone: deleted either way
                                return new PublishOutcome.Published(request.target(), null,
                                        Traces.of(exchange, "100/33", null));
                            }
                            return ThreadsOutcome.of(exchange, api.clock(), body -> body.path("success").asBoolean(false)
                                    ? java.util.Optional.of(request.target()) : java.util.Optional.empty());
                        }),
                fingerprint, id, startedAt, List.of(ThreadsApi.token(connection)));
    }

    private static io.herald.contracts.publication.AttemptTrace trace(Status status, ChannelConnection connection) {
        return status.exchange() == null ? Traces.notCalled(null, ThreadsApi.user(connection))
                : Traces.of(status.exchange(), null, null);
    }

    private static CompletableFuture<PublishOutcome> refused(String code, String detail, ChannelConnection connection) {
        return refused(code, detail, connection, FailureKind.REJECTED);
    }

    private static CompletableFuture<PublishOutcome> refused(String code, String detail, ChannelConnection connection,
                                                             FailureKind kind) {
        return done(new PublishOutcome.Failed(kind, code, detail, null,
                Traces.notCalled(null, ThreadsApi.user(connection))));
    }

    private static <T> CompletableFuture<T> done(T value) {
        return CompletableFuture.completedFuture(value);
    }
}
