package io.herald.adapters.linkedin;

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
import io.herald.adapters.port.CommentRequest;
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
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * LinkedIn through the versioned Posts API ({@code /rest/posts}). A shared link is appended to
 * the commentary on its own line (LinkedIn turns it into a link preview), so that read-back
 * compares one text.
 */
public final class LinkedInAdapter implements ChannelAdapter {

    static final Duration READ_BACK_MARGIN = Duration.ofMinutes(5);
    static final int PAGE_SIZE = 100;
    static final int MAX_PAGES = 50;
    static final int COMMENTARY_MAX = 3000;
    private static final Pattern POST_URN = Pattern.compile("urn:li:(?:share|ugcPost):[0-9]+");

    private final ProviderHttp http;
    private final URI apiBase;
    private final String version;
    private final LinkedInPostEdits edits;
    private final LinkedInImages images;
    private final LinkedInComments comments;

    public LinkedInAdapter(ProviderHttp http, String apiBaseUrl, String version) {
        this.http = http;
        this.apiBase = URI.create(apiBaseUrl.endsWith("/") ? apiBaseUrl.substring(0, apiBaseUrl.length() - 1)
                : apiBaseUrl);
        this.version = version;
        this.edits = new LinkedInPostEdits(http, apiBase, version, this);
        this.images = new LinkedInImages(http, apiBase, this);
        this.comments = new LinkedInComments(http, apiBase, this);
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
        return images.upload(request);
    }

    @Override
    public CompletableFuture<PublishOutcome> comment(CommentRequest request) {
        return comments.comment(request);
    }

    static boolean sameOrigin(URI a, URI b) {
        return java.util.Objects.equals(a.getScheme(), b.getScheme()) && java.util.Objects.equals(a.getHost(),
                b.getHost()) && a.getPort() == b.getPort();
    }

    @Override
    public ChannelType type() {
        return ChannelType.LINKEDIN;
    }

    /** One image or a multi-image post (Herald allows 10); a link or images, not both. */
    @Override
    public List<FieldViolation> validate(Content content, PublicationAction action) {
        List<FieldViolation> violations = new ArrayList<>(ContentLimits.publishOnly(action));
        if (!ContentLimits.hasBody(content)) {
            violations.add(new FieldViolation("content.body", "LinkedIn needs the post's text"));
        } else if (content.body().length() > COMMENTARY_MAX) {
            violations.add(new FieldViolation("content.body",
                    "LinkedIn commentary is at most " + COMMENTARY_MAX + " characters"));
        }
        violations.addAll(ContentLimits.social(content, "LinkedIn", 10, 1250));
        return violations;
    }

    static String commentaryOf(Content content) {
        String body = content.body() == null ? "" : content.body();
        if (Texts.blank(content.link())) {
            return body;
        }
        return body.isBlank() ? content.link() : body + "\n\n" + content.link();
    }

    public static String postUrl(String urn) {
        return "https://www.linkedin.com/feed/update/" + urn + "/";
    }

    @Override
    public CompletableFuture<PublishOutcome> publish(PublishRequest request) {
        ChannelConnection connection = request.connection();
        String author = connection.settings().authorUrn();
        String token = connection.secrets().accessToken();
        ObjectNode body = Json.object();
        body.put("author", author);
        body.put("commentary", LittleText.escape(commentaryOf(request.content())));
        body.put("visibility", "PUBLIC");
        ObjectNode distribution = body.putObject("distribution");
        distribution.put("feedDistribution", "MAIN_FEED");
        distribution.putArray("targetEntities");
        distribution.putArray("thirdPartyDistributionChannels");
        body.put("lifecycleState", "PUBLISHED");
        body.put("isReshareDisabledByAuthor", false);
        LinkedInImages.attach(body, request.uploads());
        String fingerprint = Fingerprints.ofJson("POST", "/rest/posts", body);
        if (request.action() != PublicationAction.PUBLISH) {
            return refuseLocally(fingerprint, author, "unsupported_action",
                    "LinkedIn posts are published directly: use action publish.");
        }
        if (request.scheduledAt() != null && request.scheduledAt().isAfter(http.clock().instant())) {
            return refuseLocally(fingerprint, author, "scheduling_unsupported",
                    "LinkedIn's Posts API cannot schedule a post: send the request at the time it should appear.");
        }
        if (Texts.blank(author) || Texts.blank(token)) {
            return refuseLocally(fingerprint, author, "missing_credentials",
                    "The connection has no author URN or access token. Fix: reconnect LinkedIn.");
        }
        OutgoingRequest outgoing = new OutgoingRequest("POST", URI.create(apiBase + "/rest/posts"),
                headers(token), Json.write(body), "application/json", fingerprint, author, List.of(token));
        Instant startedAt = http.clock().instant();
        return UnclassifiedFailure.asPublishOutcome(http.send(outgoing).thenApply(this::classifyPublish), fingerprint, author, startedAt,
                        outgoing.secrets())
                .whenComplete((outcome, failure) -> OutcomeLog.publish("linkedin", request, outcome));
    }

