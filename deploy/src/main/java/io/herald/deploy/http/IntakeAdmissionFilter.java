package io.herald.deploy.http;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Admission control for the intake ({@code POST …/publications}): at most
 * {@code herald.intake.max-concurrent} requests are handled at once; one that finds no room within
 * {@code herald.intake.max-wait} is answered at once with 503 {@code overloaded} and
 * {@code Retry-After: 1}. Without it an overloaded node queues every request until its client
 * times out (tens of seconds), and the client's retry adds to the queue. Refusing is safe because
 * intake is idempotent: the retried request reaches the same publication. Other endpoints are
 * not limited here. Runs after the correlation id is set, before authentication, so a refusal
 * costs no database work. A limit of 0 or less turns admission control off.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 5)
public class IntakeAdmissionFilter extends OncePerRequestFilter {

    private static final Logger log = LoggerFactory.getLogger(IntakeAdmissionFilter.class);
    private static final String PREFIX = "/api/v1/workspaces/";
    private static final String SUFFIX = "/publications";

    private final Semaphore permits;
    private final int maxConcurrent;
    private final long maxWaitNanos;
    private final Counter refused;

    public IntakeAdmissionFilter(@Value("${herald.intake.max-concurrent:32}") int maxConcurrent,
                                 @Value("${herald.intake.max-wait:200ms}") Duration maxWait, MeterRegistry meters) {
        this.permits = maxConcurrent > 0 ? new Semaphore(maxConcurrent) : null;
        this.maxConcurrent = maxConcurrent;
        this.maxWaitNanos = maxWait.toNanos();
        this.refused = Counter.builder("herald.intake.refused")
                .description("publication requests refused with 503 overloaded").register(meters);
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        if (permits == null || !"POST".equals(request.getMethod())) {
            return true;
        }
        String path = request.getRequestURI();
        return !(path.startsWith(PREFIX) && path.endsWith(SUFFIX)
                && path.indexOf('/', PREFIX.length()) == path.length() - SUFFIX.length());
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        boolean admitted;
        try {
            admitted = permits.tryAcquire(maxWaitNanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            admitted = false;
        }
        if (!admitted) {
            refused.increment();
            log.debug("publication request refused: {} already in progress", maxConcurrent);
            response.setHeader("Retry-After", "1");
            Problems.write(response, 503, "overloaded", "Service Unavailable",
                    "Herald is handling as many publication requests as it can; send the same request again"
                            + " after the seconds in Retry-After");
            return;
        }
        try {
            chain.doFilter(request, response);
        } finally {
            permits.release();
        }
    }
}
