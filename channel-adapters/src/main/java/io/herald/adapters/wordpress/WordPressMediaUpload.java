package io.herald.adapters.wordpress;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.adapters.http.Exchange;
import io.herald.adapters.http.Fingerprints;
import io.herald.platform.wire.Json;
import io.herald.adapters.http.OutgoingRequest;
import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.http.Redactor;
import io.herald.adapters.http.UnclassifiedFailure;
import io.herald.adapters.http.Texts;
import io.herald.adapters.http.Traces;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.PublishOutcome;
import io.herald.adapters.port.UploadRequest;
import io.herald.contracts.publication.AttemptTrace;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.UnknownCause;
import io.herald.contracts.publication.UploadedMedia;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The {@code upload_media} step on a WordPress site: the image's bytes to {@code /wp/v2/media},
 * its alt text with it. The post then makes the first image its featured image and shows every
 * image in its content. An attachment no post uses is not shown to readers.
 */
final class WordPressMediaUpload {

    /** WordPress answers a refused file type with a 500 that is a refusal, not an unknown outcome. */
    private static final Set<String> REFUSED_TYPE = Set.of("rest_upload_sideload_error", "rest_upload_unknown_error");

    private final ProviderHttp http;

    WordPressMediaUpload(ProviderHttp http) {
        this.http = http;
    }

    CompletableFuture<PublishOutcome> upload(UploadRequest request) {
        ChannelConnection connection = request.connection();
        String site = connection.settings(WordPressSettings.class).siteUrl();
        Map<String, String> query = new LinkedHashMap<>();
        if (!Texts.blank(request.altText())) {
            query.put("alt_text", request.altText());
        }
        Map<String, String> fingerprinted = new LinkedHashMap<>(query);
        fingerprinted.put("file", request.mediaId().value());
        String fingerprint = Fingerprints.ofParams("POST", "/wp/v2/media", fingerprinted);
        if (!WordPressRest.validSite(site) || Texts.blank(connection.settings(WordPressSettings.class).username())
                || Texts.blank(connection.secrets(WordPressSecrets.class).applicationPassword())) {
            return CompletableFuture.completedFuture(new PublishOutcome.Failed(FailureKind.REJECTED,
                    "missing_credentials", "The connection has no valid site URL, user name or application password.",
                    null, Traces.notCalled(fingerprint, site)));
        }
        Map<String, String> headers = new HashMap<>(WordPressRest.auth(connection));
        headers.put("Content-Disposition", "attachment; filename=\"" + request.fileName() + "\"");
        OutgoingRequest outgoing = new OutgoingRequest("POST", WordPressRest.route(site, "media", query), headers,
                null, request.contentType(), fingerprint, site, WordPressRest.secretsOf(connection),
                request.bytes()).forWorkspace(WordPressRest.workspace(connection));
        Instant startedAt = http.clock().instant();
        return UnclassifiedFailure.asPublishOutcome(http.send(outgoing).thenApply(this::classify), fingerprint, site,
                startedAt, outgoing.secrets());
    }

    private PublishOutcome classify(Exchange exchange) {
        if (!(exchange instanceof Exchange.Answered answered)) {
            return WordPressOutcome.of(exchange, "", http.clock());
        }
        JsonNode body = Json.parse(answered.body());
        String code = answered.success() ? null : Json.text(body, "code");
        AttemptTrace trace = Traces.of(exchange, code, answered.header("x-request-id").orElse(null));
        if (answered.success()) {
            JsonNode id = body.path("id");
            if (!id.canConvertToLong() || id.asLong() <= 0) {
                return new PublishOutcome.OutcomeUnknown(UnknownCause.UNPARSABLE_RESPONSE,
                        "WordPress answered HTTP " + answered.status() + " without an attachment id.", trace);
            }
            return new PublishOutcome.Published(new ProviderRef(id.asText(), Json.text(body, "source_url")), null,
                    trace);
        }
        if (code != null && REFUSED_TYPE.contains(code)) {
            return new PublishOutcome.Failed(FailureKind.REJECTED, code, "WordPress refused the image: "
                    + Redactor.excerpt(String.valueOf(Json.text(body, "message")), answered.request().secrets(), 300),
                    null, trace);
        }
        return WordPressOutcome.of(exchange, "", http.clock());
    }

    /** The post's featured image (the first) and every image as a figure after the text, with its alt text. */
    static void attach(ObjectNode post, String text, List<UploadedMedia> uploads) {
        if (uploads.isEmpty()) {
            post.put("content", text);
            return;
        }
        post.put("featured_media", Long.parseLong(uploads.get(0).providerRef().id()));
        StringBuilder content = new StringBuilder(text);
        for (UploadedMedia image : uploads) {
            content.append(content.isEmpty() ? "" : "\n\n")
                    .append("<figure class=\"wp-block-image\"><img src=\"")
                    .append(html(image.providerRef().url())).append("\" alt=\"").append(html(image.altText()))
                    .append("\" class=\"wp-image-").append(html(image.providerRef().id())).append("\"/></figure>");
        }
        post.put("content", content.toString());
    }

    private static String html(String text) {
        if (text == null) {
            return "";
        }
        return text.replace("&", "&amp;").replace("\"", "&quot;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
