package io.herald.adapters.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.adapters.outbound.OutboundGuard;
import io.herald.contracts.publication.UnknownCause;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A provider that sends its answer's head and then a body that never ends: the read timeout alone
 * (which covers the head, or an idle socket) would keep such an exchange, and the attempt waiting
 * on it, open for good. The answer deadline ends it as "sent, no answer".
 */
class AnswerDeadlineTest {

    private ServerSocket server;
    private final List<Socket> accepted = new CopyOnWriteArrayList<>();

    @BeforeEach
    void trickleForever() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(() -> {
            while (!server.isClosed()) {
                try {
                    Socket socket = server.accept();
                    accepted.add(socket);
                    Thread trickle = new Thread(() -> trickle(socket), "trickle");
                    trickle.setDaemon(true);
                    trickle.start();
                } catch (IOException closed) {
                    return;
                }
            }
        }, "acceptor");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** The head at once, then one byte of a long body every 200 ms: never idle, never complete. */
    private static void trickle(Socket socket) {
        try (socket) {
            socket.getInputStream().read(new byte[8192]);
            OutputStream out = socket.getOutputStream();
            out.write(("HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            for (int i = 0; i < 600; i++) {
                out.write(' ');
                out.flush();
                Thread.sleep(200);
            }
        } catch (IOException | InterruptedException ended) {
            // the client gave up, or the test ended
        }
    }

    @AfterEach
    void stop() throws IOException {
        server.close();
        for (Socket socket : accepted) {
            socket.close();
        }
    }

    @Test
    void anAnswerWhoseBodyNeverEndsIsAnUnknownOutcomeOfTheJdkClient() throws Exception {
        ProviderHttp http = new ProviderHttp("facebook", Duration.ofSeconds(1), Duration.ofSeconds(1),
                Clock.systemUTC());
        assertEndsAsNoAnswer(http);
    }

    @Test
    void anAnswerWhoseBodyNeverEndsIsAnUnknownOutcomeOfTheGuardedClient() throws Exception {
        ProviderHttp http = ProviderHttp.guarded("wordpress", Duration.ofSeconds(1), Duration.ofSeconds(1),
                Clock.systemUTC(), OutboundGuard.privateNetworksAllowed());
        assertEndsAsNoAnswer(http);
    }

    private void assertEndsAsNoAnswer(ProviderHttp http) throws Exception {
        OutgoingRequest request = new OutgoingRequest("POST",
                URI.create("http://127.0.0.1:" + server.getLocalPort() + "/posts"), Map.of(), "{}",
                "application/json", "fingerprint", "target", List.of());

        // connect 1 s + twice the read timeout of 1 s: the deadline is 3 s; the trickle lasts 120 s
        Exchange exchange = http.send(request).get(20, TimeUnit.SECONDS);

        assertThat(exchange).isInstanceOf(Exchange.NoAnswer.class);
        Exchange.NoAnswer noAnswer = (Exchange.NoAnswer) exchange;
        assertThat(noAnswer.cause()).isEqualTo(UnknownCause.READ_TIMEOUT);
        assertThat(noAnswer.detail()).contains("no complete answer within 3000 ms");
    }
}
