package io.herald.adapters.bluesky.live;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A TCP proxy on 127.0.0.1 in front of an HTTP/1.1 server (the local PDS) that can make a write
 * happen while its client never hears of it:
 * <ul>
 *   <li>{@link #holdNextAnswer}: the request reaches the server at once and is carried out; its
 *   answer reaches the client only after {@code hold}, by when the client has timed out;</li>
 *   <li>{@link #holdNextRequest}: the request is kept for {@code hold} and then delivered, so the
 *   server carries it out after the client gave up (a write that lands late).</li>
 * </ul>
 * Either way the server's answer is read to its end and dropped when the client has gone. Everything
 * else passes through untouched. A rule matches a request whose first bytes on the connection's
 * stream are {@code "<METHOD> <pathPrefix>"} (the JDK client writes a request's head in one piece
 * and does not pipeline). The proxy records every request line it saw, so a test can count sends.
 */
public final class HoldingProxy implements AutoCloseable {

    /** How long the proxy waits for the server's answer to a request whose client has gone. */
    private static final Duration ANSWER_WAIT = Duration.ofSeconds(30);

    private final ServerSocket server;
    private final InetSocketAddress target;
    private final ExecutorService threads = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "holding-proxy");
        thread.setDaemon(true);
        return thread;
    });
    private final AtomicReference<Rule> rule = new AtomicReference<>();
    private final AtomicInteger held = new AtomicInteger();
    private final List<String> requestLines = new CopyOnWriteArrayList<>();
    private final List<Socket> open = new CopyOnWriteArrayList<>();

    private enum Mode { REQUEST, ANSWER }

    private record Rule(Mode mode, String prefix, Duration hold, AtomicInteger remaining) {}

    /** A proxy to {@code http://host:port}, listening on a free port of 127.0.0.1. */
    public HoldingProxy(URI target) throws IOException {
        this.target = new InetSocketAddress(target.getHost(), target.getPort());
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        threads.execute(this::accept);
    }

    /** {@code http://127.0.0.1:<port>}. */
    public URI url() {
        return URI.create("http://127.0.0.1:" + server.getLocalPort());
    }

    /** The next {@code count} matching requests are carried out at once; their answers wait {@code hold}. */
    public void holdNextAnswer(String method, String pathPrefix, Duration hold, int count) {
        rule.set(new Rule(Mode.ANSWER, method + " " + pathPrefix, hold, new AtomicInteger(count)));
    }

    /** The next {@code count} matching requests reach the server only after {@code hold}. */
    public void holdNextRequest(String method, String pathPrefix, Duration hold, int count) {
        rule.set(new Rule(Mode.REQUEST, method + " " + pathPrefix, hold, new AtomicInteger(count)));
    }

    /** Requests that a rule held, so far. */
    public int held() {
        return held.get();
    }

    /** Every request line seen ({@code "POST /xrpc/com.atproto.repo.putRecord HTTP/1.1"}), in order. */
    public List<String> requestLines() {
        return List.copyOf(requestLines);
    }

    /** How many requests started with {@code "<method> <pathPrefix>"}. */
    public long requests(String method, String pathPrefix) {
        String prefix = method + " " + pathPrefix;
        return requestLines.stream().filter(line -> line.startsWith(prefix)).count();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                threads.execute(() -> relay(client));
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void relay(Socket client) {
        try (client; Socket upstream = new Socket(target.getAddress(), target.getPort())) {
            open.add(client);
            open.add(upstream);
            Connection connection = new Connection(client, upstream);
            threads.execute(connection::answers);
            connection.requests();
        } catch (IOException e) {
            // the server is gone or the proxy is closing: the client sees its connection close
        } finally {
            open.removeIf(socket -> socket.isClosed());
        }
    }

    /** One client connection and its own connection to the server. */
    private final class Connection {
        private final Socket client;
        private final Socket upstream;
        private final Object lock = new Object();
        private int awaitingAnswers;
        private Duration answerHold = Duration.ZERO;
        private boolean upstreamDone;

        Connection(Socket client, Socket upstream) {
            this.client = client;
            this.upstream = upstream;
        }

        /** Client to server, until the client closes; then waits for the server's last answer. */
        void requests() throws IOException {
            InputStream in = client.getInputStream();
            OutputStream out = upstream.getOutputStream();
            byte[] buffer = new byte[16 * 1024];
            int read;
            while ((read = readOrEnd(in, buffer)) > 0) {
                String head = new String(buffer, 0, Math.min(read, 512), StandardCharsets.ISO_8859_1);
                boolean requestStart = head.matches("(?s)^[A-Z]+ /\\S* HTTP/1\\.1\r\n.*");
                if (requestStart) {
                    requestLines.add(head.substring(0, head.indexOf('\r')));
                    Rule current = rule.get();
                    if (current != null && head.startsWith(current.prefix())
                            && current.remaining().getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                        held.incrementAndGet();
                        if (current.mode() == Mode.REQUEST) {
                            sleep(current.hold());
                        } else {
                            synchronized (lock) {
                                answerHold = current.hold();
                            }
                        }
                    }
                    synchronized (lock) {
                        awaitingAnswers++;
                    }
                }
                out.write(buffer, 0, read);
                out.flush();
            }
            // The client is gone (or done). Closing the server's side now could abort a request it
            // is still carrying out, so wait for its answer first.
            long deadline = System.nanoTime() + ANSWER_WAIT.toNanos();
            synchronized (lock) {
                while (awaitingAnswers > 0 && !upstreamDone && System.nanoTime() < deadline) {
                    try {
                        lock.wait(100);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }
            upstream.close();
        }

        /** Server to client; what the client can no longer take is read and dropped. */
        void answers() {
            try {
                InputStream in = upstream.getInputStream();
                OutputStream out = client.getOutputStream();
                byte[] buffer = new byte[16 * 1024];
                boolean clientGone = false;
                int read;
                while ((read = readOrEnd(in, buffer)) > 0) {
                    Duration hold;
                    synchronized (lock) {
                        hold = answerHold;
                        answerHold = Duration.ZERO;
                        awaitingAnswers = Math.max(0, awaitingAnswers - 1);
                        lock.notifyAll();
                    }
                    if (!hold.isZero()) {
                        sleep(hold);
                    }
                    if (!clientGone) {
                        try {
                            out.write(buffer, 0, read);
                            out.flush();
                        } catch (IOException gone) {
                            clientGone = true;
                        }
                    }
                }
            } catch (IOException e) {
                // the connection closed
            } finally {
                synchronized (lock) {
                    upstreamDone = true;
                    lock.notifyAll();
                }
                try {
                    client.shutdownOutput();
                } catch (IOException ignored) {
                    // already closed
                }
            }
        }
    }

    private static int readOrEnd(InputStream in, byte[] buffer) throws IOException {
        try {
            return in.read(buffer);
        } catch (SocketException reset) {
            return -1;
        }
    }

    private static void sleep(Duration hold) {
        try {
            Thread.sleep(hold.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket socket : open) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
        threads.shutdownNow();
    }
}
