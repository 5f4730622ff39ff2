package io.herald.access;

import io.herald.platform.problem.BodyTooLargeException;

import io.herald.contracts.error.ErrorCode;

import io.herald.platform.problem.Problems;

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
import org.springframework.http.server.PathContainer;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.UrlPathHelper;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

/**
 * Bodies over 256 KiB are refused with 413 before anything reads them: by their declared length
 * at once, and, for chunked bodies, as soon as the count passes the limit. A media upload, whose
 * body is the image itself, has {@code herald.media.max-bytes} as its limit instead, and so do
 * the provider sandbox's paths, where Herald sends those images on (their photo and file uploads).
 * The application wires it with that limit (access knows no media settings).
 */
@Order(Ordered.HIGHEST_PRECEDENCE + 10)
public class RequestBodyLimitFilter extends OncePerRequestFilter {

    public static final long MAX_BODY_BYTES = 256 * 1024;
    /** The problem detail of every refusal of an oversize body, wherever it is noticed. */
    public static final String TOO_LARGE = "the request body is larger than " + MAX_BODY_BYTES / 1024 + " KiB";

    private static final UrlPathHelper PATHS = new UrlPathHelper();
    private static final PathPattern MEDIA_UPLOAD = new PathPatternParser().parse("/api/v1/workspaces/{ws}/media");
    private static final PathPattern SANDBOX = new PathPatternParser().parse("/sandbox/**");

    private final long mediaMaxBytes;
    private final String mediaTooLarge;

    public RequestBodyLimitFilter(long mediaMaxBytes) {
        this.mediaMaxBytes = mediaMaxBytes;
        this.mediaTooLarge = "the image is larger than " + mediaMaxBytes + " bytes (herald.media.max-bytes)";
    }

    /** {@code POST …/media}: the one request whose body is not JSON, and has a limit of its own. */
    public static boolean isMediaUpload(HttpServletRequest request) {
        return "POST".equals(request.getMethod()) && MEDIA_UPLOAD.matches(path(request));
    }

    private static PathContainer path(HttpServletRequest request) {
        return PathContainer.parsePath(PATHS.getPathWithinApplication(request), PathContainer.Options.create('/', false));
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        boolean media = isMediaUpload(request) || SANDBOX.matches(path(request));
        long limit = media ? mediaMaxBytes : MAX_BODY_BYTES;
        String tooLarge = media ? mediaTooLarge : TOO_LARGE;
        if (request.getContentLengthLong() > limit) {
            // refused before the security chain, which sets this header on every other answer
            response.setHeader(SecurityHeaders.CONTENT_SECURITY_POLICY_HEADER, SecurityHeaders.CONTENT_SECURITY_POLICY);
            Problems.write(request, response, ErrorCode.PAYLOAD_TOO_LARGE, tooLarge);
            return;
        }
        chain.doFilter(new LimitedRequest(request, limit, tooLarge), response);
    }

    private static final class LimitedRequest extends HttpServletRequestWrapper {
        private final long limit;
        private final String tooLarge;
        private ServletInputStream limited;

        LimitedRequest(HttpServletRequest request, long limit, String tooLarge) {
            super(request);
            this.limit = limit;
            this.tooLarge = tooLarge;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (limited == null) {
                limited = new CountingStream(super.getInputStream(), limit, tooLarge);
            }
            return limited;
        }
    }

    private static final class CountingStream extends ServletInputStream {
        private final ServletInputStream delegate;
        private final long limit;
        private final String tooLarge;
        private long count;

        CountingStream(ServletInputStream delegate, long limit, String tooLarge) {
            this.delegate = delegate;
            this.limit = limit;
            this.tooLarge = tooLarge;
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
            if (count > limit) {
                throw new BodyTooLargeException(tooLarge);
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