    Map<String, String> headers(String token) {
        return Map.of("Authorization", "Bearer " + token,
                "LinkedIn-Version", version,
                "X-Restli-Protocol-Version", "2.0.0",
                "Accept", "application/json");
    }

    private static CompletableFuture<PublishOutcome> refuseLocally(String fingerprint, String target, String code,
                                                                  String detail) {
        return CompletableFuture.completedFuture(new PublishOutcome.Failed(FailureKind.REJECTED, code, detail, null,
                Traces.notCalled(fingerprint, target)));
    }

    static String traceId(Exchange.Answered answered) {
        return answered.header("x-li-uuid").or(() -> answered.header("x-li-request-id")).orElse(null);
    }

    PublishOutcome classifyPublish(Exchange exchange) {
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
        String code = errorCode(body);
        AttemptTrace trace = Traces.of(exchange, code, traceId(answered));
        String excerpt = Redactor.excerpt(Json.text(body, "message") != null ? Json.text(body, "message")
                : answered.body(), secrets, 300);
        int status = answered.status();
        if (answered.success()) {
            String urn = answered.header("x-restli-id").orElse(null);
            if (!Texts.blank(urn)) {
                return new PublishOutcome.Published(new ProviderRef(urn, postUrl(urn)), null, trace);
            }
            return new PublishOutcome.OutcomeUnknown(UnknownCause.UNPARSABLE_RESPONSE,
                    "LinkedIn answered HTTP " + status + " without an x-restli-id header naming the post.", trace);
        }
        if (status >= 500) {
            return new PublishOutcome.OutcomeUnknown(UnknownCause.SERVER_ERROR,
                    "LinkedIn answered HTTP " + status + ": " + excerpt + " The post may have been created.", trace);
        }
        if (status == 429) {
            Duration delay = RetryAfter.parse(answered.header("Retry-After"), http.clock())
                    .orElseGet(this::untilMidnightUtc);
            return new PublishOutcome.Failed(FailureKind.RATE_LIMITED, code != null ? code : "TOO_MANY_REQUESTS",
                    "LinkedIn daily limit reached: " + excerpt + " LinkedIn's limits reset at midnight UTC.", delay,
                    trace);
        }
        if (status == 422 && "DUPLICATE_POST".equals(code)) {
            Matcher urn = POST_URN.matcher(answered.body() == null ? "" : answered.body());
            ProviderRef earlier = urn.find() ? new ProviderRef(urn.group(), postUrl(urn.group())) : null;
            return new PublishOutcome.DuplicateRefused(earlier,
                    "LinkedIn refused the text as a duplicate" + (earlier != null ? " of " + earlier.id() : "")
                            + ": " + excerpt, trace);
        }
        if (isAuthLost(status, code)) {
            return new PublishOutcome.AuthLost(code, rejection(status, code, excerpt, answered.request().target()),
                    trace);
        }
        return new PublishOutcome.Failed(FailureKind.REJECTED, code != null ? code : "http_" + status,
                rejection(status, code, excerpt, answered.request().target()), null, trace);
    }

    /** LinkedIn's answers for a token that no longer works (PROVIDERS.md): all three ask for a new token. */
    static boolean isAuthLost(int status, String code) {
        return status == 401 && ("EXPIRED_ACCESS_TOKEN".equals(code) || "REVOKED_ACCESS_TOKEN".equals(code)
                || "INVALID_ACCESS_TOKEN".equals(code));
    }

    private String rejection(int status, String code, String excerpt, String author) {
        String fix;
        if (status == 401) {
            fix = "LinkedIn rejected the access token (expired or revoked). Fix: reconnect LinkedIn and store a new token.";
        } else if (status == 403) {
            fix = "The token may not post as " + author + ". Fix: grant "
                    + (isOrganization(author) ? "w_organization_social (and the admin role on the Page)"
                    : "w_member_social") + " and store a new token.";
        } else if (status == 426 || "NONEXISTENT_VERSION".equals(code)) {
            fix = "LinkedIn no longer serves API version " + version
                    + ". Fix: set herald.channels.linkedin.version to a current YYYYMM version.";
        } else if ("VERSION_MISSING".equals(code)) {
            fix = "The LinkedIn-Version header was refused. Fix: set herald.channels.linkedin.version.";
        } else {
            fix = "Fix the content or the connection.";
        }
        return "LinkedIn refused the post (HTTP " + status + (code != null ? ", " + code : "") + "): " + excerpt
                + " " + fix;
    }

