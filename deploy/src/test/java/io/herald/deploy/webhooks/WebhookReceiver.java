package io.herald.deploy.webhooks;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

/**
 * A calendar system's webhook endpoint: a real HTTP listener on 127.0.0.1 at a port fixed up front,
 * so it can be down (not listening) and come back at the same URL. It answers as scripted and
 * records every request it reads.
 */
public final class WebhookReceiver {

    /** One request as it arrived. */
    public record Received(String path, String id, String timestamp, String signature, String contentType,
                           String body, String traceparent) {
    }

    /** How the receiver answers: a status, after a delay, with optional headers. */
    public record Answer(int status, long delayMillis, String location, String retryAfter) {
        public static Answer status(int status) {
            return new Answer(status, 0, null, null);
        }

        public static Answer slow(long delayMillis) {
            return new Answer(200, delayMillis, null, null);
        }
    }

    private final int port;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private volatile Answer answer = Answer.status(200);
    private HttpServer server;

    public WebhookReceiver() {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            this.port = probe.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }

    public void answer(Answer next) {
        this.answer = next;
    }

    public List<Received> received() {
        return List.copyOf(received);
    }

    public synchronized void start() {
        if (server != null) {
            return;
        }
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 50);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            received.add(new Received(exchange.getRequestURI().getPath(),
                    exchange.getRequestHeaders().getFirst("webhook-id"),
                    exchange.getRequestHeaders().getFirst("webhook-timestamp"),
                    exchange.getRequestHeaders().getFirst("webhook-signature"),
                    exchange.getRequestHeaders().getFirst("Content-Type"), body,
                    exchange.getRequestHeaders().getFirst("traceparent")));
            Answer now = answer;
            try {
                if (now.delayMillis() > 0) {
                    Thread.sleep(now.delayMillis());
                }
                if (now.location() != null) {
                    exchange.getResponseHeaders().set("Location", now.location());
                }
                if (now.retryAfter() != null) {
                    exchange.getResponseHeaders().set("Retry-After", now.retryAfter());
                }
                byte[] text = "{}".getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(now.status(), text.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(text);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (IOException clientGone) {
                // Herald gave up waiting (a slow answer): the request was still received
            } finally {
                exchange.close();
            }
        });
        server.start();
    }

    /** Down: nothing listens at the port any more. */
    public synchronized void stop() {
        if (server != null) {
            server.stop(0);
            server = null;
        }
    }
}
