package io.herald.deploy.channels;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.deploy.HeraldIntegrationTest;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Capability probes call a host the workspace chose, so each ends within 5 s whatever that host
 * does, and at most two of one workspace run at once (the third, a probe or a PUT, is 429 and
 * changes nothing; another workspace is not held up).
 */
class ProbeLimitsIT extends HeraldIntegrationTest {

    private static final Duration PROBE_LIMIT = Duration.ofSeconds(5);
    /** Headroom for a loaded test machine; a probe without its own limit would hang for good. */
    private static final Duration MARGIN = Duration.ofSeconds(3);

    @Test
    void aProbeOfASiteThatNeverFinishesAnsweringEndsWithinFiveSecondsAsUnavailable() throws Exception {
        try (SilentSite site = new SilentSite()) {
            String ws = newWorkspace("probe-timeout");
            long started = System.nanoTime();
            Response put = site.connect(ws, "wp-silent");
            assertThat(put.status()).as(put.toString()).isEqualTo(201);
            assertWithinLimit(started);
            assertUnansweredProbe(put.json().get("capabilities"));

            started = System.nanoTime();
            Response probe = send("POST", "/api/v1/workspaces/" + ws + "/channels/wp-silent/probe", null);
            assertThat(probe.status()).as(probe.toString()).isEqualTo(200);
            assertWithinLimit(started);
            assertUnansweredProbe(probe.json());
            assertThat(site.requests()).as("the probe did reach the site").isGreaterThanOrEqualTo(4);
        }
    }

    @Test
    void aThirdConcurrentProbeOfOneWorkspaceIsRefusedAndChangesNothing() throws Exception {
        try (SilentSite site = new SilentSite()) {
            String busy = newWorkspace("probe-busy");
            String other = newWorkspace("probe-other");
            CompletableFuture<Response> busyPut = CompletableFuture.supplyAsync(() -> site.connect(busy, "wp"));
            CompletableFuture<Response> otherPut = CompletableFuture.supplyAsync(() -> site.connect(other, "wp"));
            assertThat(busyPut.get(30, TimeUnit.SECONDS).status()).isEqualTo(201);
            assertThat(otherPut.get(30, TimeUnit.SECONDS).status()).isEqualTo(201);

            // a WordPress probe asks two things at once (users/me and the posts schema): four requests = two probes
            int before = site.requests();
            CompletableFuture<Response> first = probeAsync(busy);
            CompletableFuture<Response> second = probeAsync(busy);
            site.awaitRequests(before + 4);

            long started = System.nanoTime();
            Response third = send("POST", "/api/v1/workspaces/" + busy + "/channels/wp/probe", null);
            assertThat(third.status()).as(third.toString()).isEqualTo(429);
            assertThat(third.contentType()).startsWith("application/problem+json");
            assertThat(third.json().get("code").asText()).isEqualTo("rate_limited");
            assertThat(third.retryAfter()).as("Retry-After").isNotBlank();
            assertThat(Duration.ofNanos(System.nanoTime() - started)).as("refused at once").isLessThan(PROBE_LIMIT);
            // a PUT probes too: refused before anything is stored
            Response put = site.connect(busy, "wp-extra");
            assertThat(put.status()).as(put.toString()).isEqualTo(429);
            assertThat(send("GET", "/api/v1/workspaces/" + busy + "/channels", null).body())
                    .contains("\"wp\"").doesNotContain("wp-extra");
            assertThat(send("POST", "/api/v1/workspaces/" + busy + "/channels/wp-extra/probe", null).status())
                    .as("no such connection was stored").isEqualTo(404);
            assertThat(first).as("the refusals did not wait for the running probes").isNotDone();

            // the other workspace probes meanwhile
            CompletableFuture<Response> otherProbe = probeAsync(other);
            site.awaitRequests(before + 6);
            assertThat(otherProbe.get(PROBE_LIMIT.plus(MARGIN).toSeconds(), TimeUnit.SECONDS).status()).isEqualTo(200);
            assertThat(first.get(PROBE_LIMIT.plus(MARGIN).toSeconds(), TimeUnit.SECONDS).status()).isEqualTo(200);
            assertThat(second.get(PROBE_LIMIT.plus(MARGIN).toSeconds(), TimeUnit.SECONDS).status()).isEqualTo(200);
            // and the slots are free again
            assertThat(send("POST", "/api/v1/workspaces/" + busy + "/channels/wp/probe", null).status())
                    .isEqualTo(200);
        }
    }

