package io.herald.deploy.media;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.herald.testsupport.TestDatabase;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@code herald.media.max-bytes} set small: an image over it is refused with 413 and nothing is
 * stored, whether its length is declared or it streams in chunks; a stream far larger than the
 * limit is answered without the server reading it all. Its own application (with the small
 * limit) on a database of its own, closed after the class: its processors must not act on other
 * tests' events, nor take the shared test application's port.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "herald.secrets.encryption-key=MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
        "herald.audit.signing-key=YXVkaXQtc2lnbmluZy1rZXktZm9yLXRlc3RzLTAxMjM=",
        "herald.security.system-key=" + MediaLimitIT.SYSTEM_KEY,
        "herald.security.rate-limit.limit-for-period=1000000",
        "herald.test.sandbox-loopback=false",
        "herald.media.max-bytes=64KB"
})
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class MediaLimitIT {

    static final String SYSTEM_KEY = "hs.media-limit-test-system-key-0123456789abcdefghijkl";
    private static final int LIMIT = 64 * 1024;
    private static final TestDatabase OWN = TestDatabase.shared().freshSibling();
    private static final AtomicInteger WORKSPACES = new AtomicInteger();

    private final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    int port;

    @Autowired
    JdbcTemplate jdbc;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.url", OWN::jdbcUrl);
    }

    private record Answer(int status, String contentType, JsonNode json) {
    }

    private Answer send(String key, String method, String path, byte[] body, String contentType) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30)).header("Authorization", "Bearer " + key)
                .method(method, HttpRequest.BodyPublishers.ofByteArray(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Answer(response.statusCode(), response.headers().firstValue("Content-Type").orElse(""),
                    new ObjectMapper().readTree(response.body()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A new workspace and a publisher key of it. */
    private String publisherOf(String ws) {
        byte[] workspace = ("{\"workspaceId\":\"" + ws + "\",\"name\":\"" + ws + "\"}").getBytes(StandardCharsets.UTF_8);
        assertThat(send(SYSTEM_KEY, "POST", "/api/v1/admin/workspaces", workspace, "application/json").status())
                .isEqualTo(201);
        Answer key = send(SYSTEM_KEY, "POST", "/api/v1/workspaces/" + ws + "/keys",
                "{\"roles\":[\"publisher\"],\"label\":\"limit\"}".getBytes(StandardCharsets.UTF_8),
                "application/json");
        return key.json().get("key").asText();
    }

    private static String newWorkspace(String purpose) {
        return purpose + "-" + WORKSPACES.incrementAndGet() + "-" + System.nanoTime() % 100_000;
    }

    private long stored(String ws) {
        return jdbc.queryForObject("SELECT count(*) FROM media WHERE workspace_id = ?", Long.class, ws);
    }

    @Test
    void runsOnADatabaseOfItsOwn() {
        String current = jdbc.queryForObject("SELECT current_database()", String.class);
        assertThat(OWN.jdbcUrl()).contains("/" + current);
        assertThat(TestDatabase.shared().jdbcUrl()).doesNotContain("/" + current);
    }

    /** A PNG of exactly the given length: a real one, padded after its end (readers ignore what follows). */
    private static byte[] pngOf(int length) {
        byte[] png = MediaImages.image("png", 4, 4, length);
        return Arrays.copyOf(png, length);
    }

    @Test
    void anImageAtTheLimitIsTakenAndOneByteMoreIsNot() {
        String ws = newWorkspace("limit-exact");
        String key = publisherOf(ws);
        Answer atLimit = send(key, "POST", "/api/v1/workspaces/" + ws + "/media", pngOf(LIMIT), "image/png");
        assertThat(atLimit.status()).as(atLimit.toString()).isEqualTo(201);
        Answer over = send(key, "POST", "/api/v1/workspaces/" + ws + "/media", pngOf(LIMIT + 1), "image/png");
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
        Answer refused = send(publisherOf(ws), "POST", "/api/v1/workspaces/" + ws + "/publications",
                big.getBytes(StandardCharsets.UTF_8), "application/json");
        assertThat(refused.status()).isEqualTo(413);
        assertThat(refused.json().get("detail").asText()).contains("256 KiB");
    }

    @Test
    void aChunkedUploadOverTheLimitIsRefusedWithNothingStored() throws IOException {
        String ws = newWorkspace("limit-chunked");
        Streamed answer = stream(ws, 2L * LIMIT);
        assertThat(answer.statusLine()).startsWith("HTTP/1.1 413");
        assertThat(stored(ws)).isZero();
    }

    @Test
    void aDeclaredLengthOverTheLimitIsRefusedBeforeTheBodyIsSent() throws IOException {
        String ws = newWorkspace("limit-declared");
        String key = publisherOf(ws);
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
        Streamed answer = stream(ws, total);
        assertThat(answer.statusLine()).startsWith("HTTP/1.1 413");
        // the server read the limit, at most the swallow allowance after it (1 MB), then closed
        assertThat(answer.sentWhenAnswered()).isLessThan(total / 8);
        assertThat(stored(ws)).isZero();
    }

    private record Streamed(String statusLine, long sentWhenAnswered) {
    }

    /** Streams a chunked body of {@code total} bytes (a PNG signature, then zeros) while reading the answer. */
    private Streamed stream(String ws, long total) throws IOException {
        String key = publisherOf(ws);
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
            return new Streamed(statusLine, sent.get());
        }
    }
}
