package io.herald.access;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.herald.contracts.error.ErrorCode;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * Security answers are written by filters, outside Spring MVC, so they are written here in the
 * same problem+json shape the MVC advice produces: type, title, status, detail, instance, code.
 */
@Component
public class ProblemResponses {

    private final ObjectMapper json;

    public ProblemResponses(ObjectMapper json) {
        this.json = json;
    }

    public void write(HttpServletRequest request, HttpServletResponse response, ErrorCode code, String detail)
            throws IOException {
        if (response.isCommitted()) {
            return;
        }
        HttpStatus status = HttpStatus.valueOf(code.httpStatus());
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", "about:blank");
        body.put("title", status.getReasonPhrase());
        body.put("status", status.value());
        body.put("detail", detail);
        body.put("instance", request.getRequestURI());
        body.put("code", code.code());
        response.resetBuffer();
        response.setStatus(status.value());
        response.setContentType("application/problem+json");
        json.writeValue(response.getOutputStream(), body);
    }
}
