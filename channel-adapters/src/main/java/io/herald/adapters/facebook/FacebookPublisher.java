package io.herald.adapters.facebook;

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
import io.herald.platform.wire.Forms;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The write steps on a Page: the post itself ({@code POST /{page-id}/feed}, a future
 * {@code scheduledAt} as an unpublished scheduled post), and through the per-step classes its
 * photos, its first comment, its edit and its delete.
 */
final class FacebookPublisher {

    private final ProviderHttp http;
    private final FacebookGraph graph;

    FacebookPublisher(ProviderHttp http, FacebookGraph graph) {
        this.http = http;
        this.graph = graph;
    }

    /** The write steps: the post itself (here), and the per-step classes' images, comment, edit and delete. */
    static ProviderAdapter.Publisher steps(ProviderHttp http, FacebookGraph graph) {
        FacebookPostEditor edits = new FacebookPostEditor(http, graph);
        return new ProviderAdapter.Publisher(new FacebookPublisher(http, graph)::publish,
                new FacebookPhotoUpload(http, graph)::upload,
                new FacebookFirstComment(http, graph)::comment, edits::edit, edits::delete);
    }

    CompletableFuture<PublishOutcome> publish(PublishRequest request) {
        ChannelConnection connection = request.connection();
        String pageId = connection.settings(FacebookSettings.class).pageId();
        String token = connection.secrets(FacebookSecrets.class).pageAccessToken();
        Map<String, String> form = new LinkedHashMap<>();
        if (!Texts.blank(request.content().body())) {
            form.put("message", request.content().body());
        }
        if (!Texts.blank(request.content().link())) {
            form.put("link", request.content().link());
        }
        FacebookPhotoUpload.attach(form, request.uploads());
        Instant now = http.clock().instant();
        if (request.scheduledAt() != null && request.scheduledAt().isAfter(now)) {
            form.put("published", "false");
            form.put("scheduled_publish_time", Long.toString(request.scheduledAt().getEpochSecond()));
        } else {
            form.put("published", "true");
        }
        String path = "/" + FacebookGraph.segment(pageId) + "/feed";
        String fingerprint = Fingerprints.ofParams("POST", path, form);
        if (request.action() != PublicationAction.PUBLISH) {
            return refuseLocally(fingerprint, pageId, "unsupported_action",
                    "A Facebook Page has no drafts through the Graph API: use action publish.");
        }
        if (Texts.blank(pageId) || Texts.blank(token)) {
            return refuseLocally(fingerprint, pageId, "missing_page_token",
                    "The connection has no Page id or Page access token. Fix: store a Page access token with "
                            + "pages_manage_posts and pages_read_engagement.");
        }
        OutgoingRequest outgoing = new OutgoingRequest("POST", graph.uri(path), FacebookGraph.bearer(token),
                Forms.encode(form), "application/x-www-form-urlencoded", fingerprint, pageId,
                FacebookGraph.secretsOf(connection));
        Instant startedAt = http.clock().instant();
        return UnclassifiedFailure.asPublishOutcome(http.send(outgoing)
                                .thenApply(exchange -> {
                                    http.reportUsage(connection, exchange, FacebookUsage::of);
                                    return FacebookOutcome.of(exchange, http.clock());
                                }),
                        fingerprint, pageId, startedAt, outgoing.secrets())
                .whenComplete((outcome, failure) -> OutcomeLog.publish("facebook", request, outcome));
    }

    private static CompletableFuture<PublishOutcome> refuseLocally(String fingerprint, String target, String code,
                                                                  String detail) {
        return CompletableFuture.completedFuture(new PublishOutcome.Failed(FailureKind.REJECTED, code, detail, null,
                Traces.notCalled(fingerprint, target)));
    }
}
