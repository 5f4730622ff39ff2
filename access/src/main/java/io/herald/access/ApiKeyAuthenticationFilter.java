package io.herald.access;

import io.herald.platform.web.RequestAttributes;

import io.herald.platform.logging.MdcScope;

import io.herald.contracts.error.ErrorCode;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Pattern;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Resolves {@code Authorization: Bearer <key>} to a {@link Caller}: sets the Authentication, the
 * request attribute controllers read ({@code herald.actor}) and the MDC {@code actor}, then
 * applies the key's rate limit. An absent or unknown key leaves the request unauthenticated;
 * the authorization rules then answer 401 unless the path is open. An expired key is answered 401
 * {@code key_expired} here. Every presented key that is not valid counts against the client
 * address's limit ({@link ClientAddressLimits}); past it, 429 before any lookup.
 */
public final class ApiKeyAuthenticationFilter extends OncePerRequestFilter {

    /** A Bearer token's alphabet (RFC 6750 token68), bounded; anything else cannot be a key. */
    static final Pattern KEY_SHAPE = Pattern.compile("[A-Za-z0-9._~+/=-]{16,512}");

    private final SystemKey systemKey;
    private final ApiKeyStore keys;
    private final RateLimits rateLimits;
    private final ClientAddressLimits addressLimits;
    private final ProblemResponses problems;

    public ApiKeyAuthenticationFilter(SystemKey systemKey, ApiKeyStore keys, RateLimits rateLimits,
                                      ClientAddressLimits addressLimits, ProblemResponses problems) {
        this.systemKey = systemKey;
        this.keys = keys;
        this.rateLimits = rateLimits;
        this.addressLimits = addressLimits;
        this.problems = problems;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (request.getHeader("Authorization") == null) {
            chain.doFilter(request, response);
            return;
        }
        String address = request.getRemoteAddr();
        OptionalLong exhausted = addressLimits.exhausted(address);
        if (exhausted.isPresent()) {
            refuseAddress(request, response, exhausted.getAsLong());
            return;
        }
        ApiKeyStore.Resolution resolution = bearer(request).map(this::resolve).orElse(new ApiKeyStore.Resolution.Unknown());
        if (!(resolution instanceof ApiKeyStore.Resolution.Found found)) {
            OptionalLong over = addressLimits.refuse(address);
            if (over.isPresent()) {
                refuseAddress(request, response, over.getAsLong());
            } else if (resolution instanceof ApiKeyStore.Resolution.Expired) {
                problems.write(request, response, ErrorCode.KEY_EXPIRED,
                        "this key has expired; ask the workspace's admin for a new one");
            } else {
                chain.doFilter(request, response);
            }
            return;
        }
        Caller who = found.caller();
        OptionalLong retryAfter = rateLimits.refuse(who.keyId());
        if (retryAfter.isPresent()) {
            response.setHeader("Retry-After", Long.toString(retryAfter.getAsLong()));
            problems.write(request, response, ErrorCode.RATE_LIMITED,
                    "this key sent too many requests; retry after the number of seconds in Retry-After");
            return;
        }
        SecurityContext context = SecurityContextHolder.createEmptyContext();
        context.setAuthentication(new ApiKeyAuthentication(who));
        SecurityContextHolder.setContext(context);
        request.setAttribute(RequestAttributes.ACTOR, who.actor());
        try (MdcScope scope = MdcScope.with(MdcScope.ACTOR, who.actor())) {
            chain.doFilter(request, response);
        }
    }

    private void refuseAddress(HttpServletRequest request, HttpServletResponse response, long retryAfter)
            throws IOException {
        response.setHeader("Retry-After", Long.toString(retryAfter));
        problems.write(request, response, ErrorCode.RATE_LIMITED, "too many calls without a valid key from this"
                + " address; retry after the number of seconds in Retry-After");
    }

    private ApiKeyStore.Resolution resolve(String presented) {
        if (systemKey.matches(presented)) {
            return new ApiKeyStore.Resolution.Found(Caller.system());
        }
        return keys.resolve(presented);
    }

    private static Optional<String> bearer(HttpServletRequest request) {
        String header = request.getHeader("Authorization");
        if (header == null || header.length() < 7 || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return Optional.empty();
        }
        String key = header.substring(7).trim();
        return KEY_SHAPE.matcher(key).matches() ? Optional.of(key) : Optional.empty();
    }
}
