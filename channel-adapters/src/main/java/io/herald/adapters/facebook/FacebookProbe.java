package io.herald.adapters.facebook;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.adapters.http.Exchange;
import io.herald.adapters.http.OutgoingRequest;
import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.http.Texts;
import io.herald.adapters.http.UnclassifiedFailure;
import io.herald.adapters.port.ProviderAdapter;
import io.herald.adapters.port.CapabilityReport;
import io.herald.adapters.port.ChannelConnection;
import io.herald.contracts.channel.Capability;
import io.herald.platform.wire.Json;
import java.util.concurrent.CompletableFuture;

/**
 * What a Page connection's tokens allow. Publishing is judged from the stored Page token: the
 * Graph API has no side-effect-free call that proves {@code pages_manage_posts} on a Page token
 * (debug_token needs an app token Herald does not hold), so a missing permission shows up as a
 * REJECTED first attempt with the fix. Reading is tried: one post of the feed with the read token.
 * A token the probe itself found invalid makes publishing unavailable too.
 */
final class FacebookProbe implements ProviderAdapter.Probe {

    private final ProviderHttp http;
    private final FacebookGraph graph;

    FacebookProbe(ProviderHttp http, FacebookGraph graph) {
        this.http = http;
        this.graph = graph;
    }

    @Override
    public CompletableFuture<CapabilityReport> probe(ChannelConnection connection) {
        String pageId = connection.settings(FacebookSettings.class).pageId();
        String pageToken = connection.secrets(FacebookSecrets.class).pageAccessToken();
        Capability publish = Texts.blank(pageToken) || Texts.blank(pageId)
                ? Capability.unavailable("No Page access token stored: Herald cannot post to this Page.")
                : Capability.ok();
        String token = FacebookGraph.readToken(connection);
        if (Texts.blank(token) || Texts.blank(pageId)) {
            return CompletableFuture.completedFuture(new CapabilityReport(publish,
                    Capability.unavailable("No Facebook token stored for reading the Page feed.")));
        }
        OutgoingRequest outgoing = new OutgoingRequest("GET",
                graph.uri("/" + FacebookGraph.segment(pageId) + "/feed?limit=1"), FacebookGraph.bearer(token), null,
                null, null, pageId, FacebookGraph.secretsOf(connection));
        boolean readsWithPageToken = Texts.blank(connection.secrets(FacebookSecrets.class).readAccessToken());
        return UnclassifiedFailure.asCapabilityReport(http.send(outgoing)
                        .thenApply(exchange -> report(exchange, publish, readsWithPageToken)),
                pageId, FacebookGraph.secretsOf(connection));
    }

    private static CapabilityReport report(Exchange exchange, Capability publish, boolean readsWithPageToken) {
        if (exchange instanceof Exchange.Unanswered unanswered) {
            return new CapabilityReport(publish, Capability.unavailable(
                    "Facebook could not be asked: " + unanswered.detail()));
        }
        Exchange.Answered answered = (Exchange.Answered) exchange;
        if (answered.status() == 200) {
            return new CapabilityReport(publish, Capability.ok());
        }
        JsonNode body = Json.parse(answered.body());
        FacebookError error = FacebookError.of(answered, body);
        String reason = error != null && error.blocksReading() ? error.readReason()
                : "Facebook refused to read the Page feed: " + (error != null
                        ? "code " + error.code() + ": " + error.message()
                        : "HTTP " + answered.status());
        if (readsWithPageToken && error != null && error.authLost()) {
            Capability rejected = Capability.unavailable("Facebook rejected the Page access token: "
                    + error.message() + " Fix: store a fresh Page access token.");
            String authLost = "Facebook rejected the Page access token (code " + error.providerCode() + "): "
                    + error.message() + " Fix: store a fresh Page access token.";
            return new CapabilityReport(rejected, Capability.unavailable(reason), authLost);
        }
        return new CapabilityReport(publish, Capability.unavailable(reason));
    }
}
