package io.herald.adapters.instagram;

import io.herald.adapters.http.Fingerprints;
import io.herald.adapters.http.MetaMediaNotFound;
import io.herald.adapters.http.PublishingLimit;
import io.herald.adapters.http.Traces;
import io.herald.adapters.http.UnclassifiedFailure;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.CommentRequest;
import io.herald.adapters.port.PostChangeRequest;
import io.herald.adapters.port.PrepareRequest;
import io.herald.adapters.port.ProviderAdapter;
import io.herald.adapters.port.PublishOutcome;
import io.herald.adapters.port.PublishRequest;
import io.herald.contracts.publication.AttemptTrace;
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
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The write steps. {@code create_container}: one container for a single image ({@code POST
 * /{ig-user-id}/media} with {@code image_url}, {@code caption}, {@code alt_text}), or a child per
 * image ({@code is_carousel_item=true}) and a {@code CAROUSEL} container over them; the provider
 * fetches each image from Herald's public address, as a JPEG made of it where it is of another
 * type (Instagram takes JPEG only), which the step's success says. {@code publish_container}: the
 * container's status first (still processing → {@code NOT_READY}, polled at {@code
 * containerPollInterval}; expired → {@code preparation_expired}, so a new one is made; failed →
 * rejected with its error), the publishing limit, then {@code POST /{ig-user-id}/media_publish
 * creation_id}, whose "Media Not Found" (24/4279009, or 100/33) is unknown, not a refusal: the post
 * may have gone live, and the container's status settles it ({@link MetaMediaNotFound}). The first
 * comment: {@code POST /{media-id}/comments}.
 */
final class InstagramPublisher {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(InstagramPublisher.class);

    /** The wait when the publish itself is refused for the limit: a sixth of Instagram's 24 hours. */
    private static final Duration DAY_LIMIT_WAIT = limitWait(Duration.ofDays(1));

    private final InstagramCalls calls;
    private final Duration pollInterval;

    InstagramPublisher(InstagramCalls calls, Duration pollInterval) {
        this.calls = calls;
        this.pollInterval = pollInterval;
    }

    ProviderAdapter.Publisher steps() {
        return new ProviderAdapter.Publisher(this::publish, null, this::comment, InstagramPublisher::unsupported,
                InstagramPublisher::unsupported, this::prepare);
    }

    private static CompletableFuture<PublishOutcome> unsupported(PostChangeRequest request) {
        return CompletableFuture.completedFuture(new PublishOutcome.Failed(FailureKind.REJECTED,
                "action_not_supported", "Instagram posts cannot be edited or deleted through the API; nothing was"
                        + " sent", null, Traces.notCalled(null, null)));
    }

    CompletableFuture<PublishOutcome> prepare(PrepareRequest request) {
        ChannelConnection connection = request.connection();
        String path = "/" + InstagramGraph.segment(InstagramGraph.userId(connection)) + "/media";
        String caption = InstagramCaption.of(request.content());
        List<PrepareRequest.Image> images = request.images();
        String converted = convertedNote(images);
        if (converted != null) {
            log.info("{}: {}", request.publicationId().value(), converted);
        }
        if (images.isEmpty()) {
            return done(new PublishOutcome.Failed(FailureKind.REJECTED, "images_required",
                    "An Instagram post needs at least one image; nothing was sent.", null,
                    Traces.notCalled(null, path)));
        }
        if (images.size() == 1) {
            return create(connection, path, single(images.get(0), caption, false))
                    .thenApply(outcome -> noted(outcome, converted));
        }
        // children first, one after another; an unused child is invisible and expires
        CompletableFuture<List<String>> children = CompletableFuture.completedFuture(new ArrayList<>());
        CompletableFuture<PublishOutcome> failed = new CompletableFuture<>();
        for (PrepareRequest.Image image : images) {
            children = children.thenCompose(ids -> ids == null ? CompletableFuture.completedFuture(null)
                    : create(connection, path, single(image, null, true)).thenApply(outcome -> {
                        if (outcome instanceof PublishOutcome.Published child) {
                            ids.add(child.providerRef().id());
                            return ids;
                        }
                        failed.complete(outcome);
                        return null;
                    }));
        }
        return children.thenCompose(ids -> {
            if (ids == null) {
                return failed;
            }
            Map<String, String> form = new LinkedHashMap<>();
            form.put("media_type", "CAROUSEL");
            form.put("children", String.join(",", ids));
            form.put("caption", caption);
            return create(connection, path, form).thenApply(outcome -> noted(outcome, converted));
        });
    }

