package io.herald.client.support;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.util.HexFormat;
import java.util.Objects;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.springframework.http.HttpRequest;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;

/**
 * Signs every request for a workspace that requires signed requests: {@code X-Herald-Signature:
 * t=<unix seconds>,v2=<hex HMAC-SHA256(secret, t \n METHOD \n path and query \n hex SHA-256(body))>}.
 * It signs the bytes and the path exactly as they leave, so it must be the last interceptor that
 * changes either.
 */
public final class HeraldRequestSigner implements ClientHttpRequestInterceptor {

    public static final String HEADER = "X-Herald-Signature";

    private final byte[] secret;
    private final Clock clock;

    public HeraldRequestSigner(String signingSecret) {
        this(signingSecret, Clock.systemUTC());
    }

    public HeraldRequestSigner(String signingSecret, Clock clock) {
        this.secret = Objects.requireNonNull(signingSecret, "signingSecret").getBytes(StandardCharsets.UTF_8);
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public ClientHttpResponse intercept(HttpRequest request, byte[] body, ClientHttpRequestExecution execution)
            throws IOException {
        request.getHeaders().set(HEADER, header(clock.instant().getEpochSecond(), request.getMethod().name(),
                pathAndQuery(request.getURI()), body));
        return execution.execute(request, body);
    }

    /** The header's value for one request; public so other HTTP clients can sign the same way. */
    public String header(long unixSeconds, String method, String pathAndQuery, byte[] body) {
        String signed = unixSeconds + "\n" + method + "\n" + pathAndQuery + "\n" + sha256Hex(body);
        return "t=" + unixSeconds + ",v2=" + hmacHex(signed);
    }

    /** The path and query as they are sent: still percent-encoded, as Herald reads them. */
    static String pathAndQuery(URI uri) {
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        return uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery();
    }

    private static String sha256Hex(byte[] body) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    private String hmacHex(String message) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(message.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is missing from this JVM", e);
        }
    }
}
