package io.herald.adapters.facebook;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.adapters.http.Exchange;
import io.herald.adapters.http.FeedWindow;
import io.herald.adapters.http.Origin;
import io.herald.adapters.http.OutgoingRequest;
import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.http.Redactor;
import io.herald.adapters.http.Texts;
import io.herald.adapters.http.UnclassifiedFailure;
import io.herald.adapters.port.ProviderAdapter;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.ReadBackOutcome;
import io.herald.adapters.port.ReadBackRequest;
import io.herald.contracts.publication.ProviderRef;
import io.herald.platform.wire.Forms;
import io.herald.platform.wire.Json;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Read-back on a Page: the posts in the attempt's window, from the feed ({@code since} the window's
 * start) and the Page's scheduled posts (a scheduled post is not in the feed until its time), and
 * a post's comments for a first comment, every page through Graph's own paging links. One post is
 * read by its id through {@link FacebookPostEditor}.
 */
final class FacebookFeedReader {

    static final Duration READ_BACK_MARGIN = Duration.ofMinutes(5);
    static final String FEED_FIELDS = "id,message,created_time,permalink_url,attachments{unshimmed_url}";

    private static final DateTimeFormatter CREATED_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssZ");

    private final ProviderHttp http;
    private final FacebookGraph graph;

    FacebookFeedReader(ProviderHttp http, FacebookGraph graph) {
        this.http = http;
        this.graph = graph;
    }

    /** Read-back (here), and one post read by its id (FacebookPostEditor). */
    static ProviderAdapter.FeedReader of(ProviderHttp http, FacebookGraph graph) {
        return new ProviderAdapter.FeedReader(new FacebookFeedReader(http, graph)::readBack,
                new FacebookPostEditor(http, graph)::read);
    }

    CompletableFuture<ReadBackOutcome> readBack(ReadBackRequest request) {
        return request.ofComment() ? comment(request) : post(request);
    }

    private CompletableFuture<ReadBackOutcome> post(ReadBackRequest request) {
        ChannelConnection connection = request.connection();
        String pageId = connection.settings(FacebookSettings.class).pageId();
        String token = FacebookGraph.readToken(connection);
        if (Texts.blank(token) || Texts.blank(pageId)) {
            return CompletableFuture.completedFuture(new ReadBackOutcome.Unavailable(
                    "No Page id or no Facebook token is stored for reading: store a Page access token."));
        }
        Instant windowStart = request.attemptStartedAt().minus(READ_BACK_MARGIN);
        Map<String, String> query = new LinkedHashMap<>();
        query.put("fields", FEED_FIELDS);
        query.put("since", Long.toString(windowStart.getEpochSecond()));
        query.put("limit", "100");
        String feed = graph.uri("/" + FacebookGraph.segment(pageId) + "/feed?" + Forms.encode(query)).toString();
        Map<String, String> scheduledQuery = new LinkedHashMap<>();
        scheduledQuery.put("fields", FEED_FIELDS);
        scheduledQuery.put("limit", "100");
        String scheduled = graph.uri("/" + FacebookGraph.segment(pageId) + "/scheduled_posts?"
                + Forms.encode(scheduledQuery)).toString();
        FeedWindow window = FeedWindow.posts("of the Page (feed and scheduled posts)", windowStart,
                http.clock().instant(), request.content().body(), request.content().link());
        boolean withPageToken = Texts.blank(connection.secrets(FacebookSecrets.class).readAccessToken());
        FeedWindow.Format posts = new FeedWindow.Format("data", FacebookFeedReader::post,
                (answered, body) -> readFailure(answered, body, withPageToken));
        String feedName = "the Page feed";
        String scheduledName = "the Page's scheduled posts";
        return UnclassifiedFailure.asReadBackOutcome(window
                .read(feedName, false, feed, pages(feedName, token, connection, posts))
                .thenCompose(ended -> ended.isPresent() ? CompletableFuture.completedFuture(ended.get())
                        : window.search(scheduledName, false, scheduled,
                                pages(scheduledName, token, connection, posts))),
                pageId, FacebookGraph.secretsOf(connection));
    }

