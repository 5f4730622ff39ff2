package io.herald.sandbox.bluesky;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.platform.wire.Json;
import io.herald.sandbox.Replies;
import io.herald.sandbox.SandboxState;
import io.herald.sandbox.bluesky.BlueskyRepos.Account;
import io.herald.sandbox.bluesky.BlueskyRepos.Session;
import io.herald.sandbox.bluesky.BlueskyRepos.StoredRecord;
import jakarta.annotation.PreDestroy;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.text.BreakIterator;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;

/**
 * A Bluesky PDS's XRPC API under {@code /sandbox/bluesky/xrpc/…}, as the reference PDS answers:
 * sessions made with an app password and refreshed with the refresh token (expired tokens are 400
 * {@code ExpiredToken}); {@code putRecord} with {@code swapRecord: null} writes where nothing is,
 * answers the same record again with 200 and the same CID (without {@code commit}) and other
 * content with 400 {@code InvalidSwap}; a post key that is no TID, text over 300 graphemes or 3,000
 * bytes, or an embedded image over 2,000,000 bytes is 400 {@code InvalidRequest};
 * {@code getRecord} needs no session and answers 400 {@code RecordNotFound}; deleting a missing
 * record is a 200 no-op; {@code resolveHandle} of a handle it does not hold is 400
 * {@code HandleNotFound} "Unable to resolve handle".
 */
@RestController
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
public class BlueskyXrpcController {

    static final String POST = "app.bsky.feed.post";
    static final long MAX_IMAGE_BYTES = 2_000_000;
    private static final String TID = "[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}";

