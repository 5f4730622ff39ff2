package io.herald.adapters.wordpress;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.adapters.http.Exchange;
import io.herald.adapters.http.Fingerprints;
import io.herald.platform.wire.Forms;
import io.herald.platform.wire.Json;
import io.herald.adapters.http.OutcomeLog;
import io.herald.adapters.http.OutgoingRequest;
import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.http.Redactor;
import io.herald.adapters.http.RetryAfter;
import io.herald.adapters.http.UnclassifiedFailure;
import io.herald.adapters.http.Texts;
import io.herald.adapters.http.Traces;
import io.herald.adapters.port.CapabilityReport;
import io.herald.adapters.port.ChannelAdapter;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.PostChangeRequest;
import io.herald.adapters.port.PostReadRequest;
import io.herald.adapters.port.PostReading;
import io.herald.adapters.port.ContentLimits;
import io.herald.adapters.port.PublishOutcome;
import io.herald.adapters.port.PublishRequest;
import io.herald.adapters.port.ReadBackOutcome;
import io.herald.adapters.port.ReadBackRequest;
import io.herald.adapters.port.UploadRequest;
import io.herald.contracts.channel.Capability;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.error.FieldViolation;
import io.herald.contracts.publication.AttemptTrace;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.UnknownCause;
import java.net.URI;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * WordPress through its REST API with an Application Password. Every call uses the
 * {@code ?rest_route=} form ({@code {site}/?rest_route=/wp/v2/posts}): it works on every
 * WordPress, with or without pretty permalinks, whereas {@code /wp-json/} needs rewrite rules.
 * The publication id goes into the post's meta {@value #META_KEY}, which the Herald mu-plugin
 * keeps, exposes and lets a client filter by; read-back finds the post by it.
 */
public final class WordPressAdapter implements ChannelAdapter {

    public static final String META_KEY = "herald_publication_id";
    static final String MU_PLUGIN_HINT = "install the Herald mu-plugin (deploy/wordpress/) on the site";
    static final String READ_STATUSES = "draft,publish,future,pending,private";

    private static final DateTimeFormatter WP_DATE =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'").withZone(ZoneOffset.UTC);

    private final ProviderHttp http;
    private final WordPressPostEdits edits;
    private final WordPressMedia media;

    public WordPressAdapter(ProviderHttp http) {
        this.http = http;
        this.edits = new WordPressPostEdits(http, this);
        this.media = new WordPressMedia(http, this);
    }

    @Override
    public CompletableFuture<PublishOutcome> edit(PostChangeRequest request) {
        return edits.edit(request);
    }

    @Override
    public CompletableFuture<PublishOutcome> delete(PostChangeRequest request) {
        return edits.delete(request);
    }

    @Override
    public CompletableFuture<PostReading> readPost(PostReadRequest request) {
        return edits.read(request);
    }

    @Override
    public CompletableFuture<PublishOutcome> uploadMedia(UploadRequest request) {
        return media.upload(request);
    }

    @Override
    public ChannelType type() {
        return ChannelType.WORDPRESS;
    }

    /** Images become the featured image and figures in the content; WordPress posts take no first comment. */
    @Override
    public List<FieldViolation> validate(Content content, PublicationAction action) {
        List<FieldViolation> violations = new ArrayList<>();
        if (!ContentLimits.hasBody(content) && Texts.blank(content.title())) {
            violations.add(new FieldViolation("content", "WordPress needs a title or a body"));
        }
        violations.addAll(ContentLimits.images(content, 10));
        if (content.firstComment() != null) {
            violations.add(new FieldViolation("content.firstComment",
                    "a first comment is only posted on Facebook and LinkedIn"));
        }
        return violations;
    }

