package io.herald.deploy.http;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Bodies over 256 KiB are refused with 413 before anything reads them: by their declared length
 * at once, and, for chunked bodies, as soon as the count passes the limit.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 10)
public class RequestBodyLimitFilter extends OncePerRequestFilter {

    public static final long MAX_BODY_BYTES = 256 * 1024;
    /** The problem detail of every refusal of an oversize body, wherever it is noticed. */
    public static final String TOO_LARGE = "the request body is larger than " + MAX_BODY_BYTES / 1024 + " KiB";

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (request.getContentLengthLong() > MAX_BODY_BYTES) {
            // refused before the security chain, which sets this header on every other answer
            response.setHeader(SecurityHeaders.CONTENT_SECURITY_POLICY_HEADER, SecurityHeaders.CONTENT_SECURITY_POLICY);
            Problems.write(response, 413, "payload_too_large", "Payload Too Large", TOO_LARGE);
            return;
        }
        chain.doFilter(new LimitedRequest(request), response);
    }

    /** Thrown by the counting stream; the problem handler answers 413. */
    public static class BodyTooLargeException extends IOException {
        BodyTooLargeException() {
            super(TOO_LARGE);
        }
    }

    private static final class LimitedRequest extends HttpServletRequestWrapper {
        private ServletInputStream limited;

        LimitedRequest(HttpServletRequest request) {
            super(request);
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (limited == null) {
                limited = new CountingStream(super.getInputStream());
            }
            return limited;
        }
    }

    private static final class CountingStream extends ServletInputStream {
        private final ServletInputStream delegate;
        private long count;

        CountingStream(ServletInputStream delegate) {
            this.delegate = delegate;
        }

        @Override
        public int read() throws IOException {
            int b = delegate.read();
            if (b >= 0) {
                add(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = delegate.read(buffer, offset, length);
            if (n > 0) {
                add(n);
            }
            return n;
        }

        private void add(int n) throws BodyTooLargeException {
            count += n;
            if (count > MAX_BODY_BYTES) {
                throw new BodyTooLargeException();
            }
        }

        @Override
        public boolean isFinished() {
            return delegate.isFinished();
        }

        @Override
        public boolean isReady() {
            return delegate.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            delegate.setReadListener(listener);
        }
    }
}
