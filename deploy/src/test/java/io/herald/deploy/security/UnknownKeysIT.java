package io.herald.deploy.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.herald.access.ApiKeyStore;
import io.herald.access.ClientAddressLimits;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Made-up keys are cheap to refuse: a string Herald never mints costs no query, a made-up key id
 * one query and then none, made-up ids never take the place of live keys, and an address that
 * keeps sending keys that are not valid is answered 429 before any lookup.
 */
class UnknownKeysIT extends SecurityIntegrationTest {

    private static final SecureRandom RANDOM = new SecureRandom();

    @Autowired
    ApiKeyStore keys;

    @Autowired
    ClientAddressLimits addressLimits;

    @Test
    void aKeyOfAShapeHeraldNeverMintsIsRefusedWithoutAQuery() {
        String ws = newWorkspace("malformed");
        createWorkspace(ws);
        String real = createKey(ws, List.of("auditor"), "real");
        String path = "/api/v1/workspaces/" + ws + "/publications";
        List<String> malformed = List.of(
                "k_" + hex(10).toUpperCase(Locale.ROOT) + real.substring(real.indexOf('.')),
                "k_" + hex(9) + real.substring(real.indexOf('.')),
                real.substring(0, real.indexOf('.')) + ".short-secret",
                real + "x",
                "x_" + hex(10) + real.substring(real.indexOf('.')),
                "0123456789abcdef0123456789abcdef.secret",
                "just-some-random-token-0123456789");
        long before = keys.lookups();

        for (String key : malformed) {
            Response refused = sendAs(key, "GET", path, null);
            assertThat(refused.status()).as(key + " → " + refused).isEqualTo(401);
            assertThat(refused.json().get("code").asText()).isEqualTo("unauthenticated");
        }

        assertThat(keys.lookups()).isEqualTo(before);
        assertThat(sendAs(real, "GET", path, null).status()).isEqualTo(200);
    }

    @Test
    void aMadeUpKeyIdIsLookedUpOnceAndMadeUpIdsNeverTakeThePlaceOfLiveKeys() {
        String ws = newWorkspace("made-up");
        createWorkspace(ws);
        String real = createKey(ws, List.of("auditor"), "real");
        String path = "/api/v1/workspaces/" + ws + "/publications";
        assertThat(sendAs(real, "GET", path, null).status()).isEqualTo(200);
        String madeUp = madeUpKey();
        long before = keys.lookups();

        for (int i = 0; i < 5; i++) {
            assertThat(sendAs(madeUp, "GET", path, null).status()).isEqualTo(401);
        }
        assertThat(keys.lookups()).isEqualTo(before + 1);

        // a flood of made-up ids fills the cache of unknown ids, never the one of live keys
        ApiKeyStore.CacheSizes sizesBefore = keys.cacheSizes();
        for (int i = 0; i < 2_000; i++) {
            assertThat(keys.resolve(madeUpKey())).isInstanceOf(ApiKeyStore.Resolution.Unknown.class);
        }
        ApiKeyStore.CacheSizes sizesAfter = keys.cacheSizes();
        assertThat(sizesAfter.live()).isLessThanOrEqualTo(sizesBefore.live() + 1);
        assertThat(sizesAfter.unknown()).isGreaterThan(sizesBefore.unknown());
        assertThat(keys.resolve(real)).isInstanceOf(ApiKeyStore.Resolution.Found.class);
    }

    @Test
    void anAddressSendingKeysThatAreNotValidGets429WithRetryAfterBeforeAnyLookup() {
        String ws = newWorkspace("guessing");
        createWorkspace(ws);
        String real = createKey(ws, List.of("auditor"), "real");
        String path = "/api/v1/workspaces/" + ws + "/publications";
        // this test's own client address, with a limit of its own: 3 calls without a valid key an hour
        String guesser = "127.0.0.2";
        addressLimits.override(guesser, RateLimiterConfig.custom().limitForPeriod(3)
                .limitRefreshPeriod(Duration.ofHours(1)).timeoutDuration(Duration.ZERO).build());

        for (int i = 0; i < 3; i++) {
            RawAnswer refused = getFrom(guesser, path, madeUpKey());
            assertThat(refused.status()).as(refused.toString()).isEqualTo(401);
        }
        long before = keys.lookups();
        RawAnswer limited = getFrom(guesser, path, madeUpKey());

        assertThat(limited.status()).as(limited.toString()).isEqualTo(429);
        assertThat(limited.head()).containsIgnoringCase("Retry-After: 3600");
        assertThat(limited.body()).contains("\"code\":\"rate_limited\"");
        assertThat(keys.lookups()).isEqualTo(before);
        // other addresses go on
        assertThat(sendAs(real, "GET", path, null).status()).isEqualTo(200);
        assertThat(sendAs(madeUpKey(), "GET", path, null).status()).isEqualTo(401);

        // calls without any key count too, where a key is needed
        String keyless = "127.0.0.3";
        addressLimits.override(keyless, RateLimiterConfig.custom().limitForPeriod(2)
                .limitRefreshPeriod(Duration.ofHours(1)).timeoutDuration(Duration.ZERO).build());
        assertThat(getFrom(keyless, path, null).status()).isEqualTo(401);
        assertThat(getFrom(keyless, path, null).status()).isEqualTo(401);
        RawAnswer keylessLimited = getFrom(keyless, path, null);
        assertThat(keylessLimited.status()).as(keylessLimited.toString()).isEqualTo(429);
        assertThat(keylessLimited.head()).containsIgnoringCase("Retry-After: 3600");
    }

    private static String madeUpKey() {
        byte[] secret = new byte[32];
        RANDOM.nextBytes(secret);
        return "k_" + hex(10) + "." + java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
    }

    private static String hex(int bytes) {
        byte[] value = new byte[bytes];
        RANDOM.nextBytes(value);
        return HexFormat.of().formatHex(value);
    }

    record RawAnswer(int status, String head, String body) {
    }

    /** One HTTP/1.1 GET sent from a chosen loopback address (the JDK client cannot choose its own). */
    private RawAnswer getFrom(String localAddress, String path, String key) {
        try (Socket socket = new Socket()) {
            socket.bind(new InetSocketAddress(InetAddress.getByName(localAddress), 0));
            socket.connect(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), port), 5_000);
            socket.setSoTimeout(30_000);
            String request = "GET " + path + " HTTP/1.1\r\nHost: localhost:" + port + "\r\n"
                    + (key == null ? "" : "Authorization: Bearer " + key + "\r\n")
                    + "Connection: close\r\n\r\n";
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            String answer = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            int split = answer.indexOf("\r\n\r\n");
            String head = split < 0 ? answer : answer.substring(0, split);
            String body = split < 0 ? "" : answer.substring(split + 4);
            return new RawAnswer(Integer.parseInt(head.substring(9, 12)), head, body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
