package io.herald.query.audit;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.herald.platform.problem.Problems;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.contracts.error.ErrorCode;
import io.herald.contracts.error.HeraldRejection;
import io.herald.query.web.QueryParams;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The audit part of the API contract: a publication's stream, the NDJSON export, the verifier and its jobs. */
@RestController
public class AuditController {

    public static final String NDJSON = "application/x-ndjson";

    private static final Pattern PUBLICATION_ID = Pattern.compile("pub_[0-9a-f]{64}");
    /** A scan usually ends within seconds; asking again sooner only meets the same refusal. */
    private static final String RETRY_AFTER_SECONDS = "5";

    private final EventStoreReader store;
    private final RuleVerification verification;
    private final VerificationJobs jobs;
    private final AuditScanLimiter scans;
    private final AuditChainRepository chain;
    private final ProcessorCatchUp catchUp;
    private final AuditKeys keys;
    private final ObjectMapper json;
    private final Duration verifyWait;
    private final Clock clock;

    public AuditController(EventStoreReader store, RuleVerification verification, VerificationJobs jobs,
                           AuditScanLimiter scans, ObjectMapper objectMapper, AuditProperties properties,
                           AuditChainRepository chain, ProcessorCatchUp catchUp, AuditKeys keys, Clock clock) {
        this.store = store;
        this.verification = verification;
        this.jobs = jobs;
        this.scans = scans;
        this.json = objectMapper;
        this.verifyWait = properties.verifyWait();
        this.chain = chain;
        this.catchUp = catchUp;
        this.keys = keys;
        this.clock = clock;
    }

    /** The stream of one publication; another workspace's publication is "not found". */
    @Operation(description = "A publication's own event stream in order: every request, attempt, answer, "
            + "reconciliation and decision as stored.")
    @GetMapping(path = "/api/v1/workspaces/{ws}/publications/{id}/events", produces = MediaType.APPLICATION_JSON_VALUE)
    public List<StoredEvent> publicationEvents(@PathVariable("ws") String workspace, @PathVariable("id") String id) {
        List<StoredEvent> stream = PUBLICATION_ID.matcher(id).matches() ? store.stream(id) : List.of();
        if (stream.isEmpty() || !workspace.equals(stream.get(0).workspaceId())) {
            throw new HeraldRejection(ErrorCode.NOT_FOUND, "no publication " + id + " in this workspace");
        }
        return stream;
    }

    @Operation(description = "Exports the workspace's events in store order as NDJSON, one event a line, from a store "
            + "position on (after) and up to a limit.")
    @GetMapping("/api/v1/workspaces/{ws}/audit/events")
    public void workspaceEvents(@PathVariable("ws") String workspace,
                                @RequestParam(name = "after", required = false) String after,
                                @RequestParam(name = "limit", required = false) String limit,
                                HttpServletResponse response) throws IOException {
        export(workspace, after, limit, response);
    }

    @Operation(description = "Exports the whole store's events in store order as NDJSON, one event a line. System key "
            + "only.")
    @GetMapping("/api/v1/audit/events")
    public void allEvents(@RequestParam(name = "after", required = false) String after,
                          @RequestParam(name = "limit", required = false) String limit,
                          HttpServletResponse response) throws IOException {
        export(null, after, limit, response);
    }

    /** A key that signs checkpoints: the raw 32 bytes of its Ed25519 public key in standard base64. */
    @Schema(name = "AuditPublicKey")
    public record PublicKeyView(String keyId, String publicKey, java.time.Instant from, java.time.Instant until) {
    }

    @Schema(name = "AuditKeys")
    public record KeysView(List<PublicKeyView> keys) {
    }

