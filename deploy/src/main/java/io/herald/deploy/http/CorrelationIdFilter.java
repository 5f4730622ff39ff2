package io.herald.deploy.http;

import io.herald.platform.ids.RandomIds;
import io.herald.platform.logging.MdcScope;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.regex.Pattern;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Every response carries {@code X-Correlation-Id}: the caller's when it sent a usable one, else a
 * new one. It is in the MDC of every log line of the request and in the metadata of every
 * command and event that follows from it.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
public class CorrelationIdFilter extends OncePerRequestFilter {

    public static final String HEADER = "X-Correlation-Id";
    private static final Pattern USABLE = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String given = request.getHeader(HEADER);
        String correlationId = given != null && USABLE.matcher(given).matches() ? given : RandomIds.uuid().toString();
        response.setHeader(HEADER, correlationId);
        try (MdcScope scope = MdcScope.with(MdcScope.CORRELATION_ID, correlationId)) {
            chain.doFilter(request, response);
        }
    }
}
