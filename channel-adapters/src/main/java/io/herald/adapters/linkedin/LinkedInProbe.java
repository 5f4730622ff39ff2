package io.herald.adapters.linkedin;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.adapters.http.Exchange;
import io.herald.adapters.http.OutgoingRequest;
import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.http.Texts;
import io.herald.adapters.http.UnclassifiedFailure;
import io.herald.adapters.port.ProviderAdapter;
import io.herald.adapters.port.CapabilityReport;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.ReadBackOutcome;
import io.herald.contracts.channel.Capability;
import io.herald.platform.wire.Json;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * What a LinkedIn connection's token allows. Publishing is judged from the token's recorded
 * scopes (writing cannot be tested without posting); reading is tried with the same list the
 * read-back uses, one post of the author's.
 */
final class LinkedInProbe implements ProviderAdapter.Probe {

    private final ProviderHttp http;
    private final LinkedInApi api;

    LinkedInProbe(ProviderHttp http, LinkedInApi api) {
        this.http = http;
        this.api = api;
    }

    @Override
    public CompletableFuture<CapabilityReport> probe(ChannelConnection connection) {
        String author = connection.settings(LinkedInSettings.class).authorUrn();
        String token = connection.secrets(LinkedInSecrets.class).accessToken();
        if (Texts.blank(author) || Texts.blank(token)) {
            Capability none = Capability.unavailable("No LinkedIn author or access token stored.");
            return CompletableFuture.completedFuture(new CapabilityReport(none, none));
        }
        String writeScope = LinkedInApi.isOrganization(author) ? "w_organization_social" : "w_member_social";
        List<String> scopes = connection.settings(LinkedInSettings.class).scopes();
        Capability publish = scopes == null || scopes.isEmpty() || scopes.contains(writeScope)
                ? Capability.ok()
                : Capability.unavailable("The token lacks " + writeScope + ": Herald cannot post as " + author + ".");
        OutgoingRequest outgoing = new OutgoingRequest("GET", api.byAuthor(author, 0, 1), api.headers(token), null,
                null, null, author, List.of(token));
        return UnclassifiedFailure.asCapabilityReport(http.send(outgoing)
                .thenApply(exchange -> report(exchange, publish, author)), author, List.of(token));
    }

    private static CapabilityReport report(Exchange exchange, Capability publish, String author) {
        if (exchange instanceof Exchange.Unanswered unanswered) {
            return new CapabilityReport(publish, Capability.unavailable("LinkedIn could not be asked: "
                    + unanswered.detail()));
        }
        Exchange.Answered answered = (Exchange.Answered) exchange;
        if (answered.status() == 200) {
            return new CapabilityReport(publish, Capability.ok());
        }
        JsonNode body = Json.parse(answered.body());
        if (answered.status() == 401) {
            Capability rejected = Capability.unavailable("LinkedIn rejected the access token: reconnect LinkedIn.");
            String code = LinkedInApi.errorCode(body);
            return new CapabilityReport(rejected, rejected, LinkedInApi.isAuthLost(401, code)
                    ? "LinkedIn rejected the access token (" + code + "): reconnect LinkedIn and store a new token."
                    : null);
        }
        ReadBackOutcome failure = LinkedInApi.readFailure(answered, body, author);
        String reason = failure instanceof ReadBackOutcome.Unavailable u ? u.reason()
                : failure instanceof ReadBackOutcome.AuthLost lost ? lost.reason()
                : ((ReadBackOutcome.Unknown) failure).reason();
        return new CapabilityReport(publish, Capability.unavailable(reason));
    }
}
