package io.herald.adapters.linkedin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import io.herald.adapters.port.PostChangeRequest;
import io.herald.adapters.port.PostReadRequest;
import io.herald.adapters.port.PostReading;
import io.herald.adapters.port.PublishOutcome;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.UnknownCause;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Edits ({@code PARTIAL_UPDATE} of the commentary), deletes and reads one post by its URN. A
 * delete answers 204 even for a post already deleted, and a 404 means the post is gone: both done.
 */
final class LinkedInPostEditor {

    private final ProviderHttp http;
    private final LinkedInApi api;

    LinkedInPostEditor(ProviderHttp http, LinkedInApi api) {
        this.http = http;
        this.api = api;
    }

    CompletableFuture<PublishOutcome> edit(PostChangeRequest request) {
        ObjectNode body = Json.object();
        body.putObject("patch").putObject("$set")
                .put("commentary", LittleText.escape(LinkedInApi.commentaryOf(request.content())));
        return change(request, "POST", body);
    }

    CompletableFuture<PublishOutcome> delete(PostChangeRequest request) {
        return change(request, "DELETE", null);
    }

    private CompletableFuture<PublishOutcome> change(PostChangeRequest request, String method, ObjectNode body) {
        String urn = request.target().id();
        String token = request.connection().secrets(LinkedInSecrets.class).accessToken();
        String path = "/rest/posts/" + encoded(urn);
        String fingerprint = body == null ? Fingerprints.ofParams(method, path, Map.of())
                : Fingerprints.ofJson(method, path, body);
        if (Texts.blank(urn) || Texts.blank(token)) {
            return CompletableFuture.completedFuture(new PublishOutcome.Failed(FailureKind.REJECTED,
                    "missing_credentials", "The connection has no access token, or the post has no URN.", null,
                    Traces.notCalled(fingerprint, urn)));
        }
        Map<String, String> headers = api.headers(token);
        if (body != null) {
            headers.put("X-RestLi-Method", "PARTIAL_UPDATE");
        }
        OutgoingRequest outgoing = new OutgoingRequest(method, api.uri(path), headers,
                body == null ? null : Json.write(body), body == null ? null : "application/json", fingerprint, urn,
                List.of(token));
        boolean deleting = body == null;
        return UnclassifiedFailure.asPublishOutcome(http.send(outgoing)
                        .thenApply(exchange -> classify(exchange, request, deleting)),
                fingerprint, urn, http.clock().instant(), outgoing.secrets());
    }

    private PublishOutcome classify(Exchange exchange, PostChangeRequest request, boolean deleting) {
        if (exchange instanceof Exchange.Answered answered
                && (answered.success() || (deleting && answered.status() == 404))) {
            return new PublishOutcome.Published(request.target(), null,
                    Traces.of(exchange, LinkedInApi.errorCode(Json.parse(answered.body())),
                            LinkedInApi.traceId(answered)));
        }
        PublishOutcome outcome = LinkedInOutcome.of(exchange, http.clock(), api.version());
        if (outcome instanceof PublishOutcome.DuplicateRefused duplicate) {
            return new PublishOutcome.Failed(FailureKind.REJECTED, "DUPLICATE_POST", duplicate.detail(), null,
                    duplicate.trace());
        }
        if (outcome instanceof PublishOutcome.Published published) {
            return new PublishOutcome.OutcomeUnknown(UnknownCause.UNPARSABLE_RESPONSE,
                    "LinkedIn's answer could not be read; the change may have been made.", published.trace());
        }
        return outcome;
    }

    CompletableFuture<PostReading> read(PostReadRequest request) {
        String urn = request.target().id();
        String token = request.connection().secrets(LinkedInSecrets.class).accessToken();
        if (Texts.blank(token) || Texts.blank(urn)) {
            return CompletableFuture.completedFuture(new PostReading.Unavailable(
                    "No LinkedIn access token is stored: reconnect LinkedIn."));
        }
        OutgoingRequest outgoing = new OutgoingRequest("GET", api.uri("/rest/posts/" + encoded(urn)),
                api.headers(token), null, null, null, urn, List.of(token));
        return http.send(outgoing).thenApply(exchange -> reading(exchange, request))
                .exceptionally(failure -> new PostReading.Unknown("The post could not be read: "
                        + failure.getClass().getSimpleName()));
    }

    private static PostReading reading(Exchange exchange, PostReadRequest request) {
        String urn = request.target().id();
        if (!(exchange instanceof Exchange.Answered answered)) {
            return new PostReading.Unknown("LinkedIn did not answer the read of " + urn);
        }
        JsonNode body = Json.parse(answered.body());
        if (answered.status() == 200) {
            String commentary = LittleText.unescape(Json.text(body, "commentary"));
            boolean asWanted = request.wanted() != null && Texts.normalise(commentary)
                    .equals(Texts.normalise(LinkedInApi.commentaryOf(request.wanted())));
            return new PostReading.Present(asWanted, "post " + urn + " reads \""
                    + Redactor.excerpt(commentary, answered.request().secrets(), 120) + "\"");
        }
        if (answered.status() == 404) {
            return new PostReading.Gone("LinkedIn says " + urn + " does not exist");
        }
        String message = Redactor.excerpt(Json.text(body, "message"), answered.request().secrets(), 200);
        if (answered.status() == 403 || answered.status() == 401) {
            return new PostReading.Unavailable(LinkedInApi.missingReadScope(
                    request.connection().settings(LinkedInSettings.class).authorUrn(), message));
        }
        return new PostReading.Unknown("LinkedIn did not return " + urn + " (HTTP " + answered.status() + "): "
                + message);
    }

    private static String encoded(String urn) {
        return Forms.enc(urn == null ? "" : urn).replace("+", "%20");
    }
}
