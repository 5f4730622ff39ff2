package io.herald.adapters;

import io.herald.adapters.wordpress.WordPressPlugin;
import io.herald.adapters.linkedin.LinkedInPlugin;
import io.herald.adapters.facebook.FacebookPlugin;
import io.herald.adapters.wordpress.WordPressSecrets;
import io.herald.adapters.wordpress.WordPressSettings;
import io.herald.adapters.linkedin.LinkedInSecrets;
import io.herald.adapters.linkedin.LinkedInSettings;
import io.herald.adapters.facebook.FacebookSecrets;
import io.herald.adapters.facebook.FacebookSettings;
import static org.assertj.core.api.Assertions.assertThat;

import io.herald.adapters.facebook.FacebookAdapter;
import io.herald.adapters.http.CannedProvider;
import io.herald.adapters.http.CannedProvider.Answer;
import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.linkedin.LinkedInAdapter;
import io.herald.adapters.port.ChannelAdapter;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.PublishOutcome;
import io.herald.adapters.port.PublishRequest;
import io.herald.adapters.port.ReadBackOutcome;
import io.herald.adapters.port.ReadBackRequest;
import io.herald.adapters.wordpress.WordPressAdapter;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.PublicationAction;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every provider answer docs/channels.md lists, served over real HTTP, through the adapter, to the
 * classification docs/architecture.md#outcome-classification gives it.
 */
class ProviderErrorClassificationTest {

    static final String FB_TOKEN = "EAAGtokenFacebookSecret123";
    static final String LI_TOKEN = "AQVtokenLinkedInSecret456";
    static final String WP_PASSWORD = "abcd efgh ijkl mnop";
    static final String PUB = "pub_e72fc7f415caa75d9cf15fba8e3a10f575c62a5d118ff6265baddf13033b2bc5";
    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-29T22:00:00Z"), ZoneOffset.UTC);

    static CannedProvider provider;
    static FacebookAdapter facebook;
    static LinkedInAdapter linkedIn;
    static WordPressAdapter wordPress;

    @BeforeAll
    static void start() throws Exception {
        provider = new CannedProvider();
        // WordPress read-back first asks who the application password belongs to
        provider.answerFor("rest_route=/wp/v2/users/me", new Answer(200, Map.of(), "{\"id\":1,\"name\":\"editor\"}"));
        facebook = new FacebookAdapter(http("facebook"), provider.baseUrl() + "/v25.0");
        linkedIn = new LinkedInAdapter(http("linkedin"), provider.baseUrl(), "202611");
        wordPress = new WordPressAdapter(http("wordpress"));
    }

    private static ProviderHttp http(String name) {
        return new ProviderHttp(name, Duration.ofSeconds(2), Duration.ofSeconds(5), CLOCK);
    }

    @AfterAll
    static void stop() {
        provider.close();
    }

    static ChannelConnection connection(ChannelType type) {
        return switch (type.wireName()) {
            case "facebook" -> new ChannelConnection(new WorkspaceId("acme"), new ChannelId("fb-main"), type,
                    new FacebookSettings("123456", false),
                    new FacebookSecrets(FB_TOKEN, null), false);
            case "linkedin" -> new ChannelConnection(new WorkspaceId("acme"), new ChannelId("li-main"), type,
                    new LinkedInSettings("urn:li:person:abc", List.of("w_member_social")),
                    new LinkedInSecrets(LI_TOKEN), false);
            case "wordpress" -> new ChannelConnection(new WorkspaceId("acme"), new ChannelId("wp-main"), type,
                    new WordPressSettings(provider.baseUrl(), "editor"),
                    new WordPressSecrets(WP_PASSWORD), false);
            default -> throw new IllegalArgumentException(type.wireName());
        };
    }

    static ChannelAdapter adapter(ChannelType type) {
        return switch (type.wireName()) {
            case "facebook" -> facebook;
            case "linkedin" -> linkedIn;
            case "wordpress" -> wordPress;
            default -> throw new IllegalArgumentException(type.wireName());
        };
    }

    static PublishRequest request(ChannelType type) {
        return new PublishRequest(new PublicationId(PUB), 1, PublicationAction.PUBLISH,
                new Content("Title", "Text of the post", null), null, connection(type));
    }

    static Arguments row(String name, ChannelType type, int status, Map<String, String> headers, String body,
                         String expected, String expectedCode) {
        return Arguments.of(name, type, new Answer(status, headers, body), expected, expectedCode);
    }

