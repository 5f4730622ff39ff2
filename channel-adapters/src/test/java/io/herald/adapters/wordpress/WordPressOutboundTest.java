package io.herald.adapters.wordpress;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.herald.adapters.SandboxTestSupport;
import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.outbound.HostResolver;
import io.herald.adapters.outbound.OutboundGuard;
import io.herald.adapters.outbound.OutboundProperties;
import io.herald.adapters.port.PublishOutcome;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.UnknownCause;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The WordPress adapter's client against a real listener on 127.0.0.1, under the outbound rules. */
class WordPressOutboundTest extends SandboxTestSupport {

    private HttpServer listener;
    private final AtomicInteger received = new AtomicInteger();
    private volatile int answerStatus = 201;
    private volatile byte[] answerBody = "{}".getBytes(StandardCharsets.UTF_8);

    @BeforeEach
    void listen() throws IOException {
        listener = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        listener.createContext("/", exchange -> {
            received.incrementAndGet();
            exchange.getRequestBody().readAllBytes();
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.getResponseHeaders().set("Location", "http://127.0.0.1:" + listener.getAddress().getPort()
                    + "/elsewhere");
            exchange.sendResponseHeaders(answerStatus, answerBody.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(answerBody);
            } catch (IOException clientStoppedReading) {
                // expected when the answer is too large
            }
        });
        listener.start();
    }

    @AfterEach
    void stop() {
        listener.stop(0);
    }

    private String site() {
        return "http://127.0.0.1:" + listener.getAddress().getPort() + "/blog";
    }

    private WordPressAdapter adapter(OutboundGuard guard) {
        return new WordPressAdapter(ProviderHttp.guarded("wordpress", Duration.ofSeconds(2), Duration.ofSeconds(5),
                clock, guard));
    }

    private PublishOutcome publishTo(OutboundGuard guard, String site) {
        return result(adapter(guard).publish(publish(wordPressConnection(site, "editor", "abcd efgh"),
                new Content("T", "body", null))));
    }

    @Test
    void aLoopbackSiteIsNeverCalledAndTheAttemptFailsAsNotSent() {
        PublishOutcome outcome = publishTo(new OutboundGuard(OutboundProperties.strict(), HostResolver.SYSTEM), site());

        assertThat(outcome).isInstanceOfSatisfying(PublishOutcome.Failed.class, failed -> {
            assertThat(failed.kind()).isEqualTo(FailureKind.NOT_SENT);
            assertThat(failed.detail()).contains("destination not allowed").contains("loopback");
            assertThat(failed.trace().sentAt()).isNull();
        });
        assertThat(received).hasValue(0);
    }

    @Test
    void aNameThatNowResolvesToLoopbackIsRefusedOnConnect() {
        HostResolver rebound = host -> new InetAddress[] {InetAddress.getLoopbackAddress()};
        String site = "http://blog.example:" + listener.getAddress().getPort();

        PublishOutcome outcome = publishTo(new OutboundGuard(OutboundProperties.strict(), rebound), site);

        assertThat(outcome).isInstanceOfSatisfying(PublishOutcome.Failed.class, failed ->
                assertThat(failed.kind()).isEqualTo(FailureKind.NOT_SENT));
        assertThat(received).hasValue(0);
    }

    @Test
    void aClosedPortIsNotSentAsBefore() throws IOException {
        int closed;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = socket.getLocalPort();
        }
        PublishOutcome outcome = publishTo(OutboundGuard.privateNetworksAllowed(), "http://127.0.0.1:" + closed);

        assertThat(outcome).isInstanceOfSatisfying(PublishOutcome.Failed.class, failed ->
                assertThat(failed.kind()).isEqualTo(FailureKind.NOT_SENT));
    }

    @Test
    void anAnswerLargerThanOneMebibyteIsNotReadAndLeavesTheOutcomeUnknown() {
        answerBody = ("{\"id\":7,\"link\":\"http://x/?p=7\",\"pad\":\"" + "x".repeat(ProviderHttp.MAX_ANSWER_BYTES)
                + "\"}").getBytes(StandardCharsets.UTF_8);

        PublishOutcome outcome = publishTo(OutboundGuard.privateNetworksAllowed(), site());

        assertThat(outcome).isInstanceOfSatisfying(PublishOutcome.OutcomeUnknown.class, unknown -> {
            assertThat(unknown.cause()).isEqualTo(UnknownCause.UNPARSABLE_RESPONSE);
            assertThat(unknown.detail()).contains("larger than 1 MiB").hasSizeLessThan(400);
        });
        assertThat(received).hasValue(1);
    }

    @Test
    void aRedirectIsNeverFollowed() {
        answerStatus = 307;

        PublishOutcome outcome = publishTo(OutboundGuard.privateNetworksAllowed(), site());

        assertThat(outcome).isInstanceOf(PublishOutcome.Failed.class);
        assertThat(received).hasValue(1);
    }

    @Test
    void bodyTextThatIsNotTheSitesErrorMessageNeverReachesTheDetail() {
        answerStatus = 400;
        answerBody = "<html>internal admin console: db-password=hunter2</html>".getBytes(StandardCharsets.UTF_8);

        PublishOutcome outcome = publishTo(OutboundGuard.privateNetworksAllowed(), site());

        assertThat(outcome).isInstanceOfSatisfying(PublishOutcome.Failed.class, failed -> {
            assertThat(failed.kind()).isEqualTo(FailureKind.REJECTED);
            assertThat(failed.detail()).doesNotContain("hunter2").doesNotContain("internal admin console");
        });
    }
}
