package io.herald.adapters.bluesky;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.adapters.http.Exchange;
import io.herald.adapters.http.OutgoingRequest;
import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.http.UnclassifiedFailure;
import io.herald.adapters.port.CapabilityReport;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.PostReadRequest;
import io.herald.adapters.port.PostReading;
import io.herald.adapters.port.ProviderAdapter;
import io.herald.adapters.port.PublishOutcome;
import io.herald.adapters.port.ReadBackOutcome;
import io.herald.adapters.port.ReadBackRequest;
import io.herald.contracts.channel.Capability;
import io.herald.contracts.publication.ProviderRef;
import io.herald.platform.wire.Forms;
import io.herald.platform.wire.Json;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Read-back on Bluesky is exact: the post's record key is derived from the publication, so one
 * {@code getRecord} (no authentication needed) says FOUND, NOT_FOUND (400 {@code RecordNotFound}),
 * or, on any other answer, UNKNOWN. The probe makes (or confirms) the session.
 */
final class BlueskyReads implements ProviderAdapter.Probe {

    private final ProviderHttp http;
    private final BlueskySessions sessions;

    BlueskyReads(ProviderHttp http, BlueskySessions sessions) {
        this.http = http;
        this.sessions = sessions;
    }

    ProviderAdapter.FeedReader feedReader() {
        return new ProviderAdapter.FeedReader(this::readBack, this::readPost);
    }

    CompletableFuture<ReadBackOutcome> readBack(ReadBackRequest request) {
        ChannelConnection connection = request.connection();
        Optional<BlueskyKeys.Key> key;
        if (request.ofComment()) {
            key = AtUri.parse(request.postRef() == null ? null : request.postRef().id())
                    .flatMap(post -> BlueskyKeys.comment(request.publicationId(), post.rkey()));
        } else {
            key = BlueskyKeys.post(request.publicationId(), request.requestedAt(), request.scheduledAt());
        }
        if (key.isEmpty()) {
            return CompletableFuture.completedFuture(new ReadBackOutcome.Unknown(
                    "the record key could not be derived (no request time or post recorded)"));
        }
        if (request.ofComment()) {
            return readBack(connection, key.get(), null);
        }
        // a post whose earlier attempt was made before keys spread the publication id is under its legacy key
        Optional<BlueskyKeys.Key> legacy = BlueskyKeys.legacyPost(request.publicationId(), request.requestedAt(),
                request.scheduledAt());
        return readBack(connection, key.get(), null).thenCompose(outcome -> outcome instanceof ReadBackOutcome.NotFound
                && legacy.isPresent() && !legacy.get().rkey().equals(key.get().rkey())
                ? readBack(connection, legacy.get(), BlueskyPosts.text(request.content())).thenApply(earlier -> earlier instanceof ReadBackOutcome.NotFound
                        ? outcome : earlier)
                : CompletableFuture.completedFuture(outcome));
    }

    /**
     * {@code getRecord} under one key of the connection's repository; with {@code text}, a record of
     * other text there is not this post (NOT_FOUND).
     */
    private CompletableFuture<ReadBackOutcome> readBack(ChannelConnection connection, BlueskyKeys.Key key,
                                                        String text) {
        AtUri wanted = new AtUri(sessions.repoOf(connection), BlueskyPosts.POST_COLLECTION, key.rkey());
        return UnclassifiedFailure.asReadBackOutcome(getRecord(http, connection, wanted).thenApply(exchange -> {
            if (exchange instanceof Exchange.Answered answered && answered.status() == 200) {
                JsonNode body = Json.parse(answered.body());
                Optional<AtUri> uri = AtUri.parse(Json.text(body, "uri"));
                if (text != null && !text.equals(BlueskyPosts.textOf(body.path("value")))) {
                    return new ReadBackOutcome.NotFound("the record under the earlier key " + key.rkey()
                            + " is another post");
                }
                if (uri.isPresent() && Json.text(body, "cid") != null) {
                    return new ReadBackOutcome.Found(new ProviderRef(uri.get().uri(),
                            "https://bsky.app/profile/" + sessions.handleOf(connection) + "/post/" + uri.get().rkey()),
                            "the record under Herald's key " + key.rkey() + " exists (cid "
                                    + Json.text(body, "cid") + ")");
                }
            }
            if (notFound(exchange)) {
                return new ReadBackOutcome.NotFound("no record under Herald's key " + key.rkey()
                        + " (400 RecordNotFound)");
            }
            return new ReadBackOutcome.Unknown("getRecord " + key.rkey() + ": " + describe(exchange));
        }), wanted.uri(), List.of());
    }

