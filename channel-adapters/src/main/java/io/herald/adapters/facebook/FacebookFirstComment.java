package io.herald.adapters.facebook;

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
import io.herald.platform.wire.Forms;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The {@code first_comment} step: {@code POST /{post-id}/comments} with the Page token. Its
 * read-back, the post's comments with the same text, is {@link FacebookFeedReader}'s.
 */
final class FacebookFirstComment {

    private final ProviderHttp http;
    private final FacebookGraph graph;

    FacebookFirstComment(ProviderHttp http, FacebookGraph graph) {
        this.http = http;
        this.graph = graph;
    }

    CompletableFuture<PublishOutcome> comment(CommentRequest request) {
        ChannelConnection connection = request.connection();
        String token = connection.secrets(FacebookSecrets.class).pageAccessToken();
        String path = "/" + FacebookGraph.segment(request.post().id()) + "/comments";
        Map<String, String> form = new LinkedHashMap<>();
        form.put("message", request.text());
        String fingerprint = Fingerprints.ofParams("POST", path, form);
        String target = request.post().id();
        if (Texts.blank(token)) {
            return CompletableFuture.completedFuture(new PublishOutcome.Failed(FailureKind.REJECTED,
                    "missing_page_token", "The connection has no Page access token.", null,
                    Traces.notCalled(fingerprint, target)));
        }
        OutgoingRequest outgoing = new OutgoingRequest("POST", graph.uri(path), FacebookGraph.bearer(token),
                Forms.encode(form), "application/x-www-form-urlencoded", fingerprint, target,
                FacebookGraph.secretsOf(connection));
        Instant startedAt = http.clock().instant();
        return UnclassifiedFailure.asPublishOutcome(http.send(outgoing)
                        .thenApply(exchange -> FacebookOutcome.of(exchange, http.clock())), fingerprint, target,
                startedAt, outgoing.secrets());
    }
}
