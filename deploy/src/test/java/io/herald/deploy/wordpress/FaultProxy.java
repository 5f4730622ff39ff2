package io.herald.deploy.wordpress;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * An HTTP proxy between a client and Herald that can hold Herald's answer: the request reaches
 * Herald and is processed, but the client hears nothing until long after its timeout. Counts the
 * publication requests that passed through, so a test can see the client did send again. It can
 * also stand in front of a WordPress site and drop a request of Herald's.
 */
final class FaultProxy implements AutoCloseable {

    private static final Set<String> HOP_HEADERS = Set.of("host", "content-length", "connection", "expect", "upgrade",
            "transfer-encoding", "keep-alive", "date");

    private final HttpServer server;
    private final URI target;
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final AtomicInteger answersToHold = new AtomicInteger();
    private final AtomicInteger publicationPosts = new AtomicInteger();
    private volatile Duration hold = Duration.ZERO;
    private volatile Predicate<HttpExchange> toDrop = exchange -> false;
    private final AtomicInteger requestsToDrop = new AtomicInteger();
    private final AtomicInteger matching = new AtomicInteger();

    FaultProxy(URI target) throws IOException {
        this.target = target;
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/", this::forward);
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** The next {@code count} answers to {@code POST …/publications} reach the client only after {@code hold}. */
    void holdPublicationAnswers(int count, Duration hold) {
        this.hold = hold;
        answersToHold.set(count);
    }

    int publicationPosts() {
        return publicationPosts.get();
    }

    /**
     * The next {@code count} requests with this method whose query matches {@code query} never reach
     * the target: the client hears nothing for {@code silence}, then the connection closes. A timed-out
     * write that did not happen, as a lost request is.
     */
    void dropRequests(String method, Pattern query, int count, Duration silence) {
        matching.set(0);
        toDrop = exchange -> exchange.getRequestMethod().equals(method)
                && query.matcher(String.valueOf(exchange.getRequestURI().getRawQuery())).matches();
        this.hold = silence;
        requestsToDrop.set(count);
    }

    /** Requests that matched {@link #dropRequests}, dropped or forwarded. */
    int matchingRequests() {
        return matching.get();
    }

    private void forward(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            String method = exchange.getRequestMethod();
            if (toDrop.test(exchange)) {
                matching.incrementAndGet();
                if (requestsToDrop.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                    Thread.sleep(hold.toMillis());
                    return;
                }
            }
            HttpRequest.Builder request = HttpRequest.newBuilder(target.resolve(exchange.getRequestURI().toString()))
                    .timeout(Duration.ofSeconds(30))
                    .method(method, body.length == 0 ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofByteArray(body));
            exchange.getRequestHeaders().forEach((name, values) -> {
                if (!HOP_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
                    values.forEach(value -> request.header(name, value));
                }
            });
            boolean publication = method.equals("POST") && exchange.getRequestURI().getPath().endsWith("/publications");
            if (publication) {
                publicationPosts.incrementAndGet();
            }
            HttpResponse<byte[]> answer = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            if (publication && answersToHold.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                Thread.sleep(hold.toMillis());
            }
            answer.headers().map().forEach((name, values) -> {
                if (!HOP_HEADERS.contains(name.toLowerCase(Locale.ROOT)) && !name.startsWith(":")) {
                    exchange.getResponseHeaders().put(name, values);
                }
            });
            exchange.sendResponseHeaders(answer.statusCode(), answer.body().length == 0 ? -1 : answer.body().length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(answer.body());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException gone) {
            // the client gave up waiting for a held answer: that is the point of holding it
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
