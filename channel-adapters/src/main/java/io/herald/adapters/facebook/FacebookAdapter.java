package io.herald.adapters.facebook;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.adapters.http.Exchange;
import io.herald.adapters.http.Fingerprints;
import io.herald.platform.wire.Forms;
import io.herald.platform.wire.Json;
import io.herald.adapters.http.OutcomeLog;
import io.herald.adapters.http.OutgoingRequest;
import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.http.Redactor;
import io.herald.adapters.http.Safety;
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
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.UnknownCause;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * Facebook Page posts through the Graph API: {@code POST /{page-id}/feed}, read-back through the
 * Page feed, capability probe with the read token. The token travels as a Bearer header, never in
 * the form body, so nothing that is logged or fingerprinted can contain it.
 */
public final class FacebookAdapter implements ChannelAdapter {

    static final Duration READ_BACK_MARGIN = Duration.ofMinutes(5);
    /** A bound on paging: a Page posting more than this in the window cannot be read back reliably. */
    static final int MAX_PAGES = 50;
    static final String FEED_FIELDS = "id,message,created_time,permalink_url,attachments{unshimmed_url}";

    private static final DateTimeFormatter CREATED_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssZ");

    /** A post on Facebook has either a link or photos; the comment limit is Herald's (API.md). */
    static final int MAX_IMAGES = 10;
    static final int COMMENT_MAX = 1250;
    static final int MESSAGE_MAX = 63206;

    private final ProviderHttp http;
    private final URI graphBase;
    private final FacebookPostEdits edits;
    private final FacebookPhotos photos;
    private final FacebookComments comments;

