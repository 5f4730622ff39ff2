package io.herald.adapters.bluesky;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.adapters.http.Exchange;
import io.herald.adapters.http.OutgoingRequest;
import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.port.ChannelConnection;
import io.herald.contracts.error.ErrorCode;
import io.herald.contracts.error.FieldViolation;
import io.herald.contracts.error.HeraldRejection;
import io.herald.platform.wire.Forms;
import io.herald.platform.wire.Json;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The check of a Bluesky connection before it is stored: the handle must resolve on the PDS
 * ({@code com.atproto.identity.resolveHandle}: the reference PDS answers a handle it cannot resolve
 * with 400 {@code HandleNotFound}, an ill-formed one with 400 {@code InvalidRequest}; any 400 refuses
 * the handle), then the app password must make a session ({@code createSession}: a
 * wrong one is 401). A refusal names the field ({@code handle}, {@code appPassword}) and the channel
 * type; a PDS that cannot be reached, or answers 429 or 5xx, leaves the question open
 * ({@code unavailable}). A handle given as a DID is not resolved: the session names the account.
 */
final class BlueskyConnectionCheck {

    private final ProviderHttp http;
    private final BlueskySessions sessions;

    BlueskyConnectionCheck(ProviderHttp http, BlueskySessions sessions) {
        this.http = http;
        this.sessions = sessions;
    }

    CompletableFuture<Optional<HeraldRejection>> verify(ChannelConnection candidate) {
        BlueskySettings settings = candidate.settings(BlueskySettings.class);
        CompletableFuture<Optional<HeraldRejection>> resolved = settings.handle().startsWith("did:")
                ? CompletableFuture.completedFuture(Optional.empty())
                : resolve(candidate, settings);
        return resolved.thenCompose(refused -> refused.isPresent()
                ? CompletableFuture.completedFuture(refused)
                : sessions.signIn(candidate).thenApply(call -> signedIn(call, settings)));
    }

    private CompletableFuture<Optional<HeraldRejection>> resolve(ChannelConnection candidate,
                                                                 BlueskySettings settings) {
        URI uri = URI.create(BlueskySessions.xrpc(candidate, "com.atproto.identity.resolveHandle") + "?handle="
                + Forms.enc(settings.handle()));
        return http.send(new OutgoingRequest("GET", uri, Map.of("Accept", "application/json"), null, null, null,
                settings.handle(), List.of())).thenApply(exchange -> {
                    if (exchange instanceof Exchange.Answered answered && answered.status() == 200
                            && Json.text(Json.parse(answered.body()), "did") != null) {
                        return Optional.empty();
                    }
                    if (exchange instanceof Exchange.Answered answered && answered.status() == 400) {
                        return Optional.of(HeraldRejection.invalid(List.of(new FieldViolation("handle",
                                "bluesky: the PDS " + settings.pdsUrl() + " cannot resolve the handle "
                                        + settings.handle() + " (" + BlueskyReads.describe(exchange)
                                        + BlueskyOutcome.message(answered, Json.parse(answered.body()))
                                        + "); nothing was stored"))));
                    }
                    return Optional.of(unavailable("resolve the handle", settings, exchange));
                });
    }

    private static Optional<HeraldRejection> signedIn(BlueskySessions.Call call, BlueskySettings settings) {
        if (call instanceof BlueskySessions.Sent) {
            return Optional.empty();
        }
        Exchange exchange = call.exchange();
        if (exchange instanceof Exchange.Answered answered && answered.status() >= 400 && answered.status() < 500
                && answered.status() != 429) {
            JsonNode body = Json.parse(answered.body());
            return Optional.of(HeraldRejection.invalid(List.of(new FieldViolation("appPassword",
                    "bluesky: the PDS did not accept the app password for " + settings.handle() + " ("
                            + BlueskyReads.describe(exchange) + BlueskyOutcome.message(answered, body)
                            + "); create an app password in the Bluesky app's settings; nothing was stored"))));
        }
        return Optional.of(unavailable("make a session", settings, exchange));
    }

    private static HeraldRejection unavailable(String what, BlueskySettings settings, Exchange exchange) {
        return new HeraldRejection(ErrorCode.UNAVAILABLE, "bluesky: the PDS " + settings.pdsUrl() + " could not be "
                + "asked to " + what + " (" + BlueskyReads.describe(exchange) + "); nothing was stored, try again");
    }
}