    /**
     * What the container step's view says when Herald serves Instagram a JPEG made of an image of
     * another type (Instagram takes JPEG only: the public address converts it); null when none is.
     */
    static String convertedNote(List<PrepareRequest.Image> images) {
        List<String> which = images.stream().filter(PrepareRequest.Image::converted)
                .map(image -> image.mediaId().value() + " (" + image.storedType() + ")").toList();
        if (which.isEmpty()) {
            return null;
        }
        return (which.size() == 1 ? "image" : "images") + " converted to JPEG for Instagram: "
                + String.join(", ", which);
    }

    private static PublishOutcome noted(PublishOutcome outcome, String note) {
        return note != null && outcome instanceof PublishOutcome.Published published ? published.withNote(note)
                : outcome;
    }

    private static Map<String, String> single(PrepareRequest.Image image, String caption, boolean carouselItem) {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("image_url", image.publicUrl().toString());
        if (carouselItem) {
            form.put("is_carousel_item", "true");
        } else {
            form.put("caption", caption);
        }
        if (image.altText() != null && !image.altText().isBlank()) {
            form.put("alt_text", image.altText());
        }
        return form;
    }

    private CompletableFuture<PublishOutcome> create(ChannelConnection connection, String path,
                                                     Map<String, String> form) {
        // the image address is signed and expires: the fingerprint leaves it out
        Map<String, String> stable = new LinkedHashMap<>(form);
        stable.computeIfPresent("image_url", (k, v) -> "(public address)");
        String fingerprint = Fingerprints.ofParams("POST", path, stable);
        var outgoing = calls.graph().post(connection, path, form, fingerprint);
        Instant startedAt = calls.http().clock().instant();
        return UnclassifiedFailure.asPublishOutcome(calls.send(outgoing).thenApply(a -> a.writeOutcome(DAY_LIMIT_WAIT)),
                fingerprint, path, startedAt, outgoing.secrets());
    }

    CompletableFuture<PublishOutcome> publish(PublishRequest request) {
        ChannelConnection connection = request.connection();
        String userId = InstagramGraph.userId(connection);
        ProviderRef container = request.prepared();
        String path = "/" + InstagramGraph.segment(userId) + "/media_publish";
        if (container == null) {
            return done(new PublishOutcome.Failed(FailureKind.REJECTED, "no_container",
                    "No container is on record for this post; nothing was sent.", null,
                    Traces.notCalled(null, userId)));
        }
        Map<String, String> form = Map.of("creation_id", container.id());
        String fingerprint = Fingerprints.ofParams("POST", path, form);
        Instant startedAt = calls.http().clock().instant();
        CompletableFuture<PublishOutcome> outcome = InstagramContainers.status(calls, connection, container.id())
                .thenCompose(status -> {
                    PublishOutcome notNow = beforePublishing(status, container);
                    if (notNow != null) {
                        return done(notNow);
                    }
                    return withinLimit(connection, userId).thenCompose(limited -> limited != null ? done(limited)
                            : calls.send(calls.graph().post(connection, path, form, fingerprint))
                                    .thenApply(this::published));
                });
        return UnclassifiedFailure.asPublishOutcome(outcome, fingerprint, userId, startedAt,
                InstagramGraph.secretsOf(connection));
    }

