package io.herald.deploy.media;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.herald.testsupport.TestDatabase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Images made to exhaust the heap, uploaded at once: a PNG of 36,152,320 x 1 pixels, rows too wide
 * in a zero-filled IDAT, a palette image without its palette, a GIF frame and a WebP canvas of huge
 * declared size, a lossless WebP over the pixel limit. Each is 422 with nothing stored, and the
 * heap the application shares with this test stays far below its maximum. Also the per-workspace
 * quota, with uploads racing for its last bytes. Its own application (a small quota, a long decode
 * wait so that concurrent checks queue instead of being refused) on a database of its own.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "herald.secrets.encryption-key=MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
        "herald.audit.signing-key=YXVkaXQtc2lnbmluZy1rZXktZm9yLXRlc3RzLTAxMjM=",
        "herald.security.system-key=" + MediaBombIT.SYSTEM_KEY,
        "herald.security.rate-limit.limit-for-period=1000000",
        "herald.test.sandbox-loopback=false",
        "herald.media.quota-bytes=" + MediaBombIT.QUOTA,
        "herald.media.decode-wait=60s",
        "herald.media.decode-memory=64MB"
})
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@Tag("small-heap")
class MediaBombIT {

    static final String SYSTEM_KEY = "hs.media-bomb-test-system-key-0123456789abcdefghijklm";
    static final int QUOTA = 600_000;
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

    private long usage(String ws) {
        return jdbc.query("SELECT stored_bytes FROM media_usage WHERE workspace_id = ?", (rs, n) -> rs.getLong(1), ws)
                .stream().findFirst().orElse(0L);
    }

    private record Bomb(String name, String contentType, byte[] bytes) {
    }

    private static List<Bomb> bombs() {
        return List.of(
                // the review's shape: 140 KB, rows of 145 MB in the JDK's reader
                new Bomb("png 36152320 x 1", "image/png", MediaImages.pngBomb(36_152_320, 1, 8, 6, 1, 0)),
                // within the pixel limit, but each row 20,000 pixels wide: a zero-filled IDAT of 108 MB
                new Bomb("png rows over max-side", "image/png", MediaImages.pngBomb(20_000, 1_800, 8, 2, 1_800, 0)),
                // a palette image without its palette, 36 megapixels of zeros behind it
                new Bomb("png palette missing", "image/png", MediaImages.pngBomb(16_384, 2_200, 8, 3, 2_200, 0)),
                // a palette of one entry declared over 16-bit samples, which no palette image may have
                new Bomb("png palette 16-bit", "image/png", MediaImages.pngBomb(16_384, 2_200, 16, 3, 10, 1)),
                new Bomb("gif frame 65535 x 65535", "image/gif", MediaImages.gifWithFrame(65_535, 65_535)),
                new Bomb("webp canvas 16000000 x 3", "image/webp", MediaImages.webpWithCanvas(16_000_000, 3)),
                new Bomb("webp lossless 16384 x 16384", "image/webp", MediaImages.webpLosslessClaiming(16_384, 16_384)),
                new Bomb("webp lossless 16384 x 2206 of nothing", "image/webp",
                        MediaImages.webpLosslessClaiming(16_384, 2_206)));
    }

    private static long oldGenerationPeak() {
        return ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(pool -> pool.getType() == MemoryType.HEAP && !pool.getName().contains("Eden")
                        && !pool.getName().contains("Survivor"))
                .mapToLong(pool -> pool.getPeakUsage().getUsed()).sum();
    }

    private static long usedAfterCollection() {
        System.gc();
        MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        return heap.getUsed();
    }

    /** The build runs this class only in a JVM with a 256 MiB heap, the size of a small node's (deploy's pom). */
    @Test
    void runsWithTheHeapOfASmallNode() {
        assertThat(Runtime.getRuntime().maxMemory()).isLessThanOrEqualTo(300L * 1024 * 1024);
    }

    @Test
    void decompressionBombsUploadedAtOnceAreRefusedWithNothingStoredAndTheHeapUntouched() throws Exception {
        List<Bomb> bombs = bombs();
        long max = Runtime.getRuntime().maxMemory();
        int copies = 3;
        List<String> workspaces = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < bombs.size() * copies; i++) {
            String ws = newWorkspace("bomb");
            workspaces.add(ws);
            keys.add(publisherOf(ws));
        }
        long before = usedAfterCollection();
        ManagementFactory.getMemoryPoolMXBeans().forEach(java.lang.management.MemoryPoolMXBean::resetPeakUsage);
        long oldBefore = oldGenerationPeak();

