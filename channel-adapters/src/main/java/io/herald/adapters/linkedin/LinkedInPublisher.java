package io.herald.adapters.linkedin;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.adapters.http.Fingerprints;
import io.herald.adapters.http.OutcomeLog;
import io.herald.adapters.http.OutgoingRequest;
import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.http.Texts;
import io.herald.adapters.http.Traces;
import io.herald.adapters.http.UnclassifiedFailure;
import io.herald.adapters.port.ProviderAdapter;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.PublishOutcome;
import io.herald.adapters.port.PublishRequest;
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

    LinkedInPublisher(ProviderHttp http, LinkedInApi api) {
        this.http = http;
        this.api = api;
    }

    /** The write steps: the post itself (here), and the per-step classes' images, comment, edit and delete. */
    static ProviderAdapter.Publisher steps(ProviderHttp http, LinkedInApi api) {
        LinkedInPostEditor edits = new LinkedInPostEditor(http, api);
        return new ProviderAdapter.Publisher(new LinkedInPublisher(http, api)::publish,
                new LinkedInImageUpload(http, api)::upload,
                new LinkedInFirstComment(http, api)::comment, edits::edit, edits::delete);
    }

    CompletableFuture<PublishOutcome> publish(PublishRequest request) {
        ChannelConnection connection = request.connection();
        String author = connection.settings(LinkedInSettings.class).authorUrn();
        String token = connection.secrets(LinkedInSecrets.class).accessToken();
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
        LinkedInImageUpload.attach(body, request.uploads());
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

    private static CompletableFuture<PublishOutcome> refuseLocally(String fingerprint, String target, String code,
                                                                  String detail) {
        return CompletableFuture.completedFuture(new PublishOutcome.Failed(FailureKind.REJECTED, code, detail, null,
                Traces.notCalled(fingerprint, target)));
    }
}