    static String fbError(int code, Integer subcode, String message) {
        return "{\"error\":{\"message\":\"" + message + "\",\"type\":\"OAuthException\",\"code\":" + code
                + (subcode != null ? ",\"error_subcode\":" + subcode : "")
                + ",\"fbtrace_id\":\"AbCdEfGh123\"}}";
    }

    static Stream<Arguments> publishAnswers() {
        var fb = FacebookPlugin.TYPE;
        var li = LinkedInPlugin.TYPE;
        var wp = WordPressPlugin.TYPE;
        Map<String, String> none = Map.of();
        return Stream.of(
                row("fb 200 id", fb, 200, none, "{\"id\":\"123456_789\"}", "PUBLISHED", null),
                row("fb 200 without id", fb, 200, none, "{\"success\":true}", "UNKNOWN:UNPARSABLE_RESPONSE", null),
                row("fb 200 not json", fb, 200, Map.of("Content-Type", "text/html"), "<html>ok</html>",
                        "UNKNOWN:UNPARSABLE_RESPONSE", null),
                row("fb code 1", fb, 500, none, fbError(1, null, "An unknown error occurred"), "UNKNOWN:SERVER_ERROR", "1"),
                row("fb code 2", fb, 500, none, fbError(2, null, "An unexpected error has occurred. Please retry your request later."),
                        "UNKNOWN:SERVER_ERROR", "2"),
                row("fb 502 html", fb, 502, Map.of("Content-Type", "text/html"), "<html>Bad Gateway</html>",
                        "UNKNOWN:SERVER_ERROR", null),
                row("fb code 4 (403)", fb, 403, none, fbError(4, null, "(#4) Application request limit reached"), "RATE_LIMITED", "4"),
                row("fb code 17", fb, 400, none, fbError(17, null, "(#17) User request limit reached"), "RATE_LIMITED", "17"),
                row("fb code 32", fb, 400, none, fbError(32, null, "(#32) Page request limit reached"), "RATE_LIMITED", "32"),
                row("fb code 613", fb, 400, none, fbError(613, null, "Calls to this api have exceeded the rate limit."), "RATE_LIMITED", "613"),
                row("fb code 80001", fb, 400, none, fbError(80001, null, "There have been too many calls to this Page account."), "RATE_LIMITED", "80001"),
                row("fb code 10", fb, 400, none, fbError(10, null, "(#10) Application does not have permission for this action"), "REJECTED", "10"),
                row("fb code 200", fb, 400, none, fbError(200, null, "(#200) If posting to a page, requires both pages_read_engagement and pages_manage_posts as an admin with sufficient administrative permission"),
                        "REJECTED", "200"),
                row("fb code 299", fb, 400, none, fbError(299, null, "(#299) Requires a permission"), "REJECTED", "299"),
                row("fb code 100", fb, 400, none, fbError(100, null, "(#100) The specified scheduled publish time is invalid."), "REJECTED", "100"),
                row("fb code 190/463", fb, 400, none, fbError(190, 463, "Error validating access token: Session has expired"), "AUTH_LOST", "190"),
                row("fb code 190/460", fb, 400, none, fbError(190, 460, "Error validating access token: The session has been invalidated because the user changed their password"), "AUTH_LOST", "190"),
                row("fb code 190/467", fb, 400, none, fbError(190, 467, "Error validating access token: The session is invalid because the user logged out."), "AUTH_LOST", "190"),
                row("fb code 190/458", fb, 400, none, fbError(190, 458, "Error validating access token: The user has not authorized application 1."), "AUTH_LOST", "190"),
                row("fb code 190 user token", fb, 400, none, fbError(190, null, "(#190) This method must be called with a Page Access Token"), "REJECTED", "190"),
                row("fb code 197", fb, 400, none, fbError(197, null, "(#197) Empty post"), "REJECTED", "197"),
                row("fb code 368", fb, 400, none, fbError(368, null, "The action attempted has been deemed abusive or is otherwise disallowed"), "REJECTED", "368"),
                row("fb code 506", fb, 400, none, fbError(506, null, "(#506) Duplicate status message"), "DUPLICATE", "506"),
                row("fb code 1500", fb, 400, none, fbError(1500, null, "The url you supplied is invalid"), "REJECTED", "1500"),
                row("li 201", li, 201, Map.of("x-restli-id", "urn:li:share:7141138937766391808"), null, "PUBLISHED", null),
                row("li 201 without id", li, 201, none, null, "UNKNOWN:UNPARSABLE_RESPONSE", null),
                row("li 403 ACCESS_DENIED", li, 403, none, "{\"status\":403,\"serviceErrorCode\":100,\"code\":\"ACCESS_DENIED\",\"message\":\"Not enough permissions to access: partnerApiPostsExternal.CREATE.20260901\"}",
                        "REJECTED", "ACCESS_DENIED"),
                row("li 401", li, 401, none, "{\"status\":401,\"serviceErrorCode\":65600,\"code\":\"INVALID_ACCESS_TOKEN\",\"message\":\"Invalid access token\"}",
                        "AUTH_LOST", "INVALID_ACCESS_TOKEN"),
                row("li 401 expired", li, 401, none, "{\"status\":401,\"serviceErrorCode\":65602,\"code\":\"EXPIRED_ACCESS_TOKEN\",\"message\":\"The token used in the request has expired\"}",
                        "AUTH_LOST", "EXPIRED_ACCESS_TOKEN"),
                row("li 401 revoked", li, 401, none, "{\"status\":401,\"serviceErrorCode\":65601,\"code\":\"REVOKED_ACCESS_TOKEN\",\"message\":\"The token used in the request has been revoked by the user\"}",
                        "AUTH_LOST", "REVOKED_ACCESS_TOKEN"),
                row("li 400 VERSION_MISSING", li, 400, none, "{\"status\":400,\"code\":\"VERSION_MISSING\",\"message\":\"A version must be present.\"}",
                        "REJECTED", "VERSION_MISSING"),
                row("li 426", li, 426, none, "{\"status\":426,\"code\":\"NONEXISTENT_VERSION\",\"message\":\"Requested version 202301 is not active\"}",
                        "VERSION_RETIRED", "NONEXISTENT_VERSION"),
                row("li 429", li, 429, none, "{\"status\":429,\"serviceErrorCode\":101,\"code\":\"TOO_MANY_REQUESTS\",\"message\":\"Resource level throttle APPLICATION DAY limit for calls to this resource is reached.\"}",
                        "RATE_LIMITED", "TOO_MANY_REQUESTS"),
                row("li 422 duplicate", li, 422, none, "{\"message\":\"ERROR :: /commentary :: Content is a duplicate of urn:li:share:7141138937766391808\",\"errorDetails\":{\"inputErrors\":[{\"description\":\"Duplicate post is detected\",\"input\":{},\"code\":\"DUPLICATE_POST\"}]},\"status\":422}",
                        "DUPLICATE", "DUPLICATE_POST"),
                row("li 422 other", li, 422, none, "{\"message\":\"/commentary :: too long\",\"errorDetails\":{\"inputErrors\":[{\"description\":\"too long\",\"input\":{},\"code\":\"FIELD_LENGTH_TOO_LONG\"}]},\"status\":422}",
                        "REJECTED", "FIELD_LENGTH_TOO_LONG"),
                row("li 500", li, 500, none, "{\"status\":500,\"message\":\"Internal Server Error\"}", "UNKNOWN:SERVER_ERROR", null),
                row("wp 201 with meta", wp, 201, none, "{\"id\":42,\"link\":\"https://blog.example/?p=42\",\"status\":\"publish\",\"meta\":{\"herald_publication_id\":\"" + PUB + "\"}}",
                        "PUBLISHED", null),
                row("wp 201 meta []", wp, 201, none, "{\"id\":42,\"link\":\"https://blog.example/?p=42\",\"status\":\"publish\",\"meta\":[]}",
                        "PUBLISHED:CAPABILITY_LOST", null),
                row("wp 201 meta without key", wp, 201, none, "{\"id\":42,\"link\":\"https://blog.example/?p=42\",\"meta\":{\"footnotes\":\"\"}}",
                        "PUBLISHED:CAPABILITY_LOST", null),
                row("wp 201 without id", wp, 201, none, "{\"status\":\"publish\"}", "UNKNOWN:UNPARSABLE_RESPONSE", null),
                row("wp 401 rest_cannot_create", wp, 401, none, "{\"code\":\"rest_cannot_create\",\"message\":\"Sorry, you are not allowed to create posts as this user.\",\"data\":{\"status\":401}}",
                        "AUTH_LOST", "rest_cannot_create"),
                row("wp 403 rest_cannot_create", wp, 403, none, "{\"code\":\"rest_cannot_create\",\"message\":\"Sorry, you are not allowed to create posts as this user.\",\"data\":{\"status\":403}}",
                        "REJECTED", "rest_cannot_create"),
                row("wp 403 rest_cannot_publish", wp, 403, none, "{\"code\":\"rest_cannot_publish\",\"message\":\"Sorry, you are not allowed to publish posts in this post type.\",\"data\":{\"status\":403}}",
                        "REJECTED", "rest_cannot_publish"),
                row("wp 400 rest_invalid_param", wp, 400, none, "{\"code\":\"rest_invalid_param\",\"message\":\"Invalid parameter(s): status\",\"data\":{\"status\":400,\"params\":{\"status\":\"status is not one of publish, future, draft, pending, private.\"}}}",
                        "REJECTED", "rest_invalid_param"),
                row("wp 400 rest_invalid_json", wp, 400, none, "{\"code\":\"rest_invalid_json\",\"message\":\"Invalid JSON body passed.\",\"data\":{\"status\":400}}",
                        "REJECTED", "rest_invalid_json"),
                row("wp 401 rest_forbidden", wp, 401, none, "{\"code\":\"rest_forbidden\",\"message\":\"Sorry, you are not allowed to do that.\",\"data\":{\"status\":401}}",
                        "AUTH_LOST", "rest_forbidden"),
                row("wp 404 rest_no_route", wp, 404, none, "{\"code\":\"rest_no_route\",\"message\":\"No route was found matching the URL and request method.\",\"data\":{\"status\":404}}",
                        "REJECTED", "rest_no_route"),
                row("wp 404 rest_post_invalid_id", wp, 404, none, "{\"code\":\"rest_post_invalid_id\",\"message\":\"Invalid post ID.\",\"data\":{\"status\":404}}",
                        "REJECTED", "rest_post_invalid_id"),
                row("wp 500", wp, 500, none, "{\"code\":\"internal_server_error\",\"message\":\"<p>There has been a critical error on this website.</p>\",\"data\":{\"status\":500}}",
                        "UNKNOWN:SERVER_ERROR", "internal_server_error"));
    }