    static boolean isOrganization(String author) {
        return author != null && author.startsWith("urn:li:organization:");
    }

    /** The error code of a LinkedIn error body: the input error's code where there is one. */
    static String errorCode(JsonNode body) {
        for (JsonNode input : body.path("errorDetails").path("inputErrors")) {
            String code = Json.text(input, "code");
            if (code != null) {
                return code;
            }
        }
        String code = Json.text(body, "code");
        if (code != null) {
            return code;
        }
        return Json.text(body, "serviceErrorCode");
    }

    private Duration untilMidnightUtc() {
        Instant now = http.clock().instant();
        Instant midnight = LocalDate.ofInstant(now, ZoneOffset.UTC).plusDays(1).atStartOfDay().toInstant(ZoneOffset.UTC);
        return Duration.between(now, midnight);
    }

    @Override
    public CompletableFuture<ReadBackOutcome> readBack(ReadBackRequest request) {
        if (request.ofComment()) {
            return comments.readBack(request);
        }
        ChannelConnection connection = request.connection();
        String token = connection.secrets().accessToken();
        if (Texts.blank(token)) {
            return CompletableFuture.completedFuture(
                    new ReadBackOutcome.Unavailable("No LinkedIn access token is stored."));
        }
        Instant windowStart = request.attemptStartedAt().minus(READ_BACK_MARGIN);
        Search search = new Search(connection, windowStart, http.clock().instant(),
                Texts.normalise(commentaryOf(request.content())));
        return UnclassifiedFailure.asReadBackOutcome(readPage(search, 0, 1), connection.settings().authorUrn(), List.of(token));
    }

    private URI byAuthor(String author, int start, int count) {
        return URI.create(apiBase + "/rest/posts?author=" + Forms.enc(author) + "&q=author&count=" + count
                + "&start=" + start + "&sortBy=CREATED");
    }

    private CompletableFuture<ReadBackOutcome> readPage(Search search, int start, int pageNo) {
        ChannelConnection connection = search.connection;
        String author = connection.settings().authorUrn();
        String token = connection.secrets().accessToken();
        OutgoingRequest outgoing = new OutgoingRequest("GET", byAuthor(author, start, PAGE_SIZE), headers(token),
                null, null, null, author, List.of(token));
        return http.send(outgoing).thenCompose(exchange -> {
            if (!(exchange instanceof Exchange.Answered answered)) {
                return CompletableFuture.completedFuture(new ReadBackOutcome.Unknown(
                        "The author's posts could not be read: " + (exchange instanceof Exchange.NotSent n
                                ? n.detail() : ((Exchange.NoAnswer) exchange).detail())));
            }
            JsonNode body = Json.parse(answered.body());
            if (answered.status() != 200) {
                return CompletableFuture.completedFuture(readFailure(answered, body, author));
            }
            JsonNode elements = body.path("elements");
            if (!elements.isArray()) {
                return CompletableFuture.completedFuture(new ReadBackOutcome.Unknown(
                        "LinkedIn's answer had no elements list (start " + start + ")."));
            }
            boolean olderThanWindow = false;
            for (JsonNode post : elements) {
                if (!search.consider(post)) {
                    olderThanWindow = true;
                }
            }
            if (olderThanWindow || elements.size() < PAGE_SIZE) {
                return CompletableFuture.completedFuture(search.result(pageNo));
            }
            if (pageNo >= MAX_PAGES) {
                return CompletableFuture.completedFuture(new ReadBackOutcome.Unknown(
                        "The author has more than " + (MAX_PAGES * PAGE_SIZE) + " posts in the window; not read completely."));
            }
            return readPage(search, start + elements.size(), pageNo + 1);
        });
    }

    static ReadBackOutcome readFailure(Exchange.Answered answered, JsonNode body, String author) {
        String code = errorCode(body);
        String message = Redactor.excerpt(Json.text(body, "message"), answered.request().secrets(), 200);
        if (answered.status() == 403 || "ACCESS_DENIED".equals(code)) {
            return new ReadBackOutcome.Unavailable(missingReadScope(author, message));
        }
        if (answered.status() == 401) {
            String reason = "LinkedIn rejected the access token (" + message + "). Reconnect LinkedIn and store a new"
                    + " token.";
            return isAuthLost(401, code) ? new ReadBackOutcome.AuthLost(code, reason)
                    : new ReadBackOutcome.Unavailable(reason);
        }
        return new ReadBackOutcome.Unknown("LinkedIn did not return the author's posts (HTTP " + answered.status()
                + (code != null ? ", " + code : "") + "): " + message);
    }

