package io.herald.adapters.linkedin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.adapters.http.Exchange;
import io.herald.adapters.http.Fingerprints;
import io.herald.platform.wire.Forms;
import io.herald.platform.wire.Json;
import io.herald.adapters.http.OutgoingRequest;
import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.http.UnclassifiedFailure;
import io.herald.adapters.http.Texts;
import io.herald.adapters.http.Traces;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.CommentRequest;
import io.herald.adapters.port.PublishOutcome;
import io.herald.adapters.port.ReadBackOutcome;
import io.herald.adapters.port.ReadBackRequest;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.UnknownCause;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The {@code first_comment} step: {@code POST /rest/socialActions/{post}/comments} as the post's
 * author, and its read-back, the post's comments with the same text (needs a read scope).
 */
final class LinkedInComments {

    static final int PAGE_SIZE = 100;

    private final ProviderHttp http;
    private final URI apiBase;
    private final LinkedInAdapter adapter;

    LinkedInComments(ProviderHttp http, URI apiBase, LinkedInAdapter adapter) {
        this.http = http;
        this.apiBase = apiBase;
        this.adapter = adapter;
    }

    CompletableFuture<PublishOutcome> comment(CommentRequest request) {
        ChannelConnection connection = request.connection();
        String author = connection.settings().authorUrn();
        String token = connection.secrets().accessToken();
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
        OutgoingRequest outgoing = new OutgoingRequest("POST", URI.create(apiBase + path), adapter.headers(token),
                Json.write(body), "application/json", fingerprint, post, List.of(token));
        Instant startedAt = http.clock().instant();
        return UnclassifiedFailure.asPublishOutcome(http.send(outgoing).thenApply(exchange -> {
            if (!(exchange instanceof Exchange.Answered answered) || !answered.success()) {
                return adapter.classifyPublish(exchange);
            }
            JsonNode created = Json.parse(answered.body());
            String urn = Json.text(created, "commentUrn");
            String id = urn != null ? urn : Json.text(created, "id");
            if (Texts.blank(id)) {
                return new PublishOutcome.OutcomeUnknown(UnknownCause.UNPARSABLE_RESPONSE,
                        "LinkedIn answered HTTP " + answered.status() + " without the comment's id.",
                        Traces.of(exchange, null, LinkedInAdapter.traceId(answered)));
            }
            return new PublishOutcome.Published(new ProviderRef(id, null), null,
                    Traces.of(exchange, null, LinkedInAdapter.traceId(answered)));
        }), fingerprint, post, startedAt, List.of(token));
    }

    CompletableFuture<ReadBackOutcome> readBack(ReadBackRequest request) {
        ChannelConnection connection = request.connection();
        String token = connection.secrets().accessToken();
        if (Texts.blank(token) || request.postRef() == null || Texts.blank(request.postRef().id())) {
            return CompletableFuture.completedFuture(new ReadBackOutcome.Unavailable(
                    "No LinkedIn access token is stored, or the post is not known."));
        }
        List<String> matches = new ArrayList<>();
        String text = Texts.normalise(request.content().firstComment());
        return UnclassifiedFailure.asReadBackOutcome(readPage(request, token, text, matches, 0, 1), request.postRef().id(),
                List.of(token));
    }

    private CompletableFuture<ReadBackOutcome> readPage(ReadBackRequest request, String token, String text,
                                                        List<String> matches, int start, int pageNo) {
        String author = request.connection().settings().authorUrn();
        URI uri = URI.create(apiBase + "/rest/socialActions/" + Forms.enc(request.postRef().id())
                + "/comments?start=" + start + "&count=" + PAGE_SIZE);
        OutgoingRequest outgoing = new OutgoingRequest("GET", uri, adapter.headers(token), null, null, null, author,
                List.of(token));
        return http.send(outgoing).thenCompose(exchange -> {
            if (!(exchange instanceof Exchange.Answered answered)) {
                return done(new ReadBackOutcome.Unknown("The post's comments could not be read."));
            }
            JsonNode body = Json.parse(answered.body());
            if (answered.status() != 200) {
                return done(LinkedInAdapter.readFailure(answered, body, author));
            }
            JsonNode elements = body.path("elements");
            for (JsonNode comment : elements) {
                if (Texts.normalise(Json.text(comment.path("message"), "text")).equals(text)) {
                    String urn = Json.text(comment, "commentUrn");
                    matches.add(urn != null ? urn : Json.text(comment, "id"));
                }
            }
            int total = body.path("paging").path("total").asInt(-1);
            int read = start + elements.size();
            if (elements.size() > 0 && (total < 0 || read < total)) {
                if (pageNo >= LinkedInAdapter.MAX_PAGES) {
                    return done(new ReadBackOutcome.Unknown("The post's comments were not read completely."));
                }
                return readPage(request, token, text, matches, read, pageNo + 1);
            }
            if (matches.size() == 1) {
                return done(new ReadBackOutcome.Found(new ProviderRef(matches.get(0), null),
                        "Comment " + matches.get(0) + " has the attempt's text; " + read + " comments read."));
            }
            if (matches.isEmpty()) {
                return done(new ReadBackOutcome.NotFound("No comment with the attempt's text among " + read
                        + " comments of the post."));
            }
            return done(new ReadBackOutcome.Unknown(matches.size() + " comments have the attempt's text: " + matches));
        });
    }

    private static <T> CompletableFuture<T> done(T value) {
        return CompletableFuture.completedFuture(value);
    }
}
