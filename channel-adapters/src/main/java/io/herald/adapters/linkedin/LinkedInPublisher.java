package io.herald.adapters.linkedin;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.adapters.http.Fingerprints;
import io.herald.adapters.http.OutcomeLog;
import io.herald.adapters.http.OutgoingRequest;
import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.http.Texts;
import io.herald.adapters.http.Traces;
import io.herald.adapters.http.UnclassifiedFailure;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.CommentRequest;
import io.herald.adapters.port.PostChangeRequest;
import io.herald.adapters.port.PublishOutcome;
import io.herald.adapters.port.PublishRequest;
import io.herald.adapters.port.UploadRequest;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.PublicationAction;
import io.herald.platform.wire.Json;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The write steps as the author: the post itself ({@code POST /rest/posts}, published at once: the
 * Posts API neither drafts nor schedules), and through the per-step classes its images, its first
 * comment, its edit and its delete.
 */
final class LinkedInPublisher {

    private final ProviderHttp http;
    private final LinkedInApi api;
    private final LinkedInPostEdits edits;
    private final LinkedInImages images;
    private final LinkedInComments comments;

    LinkedInPublisher(ProviderHttp http, LinkedInApi api, LinkedInPostEdits edits) {
        this.http = http;
        this.api = api;
        this.edits = edits;
        this.images = new LinkedInImages(http, api);
        this.comments = new LinkedInComments(http, api);
    }

    CompletableFuture<PublishOutcome> publish(PublishRequest request) {
        ChannelConnection connection = request.connection();
        String author = connection.settings().authorUrn();
        String token = connection.secrets().accessToken();
        ObjectNode body = Json.object();
        body.put("author", author);
        body.put("commentary", LittleText.escape(LinkedInApi.commentaryOf(request.content())));
        body.put("visibility", "PUBLIC");
        ObjectNode distribution = body.putObject("distribution");
        distribution.put("feedDistribution", "MAIN_FEED");
        distribution.putArray("targetEntities");
        distribution.putArray("thirdPartyDistributionChannels");
        body.put("lifecycleState", "PUBLISHED");
        body.put("isReshareDisabledByAuthor", false);
        LinkedInImages.attach(body, request.uploads());
        String fingerprint = Fingerprints.ofJson("POST", "/rest/posts", body);
        if (request.action() != PublicationAction.PUBLISH) {
            return refuseLocally(fingerprint, author, "unsupported_action",
                    "LinkedIn posts are published directly: use action publish.");
        }
        if (request.scheduledAt() != null && request.scheduledAt().isAfter(http.clock().instant())) {
            return refuseLocally(fingerprint, author, "scheduling_unsupported",
                    "LinkedIn's Posts API cannot schedule a post: send the request at the time it should appear.");
        }
        if (Texts.blank(author) || Texts.blank(token)) {
            return refuseLocally(fingerprint, author, "missing_credentials",
                    "The connection has no author URN or access token. Fix: reconnect LinkedIn.");
        }
        OutgoingRequest outgoing = new OutgoingRequest("POST", api.uri("/rest/posts"), api.headers(token),
                Json.write(body), "application/json", fingerprint, author, List.of(token));
        Instant startedAt = http.clock().instant();
        return UnclassifiedFailure.asPublishOutcome(http.send(outgoing)
                                .thenApply(exchange -> LinkedInOutcome.of(exchange, http.clock(), api.version())),
                        fingerprint, author, startedAt, outgoing.secrets())
                .whenComplete((outcome, failure) -> OutcomeLog.publish("linkedin", request, outcome));
    }

    CompletableFuture<PublishOutcome> edit(PostChangeRequest request) {
        return edits.edit(request);
    }

    CompletableFuture<PublishOutcome> delete(PostChangeRequest request) {
        return edits.delete(request);
    }

    CompletableFuture<PublishOutcome> uploadMedia(UploadRequest request) {
        return images.upload(request);
    }

    CompletableFuture<PublishOutcome> comment(CommentRequest request) {
        return comments.comment(request);
    }

    private static CompletableFuture<PublishOutcome> refuseLocally(String fingerprint, String target, String code,
                                                                  String detail) {
        return CompletableFuture.completedFuture(new PublishOutcome.Failed(FailureKind.REJECTED, code, detail, null,
                Traces.notCalled(fingerprint, target)));
    }
}