    public FacebookAdapter(ProviderHttp http, String graphBaseUrl) {
        this.http = http;
        this.graphBase = URI.create(graphBaseUrl.endsWith("/")
                ? graphBaseUrl.substring(0, graphBaseUrl.length() - 1) : graphBaseUrl);
        this.edits = new FacebookPostEdits(http, graphBase, this);
        this.photos = new FacebookPhotos(http, graphBase, this);
        this.comments = new FacebookComments(http, graphBase, this);
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
    public List<FieldViolation> validate(Content content, PublicationAction action) {
        List<FieldViolation> violations = new ArrayList<>(ContentLimits.publishOnly(action));
        boolean hasBody = ContentLimits.hasBody(content);
        if (!hasBody && content.link() == null && !content.hasMedia()) {
            violations.add(new FieldViolation("content.body", "Facebook needs a message, a link or images"));
        }
        if (hasBody && content.body().length() > MESSAGE_MAX) {
            violations.add(new FieldViolation("content.body",
                    "Facebook messages are at most " + MESSAGE_MAX + " characters"));
        }
        violations.addAll(ContentLimits.social(content, "Facebook", MAX_IMAGES, COMMENT_MAX));
        return violations;
    }

    @Override
    public CompletableFuture<PublishOutcome> uploadMedia(UploadRequest request) {
        return photos.upload(request);
    }

    @Override
    public CompletableFuture<PublishOutcome> comment(CommentRequest request) {
        return comments.comment(request);
    }

    @Override
    public ChannelType type() {
        return ChannelType.FACEBOOK;
    }

    @Override
    public CompletableFuture<PublishOutcome> publish(PublishRequest request) {
        ChannelConnection connection = request.connection();
        String pageId = connection.settings().pageId();
        String token = connection.secrets().pageAccessToken();
        Map<String, String> form = new LinkedHashMap<>();
        if (!Texts.blank(request.content().body())) {
            form.put("message", request.content().body());
        }
        if (!Texts.blank(request.content().link())) {
            form.put("link", request.content().link());
        }
        FacebookPhotos.attach(form, request.uploads());
        Instant now = http.clock().instant();
        if (request.scheduledAt() != null && request.scheduledAt().isAfter(now)) {
            form.put("published", "false");
            form.put("scheduled_publish_time", Long.toString(request.scheduledAt().getEpochSecond()));
        } else {
            form.put("published", "true");
        }
        String path = "/" + segment(pageId) + "/feed";
        String fingerprint = Fingerprints.ofParams("POST", path, form);
        if (request.action() != PublicationAction.PUBLISH) {
            return refuseLocally(fingerprint, pageId, "unsupported_action",
                    "A Facebook Page has no drafts through the Graph API: use action publish.");
        }
        if (Texts.blank(pageId) || Texts.blank(token)) {
            return refuseLocally(fingerprint, pageId, "missing_page_token",
                    "The connection has no Page id or Page access token. Fix: store a Page access token with "
                            + "pages_manage_posts and pages_read_engagement.");
        }
        OutgoingRequest outgoing = new OutgoingRequest("POST", URI.create(graphBase + path),
                Map.of("Authorization", "Bearer " + token, "Accept", "application/json"),
                Forms.encode(form), "application/x-www-form-urlencoded", fingerprint, pageId,
                secretsOf(connection));
        Instant startedAt = http.clock().instant();
        return Safety.publish(http.send(outgoing).thenApply(this::classifyPublish), fingerprint, pageId, startedAt,
                        outgoing.secrets())
                .whenComplete((outcome, failure) -> OutcomeLog.publish("facebook", request, outcome));
    }

    private static CompletableFuture<PublishOutcome> refuseLocally(String fingerprint, String target, String code,
                                                                  String detail) {
        return CompletableFuture.completedFuture(new PublishOutcome.Failed(FailureKind.REJECTED, code, detail, null,
                Traces.notCalled(fingerprint, target)));
    }

    PublishOutcome classifyPublish(Exchange exchange) {
        if (exchange instanceof Exchange.NotSent notSent) {
            return new PublishOutcome.Failed(FailureKind.NOT_SENT, null, notSent.detail(), null,
                    Traces.of(exchange, null, null));
        }
        if (exchange instanceof Exchange.NoAnswer noAnswer) {
            return new PublishOutcome.OutcomeUnknown(noAnswer.cause(), noAnswer.detail(),
                    Traces.of(exchange, null, null));
        }
        Exchange.Answered answered = (Exchange.Answered) exchange;
        List<String> secrets = answered.request().secrets();
        JsonNode body = Json.parse(answered.body());
        FacebookError error = FacebookError.of(answered, body);
        var trace = Traces.of(exchange, error == null ? null : error.codeText(), traceId(answered, body));
        if (answered.success()) {
            String id = Json.text(body, "id");
            if (!Texts.blank(id)) {
                return new PublishOutcome.Published(new ProviderRef(id, "https://www.facebook.com/" + id), null,
                        trace);
            }
            return new PublishOutcome.OutcomeUnknown(UnknownCause.UNPARSABLE_RESPONSE,
                    "Facebook answered HTTP " + answered.status() + " without a post id: "
                            + Redactor.excerpt(answered.body(), secrets, 300),
                    trace);
        }
        if (error == null) {
            if (answered.status() >= 500) {
                return new PublishOutcome.OutcomeUnknown(UnknownCause.SERVER_ERROR,
                        "Facebook answered HTTP " + answered.status() + ": "
                                + Redactor.excerpt(answered.body(), secrets, 300), trace);
            }
            if (answered.status() == 429) {
                return new PublishOutcome.Failed(FailureKind.RATE_LIMITED, "http_429",
                        "Facebook answered HTTP 429 (rate limited).",
                        FacebookError.delay(answered, http.clock()), trace);
            }
            return new PublishOutcome.Failed(FailureKind.REJECTED, "http_" + answered.status(),
                    "Facebook refused the request with HTTP " + answered.status() + ": "
                            + Redactor.excerpt(answered.body(), secrets, 300), null, trace);
        }
        return error.toPublishOutcome(answered, trace, http.clock());
    }

    static String traceId(Exchange.Answered answered, JsonNode body) {
        String fromBody = Json.text(body.path("error"), "fbtrace_id");
        return fromBody != null ? fromBody : answered.header("x-fb-trace-id").orElse(null);
    }

    @Override
    public CompletableFuture<ReadBackOutcome> readBack(ReadBackRequest request) {
        if (request.ofComment()) {
            return comments.readBack(request);
        }
        ChannelConnection connection = request.connection();
        String pageId = connection.settings().pageId();
        String token = readToken(connection);
        if (Texts.blank(token) || Texts.blank(pageId)) {
            return CompletableFuture.completedFuture(new ReadBackOutcome.Unavailable(
                    "No Page id or no Facebook token is stored for reading: store a Page access token."));
        }
        Instant windowStart = request.attemptStartedAt().minus(READ_BACK_MARGIN);
        Instant now = http.clock().instant();
        Map<String, String> query = new LinkedHashMap<>();
        query.put("fields", FEED_FIELDS);
        query.put("since", Long.toString(windowStart.getEpochSecond()));
        query.put("limit", "100");
        URI feed = URI.create(graphBase + "/" + segment(pageId) + "/feed?" + Forms.encode(query));
        Search search = new Search(connection, token, windowStart, now,
                Texts.normalise(request.content().body()), request.content().link());
        // A scheduled post is not in the feed until its time: read the Page's scheduled posts too.
        Map<String, String> scheduledQuery = new LinkedHashMap<>();
        scheduledQuery.put("fields", FEED_FIELDS);
        scheduledQuery.put("limit", "100");
        URI scheduled = URI.create(graphBase + "/" + segment(pageId) + "/scheduled_posts?"
                + Forms.encode(scheduledQuery));
        return Safety.readBack(readPage(feed, search, 1, 1, pages -> readPage(scheduled, search, 1, pages + 1,
                total -> done(search.result(total)))), pageId, secretsOf(connection));
    }

    private CompletableFuture<ReadBackOutcome> readPage(URI uri, Search search, int pageNo, int totalPages,
                                                        java.util.function.Function<Integer,
                                                                CompletableFuture<ReadBackOutcome>> whenRead) {
        OutgoingRequest outgoing = new OutgoingRequest("GET", uri, bearer(search.token), null, null, null,
                search.connection.settings().pageId(), secretsOf(search.connection));
        return http.send(outgoing).thenCompose(exchange -> {
            if (!(exchange instanceof Exchange.Answered answered)) {
                return done(new ReadBackOutcome.Unknown("The Page feed could not be read: "
                        + noAnswerDetail(exchange)));
            }
            JsonNode body = Json.parse(answered.body());
            if (answered.status() != 200) {
                return done(readFailure(answered, body, Texts.blank(search.connection.secrets().readAccessToken())));
            }
            JsonNode data = body.path("data");
            if (!data.isArray()) {
                return done(new ReadBackOutcome.Unknown("The Page feed answer had no data list (page " + pageNo
                        + "): " + Redactor.excerpt(answered.body(), answered.request().secrets(), 200)));
            }
            for (JsonNode post : data) {
                search.consider(post);
            }
            String next = Json.text(body.path("paging"), "next");
            if (Texts.blank(next)) {
                return whenRead.apply(totalPages);
            }
            if (pageNo >= MAX_PAGES) {
                return done(new ReadBackOutcome.Unknown("The Page feed has more than " + MAX_PAGES
                        + " pages in the window; not read completely."));
            }
            URI nextUri;
            try {
                nextUri = URI.create(next);
            } catch (IllegalArgumentException e) {
                return done(new ReadBackOutcome.Unknown("The Page feed gave an unusable paging link."));
            }
            if (!sameOrigin(nextUri, graphBase)) {
                return done(new ReadBackOutcome.Unknown("The Page feed's paging link points to another host ("
                        + nextUri.getHost() + "); not followed."));
            }
            return readPage(nextUri, search, pageNo + 1, totalPages + 1, whenRead);
        });
    }

    /** A read with another token than the Page's: its refusal is the reader's, not the connection's. */
    static ReadBackOutcome readFailure(Exchange.Answered answered, JsonNode body) {
        return readFailure(answered, body, false);
    }

    /** @param withPageToken the read used the Page token: its refusal is the connection's, not only the reader's */
    static ReadBackOutcome readFailure(Exchange.Answered answered, JsonNode body, boolean withPageToken) {
        FacebookError error = FacebookError.of(answered, body);
        if (error != null && error.authLost() && withPageToken) {
            return new ReadBackOutcome.AuthLost(error.providerCode(), error.readReason());
        }
        if (error != null && error.blocksReading()) {
            return new ReadBackOutcome.Unavailable(error.readReason());
        }
        String what = error != null ? "code " + error.code() + ": " + error.message()
                : "HTTP " + answered.status() + ": " + Redactor.excerpt(answered.body(), answered.request().secrets(), 200);
        return new ReadBackOutcome.Unknown("Facebook did not return the Page feed (" + what + ")");
    }

    static boolean sameOrigin(URI a, URI b) {
        return Objects.equals(a.getScheme(), b.getScheme()) && Objects.equals(a.getHost(), b.getHost())
                && a.getPort() == b.getPort();
    }

    private static String noAnswerDetail(Exchange exchange) {
        if (exchange instanceof Exchange.NotSent notSent) {
            return notSent.detail();
        }
        return ((Exchange.NoAnswer) exchange).detail();
    }

    private static <T> CompletableFuture<T> done(T value) {
        return CompletableFuture.completedFuture(value);
    }

    /** The posts seen so far in the window and those matching the attempt's text (and link). */
    private static final class Search {
        final ChannelConnection connection;
        final String token;
        final Instant windowStart;
        final Instant windowEnd;
        final String text;
        final String link;
        final List<JsonNode> matches = new ArrayList<>();
        int seen;

        Search(ChannelConnection connection, String token, Instant windowStart, Instant windowEnd, String text,
               String link) {
            this.connection = connection;
            this.token = token;
            this.windowStart = windowStart;
            this.windowEnd = windowEnd;
            this.text = text;
            this.link = link;
        }

        void consider(JsonNode post) {
            seen++;
            Instant created = parseCreated(Json.text(post, "created_time"));
            if (created != null && (created.isBefore(windowStart) || created.isAfter(windowEnd.plusSeconds(60)))) {
                return;
            }
            if (!Texts.normalise(Json.text(post, "message")).equals(text)) {
                return;
            }
            if (!Texts.blank(link)) {
                List<String> urls = new ArrayList<>();
                for (JsonNode attachment : post.path("attachments").path("data")) {
                    String url = Json.text(attachment, "unshimmed_url");
                    if (url != null) {
                        urls.add(url);
                    }
                }
                // Facebook no longer returns a post's link field; when it shows the attachment,
                // it must be the same link, otherwise the message alone decides.
                if (!urls.isEmpty() && urls.stream().noneMatch(u -> sameLink(u, link))) {
                    return;
                }
            }
            matches.add(post);
        }

        ReadBackOutcome result(int pages) {
            if (matches.size() == 1) {
                JsonNode post = matches.get(0);
                String id = Json.text(post, "id");
                String url = Json.text(post, "permalink_url");
                return new ReadBackOutcome.Found(new ProviderRef(id, url != null ? url : "https://www.facebook.com/" + id),
                        "Post " + id + " created " + Json.text(post, "created_time")
                                + " has the attempt's text; " + seen + " posts in " + pages + " page(s) read.");
            }
            if (matches.isEmpty()) {
                return new ReadBackOutcome.NotFound("No post with the attempt's text among " + seen
                        + " posts of the Page (feed and scheduled posts) since " + windowStart + " (" + pages
                        + " page(s) read).");
            }
            return new ReadBackOutcome.Unknown(matches.size() + " posts have the attempt's text since " + windowStart
                    + ": " + matches.stream().map(p -> Json.text(p, "id")).toList());
        }
    }

    static boolean sameLink(String a, String b) {
        return strip(a).equals(strip(b));
    }

    private static String strip(String url) {
        String s = url.trim();
        return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
    }

    static Instant parseCreated(String value) {
        if (value == null) {
            return null;
        }
        try {
            return OffsetDateTime.parse(value, CREATED_TIME).toInstant();
        } catch (DateTimeParseException e) {
            try {
                return OffsetDateTime.parse(value).toInstant();
            } catch (DateTimeParseException again) {
                return null;
            }
        }
    }

    /**
     * Publishing is judged from the stored Page token: the Graph API has no side-effect-free call
     * that proves {@code pages_manage_posts} on a Page token (debug_token needs an app token Herald
     * does not hold), so a missing permission shows up as a REJECTED first attempt with the fix.
     * A token the probe itself found invalid makes publishing unavailable too.
     */
    @Override
    public CompletableFuture<CapabilityReport> probe(ChannelConnection connection) {
        String pageId = connection.settings().pageId();
        String pageToken = connection.secrets().pageAccessToken();
        Capability publish = Texts.blank(pageToken) || Texts.blank(pageId)
                ? Capability.unavailable("No Page access token stored: Herald cannot post to this Page.")
                : Capability.ok();
        String token = readToken(connection);
        if (Texts.blank(token) || Texts.blank(pageId)) {
            return done(new CapabilityReport(publish,
                    Capability.unavailable("No Facebook token stored for reading the Page feed.")));
        }
        URI uri = URI.create(graphBase + "/" + segment(pageId) + "/feed?limit=1");
        OutgoingRequest outgoing = new OutgoingRequest("GET", uri, bearer(token), null, null, null, pageId,
                secretsOf(connection));
        boolean readsWithPageToken = Texts.blank(connection.secrets().readAccessToken());
        return Safety.probe(http.send(outgoing).thenApply(exchange -> {
            if (!(exchange instanceof Exchange.Answered answered)) {
                return new CapabilityReport(publish, Capability.unavailable(
                        "Facebook could not be asked: " + noAnswerDetail(exchange)));
            }
            if (answered.status() == 200) {
                return new CapabilityReport(publish, Capability.ok());
            }
            JsonNode body = Json.parse(answered.body());
            FacebookError error = FacebookError.of(answered, body);
            String reason = error != null && error.blocksReading() ? error.readReason()
                    : "Facebook refused to read the Page feed: " + (error != null
                            ? "code " + error.code() + ": " + error.message()
                            : "HTTP " + answered.status());
            Capability publishNow = publish;
            String authLost = null;
            if (readsWithPageToken && error != null && error.authLost()) {
                publishNow = Capability.unavailable("Facebook rejected the Page access token: " + error.message()
                        + " Fix: store a fresh Page access token.");
                authLost = "Facebook rejected the Page access token (code " + error.providerCode() + "): "
                        + error.message() + " Fix: store a fresh Page access token.";
            }
            return new CapabilityReport(publishNow, Capability.unavailable(reason), authLost);
        }), pageId, secretsOf(connection));
    }

    /** A Page id as a path segment; ids are numeric, but a mistyped one must not break the URI. */
    static String segment(String pageId) {
        return Forms.enc(pageId == null ? "" : pageId).replace("+", "%20");
    }

    static String readToken(ChannelConnection connection) {
        String read = connection.secrets().readAccessToken();
        return Texts.blank(read) ? connection.secrets().pageAccessToken() : read;
    }

    private static Map<String, String> bearer(String token) {
        return Map.of("Authorization", "Bearer " + token, "Accept", "application/json");
    }

    static List<String> secretsOf(ChannelConnection connection) {
        List<String> secrets = new ArrayList<>();
        secrets.add(connection.secrets().pageAccessToken());
        secrets.add(connection.secrets().readAccessToken());
        return secrets;
    }
}
