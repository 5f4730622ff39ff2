package io.herald.adapters.threads;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.adapters.http.Exchange;
import io.herald.adapters.http.FeedWindow;
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
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Reading a Threads profile. The read-back of a publish asks the container first, which answers
 * exactly: PUBLISHED → the post is found among the profile's own threads by its text in the window
 * [sent − 5 min, now] (never "the newest"); FINISHED or EXPIRED → not published; ERROR → not
 * published (a re-attempt fails with its error); IN_PROGRESS → ask again later. A first comment is
 * looked for among the post's replies by its text. One post by its id ({@code GET /{id}}), and the
 * probe: the token's user, its publishing limit, and reading its threads.
 */
final class ThreadsReads implements ProviderAdapter.Probe {

    static final Duration READ_BACK_MARGIN = Duration.ofMinutes(5);
    static final int PAGE_SIZE = 100;
    private static final String FIELDS = "id,text,timestamp,permalink";

    private final ThreadsApi api;
    private final ThreadsPublisher containers;

    ThreadsReads(ThreadsApi api, ThreadsPublisher containers) {
        this.api = api;
        this.containers = containers;
    }

    ProviderAdapter.FeedReader feedReader() {
        return new ProviderAdapter.FeedReader(this::readBack, this::readPost);
    }

    CompletableFuture<ReadBackOutcome> readBack(ReadBackRequest request) {
        ChannelConnection connection = request.connection();
        if (Texts.blank(ThreadsApi.token(connection))) {
            return done(new ReadBackOutcome.Unavailable("No Threads access token is stored."));
        }
        if (request.ofComment()) {
            return replies(request);
        }
        String text = ThreadsApi.text(request.content());
        ProviderRef container = request.prepared();
        if (container == null || Texts.blank(container.id())) {
            // no container on record: only the profile's threads can tell
            return ownThreads(connection, request.attemptStartedAt(), text);
        }
        return UnclassifiedFailure.asReadBackOutcome(containers.status(connection, container.id())
                .thenCompose(status -> {
                    if (!status.read()) {
                        return done(readFailure(status.exchange(), "the container " + container.id()));
                    }
                    String id = container.id();
                    return switch (status.status()) {
                        case "PUBLISHED" -> ownThreads(connection, request.attemptStartedAt(), text)
                                .thenApply(found -> found instanceof ReadBackOutcome.NotFound notFound
                                        ? new ReadBackOutcome.Unknown("The container " + id + " is published, but "
                                        + "no thread of the profile has its text yet: " + notFound.detail())
                                        : found);
                        case "FINISHED" -> done(new ReadBackOutcome.NotFound("The container " + id + " is FINISHED"
                                + " and not published."));
                        case "EXPIRED" -> done(new ReadBackOutcome.NotFound("The container " + id + " expired"
                                + " unpublished."));
                        case "ERROR" -> done(new ReadBackOutcome.NotFound("The container " + id + " failed ("
                                + status.errorMessage() + "); nothing was published."));
                        default -> done(new ReadBackOutcome.Unknown("The container " + id + " is "
                                + status.status() + "; read again later."));
                    };
                }), ThreadsApi.user(connection), List.of(ThreadsApi.token(connection)));
    }

    /** The profile's own threads with the text, created in the window from the attempt on. */
    private CompletableFuture<ReadBackOutcome> ownThreads(ChannelConnection connection, Instant attemptStartedAt,
                                                          String text) {
        Instant start = attemptStartedAt.minus(READ_BACK_MARGIN);
        Instant now = api.clock().instant();
        FeedWindow window = FeedWindow.posts("of the profile", start, now, text, null);
        String user = ThreadsApi.user(connection);
        String query = "fields=" + FIELDS + "&since=" + start.getEpochSecond() + "&until="
                + now.plusSeconds(60).getEpochSecond() + "&limit=" + PAGE_SIZE;
        FeedWindow.Pages<String> pages = after -> api.send(api.get(connection, "/" + ThreadsApi.enc(user)
                        + "/threads", query + (after == null ? "" : "&after=" + ThreadsApi.enc(after)), user))
                .thenApply(exchange -> FeedWindow.page(exchange, "the profile's threads", format(), ThreadsReads::next));
        return window.search("the profile's threads", true, (String) null, pages);
    }

    private CompletableFuture<ReadBackOutcome> replies(ReadBackRequest request) {
        ChannelConnection connection = request.connection();
        if (request.postRef() == null || Texts.blank(request.postRef().id())) {
            return done(new ReadBackOutcome.Unknown("The thread the comment replies to is not known."));
        }
        String post = request.postRef().id();
        String text = request.content().firstComment() == null ? "" : request.content().firstComment().strip();
        FeedWindow window = FeedWindow.comments(text);
        FeedWindow.Pages<String> pages = after -> api.send(api.get(connection, "/" + ThreadsApi.enc(post)
                        + "/replies", "fields=" + FIELDS + (after == null ? "" : "&after=" + ThreadsApi.enc(after)),
                        post))
                .thenApply(exchange -> FeedWindow.page(exchange, "the thread's replies", format(), ThreadsReads::next));
        return UnclassifiedFailure.asReadBackOutcome(window.search("the thread's replies", false, (String) null,
                pages), post, List.of(ThreadsApi.token(connection)));
    }

    private static FeedWindow.Format format() {
        return new FeedWindow.Format("data", node -> {
            String id = Json.text(node, "id");
            return new FeedWindow.Item(id, ThreadsApi.timestamp(node), Json.text(node, "text"), List.of(),
                    new ProviderRef(id, Json.text(node, "permalink")));
        }, (answered, body) -> readFailure(answered, "the list"));
    }

