package io.herald.adapters.linkedin;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.adapters.http.FeedWindow;
import io.herald.adapters.http.OutgoingRequest;
import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.http.Texts;
import io.herald.adapters.http.UnclassifiedFailure;
import io.herald.adapters.port.ProviderAdapter;
import io.herald.adapters.port.ReadBackOutcome;
import io.herald.adapters.port.ReadBackRequest;
import io.herald.contracts.publication.ProviderRef;
import io.herald.platform.wire.Forms;
import io.herald.platform.wire.Json;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * Read-back as the author: the author's posts newest first ({@code q=author}, by offset) until one
 * is older than the attempt's window, and a post's comments for a first comment (needs a read
 * scope). One post is read by its URN through {@link LinkedInPostEditor}.
 */
final class LinkedInFeedReader {

    static final Duration READ_BACK_MARGIN = Duration.ofMinutes(5);
    static final int PAGE_SIZE = 100;

    private final ProviderHttp http;
    private final LinkedInApi api;

    LinkedInFeedReader(ProviderHttp http, LinkedInApi api) {
        this.http = http;
        this.api = api;
    }

    /** Read-back (here), and one post read by its id (LinkedInPostEditor). */
    static ProviderAdapter.FeedReader of(ProviderHttp http, LinkedInApi api) {
        return new ProviderAdapter.FeedReader(new LinkedInFeedReader(http, api)::readBack,
                new LinkedInPostEditor(http, api)::read);
    }

    CompletableFuture<ReadBackOutcome> readBack(ReadBackRequest request) {
        return request.ofComment() ? comment(request) : post(request);
    }

    private CompletableFuture<ReadBackOutcome> post(ReadBackRequest request) {
        String token = request.connection().secrets(LinkedInSecrets.class).accessToken();
        String author = request.connection().settings(LinkedInSettings.class).authorUrn();
        if (Texts.blank(token)) {
            return CompletableFuture.completedFuture(
                    new ReadBackOutcome.Unavailable("No LinkedIn access token is stored."));
        }
        FeedWindow window = FeedWindow.posts("of the author", request.attemptStartedAt().minus(READ_BACK_MARGIN),
                http.clock().instant(), LinkedInApi.commentaryOf(request.content()), null);
        String what = "the author's posts";
        FeedWindow.Pages<Integer> posts = pages(what, token, author, start -> api.byAuthor(author, start, PAGE_SIZE),
                LinkedInFeedReader::post, (body, start, items) -> items < PAGE_SIZE ? null : start + items);
        return UnclassifiedFailure.asReadBackOutcome(window.search(what, true, 0, posts), author, List.of(token));
    }

    private CompletableFuture<ReadBackOutcome> comment(ReadBackRequest request) {
        String token = request.connection().secrets(LinkedInSecrets.class).accessToken();
        if (Texts.blank(token) || request.postRef() == null || Texts.blank(request.postRef().id())) {
            return CompletableFuture.completedFuture(new ReadBackOutcome.Unavailable(
                    "No LinkedIn access token is stored, or the post is not known."));
        }
        String path = "/rest/socialActions/" + Forms.enc(request.postRef().id()) + "/comments?start=";
        String what = "the post's comments";
        FeedWindow.Pages<Integer> comments = pages(what, token, request.connection().settings(LinkedInSettings.class).authorUrn(),
                start -> api.uri(path + start + "&count=" + PAGE_SIZE), LinkedInFeedReader::comment,
                LinkedInFeedReader::more);
        return UnclassifiedFailure.asReadBackOutcome(FeedWindow.comments(request.content().firstComment())
                .search(what, false, 0, comments), request.postRef().id(), List.of(token));
    }

    /** Where the page after this one starts, null when this was the last. */
    @FunctionalInterface
    private interface Next {
        Integer after(JsonNode body, int start, int items);
    }

    /** Comments page by {@code paging.total}: more while fewer than the total were read. */
    private static Integer more(JsonNode body, int start, int items) {
        int total = body.path("paging").path("total").asInt(-1);
        int read = start + items;
        return items > 0 && (total < 0 || read < total) ? read : null;
    }

    private FeedWindow.Pages<Integer> pages(String what, String token, String author, Function<Integer, URI> page,
                                            Function<JsonNode, FeedWindow.Item> item, Next next) {
        FeedWindow.Format format = new FeedWindow.Format("elements", item,
                (answered, body) -> LinkedInApi.readFailure(answered, body, author));
        return start -> http.send(new OutgoingRequest("GET", page.apply(start), api.headers(token), null, null, null,
                        author, List.of(token)))
                .thenApply(exchange -> FeedWindow.page(exchange, what, format,
                        (body, items) -> next.after(body, start, items)));
    }

    private static FeedWindow.Item post(JsonNode post) {
        String urn = Json.text(post, "id");
        long createdAt = post.path("createdAt").asLong(0);
        return new FeedWindow.Item(urn, createdAt > 0 ? Instant.ofEpochMilli(createdAt) : null,
                LittleText.unescape(Json.text(post, "commentary")), List.of(),
                new ProviderRef(urn, LinkedInApi.postUrl(urn)));
    }

    private static FeedWindow.Item comment(JsonNode comment) {
        String urn = Json.text(comment, "commentUrn");
        String id = urn != null ? urn : Json.text(comment, "id");
        return new FeedWindow.Item(id, null, Json.text(comment.path("message"), "text"), List.of(),
                new ProviderRef(id, null));
    }
}
