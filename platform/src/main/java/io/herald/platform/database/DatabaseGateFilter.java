package io.herald.platform.database;

import io.herald.contracts.error.ErrorCode;
import io.herald.platform.problem.Problems;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.HttpHeaders;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * In front of the API (and of its authentication, which reads keys from the database): while the
 * {@link DatabaseWatch} finds the database unreachable, a request is answered 503
 * {@code unavailable} with {@code Retry-After} at once, instead of holding a request thread until
 * its own timeout; request threads do not pile up behind a silent database. A request already
 * inside when the database went away, whose wait ended in a failure of the database, gets the same
 * answer rather than a 500.
 */
public final class DatabaseGateFilter extends OncePerRequestFilter {

    private final DatabaseWatch watch;

    public DatabaseGateFilter(DatabaseWatch watch) {
        this.watch = watch;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (watch.unreachable()) {
            refuse(request, response);
            return;
        }
        try {
            chain.doFilter(request, response);
        } catch (ServletException | IOException | RuntimeException failure) {
            if (!DatabaseFailures.unavailable(failure) || response.isCommitted()) {
                throw failure;
            }
            refuse(request, response);
        }
    }

    private void refuse(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setHeader(HttpHeaders.RETRY_AFTER, DatabaseFailures.RETRY_AFTER_SECONDS);
        Problems.write(request, response, ErrorCode.UNAVAILABLE, DatabaseFailures.DETAIL);
    }
}