    /** {@code {site}/?rest_route=/wp/v2/{route}} plus query parameters. */
    static URI route(String siteUrl, String route, Map<String, String> query) {
        String site = siteUrl.endsWith("/") ? siteUrl.substring(0, siteUrl.length() - 1) : siteUrl;
        StringBuilder uri = new StringBuilder(site).append("/?rest_route=/wp/v2/").append(route);
        query.forEach((k, v) -> uri.append('&').append(Forms.enc(k)).append('=').append(Forms.enc(v)));
        return URI.create(uri.toString());
    }

    static boolean validSite(String siteUrl) {
        if (Texts.blank(siteUrl)) {
            return false;
        }
        try {
            URI uri = URI.create(siteUrl);
            return ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null
                    && uri.getRawQuery() == null;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static String password(ChannelConnection connection) {
        String password = connection.secrets().applicationPassword();
        return password == null ? null : password.replace(" ", "");
    }

    static Map<String, String> auth(ChannelConnection connection) {
        return Map.of("Authorization", "Basic " + Redactor.basic(connection.settings().username(), password(connection)),
                "Accept", "application/json");
    }

    static List<String> secretsOf(ChannelConnection connection) {
        List<String> secrets = new ArrayList<>();
        String raw = connection.secrets().applicationPassword();
        secrets.add(raw);
        if (raw != null && connection.settings().username() != null) {
            secrets.add(Redactor.basic(connection.settings().username(), password(connection)));
        }
        return secrets;
    }

    @Override
    public CompletableFuture<PublishOutcome> publish(PublishRequest request) {
        ChannelConnection connection = request.connection();
        String site = connection.settings().siteUrl();
        ObjectNode body = Json.object();
        body.put("title", request.content().title() == null ? "" : request.content().title());
        String text = request.content().body() == null ? "" : request.content().body();
        if (!Texts.blank(request.content().link())) {
            // A URL on its own line becomes an embed or a link in WordPress.
            text = text.isBlank() ? request.content().link() : text + "\n\n" + request.content().link();
        }
        WordPressMedia.attach(body, text, request.uploads());
        Instant now = http.clock().instant();
        if (request.action() == PublicationAction.DRAFT) {
            body.put("status", "draft");
        } else if (request.scheduledAt() != null && request.scheduledAt().isAfter(now)) {
            body.put("status", "future");
            body.put("date", WP_DATE.format(request.scheduledAt().truncatedTo(ChronoUnit.SECONDS)));
        } else {
            body.put("status", "publish");
        }
        body.putObject("meta").put(META_KEY, request.publicationId().value());
        String fingerprint = Fingerprints.ofJson("POST", "/wp/v2/posts", body);
        if (!validSite(site) || Texts.blank(connection.settings().username())
                || Texts.blank(connection.secrets().applicationPassword())) {
            return CompletableFuture.completedFuture(new PublishOutcome.Failed(FailureKind.REJECTED,
                    "missing_credentials",
                    "The connection has no valid site URL (http or https), user name or application password. "
                            + "Fix: reconnect the site.",
                    null, Traces.notCalled(fingerprint, site)));
        }
        OutgoingRequest outgoing = new OutgoingRequest("POST", route(site, "posts", Map.of()), auth(connection),
                Json.write(body), "application/json", fingerprint, site, secretsOf(connection));
        Instant startedAt = http.clock().instant();
        return UnclassifiedFailure.asPublishOutcome(http.send(outgoing)
                                .thenApply(exchange -> classifyPublish(exchange, request.publicationId().value())),
                        fingerprint, site, startedAt, outgoing.secrets())
                .whenComplete((outcome, failure) -> OutcomeLog.publish("wordpress", request, outcome));
    }

    PublishOutcome classifyPublish(Exchange exchange, String publicationId) {
        if (exchange instanceof Exchange.NotSent notSent) {
            return new PublishOutcome.Failed(FailureKind.NOT_SENT, null, notSent.detail(), null,
                    Traces.of(exchange, null, null));
        }
        if (exchange instanceof Exchange.NoAnswer noAnswer) {
            return new PublishOutcome.OutcomeUnknown(noAnswer.cause(), noAnswer.detail(), Traces.of(exchange, null, null));
        }
        Exchange.Answered answered = (Exchange.Answered) exchange;
        List<String> secrets = answered.request().secrets();
        JsonNode body = Json.parse(answered.body());
        String code = answered.success() ? null : Json.text(body, "code");
        AttemptTrace trace = Traces.of(exchange, code, answered.header("x-request-id").orElse(null));
        int status = answered.status();
        if (answered.success()) {
            JsonNode id = body.path("id");
            if (!id.canConvertToLong() || id.asLong() <= 0) {
                return new PublishOutcome.OutcomeUnknown(UnknownCause.UNPARSABLE_RESPONSE,
                        "WordPress answered HTTP " + status + " without a post id"
                                + (answered.bodyTooLarge() ? " (" + TOO_LARGE + ")" : "")
                                + "; the post may have been created.", trace);
            }
            ProviderRef ref = new ProviderRef(id.asText(), Json.text(body, "link"));
            // PHP sends an empty map as [] : "meta":[] means no registered meta at all.
            JsonNode meta = body.path("meta");
            boolean kept = meta.isObject() && publicationId.equals(Json.text(meta, META_KEY));
            Capability change = kept ? null : Capability.unavailable(
                    "the site no longer keeps Herald's meta key: " + MU_PLUGIN_HINT);
            return new PublishOutcome.Published(ref, change, trace);
        }
        String message = errorMessage(answered, body, 300);
        if (status >= 500) {
            return new PublishOutcome.OutcomeUnknown(UnknownCause.SERVER_ERROR,
                    "WordPress answered HTTP " + status + (code != null ? " (" + code + ")" : "") + ": " + message
                            + " The post may have been created.", trace);
        }
        if (status == 429) {
            return new PublishOutcome.Failed(FailureKind.RATE_LIMITED, code != null ? code : "http_429",
                    "The site refused the request as too many (HTTP 429): " + message,
                    RetryAfter.parse(answered.header("Retry-After"), http.clock()).orElse(null), trace);
        }
        String fix;
        if (status == 401) {
            // A stock site hides a wrong password behind generic codes: any 401 is a credential problem.
            fix = "WordPress did not accept the user name and application password. Fix: create a new "
                    + "application password for the user and store it.";
        } else if (status == 403) {
            fix = "The user may not " + ("rest_cannot_publish".equals(code) ? "publish" : "create") + " posts. "
                    + "Fix: give the user the Editor or Author role.";
        } else if ("rest_invalid_param".equals(code)) {
            fix = "A field was refused" + invalidParams(body) + ". Fix the content or schedule.";
        } else if (status == 404) {
            fix = "The site has no posts route at this address. Fix: check the site URL.";
        } else {
            fix = "Fix the content or the connection.";
        }
        String detail = "WordPress refused the post (HTTP " + status + (code != null ? ", " + code : "") + "): "
                + message + " " + fix;
        if (status == 401) {
            // a write refused with 401: the password was revoked or deleted (PROVIDERS.md), nothing was written
            return new PublishOutcome.AuthLost(code != null ? code : "http_401", detail, trace);
        }
        return new PublishOutcome.Failed(FailureKind.REJECTED, code != null ? code : "http_" + status, detail, null,
                trace);
    }

    static final String TOO_LARGE = "the answer was larger than 1 MiB and was not read";

    /**
     * The site's own error message, redacted and shortened. Never other body text: the site is
     * whatever host an admin typed in, and its answer must not carry arbitrary content into details.
     */
    private static String errorMessage(Exchange.Answered answered, JsonNode body, int max) {
        String message = Json.text(body, "message");
        if (message != null) {
            return Redactor.excerpt(message, answered.request().secrets(), max);
        }
        return answered.bodyTooLarge() ? "(" + TOO_LARGE + ")" : "(no WordPress error message)";
    }

    private static String invalidParams(JsonNode body) {
        JsonNode params = body.path("data").path("params");
        if (!params.isObject() || params.isEmpty()) {
            return "";
        }
        List<String> fields = new ArrayList<>();
        params.fields().forEachRemaining(e -> fields.add(e.getKey() + ": " + e.getValue().asText()));
        return " (" + Redactor.excerpt(String.join("; ", fields), List.of(), 300) + ")";
    }

    @Override
    public CompletableFuture<ReadBackOutcome> readBack(ReadBackRequest request) {
        ChannelConnection connection = request.connection();
        String site = connection.settings().siteUrl();
        if (!validSite(site) || Texts.blank(connection.secrets().applicationPassword())) {
            return CompletableFuture.completedFuture(new ReadBackOutcome.Unavailable(
                    "No valid site URL or no application password is stored for the site."));
        }
        String id = request.publicationId().value();
        List<String> secrets = secretsOf(connection);
        CompletableFuture<ReadBackOutcome> outcome = http.send(new OutgoingRequest("GET", route(site, "users/me",
                        Map.of()), auth(connection), null, null, null, site, secrets))
                .thenCompose(me -> {
                    User user = user(me);
                    if (user.unknownBecause() != null) {
                        return CompletableFuture.completedFuture(user.unknownBecause());
                    }
                    URI uri = route(site, "posts", Map.of(META_KEY, id, "status", READ_STATUSES, "context", "edit",
                            "per_page", "100"));
                    return http.send(new OutgoingRequest("GET", uri, auth(connection), null, null, null, site,
                            secrets)).thenApply(exchange -> classifyReadBack(exchange, id, user.id()));
                });
        return UnclassifiedFailure.asReadBackOutcome(outcome, site, secrets);
    }

    /** The connection's own user, or why it cannot be known (then the read-back's outcome). */
    private record User(long id, ReadBackOutcome unknownBecause) {
        static User because(ReadBackOutcome outcome) {
            return new User(0, outcome);
        }
    }

    /**
     * Who the application password belongs to ({@code GET users/me}): only posts this user wrote
     * are believed, since any other user of the site could put a publication id into a post's meta.
     */
    private static User user(Exchange exchange) {
        if (!(exchange instanceof Exchange.Answered answered)) {
            return User.because(new ReadBackOutcome.Unknown("The site could not be read: "
                    + (exchange instanceof Exchange.NotSent n ? n.detail() : ((Exchange.NoAnswer) exchange).detail())));
        }
        JsonNode body = Json.parse(answered.body());
        if (answered.status() == 401) {
            String code = Json.text(body, "code");
            return User.because(new ReadBackOutcome.AuthLost(code != null ? code : "http_401",
                    "WordPress rejected the application password (" + errorMessage(answered, body, 200)
                            + "). Fix: create a new application password for the user and store it."));
        }
        JsonNode id = body.path("id");
        if (answered.status() != 200 || !id.canConvertToLong() || id.asLong() <= 0) {
            return User.because(new ReadBackOutcome.Unknown("WordPress did not say which user the application "
                    + "password belongs to (HTTP " + answered.status() + " on users/me): "
                    + errorMessage(answered, body, 200)));
        }
        return new User(id.asLong(), null);
    }

    ReadBackOutcome classifyReadBack(Exchange exchange, String id, long userId) {
        if (!(exchange instanceof Exchange.Answered answered)) {
            return new ReadBackOutcome.Unknown("The site could not be read: "
                    + (exchange instanceof Exchange.NotSent n ? n.detail() : ((Exchange.NoAnswer) exchange).detail()));
        }
        JsonNode body = Json.parse(answered.body());
        String message = errorMessage(answered, body, 200);
        if (answered.status() == 401) {
            return new ReadBackOutcome.Unavailable("WordPress rejected the application password (" + message + ").");
        }
        if (answered.status() == 400 && "rest_invalid_param".equals(Json.text(body, "code"))) {
            return new ReadBackOutcome.Unavailable("WordPress refused to list drafts for this user (" + message
                    + "): check the application password and that the user can edit posts.");
        }
        if (answered.status() != 200 || !body.isArray()) {
            return new ReadBackOutcome.Unknown("WordPress did not return the post list (HTTP " + answered.status()
                    + "): " + message);
        }
        List<JsonNode> matches = new ArrayList<>();
        int byOthers = 0;
        for (JsonNode post : body) {
            JsonNode meta = post.path("meta");
            if (!meta.isObject() || !meta.has(META_KEY)) {
                return new ReadBackOutcome.Unavailable("the site does not expose Herald's meta key: "
                        + MU_PLUGIN_HINT);
            }
            if (!id.equals(Json.text(meta, META_KEY))) {
                return new ReadBackOutcome.Unavailable("the site ignored the " + META_KEY + " filter: "
                        + MU_PLUGIN_HINT);
            }
            if (post.path("author").asLong(-1) == userId) {
                matches.add(post);
            } else {
                byOthers++;
            }
        }
        String others = byOthers == 0 ? "" : " " + byOthers + " post(s) by other users of the site carry it and "
                + "were not believed.";
        if (matches.size() == 1) {
            JsonNode post = matches.get(0);
            return new ReadBackOutcome.Found(new ProviderRef(post.path("id").asText(), Json.text(post, "link")),
                    "Post " + post.path("id").asText() + " (" + Json.text(post, "status") + ") by the connection's "
                            + "user carries " + META_KEY + "=" + id + "." + others);
        }
        if (matches.isEmpty()) {
            return new ReadBackOutcome.NotFound("No post of the connection's user carries " + META_KEY + "=" + id
                    + " (statuses " + READ_STATUSES + ")." + others);
        }
        return new ReadBackOutcome.Unknown(matches.size() + " posts carry " + META_KEY + "=" + id + ": "
                + matches.stream().map(p -> p.path("id").asText()).toList());
    }

    @Override
    public CompletableFuture<CapabilityReport> probe(ChannelConnection connection) {
        String site = connection.settings().siteUrl();
        if (!validSite(site) || Texts.blank(connection.settings().username())
                || Texts.blank(connection.secrets().applicationPassword())) {
            Capability none = Capability.unavailable("No valid site URL, user name or application password stored.");
            return CompletableFuture.completedFuture(new CapabilityReport(none, none));
        }
        List<String> secrets = secretsOf(connection);
        CompletableFuture<Exchange> me = http.send(new OutgoingRequest("GET",
                route(site, "users/me", Map.of()), auth(connection), null, null, null, site, secrets));
        CompletableFuture<Exchange> options = http.send(new OutgoingRequest("OPTIONS",
                route(site, "posts", Map.of()), auth(connection), null, null, null, site, secrets));
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
        if (!(exchange instanceof Exchange.Answered answered)) {
            return Capability.unavailable("The site could not be reached: "
                    + (exchange instanceof Exchange.NotSent n ? n.detail() : ((Exchange.NoAnswer) exchange).detail()));
        }
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
            return Capability.unavailable("The site's posts schema could not be read: " + MU_PLUGIN_HINT + " and check the site URL");
        }
        JsonNode body = Json.parse(answered.body());
        boolean inSchema = body.path("schema").path("properties").path("meta").path("properties").has(META_KEY);
        boolean filterable = false;
        for (JsonNode endpoint : body.path("endpoints")) {
            boolean get = false;
            for (JsonNode method : endpoint.path("methods")) {
                get |= "GET".equals(method.asText());
            }
            filterable |= get && endpoint.path("args").has(META_KEY);
        }
        if (inSchema && filterable) {
            return Capability.ok();
        }
        if (!inSchema) {
            return Capability.unavailable("the site does not expose Herald's meta key " + META_KEY + ": " + MU_PLUGIN_HINT);
        }
        return Capability.unavailable("the site cannot filter posts by " + META_KEY + ": " + MU_PLUGIN_HINT);
    }
}
