package io.herald.adapters;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.herald.adapters.facebook.FacebookAdapter;
import io.herald.adapters.http.CannedProvider;
import io.herald.adapters.http.CannedProvider.Answer;
import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.linkedin.LinkedInAdapter;
import io.herald.adapters.port.ChannelConnection;
import io.herald.sandbox.SandboxFault;
import io.herald.sandbox.SandboxFault.Type;
import io.herald.sandbox.SandboxState.FacebookTokenKind;
import io.herald.adapters.wordpress.WordPressAdapter;
import io.herald.contracts.publication.Content;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Drives every adapter through successes, faults and error bodies that echo the credential, then
 * scans every outcome (traces and details) and every log line for the token values used.
 */
class SecretsNeverLeakTest extends SandboxTestSupport {

    private static final String FB_PAGE_TOKEN = "EAAGleakcheckPageToken0001";
    private static final String FB_USER_TOKEN = "EAAGleakcheckUserToken0002";
    private static final String LI_TOKEN = "AQVleakcheckLinkedInToken0003";
    private static final String WP_PASSWORD = "leak chec kWPp assw ord4";

    @Test
    void noTokenOrPasswordInAnyTraceDetailOrLogLine() throws Exception {
        Logger root = (Logger) LoggerFactory.getLogger("io.herald");
        Level previous = root.getLevel();
        ListAppender<ILoggingEvent> logs = new ListAppender<>();
        logs.start();
        root.addAppender(logs);
        root.setLevel(Level.TRACE);
        List<Object> outcomes = new ArrayList<>();
        try {
            exerciseSandbox(outcomes);
            exerciseEchoingProvider(outcomes);
            exerciseUnreachableProvider(outcomes);
        } finally {
            root.detachAppender(logs);
            root.setLevel(previous);
        }

        List<String> texts = new ArrayList<>();
        outcomes.forEach(o -> texts.add(o.toString()));
        logs.list.forEach(e -> {
            texts.add(e.getFormattedMessage());
            if (e.getThrowableProxy() != null) {
                texts.add(e.getThrowableProxy().getMessage());
            }
        });
        String basic = Base64.getEncoder().encodeToString(("editor:" + WP_PASSWORD.replace(" ", "")).getBytes());
        assertThat(outcomes).hasSizeGreaterThan(25);
        assertThat(logs.list).isNotEmpty();
        for (String text : texts) {
            assertThat(text).doesNotContain(FB_PAGE_TOKEN, FB_USER_TOKEN, LI_TOKEN, WP_PASSWORD,
                    WP_PASSWORD.replace(" ", ""), basic);
        }
    }

    private void exerciseSandbox(List<Object> outcomes) {
        String pageId = numericId();
        sandbox.facebookToken(FB_PAGE_TOKEN, pageId, FacebookTokenKind.PAGE);
        sandbox.facebookToken(FB_USER_TOKEN, pageId, FacebookTokenKind.USER);
        String author = "urn:li:person:" + unique("leak");
        sandbox.linkedInToken(LI_TOKEN, author, List.of("w_member_social"));
        String site = unique("leak");
        sandbox.wordPressSite(site, "editor", WP_PASSWORD, false);

        FacebookAdapter facebook = facebook(SHORT_READ_TIMEOUT);
        LinkedInAdapter linkedIn = linkedIn(SHORT_READ_TIMEOUT);
        WordPressAdapter wordPress = wordPress(SHORT_READ_TIMEOUT);
        ChannelConnection fb = facebookConnection(pageId, FB_PAGE_TOKEN, null);
        ChannelConnection fbUser = facebookConnection(pageId, FB_PAGE_TOKEN, FB_USER_TOKEN);
        ChannelConnection li = linkedInConnection(author, LI_TOKEN, List.of("w_member_social"));
        ChannelConnection wp = wordPressConnection(sandbox.wordPressSiteUrl(site), "editor", WP_PASSWORD);

        for (int i = 0; i < 120; i++) {
            sandbox.seed("facebook", pageId, "page filler " + i, null, null);
        }
        for (Type type : Type.values()) {
            long delay = type == Type.DELAY_THEN_CREATE ? 15_000 : type == Type.CREATE_AFTER ? 500 : 0;
            sandbox.fault(SandboxFault.of("facebook", pageId, type).withDelayMillis(delay).withRetryAfterSeconds(60));
            sandbox.fault(SandboxFault.of("linkedin", author, type).withDelayMillis(delay));
            sandbox.fault(SandboxFault.of("wordpress", site, type).withDelayMillis(delay));
            outcomes.add(result(facebook.publish(publish(fb, new Content(null, "fault " + type, null)))));
            outcomes.add(result(linkedIn.publish(publish(li, new Content(null, "fault " + type, null)))));
            outcomes.add(result(wordPress.publish(publish(wp, new Content("t", "fault " + type, null)))));
        }
        var fbRequest = publish(fb, new Content(null, "page filler 3", null));
        outcomes.add(result(facebook.publish(fbRequest)));
        // Paging links carry access_token: the read follows them.
        outcomes.add(result(facebook.readBack(readBack(fbRequest, clock.instant()))));
        outcomes.add(result(facebook.readBack(readBack(publish(fbUser, new Content(null, "x", null)), clock.instant()))));
        outcomes.add(result(facebook.probe(fbUser)));
        outcomes.add(result(linkedIn.readBack(readBack(publish(li, new Content(null, "x", null)), clock.instant()))));
        outcomes.add(result(linkedIn.probe(li)));
        outcomes.add(result(wordPress.readBack(readBack(publish(wp, new Content("t", "x", null)), clock.instant()))));
        outcomes.add(result(wordPress.probe(wp)));
        outcomes.add(result(wordPress.probe(wordPressConnection(sandbox.wordPressSiteUrl(site), "editor", "wrong"))));
    }

