package io.herald.access;

import java.util.List;

import io.herald.platform.problem.Problems;

import io.herald.contracts.error.ErrorCode;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;

/**
 * Tomcat refuses some requests before Herald sees them (a NUL, an encoded slash or invalid
 * UTF-8 in the URL, a header too large). Its default answer is an HTML page; this one answers
 * problem+json like the rest of the API, without echoing the request.
 */
public class ProblemErrorReportValve extends ErrorReportValve {

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        AtomicBoolean ioAllowed = new AtomicBoolean(true);
        response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, ioAllowed);
        if (!ioAllowed.get()) {
            return;
        }
        // no instance: the path is what Tomcat refused, and it is not echoed
        byte[] body = Problems.json(Problems.of(status, code(status), "the request was refused before it reached Herald",
                List.of()));
        try {
            response.setContentType("application/problem+json");
            response.setHeader(SecurityHeaders.CONTENT_SECURITY_POLICY_HEADER, SecurityHeaders.CONTENT_SECURITY_POLICY);
            response.getOutputStream().write(body);
            response.finishResponse();
        } catch (IOException | IllegalStateException e) {
            // the client is gone or the response is already on its way: nothing more to say
        }
    }

    static ErrorCode code(int status) {
        return switch (status) {
            case 404 -> ErrorCode.NOT_FOUND;
            case 405 -> ErrorCode.METHOD_NOT_ALLOWED;
            case 413 -> ErrorCode.PAYLOAD_TOO_LARGE;
            case 415 -> ErrorCode.UNSUPPORTED_MEDIA_TYPE;
            case 503 -> ErrorCode.UNAVAILABLE;
            default -> status < 500 ? ErrorCode.VALIDATION_FAILED : ErrorCode.INTERNAL_ERROR;
        };
    }
}