    @ParameterizedTest(name = "{0} -> {3}")
    @MethodSource("publishAnswers")
    void classifiesPublishAnswer(String name, ChannelType type, Answer answer, String expected, String expectedCode)
            throws Exception {
        provider.answer(answer);

        PublishOutcome outcome = adapter(type).publish(request(type)).get(30, TimeUnit.SECONDS);

        assertThat(describe(outcome)).as(name).isEqualTo(expected);
        assertThat(outcome.trace().httpStatus()).isEqualTo(answer.status());
        assertThat(outcome.trace().responseReceived()).isTrue();
        assertThat(outcome.trace().providerCode()).isEqualTo(expectedCode);
        assertThat(outcome.trace().sentAt()).isEqualTo(CLOCK.instant());
        if (outcome instanceof PublishOutcome.Failed failed && failed.kind() == FailureKind.REJECTED) {
            assertThat(failed.detail()).isNotBlank();
        }
        assertThat(outcome.toString()).doesNotContain(FB_TOKEN, LI_TOKEN, WP_PASSWORD, WP_PASSWORD.replace(" ", ""));
    }

    static String describe(PublishOutcome outcome) {
        if (outcome instanceof PublishOutcome.Published p) {
            return p.reconcileCapabilityChange() == null ? "PUBLISHED" : "PUBLISHED:CAPABILITY_LOST";
        }
        if (outcome instanceof PublishOutcome.Failed f) {
            return f.kind().name();
        }
        if (outcome instanceof PublishOutcome.DuplicateRefused) {
            return "DUPLICATE";
        }
        if (outcome instanceof PublishOutcome.AuthLost lost) {
            assertThat(lost.reason()).isNotBlank();
            return "AUTH_LOST";
        }
        if (outcome instanceof PublishOutcome.VersionRetired retired) {
            assertThat(retired.reason()).startsWith("API version retired; update herald.channels.linkedin.version");
            return "VERSION_RETIRED";
        }
        return "UNKNOWN:" + ((PublishOutcome.OutcomeUnknown) outcome).cause();
    }

