package io.herald.adapters.facebook;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.adapters.http.Exchange;
import io.herald.adapters.http.Fingerprints;
import io.herald.platform.wire.Forms;
import io.herald.platform.wire.Json;
import io.herald.adapters.http.OutgoingRequest;
import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.http.Redactor;
import io.herald.adapters.http.UnclassifiedFailure;
import io.herald.adapters.http.Texts;
import io.herald.adapters.http.Traces;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.PostChangeRequest;
import io.herald.adapters.port.PostReadRequest;
import io.herald.adapters.port.PostReading;
import io.herald.adapters.port.PublishOutcome;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.UnknownCause;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Edits, deletes and reads one Page post by its id ({@code POST|DELETE|GET /{post-id}}). Errors
 * classify as a create's do; Facebook's "does not exist" (code 100, subcode 33) ends a delete.
 */
final class FacebookPostEditor {

    private final ProviderHttp http;
    private final FacebookGraph graph;

    FacebookPostEditor(ProviderHttp http, FacebookGraph graph) {
        this.http = http;
        this.graph = graph;
    }

    CompletableFuture<PublishOutcome> edit(PostChangeRequest request) {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("message", request.content().body() == null ? "" : request.content().body());
        return change(request, "POST", form);
    }

    CompletableFuture<PublishOutcome> delete(PostChangeRequest request) {
        return change(request, "DELETE", Map.of());
    }

    private CompletableFuture<PublishOutcome> change(PostChangeRequest request, String method, Map<String, String> form) {
        ChannelConnection connection = request.connection();
        String postId = request.target().id();
        String token = connection.secrets(FacebookSecrets.class).pageAccessToken();
        String path = "/" + FacebookGraph.segment(postId);
        String fingerprint = Fingerprints.ofParams(method, path, form);
        if (Texts.blank(postId) || Texts.blank(token)) {
            return CompletableFuture.completedFuture(new PublishOutcome.Failed(FailureKind.REJECTED,
                    "missing_page_token", "The connection has no Page access token, or the post has no id.", null,
                    Traces.notCalled(fingerprint, postId)));
        }
        OutgoingRequest outgoing = new OutgoingRequest(method, graph.uri(path), FacebookGraph.bearer(token),
                form.isEmpty() ? null : Forms.encode(form), form.isEmpty() ? null : "application/x-www-form-urlencoded",
                fingerprint, postId, FacebookGraph.secretsOf(connection));
        boolean deleting = "DELETE".equals(method);
        return UnclassifiedFailure.asPublishOutcome(http.send(outgoing)
                        .thenApply(exchange -> classify(exchange, request, deleting)),
                fingerprint, postId, http.clock().instant(), outgoing.secrets());
    }

    private PublishOutcome classify(Exchange exchange, PostChangeRequest request, boolean deleting) {
        if (exchange instanceof Exchange.Answered answered) {
            JsonNode body = Json.parse(answered.body());
            FacebookError error = FacebookError.of(answered, body);
            var trace = Traces.of(exchange, error == null ? null : error.codeText(),
                    FacebookGraph.traceId(answered, body));
            if (answered.success() && body.path("success").asBoolean(false)) {
                return new PublishOutcome.Published(request.target(), null, trace);
            }
            if (deleting && error != null && isGone(error)) {
                return new PublishOutcome.Published(request.target(), null, trace);
            }
        }
        PublishOutcome outcome = FacebookOutcome.of(exchange, http.clock());
        if (outcome instanceof PublishOutcome.Published || outcome instanceof PublishOutcome.DuplicateRefused) {
            // an edit or delete answers {"success":true}; anything else that looks like success proves nothing
            return new PublishOutcome.OutcomeUnknown(UnknownCause.UNPARSABLE_RESPONSE,
                    "Facebook answered without {\"success\":true}; the change may have been made.", outcome.trace());
        }
        return outcome;
    }

    CompletableFuture<PostReading> read(PostReadRequest request) {
        ChannelConnection connection = request.connection();
        String postId = request.target().id();
        String token = FacebookGraph.readToken(connection);
        if (Texts.blank(token) || Texts.blank(postId)) {
            return CompletableFuture.completedFuture(new PostReading.Unavailable(
                    "No Facebook token is stored for reading: store a Page access token."));
        }
        OutgoingRequest outgoing = new OutgoingRequest("GET",
                graph.uri("/" + FacebookGraph.segment(postId) + "?fields=id,message"), FacebookGraph.bearer(token),
                null, null, null, postId, FacebookGraph.secretsOf(connection));
        return http.send(outgoing).thenApply(exchange -> reading(exchange, request))
                .exceptionally(failure -> new PostReading.Unknown("The post could not be read: " + failure.getClass()
                        .getSimpleName()));
    }

    private static PostReading reading(Exchange exchange, PostReadRequest request) {
        if (!(exchange instanceof Exchange.Answered answered)) {
            return new PostReading.Unknown("Facebook did not answer the read of post " + request.target().id());
        }
        JsonNode body = Json.parse(answered.body());
        if (answered.status() == 200 && !Texts.blank(Json.text(body, "id"))) {
            String message = Json.text(body, "message");
            boolean asWanted = request.wanted() != null
                    && Texts.normalise(message).equals(Texts.normalise(request.wanted().body()));
            return new PostReading.Present(asWanted, "post " + request.target().id() + " reads \""
                    + Redactor.excerpt(message, answered.request().secrets(), 120) + "\"");
        }
        FacebookError error = FacebookError.of(answered, body);
        if (error != null && isGone(error)) {
            return new PostReading.Gone("Facebook says post " + request.target().id() + " does not exist");
        }
        if (error != null && error.blocksReading()) {
            return new PostReading.Unavailable(error.readReason());
        }
        return new PostReading.Unknown("Facebook did not return post " + request.target().id() + " (HTTP "
                + answered.status() + (error != null ? ", code " + error.code() : "") + ")");
    }

    /** {@code GraphMethodException} code 100, subcode 33: "Object with ID '…' does not exist". */
    private static boolean isGone(FacebookError error) {
        return error.code() == 100 && Integer.valueOf(33).equals(error.subcode());
    }
}