    /**
     * The public keys of the checkpoints (no key needed): every key that signed one, with its first
     * and last signature ({@code until} absent for the key this node signs with), and that key even
     * before its first signature.
     */
    @Operation(description = "The Ed25519 public keys that sign the audit chain's checkpoints, with the first and "
            + "last signature of each; no key needed, so an auditor can check an export without Herald.")
    @GetMapping(path = "/api/v1/audit/keys", produces = MediaType.APPLICATION_JSON_VALUE)
    public KeysView keys() {
        List<PublicKeyView> known = new java.util.ArrayList<>();
        String current = keys.signer().map(AuditSigner::keyId).orElse(null);
        for (AuditChainRepository.SigningKey key : chain.keys()) {
            known.add(new PublicKeyView(key.keyId(), key.publicKey(), key.from(),
                    key.keyId().equals(current) ? null : key.until()));
        }
        keys.signer().filter(s -> known.stream().noneMatch(k -> k.keyId().equals(s.keyId())))
                .ifPresent(s -> known.add(new PublicKeyView(s.keyId(), s.publicKey(), null, null)));
        return new KeysView(known);
    }

    /**
     * How far the chain is: the store's last position, the last one chained, and the events chained.
     * On an existing store, the chain of what was stored before it is computed once in the background;
     * this shows how far that has come.
     */
    @Schema(name = "AuditChainProgress")
    public record ChainProgress(long storeHead, long chainedThrough, long eventsChained, boolean caughtUp) {
    }

    @Operation(description = "How far the audit hash chain has come: the store's last position, the last one "
            + "chained and the events chained. On a store written before the chain it is computed once in the "
            + "background; this shows its progress. System key only.")
    @GetMapping(path = "/api/v1/admin/audit/chain", produces = MediaType.APPLICATION_JSON_VALUE)
    public ChainProgress chainProgress() {
        Long head = store.head(verifyWait);
        AuditChainRepository.Progress progress = chain.progress();
        long storeHead = head == null ? -1 : head;
        return new ChainProgress(storeHead, progress.chainedThrough(), progress.eventsChained(),
                head != null && progress.chainedThrough() >= storeHead);
    }

    /**
     * The breaches the live verifier has found in the workspace, the chain breaks its check of the
     * audit chain found ({@link ChainWatch}) among them: rows of its table, so the answer costs the
     * same at any store size. It first waits briefly for the verifier to reach the events stored
     * when the call came ({@code herald.audit.verify-wait}).
     */
    @Operation(description = "Lists the breaches of Herald's rules (never two writes without a read, every attempt "
            + "answered, ...) that the live verifier found in the workspace's streams, and the chain breaks (kind "
            + "chain) its periodic check found where a stored event or the audit chain was changed or removed after "
            + "chaining; empty when every rule holds.")
    @GetMapping(path = "/api/v1/workspaces/{ws}/audit/verify", produces = MediaType.APPLICATION_JSON_VALUE)
    public List<Breach> verifyWorkspace(@PathVariable("ws") String workspace) {
        verification.awaitCaughtUp(verifyWait);
        return verification.breaches(workspace);
    }

    /** The whole store, for the system: every workspace's publications. */
    @Operation(description = "Lists the rule breaches and chain breaks the live verifier found in the whole store. "
            + "System key only.")
    @GetMapping(path = "/api/v1/audit/verify", produces = MediaType.APPLICATION_JSON_VALUE)
    public List<Breach> verifyAll() {
        verification.awaitCaughtUp(verifyWait);
        return verification.breaches(null);
    }

    /** A full re-verification from the first event, in the background; the one running if there is one. */
    @Operation(description = "Starts re-verifying every stream of the store from its first event, in the background, "
            + "and answers the job to follow. System key only.")
    @PostMapping(path = "/api/v1/admin/audit/verify", produces = MediaType.APPLICATION_JSON_VALUE)
    public ResponseEntity<VerificationJob> startVerification() {
        VerificationJob job = jobs.start();
        return ResponseEntity.status(HttpStatus.ACCEPTED)
                .location(URI.create("/api/v1/admin/audit/verify/" + job.jobId())).body(job);
    }

