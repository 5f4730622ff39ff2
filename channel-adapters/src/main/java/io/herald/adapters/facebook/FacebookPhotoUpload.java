package io.herald.adapters.facebook;

import io.herald.adapters.http.Fingerprints;
import io.herald.platform.wire.Json;
import io.herald.adapters.http.Multipart;
import io.herald.adapters.http.OutgoingRequest;
import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.http.UnclassifiedFailure;
import io.herald.adapters.http.Texts;
import io.herald.adapters.http.Traces;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.PublishOutcome;
import io.herald.adapters.port.UploadRequest;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.UploadedMedia;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The {@code upload_media} step on a Page: an unpublished photo ({@code POST /{page-id}/photos},
 * {@code published=false}), which the post then attaches. A photo no post uses is deleted by
 * Facebook after a day, so uploading again after an unknown outcome leaves nothing visible.
 */
final class FacebookPhotoUpload {

    private final ProviderHttp http;
    private final FacebookGraph graph;

    FacebookPhotoUpload(ProviderHttp http, FacebookGraph graph) {
        this.http = http;
        this.graph = graph;
    }

    CompletableFuture<PublishOutcome> upload(UploadRequest request) {
        ChannelConnection connection = request.connection();
        String pageId = connection.settings(FacebookSettings.class).pageId();
        String token = connection.secrets(FacebookSecrets.class).pageAccessToken();
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("published", "false");
        if (!Texts.blank(request.altText())) {
            fields.put("alt_text_custom", request.altText());
        }
        String path = "/" + FacebookGraph.segment(pageId) + "/photos";
        Map<String, String> fingerprinted = new LinkedHashMap<>(fields);
        fingerprinted.put("source", request.mediaId().value());
        String fingerprint = Fingerprints.ofParams("POST", path, fingerprinted);
        if (Texts.blank(pageId) || Texts.blank(token)) {
            return CompletableFuture.completedFuture(new PublishOutcome.Failed(FailureKind.REJECTED,
                    "missing_page_token", "The connection has no Page id or Page access token.", null,
                    Traces.notCalled(fingerprint, pageId)));
        }
        Multipart body = Multipart.of(fields, "source", request.fileName(), request.contentType(), request.bytes(),
                request.mediaId().value().substring(4));
        OutgoingRequest outgoing = new OutgoingRequest("POST", graph.uri(path), FacebookGraph.bearer(token), null,
                body.contentType(), fingerprint, pageId, FacebookGraph.secretsOf(connection), body.body());
        Instant startedAt = http.clock().instant();
        return UnclassifiedFailure.asPublishOutcome(http.send(outgoing)
                        .thenApply(exchange -> FacebookOutcome.of(exchange, http.clock())), fingerprint, pageId,
                startedAt, outgoing.secrets());
    }

    /** The post's form fields that attach the uploaded photos, in the content's order. */
    static void attach(Map<String, String> form, List<UploadedMedia> uploads) {
        for (int i = 0; i < uploads.size(); i++) {
            form.put("attached_media[" + i + "]",
                    Json.write(Json.object().put("media_fbid", uploads.get(i).providerRef().id())));
        }
    }
}