        ExecutorService uploads = Executors.newFixedThreadPool(bombs.size() * copies);
        try {
            List<Future<Answer>> answers = new ArrayList<>();
            CountDownLatch start = new CountDownLatch(1);
            for (int i = 0; i < bombs.size() * copies; i++) {
                Bomb bomb = bombs.get(i % bombs.size());
                String ws = workspaces.get(i);
                String key = keys.get(i);
                answers.add(uploads.submit(() -> {
                    start.await();
                    return send(key, "POST", "/api/v1/workspaces/" + ws + "/media", bomb.bytes(), bomb.contentType());
                }));
            }
            start.countDown();
            for (int i = 0; i < answers.size(); i++) {
                Answer answer = answers.get(i).get(2, TimeUnit.MINUTES);
                Bomb bomb = bombs.get(i % bombs.size());
                assertThat(answer.status()).as(bomb.name() + ": " + answer).isEqualTo(422);
                assertThat(answer.contentType()).startsWith("application/problem+json");
                assertThat(answer.json().get("code").asText()).as(bomb.name())
                        .isIn("media_unreadable", "media_invalid");
                assertThat(stored(workspaces.get(i))).as(bomb.name()).isZero();
                assertThat(usage(workspaces.get(i))).as(bomb.name()).isZero();
            }
            // the review's shape is refused for its side, from the header alone
            Answer wide = answers.get(0).get();
            assertThat(wide.json().get("code").asText()).isEqualTo("media_unreadable");
            assertThat(wide.json().get("detail").asText()).contains("36152320").contains("herald.media.max-side");
        } finally {
            uploads.shutdownNow();
        }
        long oldGrowth = oldGenerationPeak() - oldBefore;
        long after = usedAfterCollection();
        // before the header check, one upload of the first shape allocated rows of 145 MB each,
        // straight into the old generation, and four at once exhausted a 512 MiB heap
        assertThat(oldGrowth).as("old generation growth during the uploads").isLessThan(96L * 1024 * 1024);
        assertThat(after).as("heap used after the uploads").isLessThan(Math.max(before + 64L * 1024 * 1024, max / 2));
    }

    @Test
    void aTrueImageIsStillTakenBesideTheBombs() {
        String ws = newWorkspace("bomb-true");
        String key = publisherOf(ws);
        byte[] zeros = MediaImages.pngBomb(4_000, 3_000, 8, 6, 3_000, 0);
        Answer taken = send(key, "POST", "/api/v1/workspaces/" + ws + "/media", zeros, "image/png");
        assertThat(taken.status()).as(taken.toString()).isEqualTo(201);
        assertThat(taken.json().get("width").asInt()).isEqualTo(4_000);
        assertThat(usage(ws)).isEqualTo(zeros.length);
    }

    /** A real PNG of exactly the given length, padded after its end; the seed makes it unique. */
    private static byte[] pngOf(int length, int seed) {
        return Arrays.copyOf(MediaImages.image("png", 4, 4, seed), length);
    }

    @Test
    void uploadsRacingForTheQuotaNeverPassItTogether() throws Exception {
        String ws = newWorkspace("quota-race");
        String key = publisherOf(ws);
        int size = 100_000;
        int racers = 10;
        ExecutorService uploads = Executors.newFixedThreadPool(racers);
        List<Integer> statuses = new ArrayList<>();
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Answer>> answers = new ArrayList<>();
            for (int i = 0; i < racers; i++) {
                byte[] png = pngOf(size, 1_000 + i);
                answers.add(uploads.submit(() -> {
                    start.await();
                    return send(key, "POST", "/api/v1/workspaces/" + ws + "/media", png, "image/png");
                }));
            }
            start.countDown();
            for (Future<Answer> answer : answers) {
                Answer a = answer.get(1, TimeUnit.MINUTES);
                statuses.add(a.status());
                if (a.status() == 413) {
                    assertThat(a.json().get("code").asText()).isEqualTo("quota_exceeded");
                }
            }
        } finally {
            uploads.shutdownNow();
        }
        assertThat(statuses).containsOnly(201, 413);
        assertThat(statuses.stream().filter(s -> s == 201).count()).isEqualTo(QUOTA / size);
        assertThat(stored(ws)).isEqualTo(QUOTA / size);
        Long bytes = jdbc.queryForObject("SELECT coalesce(sum(byte_count), 0) FROM media WHERE workspace_id = ?",
                Long.class, ws);
        assertThat(bytes).isLessThanOrEqualTo(QUOTA).isEqualTo(usage(ws));
    }

    @Test
    void aDeleteFreesItsBytesForTheNextUpload() {
        String ws = newWorkspace("quota-free");
        String key = publisherOf(ws);
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < QUOTA / 100_000; i++) {
            Answer a = send(key, "POST", "/api/v1/workspaces/" + ws + "/media", pngOf(100_000, 2_000 + i), "image/png");
            assertThat(a.status()).as(a.toString()).isEqualTo(201);
            ids.add(a.json().get("mediaId").asText());
        }
        byte[] next = pngOf(100_000, 2_999);
        Answer over = send(key, "POST", "/api/v1/workspaces/" + ws + "/media", next, "image/png");
        assertThat(over.status()).isEqualTo(413);
        assertThat(over.json().get("code").asText()).isEqualTo("quota_exceeded");
        assertThat(stored(ws)).isEqualTo(ids.size());
        // the same bytes again are no new bytes: still 200 at the quota
        Answer again = send(key, "POST", "/api/v1/workspaces/" + ws + "/media", pngOf(100_000, 2_000), "image/png");
        assertThat(again.status()).isEqualTo(200);

        assertThat(send(key, "DELETE", "/api/v1/workspaces/" + ws + "/media/" + ids.get(0), new byte[0], null)
                .status()).isEqualTo(204);
        assertThat(usage(ws)).isEqualTo((long) (ids.size() - 1) * 100_000);
        assertThat(send(key, "POST", "/api/v1/workspaces/" + ws + "/media", next, "image/png").status())
                .isEqualTo(201);
    }
}