    @Test
    void facebookRateLimitDelayComesFromTheUsageHeaderElseRetryAfter() throws Exception {
        provider.answer(new Answer(400, Map.of("x-business-use-case-usage",
                "{\"123456\":[{\"type\":\"pages\",\"call_count\":100,\"total_cputime\":30,\"total_time\":30,\"estimated_time_to_regain_access\":7}]}"),
                fbError(32, null, "(#32) Page request limit reached")));
        PublishOutcome.Failed fromUsage = (PublishOutcome.Failed) facebook.publish(request(FacebookPlugin.TYPE)).get(30, TimeUnit.SECONDS);
        provider.answer(new Answer(403, Map.of("Retry-After", "120"), fbError(4, null, "(#4) Application request limit reached")));
        PublishOutcome.Failed fromRetryAfter = (PublishOutcome.Failed) facebook.publish(request(FacebookPlugin.TYPE)).get(30, TimeUnit.SECONDS);
        provider.answer(new Answer(400, Map.of(), fbError(613, null, "Calls to this api have exceeded the rate limit.")));
        PublishOutcome.Failed withoutDelay = (PublishOutcome.Failed) facebook.publish(request(FacebookPlugin.TYPE)).get(30, TimeUnit.SECONDS);

        assertThat(fromUsage.retryAfter()).isEqualTo(Duration.ofMinutes(7));
        assertThat(fromRetryAfter.retryAfter()).isEqualTo(Duration.ofSeconds(120));
        assertThat(withoutDelay.retryAfter()).isNull();
    }

