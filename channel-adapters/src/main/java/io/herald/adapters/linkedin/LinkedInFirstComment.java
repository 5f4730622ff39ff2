package io.herald.adapters.linkedin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.adapters.http.Exchange;
import io.herald.adapters.http.Fingerprints;
import io.herald.adapters.http.OutgoingRequest;
import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.http.Texts;
import io.herald.adapters.http.Traces;
import io.herald.adapters.http.UnclassifiedFailure;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.CommentRequest;
import io.herald.adapters.port.PublishOutcome;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.UnknownCause;
import io.herald.platform.wire.Forms;
import io.herald.platform.wire.Json;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The {@code first_comment} step: {@code POST /rest/socialActions/{post}/comments} as the post's
 * author. Its read-back, the post's comments with the same text, is {@link LinkedInFeedReader}'s.
 */
final class LinkedInFirstComment {

    private final ProviderHttp http;
    private final LinkedInApi api;

    LinkedInFirstComment(ProviderHttp http, LinkedInApi api) {
        this.http = http;
        this.api = api;
    }

    CompletableFuture<PublishOutcome> comment(CommentRequest request) {
        ChannelConnection connection = request.connection();
        String author = connection.settings(LinkedInSettings.class).authorUrn();
        String token = connection.secrets(LinkedInSecrets.class).accessToken();
        String post = request.post().id();
        ObjectNode body = Json.object();
        body.put("actor", author);
        body.put("object", post);
        body.putObject("message").put("text", request.text());
        String path = "/rest/socialActions/" + Forms.enc(post) + "/comments";
        String fingerprint = Fingerprints.ofJson("POST", path, body);
        if (Texts.blank(author) || Texts.blank(token)) {
            return CompletableFuture.completedFuture(new PublishOutcome.Failed(FailureKind.REJECTED,
                    "missing_credentials", "The connection has no author URN or access token.", null,
                    Traces.notCalled(fingerprint, post)));
        }
        OutgoingRequest outgoing = new OutgoingRequest("POST", api.uri(path), api.headers(token),
                Json.write(body), "application/json", fingerprint, post, List.of(token));
        Instant startedAt = http.clock().instant();
        return UnclassifiedFailure.asPublishOutcome(http.send(outgoing).thenApply(this::classify), fingerprint, post,
                startedAt, List.of(token));
    }

    private PublishOutcome classify(Exchange exchange) {
        if (!(exchange instanceof Exchange.Answered answered) || !answered.success()) {
            return LinkedInOutcome.of(exchange, http.clock(), api.version());
        }
        JsonNode created = Json.parse(answered.body());
        String urn = Json.text(created, "commentUrn");
        String id = urn != null ? urn : Json.text(created, "id");
        if (Texts.blank(id)) {
            return new PublishOutcome.OutcomeUnknown(UnknownCause.UNPARSABLE_RESPONSE,
                    "LinkedIn answered HTTP " + answered.status() + " without the comment's id.",
                    Traces.of(exchange, null, LinkedInApi.traceId(answered)));
        }
        return new PublishOutcome.Published(new ProviderRef(id, null), null,
                Traces.of(exchange, null, LinkedInApi.traceId(answered)));
    }
}