    static String missingReadScope(String author, String message) {
        String scope = isOrganization(author) ? "r_organization_social" : "r_member_social";
        return "missing " + scope + ": LinkedIn refused to read the author's posts (" + message
                + "). Grant " + scope + " to the token to enable read-back.";
    }

    /** Posts are read newest first; one older than the window ends the reading. */
    private static final class Search {
        final ChannelConnection connection;
        final Instant windowStart;
        final Instant windowEnd;
        final String text;
        final List<JsonNode> matches = new ArrayList<>();
        int seen;

        Search(ChannelConnection connection, Instant windowStart, Instant windowEnd, String text) {
            this.connection = connection;
            this.windowStart = windowStart;
            this.windowEnd = windowEnd;
            this.text = text;
        }

        /** False when the post is older than the window. */
        boolean consider(JsonNode post) {
            seen++;
            long createdAt = post.path("createdAt").asLong(0);
            if (createdAt > 0) {
                Instant created = Instant.ofEpochMilli(createdAt);
                if (created.isBefore(windowStart)) {
                    return false;
                }
                if (created.isAfter(windowEnd.plusSeconds(60))) {
                    return true;
                }
            }
            String commentary = LittleText.unescape(Json.text(post, "commentary"));
            if (Texts.normalise(commentary).equals(text)) {
                matches.add(post);
            }
            return true;
        }

        ReadBackOutcome result(int pages) {
            if (matches.size() == 1) {
                String urn = Json.text(matches.get(0), "id");
                return new ReadBackOutcome.Found(new ProviderRef(urn, postUrl(urn)),
                        "Post " + urn + " created " + Instant.ofEpochMilli(matches.get(0).path("createdAt").asLong(0))
                                + " has the attempt's text; " + seen + " posts in " + pages + " page(s) read.");
            }
            if (matches.isEmpty()) {
                return new ReadBackOutcome.NotFound("No post with the attempt's text among the author's posts since "
                        + windowStart + " (" + seen + " posts, " + pages + " page(s) read).");
            }
            return new ReadBackOutcome.Unknown(matches.size() + " posts have the attempt's text since " + windowStart
                    + ": " + matches.stream().map(p -> Json.text(p, "id")).toList());
        }
    }

    /**
     * Publishing is judged from the token's recorded scopes (writing cannot be tested without
     * posting); reading is tried with the same finder the read-back uses.
     */
    @Override
    public CompletableFuture<CapabilityReport> probe(ChannelConnection connection) {
        String author = connection.settings().authorUrn();
        String token = connection.secrets().accessToken();
        if (Texts.blank(author) || Texts.blank(token)) {
            Capability none = Capability.unavailable("No LinkedIn author or access token stored.");
            return CompletableFuture.completedFuture(new CapabilityReport(none, none));
        }
        String writeScope = isOrganization(author) ? "w_organization_social" : "w_member_social";
        List<String> scopes = connection.settings().scopes();
        Capability publish = scopes == null || scopes.isEmpty() || scopes.contains(writeScope)
                ? Capability.ok()
                : Capability.unavailable("The token lacks " + writeScope + ": Herald cannot post as " + author + ".");
        OutgoingRequest outgoing = new OutgoingRequest("GET", byAuthor(author, 0, 1), headers(token), null, null, null,
                author, List.of(token));
        return UnclassifiedFailure.asCapabilityReport(http.send(outgoing).thenApply(exchange -> {
            if (!(exchange instanceof Exchange.Answered answered)) {
                return new CapabilityReport(publish, Capability.unavailable("LinkedIn could not be asked: "
                        + (exchange instanceof Exchange.NotSent n ? n.detail() : ((Exchange.NoAnswer) exchange).detail())));
            }
            if (answered.status() == 200) {
                return new CapabilityReport(publish, Capability.ok());
            }
            JsonNode body = Json.parse(answered.body());
            if (answered.status() == 401) {
                Capability rejected = Capability.unavailable("LinkedIn rejected the access token: reconnect LinkedIn.");
                String code = errorCode(body);
                return new CapabilityReport(rejected, rejected, isAuthLost(401, code)
                        ? "LinkedIn rejected the access token (" + code + "): reconnect LinkedIn and store a new token."
                        : null);
            }
            ReadBackOutcome failure = readFailure(answered, body, author);
            String reason = failure instanceof ReadBackOutcome.Unavailable u ? u.reason()
                    : failure instanceof ReadBackOutcome.AuthLost lost ? lost.reason()
                    : ((ReadBackOutcome.Unknown) failure).reason();
            return new CapabilityReport(publish, Capability.unavailable(reason));
        }), author, List.of(token));
    }
}