    /** What the container's status says before publishing; null: it is ready. */
    private PublishOutcome beforePublishing(InstagramContainers.Status status, ProviderRef container) {
        AttemptTrace trace = status.answer().trace();
        return switch (status.code()) {
            case "FINISHED" -> null;
            case "IN_PROGRESS" -> new PublishOutcome.Failed(FailureKind.NOT_READY, "container_not_ready",
                    "Container " + container.id() + " is still being processed; asked again in "
                            + pollInterval.toSeconds() + " s. Nothing was published.", pollInterval, trace);
            case "EXPIRED" -> new PublishOutcome.Failed(FailureKind.NOT_SENT, PublicationFailedEvent.PREPARATION_EXPIRED,
                    "Container " + container.id() + " expired unpublished (after 24 hours); a new one is created."
                            + " Nothing was published.", null, trace);
            case "ERROR" -> new PublishOutcome.Failed(FailureKind.REJECTED, "container_error",
                    "Instagram could not process container " + container.id() + ": " + status.detail()
                            + " Nothing was published.", null, trace);
            case "PUBLISHED" -> new PublishOutcome.OutcomeUnknown(UnknownCause.SERVER_ERROR,
                    "Container " + container.id() + " is already published; it is read back.", trace);
            default -> status.lostAuth() != null ? status.lostAuth()
                    : new PublishOutcome.Failed(FailureKind.NOT_SENT, "container_status_unread",
                            "The container's status could not be read (" + status.detail()
                                    + "); nothing was published.", null, trace);
        };
    }

    /** Null when the account's publishing limit allows a post now (or cannot be read: the publish will tell). */
    private CompletableFuture<PublishOutcome> withinLimit(ChannelConnection connection, String userId) {
        return calls.send(calls.graph().get(connection, "/" + InstagramGraph.segment(userId)
                + "/content_publishing_limit?fields=quota_usage,config")).thenApply(answer -> {
                    if (!answer.ok()) {
                        return null;
                    }
                    return PublishingLimit.read(answer.body(), "quota_usage", "config")
                            .filter(PublishingLimit::reached)
                            .map(limit -> limit.refusal("posts", answer.trace()))
                            .orElse(null);
                });
    }

    /**
     * How long a publication over the limit waits before the limit is read again: a sixth of the
     * rolling window, so that the retries a rate limit gets (8 by default) span more than the window.
     */
    static Duration limitWait(Duration window) {
        return PublishingLimit.waitFor(window);
    }

    private PublishOutcome published(InstagramCalls.Answer answer) {
        if (answer.error() != null && answer.error().containerNotReady()) {
            return new PublishOutcome.Failed(FailureKind.NOT_READY, "container_not_ready",
                    "Instagram answered that the container is not ready (" + answer.error().providerCode()
                            + "); nothing was published.", pollInterval, answer.trace());
        }
        String code = answer.error() == null ? null : answer.error().providerCode();
        if (MetaMediaNotFound.mediaNotFoundOrDoesNotExist(code)) {
            // answered also when the post went live: the container's status settles it, never a new container
            return MetaMediaNotFound.readBack("Instagram", code, answer.error().message(), answer.trace());
        }
        PublishOutcome outcome = answer.writeOutcome(DAY_LIMIT_WAIT);
        if (outcome instanceof PublishOutcome.Published published) {
            String id = published.providerRef().id();
            return new PublishOutcome.Published(new ProviderRef(id, null), null, published.trace());
        }
        return outcome;
    }

    CompletableFuture<PublishOutcome> comment(CommentRequest request) {
        ChannelConnection connection = request.connection();
        String path = "/" + InstagramGraph.segment(request.post().id()) + "/comments";
        Map<String, String> form = Map.of("message", request.text());
        String fingerprint = Fingerprints.ofParams("POST", path, form);
        var outgoing = calls.graph().post(connection, path, form, fingerprint);
        Instant startedAt = calls.http().clock().instant();
        return UnclassifiedFailure.asPublishOutcome(calls.send(outgoing).thenApply(a -> a.writeOutcome(DAY_LIMIT_WAIT)),
                fingerprint, request.post().id(), startedAt, outgoing.secrets());
    }

    private static <T> CompletableFuture<T> done(T value) {
        return CompletableFuture.completedFuture(value);
    }

    @SuppressWarnings("unused")
    private static String json(Object o) {
        return Json.write(Json.MAPPER.valueToTree(o));
    }
}