    CompletableFuture<PostReading> readPost(PostReadRequest request) {
        Optional<AtUri> post = AtUri.parse(request.target() == null ? null : request.target().id());
        if (post.isEmpty()) {
            return CompletableFuture.completedFuture(new PostReading.Unknown("not a Bluesky record address"));
        }
        return getRecord(http, request.connection(), post.get()).handle((exchange, failure) -> {
            if (failure != null) {
                return new PostReading.Unknown("the read failed: " + failure.getClass().getSimpleName());
            }
            if (exchange instanceof Exchange.Answered answered && answered.status() == 200) {
                JsonNode value = Json.parse(answered.body()).path("value");
                boolean asWanted = request.wanted() == null
                        || BlueskyPosts.text(request.wanted()).equals(BlueskyPosts.textOf(value));
                return new PostReading.Present(asWanted, "the record " + post.get().uri() + " exists");
            }
            if (notFound(exchange)) {
                return new PostReading.Gone("no record " + post.get().uri() + " (400 RecordNotFound)");
            }
            return new PostReading.Unknown("getRecord: " + describe(exchange));
        });
    }

    @Override
    public CompletableFuture<CapabilityReport> probe(ChannelConnection connection) {
        BlueskySettings settings = connection.settings(BlueskySettings.class);
        if (settings.handle() == null || settings.pdsUrl() == null
                || connection.secrets(BlueskySecrets.class).appPassword() == null) {
            Capability none = Capability.unavailable("No handle, PDS or app password stored.");
            return CompletableFuture.completedFuture(new CapabilityReport(none, none));
        }
        // getSession with the held session (made, or refreshed, as a write would): no new session per probe
        return UnclassifiedFailure.asCapabilityReport(sessions.call(connection, session -> new OutgoingRequest("GET",
                BlueskySessions.xrpc(connection, "com.atproto.server.getSession"),
                BlueskySessions.bearer(session.accessJwt()), null, null, null, settings.handle(),
                BlueskySessions.secretsOf(connection, session))).thenApply(call -> {
            if (call instanceof BlueskySessions.Sent && call.exchange() instanceof Exchange.Answered answered
                    && answered.status() == 200) {
                return new CapabilityReport(Capability.ok(), new Capability(true,
                        "exact: each post is written under a record key Herald derives from the publication, "
                                + "and getRecord finds it or says it does not exist"));
            }
            PublishOutcome failed = call instanceof BlueskySessions.NoSession
                    ? BlueskyOutcome.noSession(call.exchange(), http.clock(), null)
                    : BlueskyOutcome.of(call, http.clock(), null, body -> Optional.empty());
            if (failed instanceof PublishOutcome.AuthLost lost) {
                Capability none = Capability.unavailable("Bluesky did not accept the handle and app password");
                return new CapabilityReport(none, none, lost.reason());
            }
            String why = failed instanceof PublishOutcome.Failed f ? f.detail()
                    : failed instanceof PublishOutcome.OutcomeUnknown u ? u.detail() : "no session";
            Capability none = Capability.unavailable("No Bluesky session could be confirmed: " + why);
            return new CapabilityReport(none, none);
        }), settings.pdsUrl(), sessions.secretsOf(connection));
    }

    /** {@code getRecord} of one record; no credentials travel. */
    static CompletableFuture<Exchange> getRecord(ProviderHttp http, ChannelConnection connection, AtUri record) {
        String query = "?repo=" + Forms.enc(record.repo()) + "&collection=" + Forms.enc(record.collection())
                + "&rkey=" + Forms.enc(record.rkey());
        URI uri = URI.create(BlueskySessions.xrpc(connection, "com.atproto.repo.getRecord") + query);
        return http.send(new OutgoingRequest("GET", uri, Map.of("Accept", "application/json"), null, null, null,
                record.uri(), List.of()));
    }

    static boolean notFound(Exchange exchange) {
        return exchange instanceof Exchange.Answered answered && answered.status() == 400
                && "RecordNotFound".equals(Json.text(Json.parse(answered.body()), "error"));
    }

    static String describe(Exchange exchange) {
        if (exchange instanceof Exchange.Unanswered unanswered) {
            return unanswered.detail();
        }
        Exchange.Answered answered = (Exchange.Answered) exchange;
        String error = Json.text(Json.parse(answered.body()), "error");
        return "HTTP " + answered.status() + (error != null ? " " + error : "");
    }
}
