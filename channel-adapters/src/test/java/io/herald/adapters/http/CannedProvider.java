package io.herald.adapters.http;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A local HTTP server that answers every request with one canned provider answer and records what
 * it received: provider error bodies go through a real socket and a real HTTP parser.
 */
public final class CannedProvider implements AutoCloseable {

    public record Answer(int status, Map<String, String> headers, String body) {
    }

    public record Received(String method, String uri, Map<String, List<String>> headers, String body) {
    }

    private final HttpServer server;
    private volatile Answer answer = new Answer(200, Map.of(), "{}");
    /** Answers for requests whose URI contains the key, before the canned one (e.g. WordPress users/me). */
    private final Map<String, Answer> byUri = new java.util.concurrent.ConcurrentHashMap<>();
    private final List<Received> received = new CopyOnWriteArrayList<>();

    public CannedProvider() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            received.add(new Received(exchange.getRequestMethod(), exchange.getRequestURI().toString(),
                    Map.copyOf(exchange.getRequestHeaders()), body));
            String uri = exchange.getRequestURI().toString();
            Answer current = byUri.entrySet().stream().filter(e -> uri.contains(e.getKey()))
                    .map(Map.Entry::getValue).findFirst().orElse(answer);
            current.headers().forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
            byte[] bytes = current.body() == null ? new byte[0] : current.body().getBytes(StandardCharsets.UTF_8);
            if (current.body() != null && !current.headers().containsKey("Content-Type")) {
                exchange.getResponseHeaders().add("Content-Type", "application/json");
            }
            exchange.sendResponseHeaders(current.status(), bytes.length == 0 ? -1 : bytes.length);
            if (bytes.length > 0) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(bytes);
                }
            }
            exchange.close();
        });
        server.start();
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    public void answer(Answer next) {
        this.answer = next;
        received.clear();
    }

    /** Answers requests whose URI contains {@code uriPart} with {@code fixed}, whatever the canned answer. */
    public void answerFor(String uriPart, Answer fixed) {
        byUri.put(uriPart, fixed);
    }

    public List<Received> received() {
        return received;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
