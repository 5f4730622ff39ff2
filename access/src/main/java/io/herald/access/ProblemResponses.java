package io.herald.access;

import io.herald.contracts.error.ErrorCode;
import io.herald.platform.problem.Problems;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.stereotype.Component;

/**
 * The refusals of the security filters and entry points, which answer outside Spring MVC: written
 * by the one problem writer, so they have the shape of every other problem answer.
 */
@Component
public class ProblemResponses {

    public void write(HttpServletRequest request, HttpServletResponse response, ErrorCode code, String detail)
            throws IOException {
        Problems.write(request, response, code, detail);
    }
}
