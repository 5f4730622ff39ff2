package io.herald.adapters.wordpress;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.adapters.http.Fingerprints;
import io.herald.adapters.http.OutcomeLog;
import io.herald.adapters.http.OutgoingRequest;
import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.http.Texts;
import io.herald.adapters.http.Traces;
import io.herald.adapters.http.UnclassifiedFailure;
import io.herald.adapters.port.ProviderAdapter;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.PublishOutcome;
import io.herald.adapters.port.PublishRequest;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.PublicationAction;
import io.herald.platform.wire.Json;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The write steps on a site: the post itself ({@code POST posts}: a draft, a future post with its
 * date in UTC, or published now; the publication id in its meta), and through the per-step classes
 * its images, its update and its delete.
 */
final class WordPressPublisher {

    private static final DateTimeFormatter WP_DATE =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'").withZone(ZoneOffset.UTC);

    private final ProviderHttp http;

    WordPressPublisher(ProviderHttp http) {
        this.http = http;
    }

    /** The write steps: the post itself (here), and the per-step classes' images, edit and delete; no first comment. */
    static ProviderAdapter.Publisher steps(ProviderHttp http) {
        WordPressPostEditor edits = new WordPressPostEditor(http);
        return new ProviderAdapter.Publisher(new WordPressPublisher(http)::publish,
                new WordPressMediaUpload(http)::upload, null, edits::edit, edits::delete);
    }

    CompletableFuture<PublishOutcome> publish(PublishRequest request) {
        ChannelConnection connection = request.connection();
        String site = connection.settings(WordPressSettings.class).siteUrl();
        ObjectNode body = Json.object();
        body.put("title", request.content().title() == null ? "" : request.content().title());
        WordPressMediaUpload.attach(body, WordPressPostEditor.text(request.content()), request.uploads());
        Instant now = http.clock().instant();
        if (request.action() == PublicationAction.DRAFT) {
            body.put("status", "draft");
        } else if (request.scheduledAt() != null && request.scheduledAt().isAfter(now)) {
            body.put("status", "future");
            body.put("date", WP_DATE.format(request.scheduledAt().truncatedTo(ChronoUnit.SECONDS)));
        } else {
            body.put("status", "publish");
        }
        body.putObject("meta").put(WordPressAdapter.META_KEY, request.publicationId().value());
        String fingerprint = Fingerprints.ofJson("POST", "/wp/v2/posts", body);
        if (!WordPressRest.validSite(site) || Texts.blank(connection.settings(WordPressSettings.class).username())
                || Texts.blank(connection.secrets(WordPressSecrets.class).applicationPassword())) {
            return CompletableFuture.completedFuture(new PublishOutcome.Failed(FailureKind.REJECTED,
                    "missing_credentials",
                    "The connection has no valid site URL (http or https), user name or application password. "
                            + "Fix: reconnect the site.",
                    null, Traces.notCalled(fingerprint, site)));
        }
        OutgoingRequest outgoing = new OutgoingRequest("POST", WordPressRest.route(site, "posts", Map.of()),
                WordPressRest.auth(connection), Json.write(body), "application/json", fingerprint, site,
                WordPressRest.secretsOf(connection)).forWorkspace(WordPressRest.workspace(connection));
        Instant startedAt = http.clock().instant();
        String publicationId = request.publicationId().value();
        return UnclassifiedFailure.asPublishOutcome(http.send(outgoing)
                                .thenApply(exchange -> WordPressOutcome.of(exchange, publicationId, http.clock())),
                        fingerprint, site, startedAt, outgoing.secrets())
                .whenComplete((outcome, failure) -> OutcomeLog.publish("wordpress", request, outcome));
    }
}