    private void exerciseEchoingProvider(List<Object> outcomes) throws Exception {
        try (CannedProvider echo = new CannedProvider()) {
            ProviderHttp http = new ProviderHttp("echo", Duration.ofSeconds(2), Duration.ofSeconds(5), clock);
            FacebookAdapter facebook = new FacebookAdapter(http, echo.baseUrl() + "/v25.0");
            LinkedInAdapter linkedIn = new LinkedInAdapter(http, echo.baseUrl(), "202611");
            WordPressAdapter wordPress = new WordPressAdapter(http);
            ChannelConnection fb = facebookConnection("42", FB_PAGE_TOKEN, null);
            ChannelConnection li = linkedInConnection("urn:li:person:x", LI_TOKEN, List.of());
            ChannelConnection wp = wordPressConnection(echo.baseUrl(), "editor", WP_PASSWORD);

            echo.answer(new Answer(400, Map.of(), "{\"error\":{\"message\":\"Invalid OAuth access token: " + FB_PAGE_TOKEN
                    + " (access_token=" + FB_PAGE_TOKEN + ")\",\"type\":\"OAuthException\",\"code\":190,\"fbtrace_id\":\"x\"}}"));
            outcomes.add(result(facebook.publish(publish(fb, new Content(null, "x", null)))));
            outcomes.add(result(facebook.readBack(readBack(publish(fb, new Content(null, "x", null)), clock.instant()))));
            echo.answer(new Answer(200, Map.of(), "{\"unexpected\":\"https://graph.example/?access_token=" + FB_PAGE_TOKEN + "\"}"));
            outcomes.add(result(facebook.publish(publish(fb, new Content(null, "x", null)))));
            echo.answer(new Answer(200, Map.of(), "{\"data\":[],\"paging\":{\"next\":\"http://elsewhere.example/v25.0/42/feed?access_token="
                    + FB_PAGE_TOKEN + "\"}}"));
            outcomes.add(result(facebook.readBack(readBack(publish(fb, new Content(null, "x", null)), clock.instant()))));
            echo.answer(new Answer(401, Map.of(), "{\"status\":401,\"code\":\"INVALID_ACCESS_TOKEN\",\"message\":\"Invalid access token "
                    + LI_TOKEN + "\"}"));
            outcomes.add(result(linkedIn.publish(publish(li, new Content(null, "x", null)))));
            outcomes.add(result(linkedIn.readBack(readBack(publish(li, new Content(null, "x", null)), clock.instant()))));
            echo.answer(new Answer(500, Map.of(), "{\"message\":\"upstream said Bearer " + LI_TOKEN + "\"}"));
            outcomes.add(result(linkedIn.publish(publish(li, new Content(null, "x", null)))));
            echo.answer(new Answer(401, Map.of(), "{\"code\":\"incorrect_password\",\"message\":\"The password " + WP_PASSWORD
                    + " / " + WP_PASSWORD.replace(" ", "") + " is wrong\",\"data\":{\"status\":401}}"));
            outcomes.add(result(wordPress.publish(publish(wp, new Content("t", "x", null)))));
            outcomes.add(result(wordPress.readBack(readBack(publish(wp, new Content("t", "x", null)), clock.instant()))));
            echo.answer(new Answer(500, Map.of(), "Authorization: Basic "
                    + Base64.getEncoder().encodeToString(("editor:" + WP_PASSWORD.replace(" ", "")).getBytes())));
            outcomes.add(result(wordPress.publish(publish(wp, new Content("t", "x", null)))));
        }
    }

    private void exerciseUnreachableProvider(List<Object> outcomes) throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        ProviderHttp http = new ProviderHttp("closed", Duration.ofSeconds(1), Duration.ofSeconds(1), clock);
        outcomes.add(result(new FacebookAdapter(http, "http://127.0.0.1:" + port)
                .publish(publish(facebookConnection("42", FB_PAGE_TOKEN, null), new Content(null, "x", null)))));
        outcomes.add(result(new WordPressAdapter(http).publish(publish(
                wordPressConnection("http://127.0.0.1:" + port, "editor", WP_PASSWORD), new Content("t", "x", null)))));
    }
}
