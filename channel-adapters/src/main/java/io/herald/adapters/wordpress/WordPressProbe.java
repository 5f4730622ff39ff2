package io.herald.adapters.wordpress;

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
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * What a site connection allows: publishing when the site confirms the credentials
 * ({@code GET users/me}), reading back when the posts route shows the Herald mu-plugin's meta key
 * in its schema and as a filter ({@code OPTIONS posts}). Both are asked at once.
 */
final class WordPressProbe implements ProviderAdapter.Probe {

    private final ProviderHttp http;

    WordPressProbe(ProviderHttp http) {
        this.http = http;
    }

    @Override
    public CompletableFuture<CapabilityReport> probe(ChannelConnection connection) {
        String site = connection.settings(WordPressSettings.class).siteUrl();
        if (!WordPressRest.validSite(site) || Texts.blank(connection.settings(WordPressSettings.class).username())
                || Texts.blank(connection.secrets(WordPressSecrets.class).applicationPassword())) {
            Capability none = Capability.unavailable("No valid site URL, user name or application password stored.");
            return CompletableFuture.completedFuture(new CapabilityReport(none, none));
        }
        List<String> secrets = WordPressRest.secretsOf(connection);
        Map<String, String> auth = WordPressRest.auth(connection);
        CompletableFuture<Exchange> me = http.send(new OutgoingRequest("GET",
                WordPressRest.route(site, "users/me", Map.of()), auth, null, null, null, site, secrets)
                .forWorkspace(WordPressRest.workspace(connection)));
        CompletableFuture<Exchange> options = http.send(new OutgoingRequest("OPTIONS",
                WordPressRest.route(site, "posts", Map.of()), auth, null, null, null, site, secrets)
                .forWorkspace(WordPressRest.workspace(connection)));
        return UnclassifiedFailure.asCapabilityReport(me.thenCombine(options, (meExchange, optionsExchange) -> {
            Capability publish = credentials(meExchange);
            if (!publish.available()) {
                boolean refused = meExchange instanceof Exchange.Answered answered && answered.status() == 401;
                return new CapabilityReport(publish, Capability.unavailable(publish.reason()), refused
                        ? "WordPress rejected the application password (HTTP 401 on users/me). Fix: create a new"
                                + " application password for the user and store it." : null);
            }
            return new CapabilityReport(publish, metaSupport(optionsExchange));
        }), site, secrets);
    }

    private static Capability credentials(Exchange exchange) {
        if (exchange instanceof Exchange.Unanswered unanswered) {
            return Capability.unavailable("The site could not be reached: " + unanswered.detail());
        }
        Exchange.Answered answered = (Exchange.Answered) exchange;
        if (answered.status() == 200) {
            return Capability.ok();
        }
        if (answered.status() == 401) {
            return Capability.unavailable("WordPress rejected the application password");
        }
        return Capability.unavailable("WordPress did not confirm the credentials (HTTP " + answered.status() + " on users/me)");
    }

    /** The mu-plugin shows as the meta key in the schema and the query arg of the GET endpoint. */
    static Capability metaSupport(Exchange exchange) {
        if (!(exchange instanceof Exchange.Answered answered) || answered.status() != 200) {
            return Capability.unavailable("The site's posts schema could not be read: " + WordPressRest.MU_PLUGIN_HINT
                    + " and check the site URL");
        }
        String key = WordPressAdapter.META_KEY;
        JsonNode body = Json.parse(answered.body());
        boolean inSchema = body.path("schema").path("properties").path("meta").path("properties").has(key);
        boolean filterable = false;
        for (JsonNode endpoint : body.path("endpoints")) {
            boolean get = false;
            for (JsonNode method : endpoint.path("methods")) {
                get |= "GET".equals(method.asText());
            }
            filterable |= get && endpoint.path("args").has(key);
        }
        if (inSchema && filterable) {
            return Capability.ok();
        }
        if (!inSchema) {
            return Capability.unavailable("the site does not expose Herald's meta key " + key + ": "
                    + WordPressRest.MU_PLUGIN_HINT);
        }
        return Capability.unavailable("the site cannot filter posts by " + key + ": " + WordPressRest.MU_PLUGIN_HINT);
    }
}
