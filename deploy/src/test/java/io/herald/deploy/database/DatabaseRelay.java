package io.herald.deploy.database;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP relay between Herald and PostgreSQL that can misbehave as a network and a server do:
 * <ul>
 *   <li>{@link #silence} — every byte is held, in both directions, on every connection, and new
 *   connections are accepted but never reach the server; nothing is closed or reset (a partition,
 *   a stalled proxy). {@link #resume} forwards what was held and carries on.</li>
 *   <li>{@link #refuse} — the server is up but takes no more clients: open connections end, and a
 *   new one is answered as PostgreSQL answers when its slots are full (FATAL 53300 "sorry, too
 *   many clients already").</li>
 * </ul>
 */
final class DatabaseRelay implements AutoCloseable {

    private static final int SSL_REQUEST = 80877103;
    private static final int GSS_REQUEST = 80877104;

    private final String upstreamHost;
    private final int upstreamPort;
    private final ServerSocket server;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final Object gate = new Object();
    private volatile boolean silent;
    private volatile boolean refusing;
    private volatile boolean closed;

    DatabaseRelay(String upstreamHost, int upstreamPort) throws IOException {
        this.upstreamHost = upstreamHost;
        this.upstreamPort = upstreamPort;
        this.server = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
        daemon("relay-accept", this::acceptLoop).start();
    }

    int port() {
        return server.getLocalPort();
    }

    void silence() {
        silent = true;
    }

    void resume() {
        synchronized (gate) {
            silent = false;
            refusing = false;
            gate.notifyAll();
        }
    }

    /** Ends every open connection and answers new ones 53300 until {@link #resume}. */
    void refuse() {
        refusing = true;
        open.forEach(DatabaseRelay::closeQuietly);
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket client = server.accept();
                daemon("relay-connection", () -> connect(client)).start();
            } catch (IOException e) {
                if (!closed) {
                    System.out.println("[relay] accept failed: " + e);
                }
            }
        }
    }

    private void connect(Socket client) {
        open.add(client);
        try {
            awaitSound();
            if (refusing) {
                answerTooManyClients(client);
                forget(client);
                return;
            }
            Socket upstream = new Socket(upstreamHost, upstreamPort);
            upstream.setTcpNoDelay(true);
            client.setTcpNoDelay(true);
            open.add(upstream);
            daemon("relay-up", () -> pump(client, upstream)).start();
            pump(upstream, client);
        } catch (IOException | InterruptedException e) {
            forget(client);
        }
    }

    private void pump(Socket from, Socket to) {
        byte[] buffer = new byte[16384];
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            while (true) {
                awaitSound();
                int n = in.read(buffer);
                if (n < 0) {
                    break;
                }
                // bytes read just as the silence began are held like the rest
                awaitSound();
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException | InterruptedException ended) {
            // either side closed: close the other
        } finally {
            forget(from);
            forget(to);
        }
    }

    private void awaitSound() throws InterruptedException {
        synchronized (gate) {
            while (silent) {
                gate.wait();
            }
        }
    }

    /** Reads the client's first packets (an SSL or GSS request is declined) and answers as a full server. */
    private static void answerTooManyClients(Socket client) throws IOException {
        DataInputStream in = new DataInputStream(client.getInputStream());
        OutputStream out = client.getOutputStream();
        while (true) {
            int length = in.readInt();
            int code = in.readInt();
            in.skipNBytes(length - 8);
            if (code == SSL_REQUEST || code == GSS_REQUEST) {
                out.write('N');
                out.flush();
                continue;
            }
            break;
        }
        byte[] fields = ("SFATAL\0VFATAL\0C53300\0Msorry, too many clients already\0\0")
                .getBytes(StandardCharsets.US_ASCII);
        ByteBuffer error = ByteBuffer.allocate(1 + 4 + fields.length);
        error.put((byte) 'E').putInt(4 + fields.length).put(fields);
        out.write(error.array());
        out.flush();
        closeQuietly(client);
    }

    private static Thread daemon(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        return thread;
    }

    private void forget(Socket socket) {
        open.remove(socket);
        closeQuietly(socket);
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    @Override
    public void close() {
        closed = true;
        resume();
        try {
            server.close();
        } catch (IOException ignored) {
            // already closed
        }
        open.forEach(DatabaseRelay::closeQuietly);
    }
}
