package io.herald.adapters.wordpress;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.adapters.http.Exchange;
import io.herald.adapters.http.Fingerprints;
import io.herald.platform.wire.Json;
import io.herald.adapters.http.OutgoingRequest;
import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.http.UnclassifiedFailure;
import io.herald.adapters.http.Texts;
import io.herald.adapters.http.Traces;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.PostChangeRequest;
import io.herald.adapters.port.PostReadRequest;
import io.herald.adapters.port.PostReading;
import io.herald.adapters.port.PublishOutcome;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.UnknownCause;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Updates, deletes (to the trash) and reads one post by its id. For Herald a trashed post is
 * deleted: WordPress's 410 {@code rest_already_trashed} and 404 {@code rest_post_invalid_id} end a
 * delete, and a read that shows status {@code trash} means the post is gone.
 */
final class WordPressPostEditor {

    private final ProviderHttp http;

    WordPressPostEditor(ProviderHttp http) {
        this.http = http;
    }

    /** The post's text as a create writes it: the body, then a link on its own line (WordPress embeds or links it). */
    static String text(Content content) {
        String text = content.body() == null ? "" : content.body();
        if (!Texts.blank(content.link())) {
            text = text.isBlank() ? content.link() : text + "\n\n" + content.link();
        }
        return text;
    }

    CompletableFuture<PublishOutcome> edit(PostChangeRequest request) {
        ObjectNode body = Json.object();
        body.put("title", request.content().title() == null ? "" : request.content().title());
        body.put("content", text(request.content()));
        return change(request, "POST", body);
    }

    CompletableFuture<PublishOutcome> delete(PostChangeRequest request) {
        return change(request, "DELETE", null);
    }

    private CompletableFuture<PublishOutcome> change(PostChangeRequest request, String method, ObjectNode body) {
        ChannelConnection connection = request.connection();
        String site = connection.settings(WordPressSettings.class).siteUrl();
        String id = request.target().id();
        String path = "/wp/v2/posts/" + id;
        String fingerprint = body == null ? Fingerprints.ofParams(method, path, Map.of())
                : Fingerprints.ofJson(method, path, body);
        if (!WordPressRest.validSite(site) || Texts.blank(connection.settings(WordPressSettings.class).username())
                || Texts.blank(connection.secrets(WordPressSecrets.class).applicationPassword()) || id == null || !id.matches("\\d{1,18}")) {
            return CompletableFuture.completedFuture(new PublishOutcome.Failed(FailureKind.REJECTED,
                    "missing_credentials", "The connection has no valid site, user name or application password,"
                    + " or the post has no numeric id. Fix: reconnect the site.", null,
                    Traces.notCalled(fingerprint, site)));
        }
        OutgoingRequest outgoing = new OutgoingRequest(method, WordPressRest.route(site, "posts/" + id, Map.of()),
                WordPressRest.auth(connection), body == null ? null : Json.write(body),
                body == null ? null : "application/json", fingerprint, site, WordPressRest.secretsOf(connection))
                .forWorkspace(WordPressRest.workspace(connection));
        boolean deleting = body == null;
        return UnclassifiedFailure.asPublishOutcome(http.send(outgoing)
                        .thenApply(exchange -> classify(exchange, request, deleting)),
                fingerprint, site, http.clock().instant(), outgoing.secrets());
    }

    private PublishOutcome classify(Exchange exchange, PostChangeRequest request, boolean deleting) {
        if (exchange instanceof Exchange.Answered answered) {
            JsonNode body = Json.parse(answered.body());
            String code = answered.success() ? null : Json.text(body, "code");
            var trace = Traces.of(exchange, code, answered.header("x-request-id").orElse(null));
            if (answered.success() && body.path("id").canConvertToLong()) {
                String link = Json.text(body, "link");
                return new PublishOutcome.Published(link == null || deleting ? request.target()
                        : new ProviderRef(request.target().id(), link), null, trace);
            }
            if (deleting && (answered.status() == 410 || answered.status() == 404)) {
                return new PublishOutcome.Published(request.target(), null, trace);
            }
            if (answered.success()) {
                return new PublishOutcome.OutcomeUnknown(UnknownCause.UNPARSABLE_RESPONSE,
                        "WordPress answered HTTP " + answered.status() + " without the post; the change may have"
                                + " been made.", trace);
            }
        }
        return WordPressOutcome.of(exchange, request.publicationId().value(), http.clock());
    }

    CompletableFuture<PostReading> read(PostReadRequest request) {
        ChannelConnection connection = request.connection();
        String site = connection.settings(WordPressSettings.class).siteUrl();
        String id = request.target().id();
        if (!WordPressRest.validSite(site) || Texts.blank(connection.secrets(WordPressSecrets.class).applicationPassword())
                || id == null || !id.matches("\\d{1,18}")) {
            return CompletableFuture.completedFuture(new PostReading.Unavailable(
                    "The connection has no valid site or application password: reconnect the site."));
        }
        OutgoingRequest outgoing = new OutgoingRequest("GET",
                WordPressRest.route(site, "posts/" + id, Map.of("context", "edit")),
                WordPressRest.auth(connection), null, null, null, site, WordPressRest.secretsOf(connection))
                .forWorkspace(WordPressRest.workspace(connection));
        return http.send(outgoing).thenApply(exchange -> reading(exchange, request))
                .exceptionally(failure -> new PostReading.Unknown("The post could not be read: "
                        + failure.getClass().getSimpleName()));
    }

    private static PostReading reading(Exchange exchange, PostReadRequest request) {
        String id = request.target().id();
        if (!(exchange instanceof Exchange.Answered answered)) {
            return new PostReading.Unknown("WordPress did not answer the read of post " + id);
        }
        JsonNode body = Json.parse(answered.body());
        if (answered.status() == 200 && body.path("id").canConvertToLong()) {
            if ("trash".equals(Json.text(body, "status"))) {
                return new PostReading.Gone("post " + id + " is in the trash");
            }
            Content wanted = request.wanted();
            boolean asWanted = wanted != null
                    && Texts.normalise(Json.text(body.path("content"), "raw")).equals(Texts.normalise(text(wanted)))
                    && Texts.normalise(Json.text(body.path("title"), "raw")).equals(Texts.normalise(wanted.title()));
            return new PostReading.Present(asWanted, "post " + id + (asWanted ? " has" : " does not have")
                    + " the wanted title and content");
        }
        if (answered.status() == 404 || answered.status() == 410) {
            return new PostReading.Gone("WordPress says post " + id + " does not exist");
        }
        if (answered.status() == 401 || answered.status() == 403) {
            return new PostReading.Unavailable("WordPress did not let the user read post " + id
                    + " in edit context: check the user name and application password.");
        }
        return new PostReading.Unknown("WordPress did not return post " + id + " (HTTP " + answered.status() + ")");
    }

}