    private CompletableFuture<Response> probeAsync(String ws) {
        return CompletableFuture.supplyAsync(() -> send("POST", "/api/v1/workspaces/" + ws + "/channels/wp/probe", null));
    }

    private static void assertWithinLimit(long startedNanos) {
        assertThat(Duration.ofNanos(System.nanoTime() - startedNanos)).isLessThan(PROBE_LIMIT.plus(MARGIN));
    }

    private static void assertUnansweredProbe(JsonNode capabilities) {
        for (String capability : List.of("publish", "reconcile")) {
            JsonNode c = capabilities.get(capability);
            assertThat(c.get("available").asBoolean()).as(capability).isFalse();
            // the probe's own limit, or the adapter's answer deadline (connect + twice the read
            // timeout, 5 s in the tests too), whichever ends the wait first
            assertThat(c.get("reason").asText()).as(capability).containsIgnoringCase("answer");
        }
    }

    /**
     * A WordPress site on 127.0.0.1 that reads each request and answers with headers, promising a
     * body it trickles out and never finishes: no read timeout ends the wait, only the probe's own
     * limit (or the adapter's answer deadline). A site that sends nothing at all is cut off by the
     * read timeout.
     */
    private final class SilentSite implements AutoCloseable {

        private final ServerSocket server;
        private final AtomicInteger requests = new AtomicInteger();
        private final List<Socket> held = new CopyOnWriteArrayList<>();
        private final Thread acceptor;

        SilentSite() throws IOException {
            server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            acceptor = new Thread(this::acceptForever, "silent-site");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        Response connect(String ws, String channel) {
            return send("PUT", "/api/v1/workspaces/" + ws + "/channels/" + channel,
                    "{\"type\":\"wordpress\",\"siteUrl\":\"http://127.0.0.1:" + server.getLocalPort() + "/blog\","
                            + "\"username\":\"editor\",\"applicationPassword\":\"abcd efgh ijkl\"}");
        }

        int requests() {
            return requests.get();
        }

        void awaitRequests(int expected) throws InterruptedException {
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (requests.get() < expected && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(requests.get()).as("requests that reached the silent site").isGreaterThanOrEqualTo(expected);
        }

        private void acceptForever() {
            while (!server.isClosed()) {
                try {
                    Socket socket = server.accept();
                    held.add(socket);
                    Thread reader = new Thread(() -> holdOpen(socket), "silent-site-connection");
                    reader.setDaemon(true);
                    reader.start();
                } catch (IOException closed) {
                    return;
                }
            }
        }

        private void holdOpen(Socket socket) {
            try {
                InputStream in = socket.getInputStream();
                int matched = 0;
                byte[] end = "\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
                while (matched < end.length) {
                    int b = in.read();
                    if (b < 0) {
                        return;
                    }
                    matched = b == end[matched] ? matched + 1 : (b == end[0] ? 1 : 0);
                }
                requests.incrementAndGet();
                OutputStream out = socket.getOutputStream();
                out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{")
                        .getBytes(StandardCharsets.US_ASCII));
                out.flush();
                // then a byte now and then, never enough: the socket is never idle long enough for a
                // read timeout, and the answer never completes
                while (!socket.isClosed()) {
                    Thread.sleep(500);
                    out.write(' ');
                    out.flush();
                }
            } catch (IOException | InterruptedException closed) {
                // the test is over
            }
        }

        @Override
        public void close() throws IOException {
            server.close();
            for (Socket socket : held) {
                socket.close();
            }
        }
    }
}