    /** The next page's cursor where the answer has one. */
    private static String next(JsonNode body, Integer items) {
        JsonNode paging = body.path("paging");
        String after = Json.text(paging.path("cursors"), "after");
        return items == 0 || Texts.blank(after) ? null : after;
    }

    private static ReadBackOutcome readFailure(Exchange exchange, String what) {
        if (ThreadsApi.tokenLost(exchange)) {
            Exchange.Answered answered = (Exchange.Answered) exchange;
            return new ReadBackOutcome.AuthLost(ThreadsApi.providerCode(answered), "Threads refused the access token ("
                    + ThreadsApi.message(answered) + "). " + ThreadsOutcome.AUTH_FIX);
        }
        if (exchange instanceof Exchange.Answered answered && answered.status() == 403) {
            return new ReadBackOutcome.Unavailable("Threads did not let the token read " + what + " ("
                    + ThreadsApi.message(answered) + "): a token with threads_basic is needed.");
        }
        return new ReadBackOutcome.Unknown(FeedWindow.capitalised(what) + " could not be read: "
                + ThreadsApi.describe(exchange));
    }

    /** One thread by its id, with its text. */
    CompletableFuture<PostReading> readPost(PostReadRequest request) {
        ChannelConnection connection = request.connection();
        if (request.target() == null || Texts.blank(request.target().id())) {
            return done(new PostReading.Unknown("the thread is not known"));
        }
        String id = request.target().id();
        return api.send(api.get(connection, "/" + ThreadsApi.enc(id), "fields=id,text", id))
                .thenApply(exchange -> {
                    if (ThreadsApi.ok(exchange)) {
                        String text = Json.text(ThreadsApi.body(exchange), "text");
                        boolean asWanted = request.wanted() == null || Texts.normalise(ThreadsApi.text(
                                request.wanted())).equals(Texts.normalise(text == null ? "" : text));
                        return (PostReading) new PostReading.Present(asWanted, "the thread " + id + " exists");
                    }
                    if (ThreadsApi.doesNotExist(exchange)) {
                        return new PostReading.Gone("no thread " + id + " (Threads: does not exist)");
                    }
                    if (exchange instanceof Exchange.Answered answered
                            && (ThreadsApi.tokenLost(exchange) || answered.status() == 403)) {
                        return new PostReading.Unavailable("Threads refused the read ("
                                + ThreadsApi.message(answered) + ")");
                    }
                    return new PostReading.Unknown("the thread " + id + ": " + ThreadsApi.describe(exchange));
                })
                .exceptionally(failure -> new PostReading.Unknown("the read failed: "
                        + failure.getClass().getSimpleName()));
    }

    /**
     * The token's user ({@code GET /me}: a lost token, or a token of another user than the
     * connection's), the publishing limit ({@code threads_publishing_limit}), and reading the
     * profile's threads.
     */
    @Override
    public CompletableFuture<CapabilityReport> probe(ChannelConnection connection) {
        String token = ThreadsApi.token(connection);
        String user = ThreadsApi.user(connection);
        if (Texts.blank(token) || Texts.blank(user)) {
            Capability none = Capability.unavailable("No Threads user id or access token stored.");
            return done(new CapabilityReport(none, none));
        }
        return UnclassifiedFailure.asCapabilityReport(api.send(api.get(connection, "/me", "fields=id,username", user))
                .thenCompose(me -> {
                    if (!ThreadsApi.ok(me)) {
                        return done(unverified(me));
                    }
                    String id = Json.text(ThreadsApi.body(me), "id");
                    if (!user.equals(id)) {
                        Capability other = Capability.unavailable("The access token belongs to Threads user " + id
                                + ", not to the connection's user " + user + ": store that user's token.");
                        return done(new CapabilityReport(other, other));
                    }
                    return api.send(api.get(connection, "/" + ThreadsApi.enc(user) + "/threads_publishing_limit",
                            "fields=quota_usage,config,reply_quota_usage,reply_config", user)).thenCompose(limit -> {
                                Capability publish = new Capability(true, limit(limit));
                                return api.send(api.get(connection, "/" + ThreadsApi.enc(user) + "/threads",
                                        "fields=id&limit=1", user)).thenApply(read -> new CapabilityReport(publish,
                                        ThreadsApi.ok(read) ? new Capability(true, "exact through the container's"
                                                + " status, then text match over the profile's own threads")
                                                : Capability.unavailable("The profile's threads could not be read: "
                                                + ThreadsApi.describe(read))));
                            });
                }), user, List.of(token));
    }

    private static CapabilityReport unverified(Exchange exchange) {
        if (ThreadsApi.tokenLost(exchange)) {
            Exchange.Answered answered = (Exchange.Answered) exchange;
            Capability none = Capability.unavailable("Threads refused the access token");
            return new CapabilityReport(none, none, "Threads refused the access token ("
                    + ThreadsApi.message(answered) + "). " + ThreadsOutcome.AUTH_FIX);
        }
        Capability none = Capability.unavailable("The token's Threads user could not be confirmed: "
                + ThreadsApi.describe(exchange));
        return new CapabilityReport(none, none);
    }

    private static String limit(Exchange exchange) {
        if (!ThreadsApi.ok(exchange)) {
            return "the publishing limit could not be read (" + ThreadsApi.describe(exchange) + ")";
        }
        JsonNode row = ThreadsApi.body(exchange).path("data").path(0);
        return "publishing limit: " + row.path("quota_usage").asInt() + " of "
                + row.path("config").path("quota_total").asInt(250) + " posts and "
                + row.path("reply_quota_usage").asInt() + " of "
                + row.path("reply_config").path("quota_total").asInt(1000) + " replies used in the last 24 hours";
    }

    private static <T> CompletableFuture<T> done(T value) {
        return CompletableFuture.completedFuture(value);
    }
}
