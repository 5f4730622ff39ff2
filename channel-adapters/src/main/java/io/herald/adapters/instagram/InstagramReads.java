package io.herald.adapters.instagram;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.adapters.http.Texts;
import io.herald.adapters.http.UnclassifiedFailure;
import io.herald.adapters.port.CapabilityReport;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.PostReadRequest;
import io.herald.adapters.port.PostReading;
import io.herald.adapters.port.ProviderAdapter;
import io.herald.adapters.port.ReadBackOutcome;
import io.herald.adapters.port.ReadBackRequest;
import io.herald.contracts.channel.Capability;
import io.herald.contracts.publication.ProviderRef;
import io.herald.platform.wire.Json;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Read-back and the probe. An unknown publish is settled by its container's own status, exactly:
 * {@code PUBLISHED} → found, and the media id is looked up among the account's own media by caption
 * and time (never "the newest"); {@code FINISHED} or {@code EXPIRED} → not found (an expired one is
 * replaced when the publish is tried again); {@code ERROR} → not found (trying again fails with its
 * error); {@code IN_PROGRESS} or an unread status → inconclusive, read again. A first comment is
 * looked for among the media's comments by its text.
 */
final class InstagramReads implements ProviderAdapter.Probe {

    /** Media older than the attempt by more than this are not the attempt's. */
    private static final Duration SKEW = Duration.ofMinutes(5);
    private static final int MEDIA_PAGES = 4;
    private static final DateTimeFormatter GRAPH_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssXX");

    private final InstagramCalls calls;

    InstagramReads(InstagramCalls calls) {
        this.calls = calls;
    }

    ProviderAdapter.FeedReader feedReader() {
        return new ProviderAdapter.FeedReader(this::readBack, this::readPost);
    }

    CompletableFuture<ReadBackOutcome> readBack(ReadBackRequest request) {
        ChannelConnection connection = request.connection();
        CompletableFuture<ReadBackOutcome> read;
        if (request.ofComment()) {
            read = comments(request);
        } else if (request.prepared() == null) {
            read = CompletableFuture.completedFuture(new ReadBackOutcome.Unavailable(
                    "no container is on record for this attempt; an operator decides"));
        } else {
            read = InstagramContainers.status(calls, connection, request.prepared().id())
                    .thenCompose(status -> settle(request, status));
        }
        return UnclassifiedFailure.asReadBackOutcome(read, InstagramGraph.userId(connection),
                InstagramGraph.secretsOf(connection));
    }

    private CompletableFuture<ReadBackOutcome> settle(ReadBackRequest request, InstagramContainers.Status status) {
        String container = request.prepared().id();
        return switch (status.code()) {
            case "PUBLISHED" -> findMedia(request, container);
            case "FINISHED" -> done(new ReadBackOutcome.NotFound("container " + container
                    + " is FINISHED and unpublished: the publish did not take effect"));
            case "EXPIRED" -> done(new ReadBackOutcome.NotFound("container " + container
                    + " EXPIRED unpublished; a re-attempt creates a new container"));
            case "ERROR" -> done(new ReadBackOutcome.NotFound("container " + container + " is in ERROR ("
                    + status.detail() + "): nothing was published; a re-attempt fails with that error"));
            case "IN_PROGRESS" -> done(new ReadBackOutcome.Unknown("container " + container
                    + " is still IN_PROGRESS; read again later"));
            default -> done(status.lostAuth() != null
                    ? new ReadBackOutcome.AuthLost(status.lostAuth().providerCode(), status.lostAuth().reason())
                    : new ReadBackOutcome.Unknown("the status of container " + container + " could not be read: "
                            + status.detail()));
        };
    }

    /** The published container's media: the account's own media with the caption, since the attempt began. */
    private CompletableFuture<ReadBackOutcome> findMedia(ReadBackRequest request, String container) {
        String caption = Texts.normalise(InstagramCaption.of(request.content()));
        Instant from = request.attemptStartedAt() == null ? Instant.EPOCH : request.attemptStartedAt().minus(SKEW);
        String path = "/" + InstagramGraph.segment(InstagramGraph.userId(request.connection()))
                + "/media?fields=id,caption,timestamp,permalink&limit=50";
        return page(request.connection(), path, caption, from, new ArrayList<>(), 0).thenApply(matches -> {
            if (matches == null) {
                return new ReadBackOutcome.Unknown("container " + container + " is PUBLISHED, but the account's"
                        + " media could not be read completely");
            }
            if (matches.size() == 1) {
                return new ReadBackOutcome.Found(matches.get(0), "container " + container + " is PUBLISHED; media "
                        + matches.get(0).id() + " has the caption and was published since the attempt");
            }
            return new ReadBackOutcome.Unknown("container " + container + " is PUBLISHED, and " + matches.size()
                    + " of the account's media match its caption and time; an operator names the post");
        });
    }

