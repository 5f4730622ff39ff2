package io.herald.adapters.wordpress;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.adapters.http.Exchange;
import io.herald.adapters.http.OutgoingRequest;
import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.http.Texts;
import io.herald.adapters.http.UnclassifiedFailure;
import io.herald.adapters.port.ProviderAdapter;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.ReadBackOutcome;
import io.herald.adapters.port.ReadBackRequest;
import io.herald.contracts.publication.ProviderRef;
import io.herald.platform.wire.Json;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Read-back on a site: no window to search, the post is found by the publication id in its meta
 * ({@value WordPressAdapter#META_KEY}, which the Herald mu-plugin keeps and lets a client filter
 * by), among the posts of the connection's own user in every status. One post is read by its id
 * through {@link WordPressPostEditor}.
 */
final class WordPressFeedReader {

    static final String READ_STATUSES = "draft,publish,future,pending,private";

    private final ProviderHttp http;

    WordPressFeedReader(ProviderHttp http) {
        this.http = http;
    }

    /** Read-back (here), and one post read by its id (WordPressPostEditor). */
    static ProviderAdapter.FeedReader of(ProviderHttp http) {
        return new ProviderAdapter.FeedReader(new WordPressFeedReader(http)::readBack,
                new WordPressPostEditor(http)::read);
    }

    CompletableFuture<ReadBackOutcome> readBack(ReadBackRequest request) {
        ChannelConnection connection = request.connection();
        String site = connection.settings(WordPressSettings.class).siteUrl();
        if (!WordPressRest.validSite(site) || Texts.blank(connection.secrets(WordPressSecrets.class).applicationPassword())) {
            return CompletableFuture.completedFuture(new ReadBackOutcome.Unavailable(
                    "No valid site URL or no application password is stored for the site."));
        }
        String id = request.publicationId().value();
        List<String> secrets = WordPressRest.secretsOf(connection);
        Map<String, String> auth = WordPressRest.auth(connection);
        String workspace = WordPressRest.workspace(connection);
        CompletableFuture<ReadBackOutcome> outcome = http.send(new OutgoingRequest("GET",
                        WordPressRest.route(site, "users/me", Map.of()), auth, null, null, null, site, secrets)
                        .forWorkspace(workspace))
                .thenCompose(me -> {
                    User user = user(me);
                    if (user.unknownBecause() != null) {
                        return CompletableFuture.completedFuture(user.unknownBecause());
                    }
                    URI uri = WordPressRest.route(site, "posts", Map.of(WordPressAdapter.META_KEY, id,
                            "status", READ_STATUSES, "context", "edit", "per_page", "100"));
                    return http.send(new OutgoingRequest("GET", uri, auth, null, null, null, site, secrets)
                                    .forWorkspace(workspace))
                            .thenApply(exchange -> classify(exchange, id, user.id()));
                });
        return UnclassifiedFailure.asReadBackOutcome(outcome, site, secrets);
    }

    /** The connection's own user, or why it cannot be known (then the read-back's outcome). */
    private record User(long id, ReadBackOutcome unknownBecause) {
        static User because(ReadBackOutcome outcome) {
            return new User(0, outcome);
        }
    }

    /**
     * Who the application password belongs to ({@code GET users/me}): only posts this user wrote
     * are believed, since any other user of the site could put a publication id into a post's meta.
     */
    private static User user(Exchange exchange) {
        if (exchange instanceof Exchange.Unanswered unanswered) {
            return User.because(new ReadBackOutcome.Unknown("The site could not be read: " + unanswered.detail()));
        }
        Exchange.Answered answered = (Exchange.Answered) exchange;
        JsonNode body = Json.parse(answered.body());
        if (answered.status() == 401) {
            String code = Json.text(body, "code");
            return User.because(new ReadBackOutcome.AuthLost(code != null ? code : "http_401",
                    "WordPress rejected the application password (" + WordPressRest.errorMessage(answered, body, 200)
                            + "). Fix: create a new application password for the user and store it."));
        }
        JsonNode id = body.path("id");
        if (answered.status() != 200 || !id.canConvertToLong() || id.asLong() <= 0) {
            return User.because(new ReadBackOutcome.Unknown("WordPress did not say which user the application "
                    + "password belongs to (HTTP " + answered.status() + " on users/me): "
                    + WordPressRest.errorMessage(answered, body, 200)));
        }
        return new User(id.asLong(), null);
    }

    private static ReadBackOutcome classify(Exchange exchange, String id, long userId) {
        if (exchange instanceof Exchange.Unanswered unanswered) {
            return new ReadBackOutcome.Unknown("The site could not be read: " + unanswered.detail());
        }
        Exchange.Answered answered = (Exchange.Answered) exchange;
        JsonNode body = Json.parse(answered.body());
        String message = WordPressRest.errorMessage(answered, body, 200);
        if (answered.status() == 401) {
            return new ReadBackOutcome.Unavailable("WordPress rejected the application password (" + message + ").");
        }
        if (answered.status() == 400 && "rest_invalid_param".equals(Json.text(body, "code"))) {
            return new ReadBackOutcome.Unavailable("WordPress refused to list drafts for this user (" + message
                    + "): check the application password and that the user can edit posts.");
        }
        if (answered.status() != 200 || !body.isArray()) {
            return new ReadBackOutcome.Unknown("WordPress did not return the post list (HTTP " + answered.status()
                    + "): " + message);
        }
        String key = WordPressAdapter.META_KEY;
        List<JsonNode> matches = new ArrayList<>();
        int byOthers = 0;
        for (JsonNode post : body) {
            JsonNode meta = post.path("meta");
            if (!meta.isObject() || !meta.has(key)) {
                return new ReadBackOutcome.Unavailable("the site does not expose Herald's meta key: "
                        + WordPressRest.MU_PLUGIN_HINT);
            }
            if (!id.equals(Json.text(meta, key))) {
                return new ReadBackOutcome.Unavailable("the site ignored the " + key + " filter: "
                        + WordPressRest.MU_PLUGIN_HINT);
            }
            if (post.path("author").asLong(-1) == userId) {
                matches.add(post);
            } else {
                byOthers++;
            }
        }
        String others = byOthers == 0 ? "" : " " + byOthers + " post(s) by other users of the site carry it and "
                + "were not believed.";
        if (matches.size() == 1) {
            JsonNode post = matches.get(0);
            return new ReadBackOutcome.Found(new ProviderRef(post.path("id").asText(), Json.text(post, "link")),
                    "Post " + post.path("id").asText() + " (" + Json.text(post, "status") + ") by the connection's "
                            + "user carries " + key + "=" + id + "." + others);
        }
        if (matches.isEmpty()) {
            return new ReadBackOutcome.NotFound("No post of the connection's user carries " + key + "=" + id
                    + " (statuses " + READ_STATUSES + ")." + others);
        }
        return new ReadBackOutcome.Unknown(matches.size() + " posts carry " + key + "=" + id + ": "
                + matches.stream().map(p -> p.path("id").asText()).toList());
    }
}
