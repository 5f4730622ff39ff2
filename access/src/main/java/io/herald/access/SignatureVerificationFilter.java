package io.herald.access;

import io.herald.platform.problem.BodyTooLargeException;

import io.herald.contracts.error.ErrorCode;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Where a workspace has a signing secret, its mutating requests must carry
 * {@code X-Herald-Signature: t=<unix seconds>,v2=<hex HMAC-SHA256(secret, t \n METHOD \n path?query
 * \n hex SHA-256(body))>}: inside the tolerance, compared in constant time, and each signature
 * accepted once. v2 binds the method and the URL as sent, so a signature made for one call is
 * refused on any other; the older {@code v1=} form (t + "." + body) only where
 * {@code herald.security.accept-v1-signatures} allows it. A refusal says which part was wrong,
 * never the value that was expected. The body is read once here and the same bytes are handed on.
 * Runs after authorization, so a caller without the role or from another workspace gets 403/404
 * before this.
 */
public final class SignatureVerificationFilter extends OncePerRequestFilter {

    public static final String HEADER = "X-Herald-Signature";
    private static final Set<String> MUTATING = Set.of("POST", "PUT", "PATCH", "DELETE");
    private static final Pattern PART = Pattern.compile("\\s*(?:t=([0-9]{1,12})|(v[12])=([0-9A-Fa-f]{64}))\\s*");
    private static final String FORMAT = HEADER + " must look like t=<unix seconds>,v2=<64 hex digits of HMAC-SHA256>";

    private final SigningSecrets secrets;
    private final ProblemResponses problems;
    private final Clock clock;
    private final Duration tolerance;
    private final boolean acceptV1;

    public SignatureVerificationFilter(SigningSecrets secrets, ProblemResponses problems, Clock clock,
                                       Duration tolerance, boolean acceptV1) {
        this.secrets = secrets;
        this.problems = problems;
        this.clock = clock;
        this.tolerance = tolerance;
        this.acceptV1 = acceptV1;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String workspace = MUTATING.contains(request.getMethod()) ? workspaceKeyCaller() : null;
        Optional<byte[]> secret = workspace == null ? Optional.empty() : secrets.secret(workspace);
        if (secret.isEmpty()) {
            chain.doFilter(request, response);
            return;
        }
        byte[] body;
        try {
            body = request.getInputStream().readAllBytes();
        } catch (BodyTooLargeException tooLarge) {
            problems.write(request, response, ErrorCode.PAYLOAD_TOO_LARGE, tooLarge.getMessage());
            return;
        }
        Optional<String> refusal = verify(request.getHeader(HEADER), request.getMethod(), pathAndQuery(request),
                body, secret.get(), workspace);
        if (refusal.isPresent()) {
            problems.write(request, response, ErrorCode.SIGNATURE_INVALID, refusal.get());
            return;
        }
        chain.doFilter(new CachedBodyRequest(request, body), response);
    }

    /** The workspace of a workspace key; the system key manages workspaces and signs nothing. */
    private static String workspaceKeyCaller() {
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        if (authentication instanceof ApiKeyAuthentication key && !key.getPrincipal().isSystem()) {
            return key.getPrincipal().workspaceId();
        }
        return null;
    }

    /** The path and query as the client sent them: undecoded, so client and server sign the same text. */
    static String pathAndQuery(HttpServletRequest request) {
        String query = request.getQueryString();
        return query == null ? request.getRequestURI() : request.getRequestURI() + "?" + query;
    }

    private Optional<String> verify(String header, String method, String pathAndQuery, byte[] body, byte[] secret,
                                    String workspace) {
        if (header == null || header.isBlank()) {
            return Optional.of("this workspace requires signed requests: " + HEADER + " is missing");
        }
        Long timestamp = null;
        List<String> v2 = new ArrayList<>();
        List<String> v1 = new ArrayList<>();
        for (String part : header.split(",", 8)) {
            Matcher m = PART.matcher(part);
            if (!m.matches()) {
                return Optional.of(FORMAT);
            }
            if (m.group(1) != null) {
                if (timestamp != null) {
                    return Optional.of(HEADER + " must carry one t=<unix seconds>");
                }
                timestamp = Long.parseLong(m.group(1));
            } else {
                (m.group(2).equals("v2") ? v2 : v1).add(m.group(3).toLowerCase(Locale.ROOT));
            }
        }
        if (timestamp == null || (v2.isEmpty() && v1.isEmpty())) {
            return Optional.of(FORMAT);
        }
        if (v2.isEmpty() && !acceptV1) {
            return Optional.of("v1 signatures are not accepted: sign with v2 (timestamp, method, path and query,"
                    + " body hash)");
        }
        Instant signedAt = Instant.ofEpochSecond(timestamp);
        if (Duration.between(signedAt, clock.instant()).abs().compareTo(tolerance) > 0) {
            return Optional.of("the signature's timestamp is outside the tolerance of " + tolerance.toSeconds()
                    + " seconds of Herald's clock");
        }
        Optional<String> matched = matching(v2, hex(v2(secret, timestamp, method, pathAndQuery, body)));
        if (matched.isEmpty() && acceptV1) {
            matched = matching(v1, hex(v1(secret, timestamp, body)));
        }
        if (matched.isEmpty()) {
            return Optional.of(v2.isEmpty()
                    ? "the v1 signature does not match the request body"
                    : "the v2 signature does not match this request's method, path and query, or body");
        }
        return secrets.firstUse(workspace, matched.get(), signedAt.plus(tolerance))
                ? Optional.empty()
                : Optional.of("this signature was already used; sign each request afresh");
    }

    /** The candidate equal to the expected signature, compared in constant time; every candidate is compared. */
    private static Optional<String> matching(List<String> candidates, byte[] expected) {
        String found = null;
        for (String candidate : candidates) {
            if (MessageDigest.isEqual(expected, candidate.getBytes(StandardCharsets.US_ASCII))) {
                found = candidate;
            }
        }
        return Optional.ofNullable(found);
    }

    private static byte[] hex(byte[] mac) {
        return HexFormat.of().formatHex(mac).getBytes(StandardCharsets.US_ASCII);
    }

    /** HMAC-SHA256(secret, t + "\n" + METHOD + "\n" + path and query + "\n" + hex SHA-256 of the body). */
    static byte[] v2(byte[] secret, long timestamp, String method, String pathAndQuery, byte[] body) {
        String bodyHash = HexFormat.of().formatHex(Hashes.sha256(body));
        String signed = timestamp + "\n" + method + "\n" + pathAndQuery + "\n" + bodyHash;
        return hmac(secret, signed.getBytes(StandardCharsets.UTF_8));
    }

    /** The earlier form: HMAC-SHA256(secret, t + "." + body). */
    static byte[] v1(byte[] secret, long timestamp, byte[] body) {
        byte[] prefix = (timestamp + ".").getBytes(StandardCharsets.US_ASCII);
        byte[] signed = new byte[prefix.length + body.length];
        System.arraycopy(prefix, 0, signed, 0, prefix.length);
        System.arraycopy(body, 0, signed, prefix.length, body.length);
        return hmac(secret, signed);
    }

    private static byte[] hmac(byte[] secret, byte[] message) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            return mac.doFinal(message);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
        }
    }
}