    @Test
    void linkedInRateLimitWaitsUntilMidnightUtc() throws Exception {
        provider.answer(new Answer(429, Map.of(), "{\"status\":429,\"serviceErrorCode\":101,\"code\":\"TOO_MANY_REQUESTS\",\"message\":\"limit\"}"));

        PublishOutcome.Failed failed = (PublishOutcome.Failed) linkedIn.publish(request(LinkedInPlugin.TYPE)).get(30, TimeUnit.SECONDS);

        assertThat(failed.retryAfter()).isEqualTo(Duration.ofHours(2));
    }

    @Test
    void linkedInDuplicateNamesTheEarlierUrn() throws Exception {
        provider.answer(new Answer(422, Map.of(), "{\"message\":\"ERROR :: /commentary :: Content is a duplicate of urn:li:share:7141138937766391808\",\"errorDetails\":{\"inputErrors\":[{\"description\":\"Duplicate post is detected\",\"input\":{},\"code\":\"DUPLICATE_POST\"}]},\"status\":422}"));

        PublishOutcome.DuplicateRefused duplicate = (PublishOutcome.DuplicateRefused) linkedIn.publish(request(LinkedInPlugin.TYPE)).get(30, TimeUnit.SECONDS);

        assertThat(duplicate.earlierPost().id()).isEqualTo("urn:li:share:7141138937766391808");
        assertThat(duplicate.earlierPost().url()).isEqualTo("https://www.linkedin.com/feed/update/urn:li:share:7141138937766391808/");
    }

