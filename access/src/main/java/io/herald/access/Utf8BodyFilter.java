package io.herald.access;

import io.herald.platform.problem.BodyTooLargeException;

import io.herald.contracts.error.ErrorCode;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * A body sent to the API must be {@code application/json} (415 otherwise: the application also
 * understands YAML and other types, which the API does not offer) and well-formed UTF-8 (RFC
 * 8259): Jackson decodes some malformed sequences, such as overlong encodings, into plain
 * characters. The body is read once here and the same bytes are handed on. Every request that
 * the access rules let through to a path that is not open is checked, whatever its spelling:
 * the rules match the decoded path, so {@code /%61pi/...} cannot slip past as "not the API".
 * The one exception is a media upload, whose body must be an image ({@code image/*}): its
 * controller reads it and checks which type it is.
 */
public final class Utf8BodyFilter extends OncePerRequestFilter {

    private static final Set<String> WITH_BODY = Set.of("POST", "PUT", "PATCH", "DELETE");

    private final AccessRules rules;
    private final ProblemResponses problems;

    public Utf8BodyFilter(AccessRules rules, ProblemResponses problems) {
        this.rules = rules;
        this.problems = problems;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (!WITH_BODY.contains(request.getMethod()) || !hasBody(request) || rules.isOpen(request)) {
            chain.doFilter(request, response);
            return;
        }
        if (RequestBodyLimitFilter.isMediaUpload(request)) {
            // an image, read and checked by its controller; nothing else (no form or multipart parsing)
            if (image(request.getContentType())) {
                chain.doFilter(request, response);
            } else {
                problems.write(request, response, ErrorCode.UNSUPPORTED_MEDIA_TYPE,
                        "the body must be an image: image/jpeg, image/png, image/gif or image/webp");
            }
            return;
        }
        if (!json(request.getContentType())) {
            problems.write(request, response, ErrorCode.UNSUPPORTED_MEDIA_TYPE,
                    "the request body must be application/json");
            return;
        }
        byte[] body;
        try {
            body = request.getInputStream().readAllBytes();
        } catch (BodyTooLargeException tooLarge) {
            problems.write(request, response, ErrorCode.PAYLOAD_TOO_LARGE, RequestBodyLimitFilter.TOO_LARGE);
            return;
        }
        try {
            StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(body));
        } catch (CharacterCodingException malformed) {
            problems.write(request, response, ErrorCode.VALIDATION_FAILED, "the request body is not valid UTF-8");
            return;
        }
        chain.doFilter(new CachedBodyRequest(request, body), response);
    }

    private static boolean hasBody(HttpServletRequest request) {
        return request.getContentLengthLong() > 0 || request.getHeader("Transfer-Encoding") != null;
    }

    private static boolean image(String contentType) {
        try {
            return contentType != null && MediaType.parseMediaType(contentType).getType().equals("image");
        } catch (IllegalArgumentException unreadable) {
            return false;
        }
    }

    /** {@code application/json}, with no charset or UTF-8 (the only one RFC 8259 allows). */
    private static boolean json(String contentType) {
        if (contentType == null) {
            return false;
        }
        try {
            MediaType type = MediaType.parseMediaType(contentType);
            return type.getType().equals("application") && type.getSubtype().equals("json")
                    && (type.getCharset() == null || type.getCharset().equals(StandardCharsets.UTF_8));
        } catch (IllegalArgumentException unreadable) {
            return false;
        }
    }
}