    private CompletableFuture<ReadBackOutcome> comment(ReadBackRequest request) {
        ChannelConnection connection = request.connection();
        String token = FacebookGraph.readToken(connection);
        if (Texts.blank(token) || request.postRef() == null || Texts.blank(request.postRef().id())) {
            return CompletableFuture.completedFuture(new ReadBackOutcome.Unavailable(
                    "No Facebook token is stored for reading the post's comments, or the post is not known."));
        }
        String postId = request.postRef().id();
        String first = graph.uri("/" + FacebookGraph.segment(postId) + "/comments?"
                + Forms.encode(Map.of("fields", "id,message,created_time", "limit", "100"))).toString();
        FeedWindow.Format comments = new FeedWindow.Format("data",
                c -> new FeedWindow.Item(Json.text(c, "id"), null, Json.text(c, "message"), List.of(),
                        new ProviderRef(Json.text(c, "id"), null)),
                (answered, body) -> readFailure(answered, body, false));
        String what = "the post's comments";
        return UnclassifiedFailure.asReadBackOutcome(FeedWindow.comments(request.content().firstComment())
                        .search(what, false, first, pages(what, token, connection, comments)),
                postId, FacebookGraph.secretsOf(connection));
    }

    /** The pages of a Graph list, each after the paging link the one before gave; never to another host. */
    private FeedWindow.Pages<String> pages(String what, String token, ChannelConnection connection,
                                           FeedWindow.Format format) {
        return link -> {
            URI uri;
            try {
                uri = URI.create(link);
            } catch (IllegalArgumentException e) {
                return failed("Facebook gave an unusable paging link for " + what + ".");
            }
            if (!Origin.same(uri, graph.base())) {
                return failed("Facebook's paging link for " + what + " points to another host (" + uri.getHost()
                        + "); not followed.");
            }
            OutgoingRequest outgoing = new OutgoingRequest("GET", uri, FacebookGraph.bearer(token), null, null, null,
                    connection.settings(FacebookSettings.class).pageId(), FacebookGraph.secretsOf(connection));
            return http.send(outgoing).thenApply(exchange -> FeedWindow.page(exchange, what, format,
                    (body, items) -> {
                        String next = Json.text(body.path("paging"), "next");
                        return Texts.blank(next) ? null : next;
                    }));
        };
    }

    private static CompletableFuture<FeedWindow.Page<String>> failed(String reason) {
        return CompletableFuture.completedFuture(FeedWindow.Page.failed(new ReadBackOutcome.Unknown(reason)));
    }

    private static FeedWindow.Item post(JsonNode post) {
        List<String> links = new ArrayList<>();
        for (JsonNode attachment : post.path("attachments").path("data")) {
            String url = Json.text(attachment, "unshimmed_url");
            if (url != null) {
                links.add(url);
            }
        }
        String id = Json.text(post, "id");
        String url = Json.text(post, "permalink_url");
        return new FeedWindow.Item(id, parseCreated(Json.text(post, "created_time")), Json.text(post, "message"),
                links, new ProviderRef(id, url != null ? url : "https://www.facebook.com/" + id));
    }

    /** @param withPageToken the read used the Page token: its refusal is the connection's, not only the reader's */
    static ReadBackOutcome readFailure(Exchange.Answered answered, JsonNode body, boolean withPageToken) {
        FacebookError error = FacebookError.of(answered, body);
        if (error != null && error.authLost() && withPageToken) {
            return new ReadBackOutcome.AuthLost(error.providerCode(), error.readReason());
        }
        if (error != null && error.blocksReading()) {
            return new ReadBackOutcome.Unavailable(error.readReason());
        }
        String what = error != null ? "code " + error.code() + ": " + error.message()
                : "HTTP " + answered.status() + ": " + Redactor.excerpt(answered.body(), answered.request().secrets(), 200);
        return new ReadBackOutcome.Unknown("Facebook did not return the Page feed (" + what + ")");
    }

    static Instant parseCreated(String value) {
        if (value == null) {
            return null;
        }
        try {
            return OffsetDateTime.parse(value, CREATED_TIME).toInstant();
        } catch (DateTimeParseException e) {
            try {
                return OffsetDateTime.parse(value).toInstant();
            } catch (DateTimeParseException again) {
                return null;
            }
        }
    }
}
