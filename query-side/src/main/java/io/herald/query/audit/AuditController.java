package io.herald.query.audit;

import io.herald.platform.problem.Problems;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.herald.contracts.error.ErrorCode;
import io.herald.contracts.error.HeraldRejection;
import io.herald.query.web.QueryParams;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Pattern;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** API.md "Audit": a publication's stream, the NDJSON export and the verifier. */
@RestController
public class AuditController {

    public static final String NDJSON = "application/x-ndjson";

    private static final Pattern PUBLICATION_ID = Pattern.compile("pub_[0-9a-f]{64}");
    /** A scan usually ends within seconds; asking again sooner only meets the same refusal. */
    private static final String RETRY_AFTER_SECONDS = "5";

    private final EventStoreReader store;
    private final AuditVerifier verifier;
    private final AuditScanLimiter scans;
    private final ObjectWriter lines;

    public AuditController(EventStoreReader store, AuditVerifier verifier, AuditScanLimiter scans,
                           ObjectMapper objectMapper) {
        this.store = store;
        this.verifier = verifier;
        this.scans = scans;
        this.lines = objectMapper.writerFor(StoredEvent.class);
    }

    /** The stream of one publication; another workspace's publication is "not found". */
    @GetMapping(path = "/api/v1/workspaces/{ws}/publications/{id}/events", produces = MediaType.APPLICATION_JSON_VALUE)
    public List<StoredEvent> publicationEvents(@PathVariable("ws") String workspace, @PathVariable("id") String id) {
        List<StoredEvent> stream = PUBLICATION_ID.matcher(id).matches() ? store.stream(id) : List.of();
        if (stream.isEmpty() || !workspace.equals(stream.get(0).workspaceId())) {
            throw new HeraldRejection(ErrorCode.NOT_FOUND, "no publication " + id + " in this workspace");
        }
        return stream;
    }

    @GetMapping("/api/v1/workspaces/{ws}/audit/events")
    public void workspaceEvents(@PathVariable("ws") String workspace,
                                @RequestParam(name = "after", required = false) String after,
                                @RequestParam(name = "limit", required = false) String limit,
                                HttpServletResponse response) throws IOException {
        export(workspace, after, limit, response);
    }

    @GetMapping("/api/v1/audit/events")
    public void allEvents(@RequestParam(name = "after", required = false) String after,
                          @RequestParam(name = "limit", required = false) String limit,
                          HttpServletResponse response) throws IOException {
        export(null, after, limit, response);
    }

    @GetMapping(path = "/api/v1/workspaces/{ws}/audit/verify", produces = MediaType.APPLICATION_JSON_VALUE)
    public List<Breach> verifyWorkspace(@PathVariable("ws") String workspace) {
        try (AuditScanLimiter.Slot slot = scans.acquire(workspace)) {
            return verifier.verify(workspace).breaches();
        }
    }

    /** The whole store, for the system: every workspace's publications. */
    @GetMapping(path = "/api/v1/audit/verify", produces = MediaType.APPLICATION_JSON_VALUE)
    public List<Breach> verifyAll() {
        try (AuditScanLimiter.Slot slot = scans.acquire(null)) {
            return verifier.verify(null).breaches();
        }
    }

    @ExceptionHandler(AuditScanLimiter.TooManyScans.class)
    ResponseEntity<ProblemDetail> tooManyScans(AuditScanLimiter.TooManyScans refusal) {
        return problem(ErrorCode.RATE_LIMITED, refusal.getMessage(), RETRY_AFTER_SECONDS);
    }

    /** The database cut a page off after {@code herald.audit.statement-timeout}. */
    @ExceptionHandler(EventStoreReader.ReadTimedOut.class)
    ResponseEntity<ProblemDetail> slowScan(EventStoreReader.ReadTimedOut failure) {
        return problem(ErrorCode.UNAVAILABLE, "the audit read took longer than its statement timeout; "
                + "read fewer events at a time with after and limit", null);
    }

    private static ResponseEntity<ProblemDetail> problem(ErrorCode code, String detail, String retryAfter) {
        ProblemDetail problem = Problems.of(code, detail);
        ResponseEntity.BodyBuilder answer = ResponseEntity.status(code.httpStatus())
                .contentType(MediaType.APPLICATION_PROBLEM_JSON);
        if (retryAfter != null) {
            answer.header(HttpHeaders.RETRY_AFTER, retryAfter);
        }
        return answer.body(problem);
    }

    /**
     * Written straight to the response in the request thread, page by page: a million events never
     * sit in memory, and a long export is not cut by an async request timeout. Parameters are checked
     * before the first byte, so a bad one still gets a problem+json answer.
     */
    private void export(String workspace, String after, String limit, HttpServletResponse response)
            throws IOException {
        long from = wholeNumber("after", after, 0);
        long max = wholeNumber("limit", limit, 0);
        if (limit != null && !limit.isBlank() && max < 1) {
            throw QueryParams.invalid("limit must be at least 1");
        }
        try (AuditScanLimiter.Slot slot = scans.acquire(workspace)) {
            response.setContentType(NDJSON);
            response.setCharacterEncoding(StandardCharsets.UTF_8.name());
            Writer out = new BufferedWriter(new OutputStreamWriter(response.getOutputStream(), StandardCharsets.UTF_8));
            store.forEachInStoreOrder(workspace, from, max, event -> {
                try {
                    out.write(lines.writeValueAsString(event));
                    out.write('\n');
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            out.flush();
        }
    }

    private static long wholeNumber(String name, String raw, long absent) {
        if (raw == null || raw.isBlank()) {
            return absent;
        }
        try {
            long value = Long.parseLong(raw.trim());
            if (value < 0) {
                throw QueryParams.invalid(name + " must not be negative");
            }
            return value;
        } catch (NumberFormatException e) {
            throw QueryParams.invalid(name + " must be a whole number");
        }
    }
}
