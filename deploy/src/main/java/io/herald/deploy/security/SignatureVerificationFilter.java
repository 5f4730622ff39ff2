package io.herald.deploy.security;

import io.herald.contracts.error.ErrorCode;
import io.herald.deploy.http.RequestBodyLimitFilter;
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
 * {@code X-Herald-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>}:
 * inside the tolerance, compared in constant time, and each signature accepted once. The body
 * is read once here and the same bytes are handed on. Runs after authorization, so a caller
 * without the role or from another workspace gets 403/404 before this.
 */
public final class SignatureVerificationFilter extends OncePerRequestFilter {

    public static final String HEADER = "X-Herald-Signature";
    private static final Set<String> MUTATING = Set.of("POST", "PUT", "PATCH", "DELETE");
    private static final Pattern PART = Pattern.compile("\\s*(?:t=([0-9]{1,12})|v1=([0-9A-Fa-f]{64}))\\s*");

    private final SigningSecrets secrets;
    private final ProblemResponses problems;
    private final Clock clock;
    private final Duration tolerance;

    public SignatureVerificationFilter(SigningSecrets secrets, ProblemResponses problems, Clock clock,
                                       Duration tolerance) {
        this.secrets = secrets;
        this.problems = problems;
        this.clock = clock;
        this.tolerance = tolerance;
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
        } catch (RequestBodyLimitFilter.BodyTooLargeException tooLarge) {
            problems.write(request, response, ErrorCode.PAYLOAD_TOO_LARGE, RequestBodyLimitFilter.TOO_LARGE);
            return;
        }
        Optional<String> refusal = verify(request.getHeader(HEADER), body, secret.get(), workspace);
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

    private Optional<String> verify(String header, byte[] body, byte[] secret, String workspace) {
        if (header == null || header.isBlank()) {
            return Optional.of("this workspace requires signed requests: " + HEADER + " is missing");
        }
        Long timestamp = null;
        List<String> candidates = new ArrayList<>();
        for (String part : header.split(",", 8)) {
            Matcher m = PART.matcher(part);
            if (!m.matches()) {
                return Optional.of(HEADER + " must look like t=<unix seconds>,v1=<hex HMAC-SHA256>");
            }
            if (m.group(1) != null) {
                if (timestamp != null) {
                    return Optional.of(HEADER + " must carry one t=<unix seconds>");
                }
                timestamp = Long.parseLong(m.group(1));
            } else {
                candidates.add(m.group(2).toLowerCase(Locale.ROOT));
            }
        }
        if (timestamp == null || candidates.isEmpty()) {
            return Optional.of(HEADER + " must look like t=<unix seconds>,v1=<hex HMAC-SHA256>");
        }
        Instant signedAt = Instant.ofEpochSecond(timestamp);
        Instant now = clock.instant();
        if (Duration.between(signedAt, now).abs().compareTo(tolerance) > 0) {
            return Optional.of("the signature's timestamp is outside the tolerance of " + tolerance.toSeconds()
                    + " seconds");
        }
        byte[] expected = HexFormat.of().formatHex(hmac(secret, timestamp, body)).getBytes(StandardCharsets.US_ASCII);
        for (String candidate : candidates) {
            if (MessageDigest.isEqual(expected, candidate.getBytes(StandardCharsets.US_ASCII))) {
                return secrets.firstUse(workspace, candidate, signedAt.plus(tolerance))
                        ? Optional.empty()
                        : Optional.of("this signature was already used; sign each request afresh");
            }
        }
        return Optional.of("the signature does not match the request body");
    }

    static byte[] hmac(byte[] secret, long timestamp, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            mac.update((timestamp + ".").getBytes(StandardCharsets.US_ASCII));
            return mac.doFinal(body);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
        }
    }
}