    /** The matching media of every page read, or null when a page could not be read. */
    private CompletableFuture<List<ProviderRef>> page(ChannelConnection connection, String path, String caption,
                                                      Instant from, List<ProviderRef> found, int pageNo) {
        return calls.send(calls.graph().get(connection, path)).thenCompose(answer -> {
            if (!answer.ok()) {
                return done(null);
            }
            boolean older = false;
            for (JsonNode media : answer.body().path("data")) {
                Instant at = time(Json.text(media, "timestamp"));
                if (at != null && at.isBefore(from)) {
                    older = true;
                    continue;
                }
                if (caption.equals(Texts.normalise(Json.text(media, "caption")))) {
                    found.add(new ProviderRef(Json.text(media, "id"), Json.text(media, "permalink")));
                }
            }
            String after = Json.text(answer.body().path("paging").path("cursors"), "after");
            if (older || after == null || pageNo + 1 >= MEDIA_PAGES) {
                return done(older || after == null ? found : null);
            }
            String next = path.replaceAll("&after=[^&]*", "") + "&after=" + InstagramGraph.segment(after);
            return page(connection, next, caption, from, found, pageNo + 1);
        });
    }

    private CompletableFuture<ReadBackOutcome> comments(ReadBackRequest request) {
        String text = Texts.normalise(request.content().firstComment());
        return calls.send(calls.graph().get(request.connection(), "/" + InstagramGraph.segment(request.postRef().id())
                + "/comments?fields=id,text,timestamp&limit=50")).thenApply(answer -> {
                    if (!answer.ok()) {
                        return answer.error() != null && answer.error().authLost()
                                ? new ReadBackOutcome.AuthLost(answer.error().providerCode(), answer.error().describe())
                                : new ReadBackOutcome.Unknown("the media's comments could not be read: "
                                        + answer.detail());
                    }
                    List<ProviderRef> matches = new ArrayList<>();
                    for (JsonNode comment : answer.body().path("data")) {
                        if (text.equals(Texts.normalise(Json.text(comment, "text")))) {
                            matches.add(new ProviderRef(Json.text(comment, "id"), null));
                        }
                    }
                    if (matches.size() == 1) {
                        return new ReadBackOutcome.Found(matches.get(0), "the media has a comment with the text");
                    }
                    return matches.isEmpty() ? new ReadBackOutcome.NotFound("no comment of the media has the text")
                            : new ReadBackOutcome.Unknown(matches.size() + " comments of the media have the text");
                });
    }

    /** Instagram posts are neither edited nor deleted through Herald: nothing to read. */
    CompletableFuture<PostReading> readPost(PostReadRequest request) {
        return done(new PostReading.Unavailable("Instagram posts cannot be edited or deleted through the API"));
    }

    /** Publishing and reading both need the token: the account is read ({@code GET /me}). */
    @Override
    public CompletableFuture<CapabilityReport> probe(ChannelConnection connection) {
        String userId = InstagramGraph.userId(connection);
        if (Texts.blank(InstagramGraph.token(connection)) || Texts.blank(userId)) {
            Capability missing = Capability.unavailable("No Instagram access token or user id stored.");
            return done(new CapabilityReport(missing, missing));
        }
        return UnclassifiedFailure.asCapabilityReport(calls.send(calls.graph().get(connection,
                "/" + InstagramGraph.segment(userId) + "/content_publishing_limit?fields=quota_usage,config"))
                .thenApply(answer -> {
                    if (answer.ok()) {
                        return new CapabilityReport(Capability.ok(), Capability.ok());
                    }
                    if (answer.error() != null && answer.error().authLost()) {
                        Capability lost = Capability.unavailable(answer.error().describe());
                        return new CapabilityReport(lost, lost, answer.error().describe());
                    }
                    Capability no = Capability.unavailable(answer.answered() ? answer.detail()
                            : "Instagram could not be asked: " + answer.detail());
                    return new CapabilityReport(no, no);
                }), userId, InstagramGraph.secretsOf(connection));
    }

    private static Instant time(String text) {
        if (text == null) {
            return null;
        }
        try {
            return OffsetDateTime.parse(text, GRAPH_TIME).toInstant();
        } catch (RuntimeException e) {
            try {
                return Instant.parse(text);
            } catch (RuntimeException again) {
                return null;
            }
        }
    }

    private static <T> CompletableFuture<T> done(T value) {
        return CompletableFuture.completedFuture(value);
    }
}
