package io.herald.adapters.facebook;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.adapters.http.Exchange;
import io.herald.adapters.http.OutgoingRequest;
import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.http.Texts;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.PostOwnership;
import io.herald.adapters.port.PostOwnershipRequest;
import io.herald.contracts.publication.ProviderRef;
import io.herald.platform.wire.Json;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether a post an operator names is the connected Page's: a Page post's id is
 * {@code {page-id}_{post-id}}, and {@code GET /{post-id}?fields=id,from} with the connection's read
 * token shows it and its author ({@code from}). A post of another Page is refused from its id
 * alone, before any call.
 */
final class FacebookPostOwner {

    /** {@code facebook.com/{page-id}/posts/{post-id}}, {@code facebook.com/{page-id}_{post-id}}. */
    private static final Pattern PATH_ID = Pattern.compile("facebook\\.com/(\\d+)(?:/posts/|_)(\\d+)");
    /** {@code permalink.php?story_fbid={post-id}&id={page-id}}. */
    private static final Pattern STORY_ID = Pattern.compile("story_fbid=(\\d+)&id=(\\d+)");

    private final ProviderHttp http;
    private final FacebookGraph graph;

    FacebookPostOwner(ProviderHttp http, FacebookGraph graph) {
        this.http = http;
        this.graph = graph;
    }

    CompletableFuture<PostOwnership> read(PostOwnershipRequest request) {
        ChannelConnection connection = request.connection();
        String pageId = connection.settings(FacebookSettings.class).pageId();
        String postId = postId(request.named());
        if (postId == null) {
            return done(new PostOwnership.NotOwned("the reference names no Facebook post id; give the post's id"
                    + " ({page-id}_{post-id})"));
        }
        int underscore = postId.indexOf('_');
        if (underscore > 0 && !postId.substring(0, underscore).equals(pageId)) {
            return done(new PostOwnership.NotOwned("post " + postId + " is a post of Page "
                    + postId.substring(0, underscore) + ", not of the connection's Page " + pageId));
        }
        String token = FacebookGraph.readToken(connection);
        if (Texts.blank(token)) {
            return done(new PostOwnership.Unreadable("No Facebook token is stored for reading: store a Page access"
                    + " token."));
        }
        OutgoingRequest outgoing = new OutgoingRequest("GET",
                graph.uri("/" + FacebookGraph.segment(postId) + "?fields=id,from,permalink_url"),
                FacebookGraph.bearer(token), null, null, null, postId, FacebookGraph.secretsOf(connection));
        return http.send(outgoing).thenApply(exchange -> judge(exchange, postId, pageId, request.named()))
                .exceptionally(failure -> new PostOwnership.Unknown("The post could not be read: "
                        + failure.getClass().getSimpleName()));
    }

    private static PostOwnership judge(Exchange exchange, String postId, String pageId, ProviderRef named) {
        if (!(exchange instanceof Exchange.Answered answered)) {
            return new PostOwnership.Unknown("Facebook did not answer the read of post " + postId);
        }
        JsonNode body = Json.parse(answered.body());
        String id = Json.text(body, "id");
        if (answered.status() == 200 && !Texts.blank(id)) {
            String from = Json.text(body.path("from"), "id");
            String prefix = id.indexOf('_') > 0 ? id.substring(0, id.indexOf('_')) : null;
            if ((from != null && !from.equals(pageId)) || (from == null && !pageId.equals(prefix))) {
                return new PostOwnership.NotOwned("post " + id + " was posted by " + (from != null ? from : prefix)
                        + ", not by the connection's Page " + pageId);
            }
            String url = Json.text(body, "permalink_url");
            return new PostOwnership.Owned(new ProviderRef(id, url != null ? url : named.url()),
                    "post " + id + " exists and was posted by the connection's Page " + pageId);
        }
        FacebookError error = FacebookError.of(answered, body);
        if (error != null && error.code() == 100 && Integer.valueOf(33).equals(error.subcode())) {
            return new PostOwnership.NotOwned("Facebook says post " + postId + " does not exist");
        }
        if (error != null && (error.code() == 190 || error.needsPageToken())) {
            return new PostOwnership.Unreadable(error.readReason());
        }
        if (error != null && error.isPermission()) {
            return new PostOwnership.NotOwned("Facebook does not let the connection's Page " + pageId
                    + " read post " + postId + " (code " + error.code() + "): it is not the Page's post");
        }
        return new PostOwnership.Unknown("Facebook did not return post " + postId + " (HTTP " + answered.status()
                + (error != null ? ", code " + error.code() : "") + ")");
    }

    /** The id given, or the one a post URL names. */
    private static String postId(ProviderRef named) {
        if (named == null) {
            return null;
        }
        if (!Texts.blank(named.id())) {
            return named.id().strip();
        }
        if (named.url() == null) {
            return null;
        }
        Matcher path = PATH_ID.matcher(named.url());
        if (path.find()) {
            return path.group(1) + "_" + path.group(2);
        }
        Matcher story = STORY_ID.matcher(named.url());
        return story.find() ? story.group(2) + "_" + story.group(1) : null;
    }

    private static CompletableFuture<PostOwnership> done(PostOwnership ownership) {
        return CompletableFuture.completedFuture(ownership);
    }
}
