package io.herald.adapters.facebook;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.adapters.http.Exchange;
import io.herald.adapters.http.Fingerprints;
import io.herald.platform.wire.Forms;
import io.herald.platform.wire.Json;
import io.herald.adapters.http.OutgoingRequest;
import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.http.Redactor;
import io.herald.adapters.http.Safety;
import io.herald.adapters.http.Texts;
import io.herald.adapters.http.Traces;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.CommentRequest;
import io.herald.adapters.port.PublishOutcome;
import io.herald.adapters.port.ReadBackOutcome;
import io.herald.adapters.port.ReadBackRequest;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.ProviderRef;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The {@code first_comment} step: {@code POST /{post-id}/comments}, and its read-back, the post's
 * top-level comments with the same text ({@code GET /{post-id}/comments}, every page).
 */
final class FacebookComments {

    private final ProviderHttp http;
    private final URI graphBase;
    private final FacebookAdapter adapter;

    FacebookComments(ProviderHttp http, URI graphBase, FacebookAdapter adapter) {
        this.http = http;
        this.graphBase = graphBase;
        this.adapter = adapter;
    }

    CompletableFuture<PublishOutcome> comment(CommentRequest request) {
        ChannelConnection connection = request.connection();
        String token = connection.secrets().pageAccessToken();
        String path = "/" + FacebookAdapter.segment(request.post().id()) + "/comments";
        Map<String, String> form = new LinkedHashMap<>();
        form.put("message", request.text());
        String fingerprint = Fingerprints.ofParams("POST", path, form);
        String target = request.post().id();
        if (Texts.blank(token)) {
            return CompletableFuture.completedFuture(new PublishOutcome.Failed(FailureKind.REJECTED,
                    "missing_page_token", "The connection has no Page access token.", null,
                    Traces.notCalled(fingerprint, target)));
        }
        OutgoingRequest outgoing = new OutgoingRequest("POST", URI.create(graphBase + path),
                Map.of("Authorization", "Bearer " + token, "Accept", "application/json"), Forms.encode(form),
                "application/x-www-form-urlencoded", fingerprint, target, FacebookAdapter.secretsOf(connection));
        Instant startedAt = http.clock().instant();
        return Safety.publish(http.send(outgoing).thenApply(adapter::classifyPublish), fingerprint, target,
                startedAt, outgoing.secrets());
    }

    CompletableFuture<ReadBackOutcome> readBack(ReadBackRequest request) {
        ChannelConnection connection = request.connection();
        String token = FacebookAdapter.readToken(connection);
        if (Texts.blank(token) || request.postRef() == null || Texts.blank(request.postRef().id())) {
            return CompletableFuture.completedFuture(new ReadBackOutcome.Unavailable(
                    "No Facebook token is stored for reading the post's comments, or the post is not known."));
        }
        String postId = request.postRef().id();
        URI first = URI.create(graphBase + "/" + FacebookAdapter.segment(postId) + "/comments?"
                + Forms.encode(Map.of("fields", "id,message,created_time", "limit", "100")));
        Matches matches = new Matches(Texts.normalise(request.content().firstComment()));
        return Safety.readBack(readPage(first, token, connection, matches, 1), postId,
                FacebookAdapter.secretsOf(connection));
    }

    private CompletableFuture<ReadBackOutcome> readPage(URI uri, String token, ChannelConnection connection,
                                                        Matches matches, int pageNo) {
        OutgoingRequest outgoing = new OutgoingRequest("GET", uri,
                Map.of("Authorization", "Bearer " + token, "Accept", "application/json"), null, null, null,
                connection.settings().pageId(), FacebookAdapter.secretsOf(connection));
        return http.send(outgoing).thenCompose(exchange -> {
            if (!(exchange instanceof Exchange.Answered answered)) {
                return done(new ReadBackOutcome.Unknown("The post's comments could not be read."));
            }
            JsonNode body = Json.parse(answered.body());
            if (answered.status() != 200) {
                return done(FacebookAdapter.readFailure(answered, body));
            }
            JsonNode data = body.path("data");
            if (!data.isArray()) {
                return done(new ReadBackOutcome.Unknown("The comments answer had no data list: "
                        + Redactor.excerpt(answered.body(), answered.request().secrets(), 200)));
            }
            data.forEach(matches::consider);
            String next = Json.text(body.path("paging"), "next");
            if (Texts.blank(next)) {
                return done(matches.result(pageNo));
            }
            URI nextUri = URI.create(next);
            if (pageNo >= FacebookAdapter.MAX_PAGES || !FacebookAdapter.sameOrigin(nextUri, graphBase)) {
                return done(new ReadBackOutcome.Unknown("The post's comments were not read completely."));
            }
            return readPage(nextUri, token, connection, matches, pageNo + 1);
        });
    }

    private static <T> CompletableFuture<T> done(T value) {
        return CompletableFuture.completedFuture(value);
    }

    /** Comments with the attempt's text: exactly one is the comment; several cannot be told apart. */
    private static final class Matches {
        private final String text;
        private final List<String> ids = new ArrayList<>();
        private int seen;

        Matches(String text) {
            this.text = text;
        }

        void consider(JsonNode comment) {
            seen++;
            if (Texts.normalise(Json.text(comment, "message")).equals(text)) {
                ids.add(Json.text(comment, "id"));
            }
        }

        ReadBackOutcome result(int pages) {
            if (ids.size() == 1) {
                return new ReadBackOutcome.Found(new ProviderRef(ids.get(0), null),
                        "Comment " + ids.get(0) + " has the attempt's text; " + seen + " comments read.");
            }
            if (ids.isEmpty()) {
                return new ReadBackOutcome.NotFound("No comment with the attempt's text among " + seen
                        + " comments of the post (" + pages + " page(s) read).");
            }
            return new ReadBackOutcome.Unknown(ids.size() + " comments have the attempt's text: " + ids);
        }
    }
}