    private final BlueskyRepos repos;
    private final BlueskyFaults faults;
    private final SandboxState state;
    private final ScheduledExecutorService later = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "sandbox-bluesky-later");
        thread.setDaemon(true);
        return thread;
    });

    BlueskyXrpcController(BlueskyRepos repos, BlueskyFaults faults, SandboxState state) {
        this.repos = repos;
        this.faults = faults;
        this.state = state;
    }

    @PreDestroy
    void stop() {
        later.shutdownNow();
    }

    @RequestMapping(value = "/sandbox/bluesky/xrpc/{method}", method = {RequestMethod.GET, RequestMethod.POST})
    public DeferredResult<ResponseEntity<String>> xrpc(@PathVariable String method, HttpServletRequest request)
            throws IOException {
        byte[] raw = request.getInputStream().readAllBytes();
        return switch (method) {
            case "com.atproto.server.createSession" -> now(createSession(Json.parse(new String(raw, StandardCharsets.UTF_8))));
            case "com.atproto.server.refreshSession" -> now(refreshSession(bearer(request)));
            case "com.atproto.server.getSession" -> authorized(request, method, (account, session) -> () ->
                    ok(Json.object().put("handle", account.handle()).put("did", account.did()).put("active", true)));
            case "com.atproto.repo.getRecord" -> getRecord(request);
            case "com.atproto.identity.resolveHandle" -> now(resolveHandle(request.getParameter("handle")));
            case "com.atproto.repo.putRecord" -> authorized(request, method, (account, session) ->
                    putRecord(account, Json.parse(new String(raw, StandardCharsets.UTF_8))));
            case "com.atproto.repo.deleteRecord" -> authorized(request, method, (account, session) ->
                    deleteRecord(account, Json.parse(new String(raw, StandardCharsets.UTF_8))));
            case "com.atproto.repo.uploadBlob" -> authorized(request, method, (account, session) ->
                    uploadBlob(raw, request.getContentType()));
            default -> now(error(501, "MethodNotImplemented", "Method Not Implemented"));
        };
    }

    /** A call's effect, run when the answer is made (a fault may run it and answer later, or not at all). */
    @FunctionalInterface
    private interface Call {
        Supplier<ResponseEntity<String>> effect(Account account, Session session);
    }

    private DeferredResult<ResponseEntity<String>> authorized(HttpServletRequest request, String method, Call call) {
        String token = bearer(request);
        if (token == null) {
            return now(error(401, "AuthMissing", "Authentication Required"));
        }
        Optional<Session> session = repos.byAccess(token);
        if (session.isEmpty()) {
            return now(error(400, "InvalidToken", "Token could not be verified"));
        }
        if (session.get().accessExpired()) {
            return now(error(400, "ExpiredToken", "Token has expired"));
        }
        Account account = repos.account(session.get().did()).orElseThrow();
        return faulted(account.handle(), method, call.effect(account, session.get()));
    }

    private DeferredResult<ResponseEntity<String>> faulted(String handle, String method,
                                                           Supplier<ResponseEntity<String>> effect) {
        Optional<BlueskyFaults.Fault> fault = faults.take(handle, method);
        if (fault.isEmpty()) {
            return now(effect.get());
        }
        BlueskyFaults.Fault f = fault.get();
        return switch (f.type()) {
            case ERROR_5XX_NO_EFFECT -> now(error(500, "InternalServerError", "Internal Server Error"));
            case RATE_LIMIT -> {
                HttpHeaders headers = new HttpHeaders();
                headers.add("RateLimit-Limit", "5000");
                headers.add("RateLimit-Remaining", "0");
                headers.add("RateLimit-Reset", Long.toString((System.currentTimeMillis() + f.delayMillis()) / 1000 + 1));
                headers.add("RateLimit-Policy", "5000;w=3600");
                headers.setContentType(MediaType.APPLICATION_JSON);
                yield now(ResponseEntity.status(429).headers(headers).body(Json.write(Json.object()
                        .put("error", "RateLimitExceeded").put("message", "Rate Limit Exceeded"))));
            }
            case ERROR_5XX_WITH_EFFECT -> {
                effect.get();
                yield now(ResponseEntity.status(502).contentType(MediaType.TEXT_HTML)
                        .body("<html><body><h1>502 Bad Gateway</h1></body></html>"));
            }
            case OK_WITHOUT_RECORD -> {
                effect.get();
                yield now(ok(Json.object().put("validationStatus", "valid")));
            }
            case DELAY_ANSWER -> {
                ResponseEntity<String> answer = effect.get();
                DeferredResult<ResponseEntity<String>> result = new DeferredResult<>();
                later.schedule(() -> result.setResult(answer), f.delayMillis(), TimeUnit.MILLISECONDS);
                yield result;
            }
        };
    }

    private ResponseEntity<String> createSession(JsonNode body) {
        Optional<Account> account = repos.account(Json.text(body, "identifier"));
        if (account.isEmpty() || account.get().revoked()
                || !account.get().appPassword().equals(Json.text(body, "password"))) {
            return error(401, "AuthenticationRequired", "Invalid identifier or password");
        }
        return ok(session(account.get(), repos.newSession(account.get())));
    }

    /**
     * A handle of an account here is its DID; any other is 400 {@code HandleNotFound} "Unable to
     * resolve handle", as the reference PDS (0.5.35) answers; no handle, or a DID, is 400
     * {@code InvalidRequest}.
     */
    private ResponseEntity<String> resolveHandle(String handle) {
        if (handle == null || handle.isBlank()) {
            return error(400, "InvalidRequest", "Error: Params must have the property \"handle\"");
        }
        if (handle.startsWith("did:")) {
            return error(400, "InvalidRequest", "Error: handle must be a valid handle");
        }
        return repos.account(handle).or(() -> repos.account(handle.toLowerCase(java.util.Locale.ROOT)))
                .map(account -> ok(Json.object().put("did", account.did())))
                .orElseGet(() -> error(400, "HandleNotFound", "Unable to resolve handle"));
    }

    private ResponseEntity<String> refreshSession(String token) {
        Optional<Session> session = repos.byRefresh(token);
        if (session.isEmpty()) {
            return token != null && token.startsWith("sbx-refresh-")
                    ? error(400, "ExpiredToken", "Token has been revoked")
                    : error(400, "InvalidToken", "Token could not be verified");
        }
        Account account = repos.account(session.get().did()).orElseThrow();
        return ok(session(account, repos.refreshed(session.get())));
    }

    private static ObjectNode session(Account account, Session session) {
        return Json.object().put("accessJwt", session.accessJwt()).put("refreshJwt", session.refreshJwt())
                .put("handle", account.handle()).put("did", account.did()).put("active", true);
    }

    private DeferredResult<ResponseEntity<String>> getRecord(HttpServletRequest request) {
        Optional<Account> account = repos.account(request.getParameter("repo"));
        if (account.isEmpty()) {
            return now(error(400, "InvalidRequest", "Could not find repo: " + request.getParameter("repo")));
        }
        String collection = request.getParameter("collection");
        String rkey = request.getParameter("rkey");
        return faulted(account.get().handle(), "com.atproto.repo.getRecord", () ->
                repos.record(account.get().did(), collection, rkey)
                        .map(record -> {
                            ObjectNode body = Json.object().put("uri", record.uri()).put("cid", record.cid());
                            body.set("value", record.value());
                            return ok(body);
                        })
                        .orElseGet(() -> error(400, "RecordNotFound", "Could not locate record: at://"
                                + account.get().did() + "/" + collection + "/" + rkey)));
    }

    private Supplier<ResponseEntity<String>> putRecord(Account account, JsonNode body) {
        String repo = Json.text(body, "repo");
        String collection = Json.text(body, "collection");
        String rkey = Json.text(body, "rkey");
        JsonNode record = body.path("record");
        if (!account.did().equals(repo) && !account.handle().equals(repo)) {
            return () -> error(400, "InvalidRequest", "Invalid repo");
        }
        if (collection == null || rkey == null || !record.isObject()) {
            return () -> error(400, "InvalidRequest", "Input must have the properties repo, collection, rkey, record");
        }
        Optional<String> invalid = POST.equals(collection) ? invalidPost(rkey, record) : Optional.empty();
        if (invalid.isPresent()) {
            return () -> error(400, "InvalidRequest", invalid.get());
        }
        boolean mustBeNew = body.has("swapRecord") && body.get("swapRecord").isNull();
        return () -> {
            String cid = BlueskyRepos.cid(record);
            Optional<StoredRecord> before = repos.record(account.did(), collection, rkey);
            if (before.isPresent()) {
                if (before.get().cid().equals(cid)) {
                    return ok(Json.object().put("uri", before.get().uri()).put("cid", cid));
                }
                if (mustBeNew) {
                    return error(400, "InvalidSwap", "Record was at " + before.get().cid());
                }
            }
            StoredRecord stored = repos.putIfAbsent(account.did(), collection, rkey, record);
            if (!stored.cid().equals(cid)) {
                return error(400, "InvalidSwap", "Record was at " + stored.cid());
            }
            ObjectNode answer = Json.object().put("uri", stored.uri()).put("cid", stored.cid());
            answer.putObject("commit").put("cid", "bafyreicommit" + cid.substring(13)).put("rev", rkey);
            answer.put("validationStatus", "valid");
            return ok(answer);
        };
    }

    private Optional<String> invalidPost(String rkey, JsonNode record) {
        if (!rkey.matches(TID)) {
            return Optional.of("Invalid record key: a post's key must be a TID");
        }
        if (!POST.equals(Json.text(record, "$type")) || Json.text(record, "createdAt") == null) {
            return Optional.of("Invalid app.bsky.feed.post record: Record must have the properties \"text\" and "
                    + "\"createdAt\"");
        }
        String text = record.path("text").asText("");
        if (graphemes(text) > 300 || text.getBytes(StandardCharsets.UTF_8).length > 3000) {
            return Optional.of("Invalid app.bsky.feed.post record: Record/text must not be longer than 300 graphemes");
        }
        JsonNode embed = record.path("embed");
        if ("app.bsky.embed.images".equals(Json.text(embed, "$type"))) {
            if (embed.path("images").size() > 4) {
                return Optional.of("Invalid app.bsky.feed.post record: Record/embed/images must not have more than "
                        + "4 elements");
            }
            for (JsonNode image : embed.path("images")) {
                String cid = Json.text(image.path("image").path("ref"), "$link");
                Optional<Long> size = repos.blobSize(cid);
                if (size.isEmpty()) {
                    return Optional.of("Could not find blob: " + cid);
                }
                if (size.get() > MAX_IMAGE_BYTES) {
                    return Optional.of("blob too big");
                }
            }
        }
        return Optional.empty();
    }

    private Supplier<ResponseEntity<String>> deleteRecord(Account account, JsonNode body) {
        return () -> {
            repos.delete(account.did(), Json.text(body, "collection"), Json.text(body, "rkey"));
            return ok(Json.object());
        };
    }

    private Supplier<ResponseEntity<String>> uploadBlob(byte[] bytes, String contentType) {
        return () -> {
            ObjectNode answer = Json.object();
            ObjectNode blob = answer.putObject("blob").put("$type", "blob");
            blob.putObject("ref").put("$link", repos.blob(bytes));
            blob.put("mimeType", contentType == null ? "application/octet-stream" : contentType);
            blob.put("size", bytes.length);
            return ok(answer);
        };
    }

    private static int graphemes(String text) {
        BreakIterator characters = BreakIterator.getCharacterInstance();
        characters.setText(text);
        int count = 0;
        while (characters.next() != BreakIterator.DONE) {
            count++;
        }
        return count;
    }

    private static String bearer(HttpServletRequest request) {
        String header = request.getHeader("Authorization");
        return header != null && header.startsWith("Bearer ") ? header.substring(7) : null;
    }

    /** Answers after the sandbox's artificial latency, as every simulated provider does. */
    private DeferredResult<ResponseEntity<String>> now(ResponseEntity<String> answer) {
        return Replies.now(state, answer);
    }

    private static ResponseEntity<String> ok(JsonNode body) {
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(Json.write(body));
    }

    private static ResponseEntity<String> error(int status, String error, String message) {
        return ResponseEntity.status(status).contentType(MediaType.APPLICATION_JSON)
                .body(Json.write(Json.object().put("error", error).put("message", message)));
    }
}
