package io.herald.adapters.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.herald.adapters.outbound.OutboundGuard;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Many calls in flight, all answered at once, as when a slow provider's answers come back
 * together: every call gets its answer, and the provider's executor never has more threads than
 * {@link ProviderHttp#EXECUTOR_THREADS}. With the JDK client's default, a cached pool, the first
 * test failed with 34 threads; the guarded client hands its answers over one at a time from its
 * one I/O thread, so there the test shows only that every call is answered on the fixed pool.
 */
class ProviderExecutorTest {

    /** No more than the guarded client's connections per host (100), so all are in flight at once. */
    private static final int CALLS = 100;

    private HttpServer server;
    private ExecutorService serverThreads;
    private CountDownLatch allArrived;

    @BeforeEach
    void holdEveryRequestUntilAllArrived() throws IOException {
        allArrived = new CountDownLatch(CALLS);
        serverThreads = Executors.newFixedThreadPool(CALLS);
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), CALLS);
        server.setExecutor(serverThreads);
        server.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            allArrived.countDown();
            try {
                allArrived.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException stopped) {
                Thread.currentThread().interrupt();
            }
            byte[] body = "{\"id\":\"1_2\"}".getBytes();
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
        serverThreads.shutdownNow();
    }

    @Test
    void theJdkClientAnswersEveryCallOnAFixedNumberOfThreads() throws Exception {
        ProviderHttp http = new ProviderHttp("executor-jdk", Duration.ofSeconds(5), Duration.ofSeconds(20),
                Clock.systemUTC());
        assertAllAnsweredOnFewThreads(http, "herald-executor-jdk-http-");
    }

    @Test
    void theGuardedClientAnswersEveryCallOnAFixedNumberOfThreads() throws Exception {
        ProviderHttp http = ProviderHttp.guarded("executor-guarded", Duration.ofSeconds(5), Duration.ofSeconds(20),
                Clock.systemUTC(), OutboundGuard.privateNetworksAllowed());
        assertAllAnsweredOnFewThreads(http, "herald-executor-guarded-http-");
    }

    private void assertAllAnsweredOnFewThreads(ProviderHttp http, String threadPrefix) throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/feed");
        List<CompletableFuture<Exchange>> calls = new ArrayList<>();
        for (int i = 0; i < CALLS; i++) {
            calls.add(http.send(new OutgoingRequest("POST", uri, Map.of(), "{\"message\":\"" + i + "\"}",
                    "application/json", "fingerprint-" + i, "feed", List.of())));
        }

        CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);

        for (CompletableFuture<Exchange> call : calls) {
            assertThat(call.get()).isInstanceOfSatisfying(Exchange.Answered.class,
                    answered -> assertThat(answered.status()).isEqualTo(200));
        }
        long executorThreads = Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().startsWith(threadPrefix))
                .count();
        assertThat(executorThreads).isPositive().isLessThanOrEqualTo(ProviderHttp.EXECUTOR_THREADS);
    }
}
