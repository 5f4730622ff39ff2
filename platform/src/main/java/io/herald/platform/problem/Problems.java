package io.herald.platform.problem;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.herald.contracts.error.ErrorCode;
import io.herald.contracts.error.FieldViolation;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

/**
 * The one writer of Herald's problem+json answers, for the MVC advice, controllers, security entry
 * points, filters and Tomcat's own refusals alike. Every answer has the same members, in the same
 * order: {@code type} (one URI per code, see docs/api.md#problem-types), {@code title} (the status's reason
 * phrase), {@code status}, {@code detail}, {@code instance} (the request path, where it was read),
 * {@code code} and, for field problems, {@code errors}. Details are fixed texts: no caller input.
 */
public final class Problems {

    /** A code's problem type is this prefix and the code, e.g. {@code urn:herald:problem:not_found}. */
    public static final String TYPE_PREFIX = "urn:herald:problem:";

    private static final ObjectMapper JSON = new ObjectMapper();

    private Problems() {
    }

    public static URI type(ErrorCode code) {
        return URI.create(TYPE_PREFIX + code.code());
    }

    /** The problem of a code, with the code's own status. */
    public static ProblemDetail of(ErrorCode code, String detail) {
        return of(code.httpStatus(), code, detail, List.of());
    }

    /**
     * The problem of a code with a status of its own: Spring's and Tomcat's refusals keep their
     * status (e.g. 414) and name the nearest code.
     */
    public static ProblemDetail of(int status, ErrorCode code, String detail, List<FieldViolation> violations) {
        ProblemDetail problem = ProblemDetail.forStatus(status);
        problem.setType(type(code));
        problem.setTitle(title(status));
        problem.setDetail(detail);
        problem.setProperty("code", code.code());
        if (!violations.isEmpty()) {
            problem.setProperty("errors", violations);
        }
        return problem;
    }

    /** A controller's answer; Spring adds the request path as {@code instance}. */
    public static ResponseEntity<ProblemDetail> answer(ErrorCode code, String detail) {
        return ResponseEntity.status(code.httpStatus()).contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(of(code, detail));
    }

    /** Writes the answer where no controller advice can: servlet filters and security entry points. */
    public static void write(HttpServletRequest request, HttpServletResponse response, ErrorCode code, String detail)
            throws IOException {
        if (response.isCommitted()) {
            return;
        }
        ProblemDetail problem = of(code, detail);
        problem.setInstance(instance(request));
        response.resetBuffer();
        response.setStatus(problem.getStatus());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.getOutputStream().write(json(problem));
    }

    /** The bytes of a problem, members as Spring writes a {@link ProblemDetail}: absent ones left out. */
    public static byte[] json(ProblemDetail problem) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", problem.getType().toString());
        body.put("title", problem.getTitle());
        body.put("status", problem.getStatus());
        body.put("detail", problem.getDetail());
        if (problem.getInstance() != null) {
            body.put("instance", problem.getInstance().toString());
        }
        if (problem.getProperties() != null) {
            body.putAll(problem.getProperties());
        }
        try {
            return JSON.writeValueAsBytes(body);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write a problem answer", e);
        }
    }

    private static String title(int status) {
        HttpStatus known = HttpStatus.resolve(status);
        return known == null ? "Error" : known.getReasonPhrase();
    }

    private static URI instance(HttpServletRequest request) {
        try {
            return URI.create(request.getRequestURI());
        } catch (IllegalArgumentException notAUri) {
            return null;
        }
    }
}
