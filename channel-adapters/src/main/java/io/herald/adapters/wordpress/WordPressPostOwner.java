package io.herald.adapters.wordpress;

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
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether a post an operator names is the connection's: who the application password belongs to
 * ({@code GET users/me}), then the post in edit context ({@code GET posts/{id}?context=edit}). It
 * is the connection's when that user wrote it, or when it carries this publication's id in
 * {@value WordPressAdapter#META_KEY} (kept by the Herald mu-plugin). Another user's post, one in
 * the trash, or none is not.
 */
final class WordPressPostOwner {

    /** {@code ?p=42} (or {@code &p=42}): the one post URL form that names the id. */
    private static final Pattern QUERY_ID = Pattern.compile("[?&]p=(\\d{1,18})(?:&|$)");

    private final ProviderHttp http;

    WordPressPostOwner(ProviderHttp http) {
        this.http = http;
    }

    CompletableFuture<PostOwnership> read(PostOwnershipRequest request) {
        ChannelConnection connection = request.connection();
        String site = connection.settings(WordPressSettings.class).siteUrl();
        String id = postId(request.named());
        if (id == null) {
            return done(new PostOwnership.NotOwned("the reference names no WordPress post id; give the post's id"));
        }
        if (!WordPressRest.validSite(site) || Texts.blank(connection.secrets(WordPressSecrets.class).applicationPassword())) {
            return done(new PostOwnership.Unreadable(
                    "The connection has no valid site or application password: reconnect the site."));
        }
        List<String> secrets = WordPressRest.secretsOf(connection);
        Map<String, String> auth = WordPressRest.auth(connection);
        String publication = request.publicationId().value();
        return http.send(new OutgoingRequest("GET", WordPressRest.route(site, "users/me", Map.of()), auth, null,
                        null, null, site, secrets))
                .thenCompose(me -> {
                    if (!(me instanceof Exchange.Answered answered)) {
                        return done(new PostOwnership.Unknown("The site did not answer users/me"));
                    }
                    JsonNode user = Json.parse(answered.body());
                    if (answered.status() == 401 || answered.status() == 403) {
                        return done(new PostOwnership.Unreadable("WordPress rejected the application password"
                                + " (HTTP " + answered.status() + " on users/me): store a new one."));
                    }
                    if (answered.status() != 200 || !user.path("id").canConvertToLong()) {
                        return done(new PostOwnership.Unknown("WordPress did not say which user the application"
                                + " password belongs to (HTTP " + answered.status() + " on users/me)"));
                    }
                    long userId = user.path("id").asLong();
                    return http.send(new OutgoingRequest("GET", WordPressRest.route(site, "posts/" + id,
                                    Map.of("context", "edit")), auth, null, null, null, site, secrets))
                            .thenApply(post -> judge(post, id, userId, publication));
                })
                .exceptionally(failure -> new PostOwnership.Unknown("The post could not be read: "
                        + failure.getClass().getSimpleName()));
    }

    private static PostOwnership judge(Exchange exchange, String id, long userId, String publication) {
        if (!(exchange instanceof Exchange.Answered answered)) {
            return new PostOwnership.Unknown("WordPress did not answer the read of post " + id);
        }
        JsonNode body = Json.parse(answered.body());
        if (answered.status() == 200 && body.path("id").canConvertToLong()) {
            if ("trash".equals(Json.text(body, "status"))) {
                return new PostOwnership.NotOwned("post " + id + " is in the trash");
            }
            long author = body.path("author").asLong(-1);
            JsonNode meta = body.path("meta");
            boolean carriesPublication = meta.isObject()
                    && publication.equals(Json.text(meta, WordPressAdapter.META_KEY));
            if (author != userId && !carriesPublication) {
                return new PostOwnership.NotOwned("post " + id + " was written by user " + author
                        + ", not by the connection's user " + userId + ", and does not carry "
                        + WordPressAdapter.META_KEY + "=" + publication);
            }
            return new PostOwnership.Owned(new ProviderRef(body.path("id").asText(), Json.text(body, "link")),
                    "post " + id + " exists and " + (author == userId ? "was written by the connection's user "
                            + userId : "carries " + WordPressAdapter.META_KEY + "=" + publication));
        }
        if (answered.status() == 404 || answered.status() == 410) {
            return new PostOwnership.NotOwned("WordPress says post " + id + " does not exist");
        }
        if (answered.status() == 401) {
            return new PostOwnership.Unreadable("WordPress rejected the application password on the read of post "
                    + id + ": store a new one.");
        }
        if (answered.status() == 403) {
            return new PostOwnership.NotOwned("WordPress does not let the connection's user " + userId
                    + " edit post " + id + ": it is another user's post");
        }
        return new PostOwnership.Unknown("WordPress did not return post " + id + " (HTTP " + answered.status() + ")");
    }

    /** The id given, or the one a {@code ?p=} URL names. */
    private static String postId(ProviderRef named) {
        if (named == null) {
            return null;
        }
        if (!Texts.blank(named.id())) {
            return named.id().strip().matches("\\d{1,18}") ? named.id().strip() : null;
        }
        if (named.url() == null) {
            return null;
        }
        Matcher matcher = QUERY_ID.matcher(named.url());
        return matcher.find() ? matcher.group(1) : null;
    }

    private static CompletableFuture<PostOwnership> done(PostOwnership ownership) {
        return CompletableFuture.completedFuture(ownership);
    }
}