    @Operation(description = "A re-verification job: its state, how many streams it has checked and the breaches found "
            + "so far.")
    @GetMapping(path = "/api/v1/admin/audit/verify/{jobId}", produces = MediaType.APPLICATION_JSON_VALUE)
    public VerificationJob verification(@PathVariable("jobId") String jobId) {
        return jobs.find(jobId).orElseThrow(() ->
                new HeraldRejection(ErrorCode.NOT_FOUND, "no verification job " + jobId));
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
     *
     * <p>The lines are the chained events in chain order, each with its stored {@code prevHash} and
     * {@code hash}; the response ends with a checkpoint of each chain it holds at that chain's last
     * line in it: the stored one, or, when the chain's newest stored checkpoint is older than that
     * line (the export came before the recurring task signed it), one signed now and stored as the
     * task stores one ({@link AuditChainRepository#closingCheckpoints}), so that every line is
     * covered by a signature. Events stored but not yet chained are not in it: the export ends at
     * each chain's head as the chain processor has it. An export after a position begins each chain that started before it at that
     * chain's newest checkpoint at or before it (written first, so the chain's first line continues
     * a signed hash) or, if it has none there, at its origin: every chain is complete from a signed
     * hash or its origin on. It first waits briefly ({@code herald.audit.verify-wait}) for the chain to reach
     * the events stored when the call came.
     */
    private void export(String workspace, String after, String limit, HttpServletResponse response)
            throws IOException {
        long from = wholeNumber("after", after, 0);
        long max = wholeNumber("limit", limit, 0);
        if (limit != null && !limit.isBlank() && max < 1) {
            throw QueryParams.invalid("limit must be at least 1");
        }
        try (AuditScanLimiter.Slot slot = scans.acquire(workspace)) {
            catchUp.await(AuditChainProcessor.PROCESSING_GROUP, verifyWait);
            long afterOrder = chain.chainOrderAfter(from);
            response.setContentType(NDJSON);
            response.setCharacterEncoding(StandardCharsets.UTF_8.name());
            Writer out = new BufferedWriter(new OutputStreamWriter(response.getOutputStream(), StandardCharsets.UTF_8));
            java.util.Map<String, AuditChainRepository.Link> lastLines = new java.util.LinkedHashMap<>();
            long[] lastOrder = {-1};
            // an export that begins after a position begins each chain at its signed head there
            java.util.Map<String, Long> starts = new java.util.LinkedHashMap<>();
            if (afterOrder > 0) {
                chain.exportStarts(workspace, afterOrder).forEach((ws, checkpoint) -> {
                    starts.put(ws, checkpoint == null ? 0 : checkpoint.chainOrder());
                    if (checkpoint != null) {
                        write(out, checkpointLine(checkpoint));
                    }
                });
            }
            store.forEachChained(workspace, afterOrder, starts, max, chained -> {
                ObjectNode line = AuditChain.line(json, chained.event(), chained.link().workspaceId());
                line.put(AuditChain.PREV_HASH, chained.link().prevHash());
                line.put(AuditChain.HASH, chained.link().hash());
                lastLines.put(chained.link().workspaceId(), chained.link());
                lastOrder[0] = chained.link().chainOrder();
                write(out, line);
            });
            if (lastOrder[0] >= 0) {
                for (AuditChainRepository.Checkpoint checkpoint
                        : chain.closingCheckpoints(lastLines, lastOrder[0], keys.signer(), clock.instant())) {
                    write(out, checkpointLine(checkpoint));
                }
            }
            out.flush();
        }
    }

    private ObjectNode checkpointLine(AuditChainRepository.Checkpoint checkpoint) {
        ObjectNode line = json.createObjectNode();
        ObjectNode body = line.putObject("checkpoint");
        body.put("workspaceId", checkpoint.workspaceId());
        body.put("position", checkpoint.position());
        body.put("hash", checkpoint.hash());
        body.put("at", checkpoint.at());
        body.put("keyId", checkpoint.keyId());
        body.put("signature", checkpoint.signature());
        return line;
    }

    private void write(Writer out, ObjectNode line) {
        try {
            out.write(json.writeValueAsString(line));
            out.write('\n');
        } catch (IOException e) {
            throw new UncheckedIOException(e);
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
