package io.herald.adapters.linkedin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.adapters.http.Exchange;
import io.herald.adapters.http.Fingerprints;
import io.herald.platform.wire.Forms;
import io.herald.platform.wire.Json;
import io.herald.adapters.http.Origin;
import io.herald.adapters.http.OutgoingRequest;
import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.http.UnclassifiedFailure;
import io.herald.adapters.http.Texts;
import io.herald.adapters.http.Traces;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.PublishOutcome;
import io.herald.adapters.port.UploadRequest;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.UnknownCause;
import io.herald.contracts.publication.UploadedMedia;
import java.net.URI;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The {@code upload_media} step on LinkedIn's images API: initialize the upload (the owner is the
 * post's author), then {@code PUT} the bytes to the upload URL. An image no post uses stays
 * invisible, so an unknown outcome of either call is answered by uploading again.
 */
final class LinkedInImageUpload {

    private final ProviderHttp http;
    private final LinkedInApi api;

    LinkedInImageUpload(ProviderHttp http, LinkedInApi api) {
        this.http = http;
        this.api = api;
    }

    CompletableFuture<PublishOutcome> upload(UploadRequest request) {
        ChannelConnection connection = request.connection();
        String author = connection.settings(LinkedInSettings.class).authorUrn();
        String token = connection.secrets(LinkedInSecrets.class).accessToken();
        ObjectNode body = Json.object();
        body.putObject("initializeUploadRequest").put("owner", author);
        ObjectNode fingerprinted = body.deepCopy();
        fingerprinted.put("image", request.mediaId().value());
        String fingerprint = Fingerprints.ofJson("POST", "/rest/images?action=initializeUpload", fingerprinted);
        if (Texts.blank(author) || Texts.blank(token)) {
            return CompletableFuture.completedFuture(new PublishOutcome.Failed(FailureKind.REJECTED,
                    "missing_credentials", "The connection has no author URN or access token.", null,
                    Traces.notCalled(fingerprint, author)));
        }
        OutgoingRequest initialize = new OutgoingRequest("POST",
                api.uri("/rest/images?action=initializeUpload"), api.headers(token),
                Json.write(body), "application/json", fingerprint, author, List.of(token));
        Instant startedAt = http.clock().instant();
        return UnclassifiedFailure.asPublishOutcome(http.send(initialize).thenCompose(exchange -> {
            if (!(exchange instanceof Exchange.Answered answered) || !answered.success()) {
                return CompletableFuture.completedFuture(LinkedInOutcome.of(exchange, http.clock(), api.version()));
            }
            JsonNode value = Json.parse(answered.body()).path("value");
            String uploadUrl = Json.text(value, "uploadUrl");
            String image = Json.text(value, "image");
            if (Texts.blank(uploadUrl) || Texts.blank(image)) {
                return CompletableFuture.completedFuture(new PublishOutcome.OutcomeUnknown(
                        UnknownCause.UNPARSABLE_RESPONSE, "LinkedIn initialized an upload without an upload URL"
                        + " or image URN.", Traces.of(exchange, null, LinkedInApi.traceId(answered))));
            }
            return put(request, token, author, fingerprint, URI.create(uploadUrl), image);
        }), fingerprint, author, startedAt, List.of(token));
    }

    private CompletableFuture<PublishOutcome> put(UploadRequest request, String token, String author,
                                                  String fingerprint, URI uploadUrl, String image) {
        if (!trusted(uploadUrl)) {
            // the token goes with the bytes: never to a host that is not LinkedIn's
            return CompletableFuture.completedFuture(new PublishOutcome.Failed(FailureKind.REJECTED,
                    "untrusted_upload_url", "LinkedIn's upload URL points to " + uploadUrl.getHost()
                    + ", not a LinkedIn host; nothing was uploaded.", null, Traces.notCalled(fingerprint, author)));
        }
        Map<String, String> headers = new HashMap<>();
        headers.put("Authorization", "Bearer " + token);
        OutgoingRequest put = new OutgoingRequest("PUT", uploadUrl, headers, null, request.contentType(),
                fingerprint, author, List.of(token), request.bytes());
        return http.send(put).thenCompose(exchange -> {
            if (exchange instanceof Exchange.Answered answered && answered.success()) {
                PublishOutcome uploaded = new PublishOutcome.Published(new ProviderRef(image, null), null,
                        Traces.of(exchange, null, LinkedInApi.traceId(answered)));
                return checkProcessed(image, token, author, uploaded);
            }
            return CompletableFuture.completedFuture(LinkedInOutcome.of(exchange, http.clock(), api.version()));
        });
    }

    /**
     * LinkedIn processes the bytes after the upload: an image it could not process would only be
     * refused with the post, so it is refused here, with LinkedIn's status. Any other answer (or
     * none) leaves the upload succeeded: the bytes were taken.
     */
    private CompletableFuture<PublishOutcome> checkProcessed(String image, String token, String author,
                                                             PublishOutcome uploaded) {
        OutgoingRequest status = new OutgoingRequest("GET",
                api.uri("/rest/images/" + Forms.enc(image)), api.headers(token), null, null, null, author,
                List.of(token));
        return http.send(status).thenApply(exchange -> {
            if (exchange instanceof Exchange.Answered answered && answered.status() == 200
                    && "PROCESSING_FAILED".equals(Json.text(Json.parse(answered.body()), "status"))) {
                return new PublishOutcome.Failed(FailureKind.REJECTED, "PROCESSING_FAILED",
                        "LinkedIn could not process the image " + image + " (status PROCESSING_FAILED): use a JPG,"
                                + " PNG or GIF it accepts.", null, uploaded.trace());
            }
            return uploaded;
        });
    }

    private boolean trusted(URI uploadUrl) {
        if (Origin.same(uploadUrl, api.base())) {
            return true;
        }
        String host = uploadUrl.getHost();
        return "https".equals(uploadUrl.getScheme()) && host != null
                && (host.equals("linkedin.com") || host.endsWith(".linkedin.com"));
    }

    /** The post's {@code content}: one image, or a multi-image post, each with its alt text. */
    static void attach(ObjectNode post, List<UploadedMedia> uploads) {
        if (uploads.isEmpty()) {
            return;
        }
        ObjectNode content = post.putObject("content");
        if (uploads.size() == 1) {
            image(content.putObject("media"), uploads.get(0));
            return;
        }
        ArrayNode images = content.putObject("multiImage").putArray("images");
        uploads.forEach(u -> image(images.addObject(), u));
    }

    private static void image(ObjectNode node, UploadedMedia upload) {
        node.put("id", upload.providerRef().id());
        if (!Texts.blank(upload.altText())) {
            node.put("altText", upload.altText());
        }
    }
}