    static Stream<Arguments> readAnswers() {
        return Stream.of(
                Arguments.of("fb user token", FacebookPlugin.TYPE, new Answer(400, Map.of(),
                        fbError(190, null, "(#190) This method must be called with a Page Access Token")),
                        "UNAVAILABLE", "must be called with a Page Access Token"),
                Arguments.of("fb expired", FacebookPlugin.TYPE, new Answer(400, Map.of(),
                        fbError(190, 463, "Error validating access token: Session has expired")), "AUTH_LOST", "fresh Page access token"),
                Arguments.of("fb rate limited", FacebookPlugin.TYPE, new Answer(400, Map.of(),
                        fbError(32, null, "(#32) Page request limit reached")), "UNKNOWN", "32"),
                Arguments.of("fb 500", FacebookPlugin.TYPE, new Answer(500, Map.of(),
                        fbError(2, null, "An unexpected error has occurred.")), "UNKNOWN", "code 2"),
                Arguments.of("fb no paging, empty", FacebookPlugin.TYPE, new Answer(200, Map.of(), "{\"data\":[]}"),
                        "NOT_FOUND", "0 posts"),
                Arguments.of("li access denied", LinkedInPlugin.TYPE, new Answer(403, Map.of(),
                        "{\"status\":403,\"serviceErrorCode\":100,\"code\":\"ACCESS_DENIED\",\"message\":\"Not enough permissions to access: partnerApiPostsExternal.FINDER-author.20260901\"}"),
                        "UNAVAILABLE", "missing r_member_social"),
                Arguments.of("li 401", LinkedInPlugin.TYPE, new Answer(401, Map.of(),
                        "{\"status\":401,\"serviceErrorCode\":65600,\"code\":\"INVALID_ACCESS_TOKEN\",\"message\":\"Invalid access token\"}"),
                        "AUTH_LOST", "rejected the access token"),
                Arguments.of("li 429", LinkedInPlugin.TYPE, new Answer(429, Map.of(),
                        "{\"status\":429,\"serviceErrorCode\":101,\"code\":\"TOO_MANY_REQUESTS\",\"message\":\"limit\"}"),
                        "UNKNOWN", "TOO_MANY_REQUESTS"),
                Arguments.of("wp forbidden status", WordPressPlugin.TYPE, new Answer(400, Map.of(),
                        "{\"code\":\"rest_invalid_param\",\"message\":\"Invalid parameter(s): status\",\"data\":{\"status\":400,\"params\":{\"status\":\"Status is forbidden.\"},\"details\":{\"status\":{\"code\":\"rest_forbidden_status\",\"message\":\"Status is forbidden.\",\"data\":{\"status\":401}}}}}"),
                        "UNAVAILABLE", "check the application password"),
                Arguments.of("wp 401", WordPressPlugin.TYPE, new Answer(401, Map.of(),
                        "{\"code\":\"rest_forbidden_context\",\"message\":\"Sorry, you are not allowed to edit posts in this post type.\",\"data\":{\"status\":401}}"),
                        "UNAVAILABLE", "rejected the application password"),
                Arguments.of("wp stock site ignores the filter", WordPressPlugin.TYPE, new Answer(200, Map.of(),
                        "[{\"id\":7,\"status\":\"publish\",\"meta\":[]}]"), "UNAVAILABLE", "install the Herald mu-plugin"),
                Arguments.of("wp two matches", WordPressPlugin.TYPE, new Answer(200, Map.of(),
                        "[{\"id\":7,\"author\":1,\"meta\":{\"herald_publication_id\":\"" + PUB + "\"}},{\"id\":8,\"author\":1,\"meta\":{\"herald_publication_id\":\"" + PUB + "\"}}]"),
                        "UNKNOWN", "2 posts"),
                Arguments.of("wp none", WordPressPlugin.TYPE, new Answer(200, Map.of(), "[]"), "NOT_FOUND", PUB));
    }

    @ParameterizedTest(name = "read-back {0} -> {3}")
    @MethodSource("readAnswers")
    void classifiesReadBackAnswer(String name, ChannelType type, Answer answer, String expected, String mentions)
            throws Exception {
        provider.answer(answer);
        PublishRequest publish = request(type);

        ReadBackOutcome outcome = adapter(type).readBack(new ReadBackRequest(publish.publicationId(), 1,
                publish.action(), publish.content(), CLOCK.instant(), publish.connection())).get(30, TimeUnit.SECONDS);

        String text = describe(outcome);
        assertThat(text).as(name).startsWith(expected + " ").contains(mentions);
    }

    static String describe(ReadBackOutcome outcome) {
        if (outcome instanceof ReadBackOutcome.Found f) {
            return "FOUND " + f.evidence();
        }
        if (outcome instanceof ReadBackOutcome.NotFound n) {
            return "NOT_FOUND " + n.detail();
        }
        if (outcome instanceof ReadBackOutcome.Unknown u) {
            return "UNKNOWN " + u.reason();
        }
        if (outcome instanceof ReadBackOutcome.AuthLost lost) {
            return "AUTH_LOST " + lost.reason();
        }
        return "UNAVAILABLE " + ((ReadBackOutcome.Unavailable) outcome).reason();
    }

