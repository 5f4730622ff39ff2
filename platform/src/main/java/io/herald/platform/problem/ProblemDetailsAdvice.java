package io.herald.platform.problem;


import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import io.herald.contracts.error.ErrorCode;
import io.herald.contracts.error.FieldViolation;
import io.herald.contracts.error.HeraldRejection;
import io.herald.platform.database.DatabaseFailures;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.axonframework.commandhandling.CommandExecutionException;
import org.axonframework.modelling.command.AggregateNotFoundException;
import org.axonframework.modelling.command.ConcurrencyException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.lang.Nullable;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Every error leaves Herald as RFC 9457 problem+json with a stable {@code code} (docs/api.md#problem-types), field
 * problems in {@code errors[]}, and never a stack trace or an internal message.
 */
@RestControllerAdvice
public class ProblemDetailsAdvice extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemDetailsAdvice.class);

    private static final Map<Integer, ErrorCode> BY_STATUS = Map.of(
            400, ErrorCode.VALIDATION_FAILED,
            401, ErrorCode.UNAUTHENTICATED,
            403, ErrorCode.FORBIDDEN,
            404, ErrorCode.NOT_FOUND,
            405, ErrorCode.METHOD_NOT_ALLOWED,
            406, ErrorCode.NOT_ACCEPTABLE,
            413, ErrorCode.PAYLOAD_TOO_LARGE,
            415, ErrorCode.UNSUPPORTED_MEDIA_TYPE,
            503, ErrorCode.UNAVAILABLE);

    @ExceptionHandler(HeraldRejection.class)
    ResponseEntity<ProblemDetail> rejection(HeraldRejection rejection) {
        return problem(rejection.code(), rejection.detail(), rejection.violations());
    }

    /** A refusal that crossed a command bus arrives wrapped; its code is unchanged. */
    @ExceptionHandler(CommandExecutionException.class)
    ResponseEntity<ProblemDetail> commandFailure(CommandExecutionException failure) {
        Throwable cause = failure.getCause();
        if (cause instanceof HeraldRejection rejection) {
            return rejection(rejection);
        }
        Optional<Object> details = failure.getDetails();
        if (details.isPresent() && details.get() instanceof HeraldRejection rejection) {
            return rejection(rejection);
        }
        return unexpected(failure);
    }

    /** A body read by a handler itself (a media upload) that ran past its limit. */
    @ExceptionHandler(BodyTooLargeException.class)
    ResponseEntity<ProblemDetail> tooLarge(BodyTooLargeException e) {
        return problem(ErrorCode.PAYLOAD_TOO_LARGE, e.getMessage(), List.of());
    }

    @ExceptionHandler(AggregateNotFoundException.class)
    ResponseEntity<ProblemDetail> notFound(AggregateNotFoundException e) {
        return problem(ErrorCode.NOT_FOUND, "not found", List.of());
    }

    @ExceptionHandler(ConcurrencyException.class)
    ResponseEntity<ProblemDetail> conflict(ConcurrencyException e) {
        return problem(ErrorCode.CONCURRENT_MODIFICATION,
                "the publication changed concurrently; read it again and retry", List.of());
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<ProblemDetail> unexpected(Exception e) {
        if (DatabaseFailures.unavailable(e)) {
            return unavailable(e);
        }
        log.error("unexpected error while handling a request", e);
        return problem(ErrorCode.INTERNAL_ERROR,
                "Herald could not complete the request; quote the X-Correlation-Id when reporting it", List.of());
    }

    /**
     * The database did not answer within its bounds (no connection, a silent network, a server
     * refusing connections, a statement timeout). Whether the request took effect is not known; every
     * write of the API is idempotent, so it may be sent again as it is, after {@code Retry-After}.
     */
    private static ResponseEntity<ProblemDetail> unavailable(Exception e) {
        log.warn("a request failed because the database did not answer: {}", e.toString());
        ProblemDetail problem = Problems.of(ErrorCode.UNAVAILABLE, DatabaseFailures.DETAIL);
        return ResponseEntity.status(ErrorCode.UNAVAILABLE.httpStatus())
                .header(HttpHeaders.RETRY_AFTER, DatabaseFailures.RETRY_AFTER_SECONDS).body(problem);
    }

    @Override
    protected ResponseEntity<Object> handleMethodArgumentNotValid(MethodArgumentNotValidException ex,
                                                                  HttpHeaders headers, HttpStatusCode status,
                                                                  WebRequest request) {
        List<FieldViolation> violations = ex.getBindingResult().getFieldErrors().stream()
                .map(error -> new FieldViolation(error.getField(), error.getDefaultMessage()))
                .toList();
        return asObject(problem(ErrorCode.VALIDATION_FAILED, "the request has invalid fields", violations));
    }

    @Override
    protected ResponseEntity<Object> handleHandlerMethodValidationException(HandlerMethodValidationException ex,
                                                                            HttpHeaders headers,
                                                                            HttpStatusCode status,
                                                                            WebRequest request) {
        List<FieldViolation> violations = ex.getParameterValidationResults().stream()
                .flatMap(result -> result.getResolvableErrors().stream()
                        .map(error -> new FieldViolation(result.getMethodParameter().getParameterName(),
                                error.getDefaultMessage())))
                .toList();
        return asObject(problem(ErrorCode.VALIDATION_FAILED, "the request has invalid parameters", violations));
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException ex,
                                                                  HttpHeaders headers, HttpStatusCode status,
                                                                  WebRequest request) {
        BodyTooLargeException tooLarge = oversizeBody(ex);
        if (tooLarge != null) {
            return asObject(problem(ErrorCode.PAYLOAD_TOO_LARGE, tooLarge.getMessage(), List.of()));
        }
        return asObject(problem(ErrorCode.VALIDATION_FAILED, "the request body is not valid",
                List.of(describe(ex.getCause()))));
    }

    @Override
    protected ResponseEntity<Object> handleExceptionInternal(Exception ex, @Nullable Object body, HttpHeaders headers,
                                                             HttpStatusCode statusCode, WebRequest request) {
        ResponseEntity<Object> response = super.handleExceptionInternal(ex, body, headers, statusCode, request);
        if (response != null && response.getBody() instanceof ProblemDetail problem
                && problem.getProperties() == null) {
            // Spring's own refusal (e.g. 405): its status and detail, Herald's shape
            ErrorCode code = BY_STATUS.getOrDefault(statusCode.value(), ErrorCode.INTERNAL_ERROR);
            return ResponseEntity.status(statusCode).headers(response.getHeaders())
                    .body(Problems.of(statusCode.value(), code, problem.getDetail(), List.of()));
        }
        return response;
    }

    /** Says which field was wrong and how, without echoing the caller's input back. */
    private static FieldViolation describe(Throwable cause) {
        if (cause instanceof UnrecognizedPropertyException unknown) {
            return new FieldViolation(path(unknown), "is not a known field");
        }
        if (cause instanceof InvalidFormatException invalid) {
            return new FieldViolation(path(invalid), "must be a " + simpleType(invalid.getTargetType()));
        }
        if (cause instanceof MismatchedInputException mismatched) {
            return new FieldViolation(path(mismatched), mismatched.getTargetType() == null ? "has the wrong type"
                    : "must be a " + simpleType(mismatched.getTargetType()));
        }
        if (cause instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()) {
            return new FieldViolation(path(mapping), "is not valid");
        }
        if (cause instanceof JsonProcessingException parse && parse.getLocation() != null) {
            return new FieldViolation("$", "is not valid JSON (line " + parse.getLocation().getLineNr()
                    + ", column " + parse.getLocation().getColumnNr() + ")");
        }
        return new FieldViolation("$", "a JSON body is required");
    }

    private static String path(JsonMappingException e) {
        String path = e.getPath().stream()
                .map(ref -> ref.getFieldName() != null ? ref.getFieldName() : "[" + ref.getIndex() + "]")
                .collect(Collectors.joining("."))
                .replace(".[", "[");
        return path.isEmpty() ? "$" : path;
    }

    private static String simpleType(Class<?> type) {
        if (type == null) {
            return "value of another type";
        }
        if (Number.class.isAssignableFrom(type) || type == int.class || type == long.class) {
            return "number";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "boolean";
        }
        if (type == String.class) {
            return "string";
        }
        if (type.isEnum()) {
            return "known value";
        }
        if (java.time.temporal.Temporal.class.isAssignableFrom(type)) {
            return "timestamp (ISO 8601, e.g. 2026-12-01T09:00:00Z)";
        }
        if (java.util.Collection.class.isAssignableFrom(type)) {
            return "list";
        }
        return "JSON object";
    }

    private static BodyTooLargeException oversizeBody(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof BodyTooLargeException tooLarge) {
                return tooLarge;
            }
        }
        return null;
    }

    private static ResponseEntity<ProblemDetail> problem(ErrorCode code, String detail,
                                                         List<FieldViolation> violations) {
        return ResponseEntity.status(code.httpStatus()).body(Problems.of(code.httpStatus(), code, detail, violations));
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static ResponseEntity<Object> asObject(ResponseEntity<ProblemDetail> response) {
        return (ResponseEntity) response;
    }
}
