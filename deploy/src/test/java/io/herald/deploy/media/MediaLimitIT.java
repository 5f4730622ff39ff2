package io.herald.deploy.media;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.deploy.HeraldIntegrationTest;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

/**
 * {@code herald.media.max-bytes} set small: an image over it is refused with 413 and nothing is
 * stored, whether its length is declared or it streams in chunks; a stream far larger than the
 * limit is answered without the server reading it all.
 */
@TestPropertySource(properties = "herald.media.max-bytes=64KB")
class MediaLimitIT extends HeraldIntegrationTest {

    private static final int LIMIT = 64 * 1024;

    private long stored(String ws) {
        return jdbc.queryForObject("SELECT count(*) FROM media WHERE workspace_id = ?", Long.class, ws);
    }

    /** A PNG of exactly the given length: a real one, padded after its end (readers ignore what follows). */
    private static byte[] pngOf(int length) {
        byte[] png = MediaImages.image("png", 4, 4, length);
        return Arrays.copyOf(png, length);
    }

    @Test
    void anImageAtTheLimitIsTakenAndOneByteMoreIsNot() {
        String ws = newWorkspace("limit-exact");
        Response atLimit = sendBytesAs(keyFor("/api/v1/workspaces/" + ws), "POST", "/api/v1/workspaces/" + ws
                + "/media", pngOf(LIMIT), "image/png", Map.of());
        assertThat(atLimit.status()).as(atLimit.toString()).isEqualTo(201);
        Response over = sendBytesAs(keyFor("/api/v1/workspaces/" + ws), "POST", "/api/v1/workspaces/" + ws
                + "/media", pngOf(LIMIT + 1), "image/png", Map.of());
        assertThat(over.status()).as(over.toString()).isEqualTo(413);
        assertThat(over.contentType()).startsWith("application/problem+json");
        assertThat(over.json().get("code").asText()).isEqualTo("payload_too_large");
        assertThat(over.json().get("detail").asText()).contains(Integer.toString(LIMIT));
        assertThat(stored(ws)).isEqualTo(1);
    }

    @Test
    void aJsonBodyKeepsItsOwnLimit() {
        String ws = newWorkspace("limit-json");
        String big = "{\"calendarEntryId\":\"e\",\"pad\":\"" + "x".repeat(300 * 1024) + "\"}";
        Response refused = send("POST", "/api/v1/workspaces/" + ws + "/publications", big);
        assertThat(refused.status()).isEqualTo(413);
        assertThat(refused.json().get("detail").asText()).contains("256 KiB");
    }

    @Test
    void aChunkedUploadOverTheLimitIsRefusedWithNothingStored() throws IOException {
        String ws = newWorkspace("limit-chunked");
        Answer answer = stream(ws, 2L * LIMIT);
        assertThat(answer.statusLine()).startsWith("HTTP/1.1 413");
        assertThat(stored(ws)).isZero();
    }

    @Test
    void aDeclaredLengthOverTheLimitIsRefusedBeforeTheBodyIsSent() throws IOException {
        String ws = newWorkspace("limit-declared");
        String key = keyFor("/api/v1/workspaces/" + ws);
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(20_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /api/v1/workspaces/" + ws + "/media HTTP/1.1\r\nHost: localhost\r\n"
                    + "Authorization: Bearer " + key + "\r\nContent-Type: image/png\r\n"
                    + "Content-Length: " + (1L << 30) + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            // not one byte of the gigabyte is sent: the answer comes from the headers alone
            String statusLine = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                    StandardCharsets.US_ASCII)).readLine();
            assertThat(statusLine).startsWith("HTTP/1.1 413");
        }
        assertThat(stored(ws)).isZero();
    }

    @Test
    void aStreamFarOverTheLimitIsAnsweredWithoutBeingReadToItsEnd() throws IOException {
        String ws = newWorkspace("limit-stream");
        long total = 512L * 1024 * 1024;
        Answer answer = stream(ws, total);
        assertThat(answer.statusLine()).startsWith("HTTP/1.1 413");
        // the server read the limit, at most the swallow allowance after it (1 MB), then closed
        assertThat(answer.sentWhenAnswered()).isLessThan(total / 8);
        assertThat(stored(ws)).isZero();
    }

    private record Answer(String statusLine, long sentWhenAnswered) {
    }

    /** Streams a chunked body of {@code total} bytes (a PNG signature, then zeros) while reading the answer. */
    private Answer stream(String ws, long total) throws IOException {
        String key = keyFor("/api/v1/workspaces/" + ws);
        AtomicLong sent = new AtomicLong();
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /api/v1/workspaces/" + ws + "/media HTTP/1.1\r\nHost: localhost\r\n"
                    + "Authorization: Bearer " + key + "\r\nContent-Type: image/png\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            Thread writer = new Thread(() -> {
                byte[] chunk = new byte[16 * 1024];
                System.arraycopy(pngOf(64), 0, chunk, 0, 8);
                byte[] head = (Integer.toHexString(chunk.length) + "\r\n").getBytes(StandardCharsets.US_ASCII);
                byte[] tail = "\r\n".getBytes(StandardCharsets.US_ASCII);
                try {
                    while (sent.get() < total) {
                        out.write(head);
                        out.write(chunk);
                        out.write(tail);
                        sent.addAndGet(chunk.length);
                    }
                    out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                } catch (IOException closedByTheServer) {
                    // expected once the server has answered and closed the connection
                }
            }, "media-stream-writer");
            writer.setDaemon(true);
            writer.start();
            String statusLine = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                    StandardCharsets.US_ASCII)).readLine();
            return new Answer(statusLine, sent.get());
        }
    }
}
