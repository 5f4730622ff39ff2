package io.herald.adapters.linkedin;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.adapters.http.Exchange;
import io.herald.adapters.http.OutgoingRequest;
import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.http.Redactor;
import io.herald.adapters.http.Texts;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.PostOwnership;
import io.herald.adapters.port.PostOwnershipRequest;
import io.herald.contracts.publication.ProviderRef;
import io.herald.platform.wire.Forms;
import io.herald.platform.wire.Json;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether a post an operator names is the connected author's: {@code GET /rest/posts/{urn}} with
 * the connection's token shows its {@code author}. Reading needs {@code r_member_social} (or
 * {@code r_organization_social} for a Page); a token granted without it cannot check anything,
 * and one granted with it that LinkedIn still refuses is asking for another author's post.
 */
final class LinkedInPostOwner {

    private static final Pattern URN = Pattern.compile("urn:li:(?:share|ugcPost|activity):\\d+");

    private final ProviderHttp http;
    private final LinkedInApi api;

    LinkedInPostOwner(ProviderHttp http, LinkedInApi api) {
        this.http = http;
        this.api = api;
    }

    CompletableFuture<PostOwnership> read(PostOwnershipRequest request) {
        ChannelConnection connection = request.connection();
        String author = connection.settings(LinkedInSettings.class).authorUrn();
        String urn = urn(request.named());
        if (urn == null) {
            return done(new PostOwnership.NotOwned("the reference names no LinkedIn post (urn:li:share:… or"
                    + " urn:li:ugcPost:…)"));
        }
        String token = connection.secrets(LinkedInSecrets.class).accessToken();
        if (Texts.blank(token)) {
            return done(new PostOwnership.Unreadable("No LinkedIn access token is stored: reconnect LinkedIn."));
        }
        boolean readGranted = readScopeGranted(connection);
        if (!readGranted && connection.settings(LinkedInSettings.class).scopes() != null && !connection.settings(LinkedInSettings.class).scopes().isEmpty()) {
            return done(new PostOwnership.Unreadable(LinkedInApi.missingReadScope(author,
                    "the token was granted without it")));
        }
        OutgoingRequest outgoing = new OutgoingRequest("GET", api.uri("/rest/posts/" + encoded(urn)),
                api.headers(token), null, null, null, urn, List.of(token));
        return http.send(outgoing).thenApply(exchange -> judge(exchange, urn, author, readGranted))
                .exceptionally(failure -> new PostOwnership.Unknown("The post could not be read: "
                        + failure.getClass().getSimpleName()));
    }

    private static PostOwnership judge(Exchange exchange, String urn, String author, boolean readGranted) {
        if (!(exchange instanceof Exchange.Answered answered)) {
            return new PostOwnership.Unknown("LinkedIn did not answer the read of " + urn);
        }
        JsonNode body = Json.parse(answered.body());
        if (answered.status() == 200) {
            String postAuthor = Json.text(body, "author");
            if (author == null || !author.equals(postAuthor)) {
                return new PostOwnership.NotOwned(urn + " was written by " + postAuthor
                        + ", not by the connection's author " + author);
            }
            String id = Texts.blank(Json.text(body, "id")) ? urn : Json.text(body, "id");
            return new PostOwnership.Owned(new ProviderRef(id, LinkedInApi.postUrl(id)),
                    id + " exists and was written by the connection's author " + author);
        }
        if (answered.status() == 404) {
            return new PostOwnership.NotOwned("LinkedIn says " + urn + " does not exist");
        }
        String message = Redactor.excerpt(Json.text(body, "message"), answered.request().secrets(), 200);
        if (answered.status() == 403 && readGranted) {
            return new PostOwnership.NotOwned("LinkedIn does not let the connection's author " + author + " read "
                    + urn + " (" + message + "): it is not the author's post");
        }
        if (answered.status() == 403) {
            return new PostOwnership.Unreadable(LinkedInApi.missingReadScope(author, message));
        }
        if (answered.status() == 401) {
            return new PostOwnership.Unreadable("LinkedIn rejected the access token (" + message
                    + "). Reconnect LinkedIn and store a new token.");
        }
        return new PostOwnership.Unknown("LinkedIn did not return " + urn + " (HTTP " + answered.status() + "): "
                + message);
    }

    private static boolean readScopeGranted(ChannelConnection connection) {
        List<String> scopes = connection.settings(LinkedInSettings.class).scopes();
        String scope = LinkedInApi.isOrganization(connection.settings(LinkedInSettings.class).authorUrn()) ? "r_organization_social"
                : "r_member_social";
        return scopes != null && scopes.contains(scope);
    }

    /** The URN given, or the one a post URL names ({@code linkedin.com/feed/update/urn:li:share:…}). */
    private static String urn(ProviderRef named) {
        if (named == null) {
            return null;
        }
        String text = !Texts.blank(named.id()) ? named.id().strip() : named.url();
        if (text == null) {
            return null;
        }
        Matcher matcher = URN.matcher(text);
        if (!Texts.blank(named.id())) {
            return matcher.matches() ? text : null;
        }
        return matcher.find() ? matcher.group() : null;
    }

    private static String encoded(String urn) {
        return Forms.enc(urn).replace("+", "%20");
    }

    private static CompletableFuture<PostOwnership> done(PostOwnership ownership) {
        return CompletableFuture.completedFuture(ownership);
    }
}