    @Test
    void malformedConnectionSettingsEndInAnOutcomeNotAnException() throws Exception {
        ChannelConnection badSite = new ChannelConnection(new WorkspaceId("acme"), new ChannelId("wp-bad"),
                WordPressPlugin.TYPE, new WordPressSettings("not a url", "editor"),
                new WordPressSecrets(WP_PASSWORD), false);
        ChannelConnection badPage = new ChannelConnection(new WorkspaceId("acme"), new ChannelId("fb-bad"),
                FacebookPlugin.TYPE, new FacebookSettings("12 34/feed?x", false),
                new FacebookSecrets(FB_TOKEN, null), false);
        provider.answer(new Answer(400, Map.of(), fbError(803, null, "(#803) Some of the aliases you requested do not exist")));

        PublishOutcome site = wordPress.publish(new PublishRequest(new PublicationId(PUB), 1, PublicationAction.PUBLISH,
                new Content("t", "b", null), null, badSite)).get(30, TimeUnit.SECONDS);
        PublishOutcome page = facebook.publish(new PublishRequest(new PublicationId(PUB), 1, PublicationAction.PUBLISH,
                new Content(null, "b", null), null, badPage)).get(30, TimeUnit.SECONDS);

        assertThat(describe(site)).isEqualTo("REJECTED");
        assertThat(describe(page)).isEqualTo("REJECTED");
        assertThat(provider.received()).extracting(CannedProvider.Received::uri)
                .containsExactly("/v25.0/12%2034%2Ffeed%3Fx/feed");
        assertThat(wordPress.probe(badSite).get(30, TimeUnit.SECONDS).publish().available()).isFalse();
    }

    @Test
    void speaksEachProvidersWireFormat() throws Exception {
        provider.answer(new Answer(200, Map.of(), "{\"id\":\"123456_1\"}"));
        facebook.publish(new PublishRequest(new PublicationId(PUB), 1, PublicationAction.PUBLISH,
                new Content(null, "Hello & welcome", "https://example.org/?a=1&b=2"),
                CLOCK.instant().plus(Duration.ofDays(1)), connection(FacebookPlugin.TYPE))).get(30, TimeUnit.SECONDS);
        var fb = provider.received().get(0);
        assertThat(fb.method()).isEqualTo("POST");
        assertThat(fb.uri()).isEqualTo("/v25.0/123456/feed");
        assertThat(fb.headers().get("Authorization")).containsExactly("Bearer " + FB_TOKEN);
        assertThat(io.herald.platform.wire.Forms.decode(fb.body())).containsExactlyInAnyOrderEntriesOf(Map.of(
                "message", "Hello & welcome", "link", "https://example.org/?a=1&b=2", "published", "false",
                "scheduled_publish_time", Long.toString(CLOCK.instant().plus(Duration.ofDays(1)).getEpochSecond())));

        provider.answer(new Answer(201, Map.of("x-restli-id", "urn:li:share:1"), null));
        linkedIn.publish(request(LinkedInPlugin.TYPE)).get(30, TimeUnit.SECONDS);
        var li = provider.received().get(0);
        assertThat(li.uri()).isEqualTo("/rest/posts");
        assertThat(li.headers().get("Linkedin-version")).containsExactly("202611");
        assertThat(li.headers().get("X-restli-protocol-version")).containsExactly("2.0.0");
        assertThat(li.headers().get("Authorization")).containsExactly("Bearer " + LI_TOKEN);
        var liBody = io.herald.platform.wire.Json.parse(li.body());
        assertThat(liBody.path("author").asText()).isEqualTo("urn:li:person:abc");
        assertThat(liBody.path("visibility").asText()).isEqualTo("PUBLIC");
        assertThat(liBody.path("lifecycleState").asText()).isEqualTo("PUBLISHED");
        assertThat(liBody.path("distribution").path("feedDistribution").asText()).isEqualTo("MAIN_FEED");

        provider.answer(new Answer(201, Map.of(), "{\"id\":1,\"meta\":{\"herald_publication_id\":\"" + PUB + "\"}}"));
        wordPress.publish(request(WordPressPlugin.TYPE)).get(30, TimeUnit.SECONDS);
        var wp = provider.received().get(0);
        assertThat(wp.uri()).isEqualTo("/?rest_route=/wp/v2/posts");
        assertThat(wp.headers().get("Authorization")).containsExactly("Basic "
                + java.util.Base64.getEncoder().encodeToString("editor:abcdefghijklmnop".getBytes()));
        var wpBody = io.herald.platform.wire.Json.parse(wp.body());
        assertThat(wpBody.path("status").asText()).isEqualTo("publish");
        assertThat(wpBody.path("title").asText()).isEqualTo("Title");
        assertThat(wpBody.path("meta").path("herald_publication_id").asText()).isEqualTo(PUB);
    }
}
