package io.herald.sandbox.mastodon;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.platform.wire.Json;
import io.herald.sandbox.Replies;
import io.herald.sandbox.SandboxState;
import io.herald.sandbox.mastodon.MastodonInstance.Account;
import io.herald.sandbox.mastodon.MastodonInstance.Media;
import io.herald.sandbox.mastodon.MastodonInstance.Status;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.Part;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;

/**
 * A Mastodon 4.x instance's REST API under {@code /sandbox/mastodon/api/…}, as an instance answers:
 * bearer tokens (401 {@code The access token is invalid}; 403 outside the token's scopes), statuses
 * created with an {@code Idempotency-Key} kept an hour per account (a repeat answers the same
 * status, or a 500 in the "repeated key error" mode), text counted with a URL as 23 characters (422
 * over 500), replies, edits (media left out are dropped), deletes, the account's statuses newest
 * first by {@code max_id}, a status's {@code /source}, media through {@code /api/v2/media} (202 while
 * processing, 206 to checks until ready, 422 when attached early), {@code /api/v2/instance}, and
 * the {@code X-RateLimit-*} headers on every authorised answer (429 past 300 in 5 minutes).
 */
@RestController
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
public class MastodonApiController {

    static final String BASE = "/sandbox/mastodon";
    private static final Set<String> IMAGE_TYPES = Set.of("image/jpeg", "image/png", "image/gif", "image/webp");
    private static final long IMAGE_SIZE_LIMIT = 16L * 1024 * 1024;
    private static final int MAX_MEDIA = 4;

    private final MastodonInstance instance;
    private final MastodonFaults faults;
    private final SandboxState state;

    MastodonApiController(MastodonInstance instance, MastodonFaults faults, SandboxState state) {
        this.instance = instance;
        this.faults = faults;
        this.state = state;
    }

    @GetMapping(BASE + "/api/v1/accounts/verify_credentials")
    public DeferredResult<ResponseEntity<String>> verifyCredentials(HttpServletRequest request) {
        return authorized(request, "read:accounts", null, null, account -> () -> ok(accountJson(account, base(request))));
    }

    @GetMapping(BASE + "/api/v2/instance")
    public DeferredResult<ResponseEntity<String>> instance(HttpServletRequest request) {
        ObjectNode body = Json.object().put("domain", request.getServerName()).put("title", "Herald sandbox")
                .put("version", "4.3.2");
        ObjectNode configuration = body.putObject("configuration");
        configuration.putObject("statuses").put("max_characters", MastodonHtml.MAX_CHARACTERS)
                .put("max_media_attachments", MAX_MEDIA)
                .put("characters_reserved_per_url", MastodonHtml.URL_CHARACTERS);
        ObjectNode media = configuration.putObject("media_attachments");
        ArrayNode types = media.putArray("supported_mime_types");
        IMAGE_TYPES.stream().sorted().forEach(types::add);
        types.add("video/mp4");
        media.put("image_size_limit", IMAGE_SIZE_LIMIT).put("image_matrix_limit", 33_177_600);
        return now(ok(body));
    }

    @PostMapping(BASE + "/api/v1/statuses")
    public DeferredResult<ResponseEntity<String>> create(HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        JsonNode body = body(request);
        String key = request.getHeader("Idempotency-Key");
        return authorized(request, "write:statuses", MastodonFaults.Operation.CREATE, response, account -> () -> {
            Instant now = Instant.now();
            instance.received(account.id(), key, now);
            if (key != null) {
                Optional<Status> repeat = instance.keyed(account.id(), key, now).flatMap(instance::status);
                if (repeat.isPresent()) {
                    return instance.repeatedKeyError() ? serverError() : ok(statusJson(repeat.get(), base(request)));
                }
            }
            String text = Json.text(body, "status") == null ? "" : Json.text(body, "status");
            List<String> mediaIds = ids(body.path("media_ids"));
            String inReplyTo = Json.text(body, "in_reply_to_id");
            Optional<ResponseEntity<String>> invalid = invalid(account, text, mediaIds);
            if (invalid.isPresent()) {
                return invalid.get();
            }
            if (inReplyTo != null && instance.status(inReplyTo).isEmpty()) {
                return error(404, "Record not found");
            }
            Status status = instance.create(account.id(), text, inReplyTo, mediaIds, now);
            if (key != null) {
                instance.keep(account.id(), key, status.id(), now);
            }
            return ok(statusJson(status, base(request)));
        });
    }

    @GetMapping(BASE + "/api/v1/statuses/{id}")
    public DeferredResult<ResponseEntity<String>> status(@PathVariable String id, HttpServletRequest request,
                                                         HttpServletResponse response) {
        return authorized(request, "read:statuses", MastodonFaults.Operation.READ, response, account -> () ->
                instance.status(id).map(s -> ok(statusJson(s, base(request))))
                        .orElseGet(() -> error(404, "Record not found")));
    }

    @GetMapping(BASE + "/api/v1/statuses/{id}/source")
    public DeferredResult<ResponseEntity<String>> source(@PathVariable String id, HttpServletRequest request,
                                                         HttpServletResponse response) {
        return authorized(request, "read:statuses", MastodonFaults.Operation.READ, response, account -> () ->
                instance.status(id).filter(s -> s.accountId().equals(account.id()))
                        .map(s -> ok(Json.object().put("id", s.id()).put("text", s.text()).put("spoiler_text", "")))
                        .orElseGet(() -> error(404, "Record not found")));
    }

    @PutMapping(BASE + "/api/v1/statuses/{id}")
    public DeferredResult<ResponseEntity<String>> edit(@PathVariable String id, HttpServletRequest request,
                                                       HttpServletResponse response) throws IOException {
        JsonNode body = body(request);
        return authorized(request, "write:statuses", MastodonFaults.Operation.EDIT, response, account -> () -> {
            Optional<Status> status = instance.status(id);
            if (status.isEmpty()) {
                return error(404, "Record not found");
            }
            if (!status.get().accountId().equals(account.id())) {
                return error(403, "This action is not allowed");
            }
            String text = Json.text(body, "status") == null ? status.get().text() : Json.text(body, "status");
            List<String> mediaIds = ids(body.path("media_ids"));
            Optional<ResponseEntity<String>> invalid = invalid(account, text, mediaIds);
            return invalid.orElseGet(() -> ok(statusJson(instance.edit(status.get(), text, mediaIds, Instant.now()),
                    base(request))));
        });
    }

    @DeleteMapping(BASE + "/api/v1/statuses/{id}")
    public DeferredResult<ResponseEntity<String>> delete(@PathVariable String id, HttpServletRequest request,
                                                         HttpServletResponse response) {
        return authorized(request, "write:statuses", MastodonFaults.Operation.DELETE, response, account -> () -> {
            Optional<Status> status = instance.status(id);
            if (status.isEmpty()) {
                return error(404, "Record not found");
            }
            if (!status.get().accountId().equals(account.id())) {
                return error(403, "This action is not allowed");
            }
            instance.delete(status.get());
            return ok(statusJson(status.get(), base(request)).put("text", status.get().text()));
        });
    }

    @GetMapping(BASE + "/api/v1/accounts/{id}/statuses")
    public DeferredResult<ResponseEntity<String>> accountStatuses(@PathVariable String id, HttpServletRequest request,
                                                                  HttpServletResponse response) {
        int limit = Math.min(40, Math.max(1, parse(request.getParameter("limit"), 20)));
        String maxId = request.getParameter("max_id");
        return authorized(request, "read:statuses", MastodonFaults.Operation.READ, response, account -> () -> {
            if (instance.account(id).isEmpty()) {
                return error(404, "Record not found");
            }
            ArrayNode list = Json.MAPPER.createArrayNode();
            instance.statuses(id, false).stream()
                    .filter(s -> maxId == null || Long.parseLong(s.id()) < Long.parseLong(maxId))
                    .limit(limit)
                    .forEach(s -> list.add(statusJson(s, base(request))));
            return ok(list);
        });
    }

    @PostMapping(BASE + "/api/v2/media")
    public DeferredResult<ResponseEntity<String>> upload(HttpServletRequest request, HttpServletResponse response)
            throws Exception {
        String contentType = request.getContentType();
        Part file = contentType != null && contentType.toLowerCase(Locale.ROOT).startsWith("multipart/")
                ? request.getPart("file") : null;
        Part description = file == null ? null : request.getPart("description");
        byte[] bytes = file == null ? null : file.getInputStream().readAllBytes();
        String fileType = file == null ? null : file.getContentType();
        String alt = description == null ? null
                : new String(description.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return authorized(request, "write:media", MastodonFaults.Operation.UPLOAD, response, account -> () -> {
            if (bytes == null || bytes.length == 0) {
                return error(422, "Validation failed: File can't be blank");
            }
            if (fileType == null || !IMAGE_TYPES.contains(fileType.toLowerCase(Locale.ROOT))) {
                return error(422, "Validation failed: File content type is invalid");
            }
            if (bytes.length > IMAGE_SIZE_LIMIT) {
                return error(422, "Validation failed: File file size must be less than 16 MB");
            }
            Media media = instance.upload(account.id(), alt);
            boolean processing = media.pendingChecks().get() >= 0;
            return json(processing ? 202 : 200, mediaJson(media, base(request), !processing));
        });
    }

    @GetMapping(BASE + "/api/v1/media/{id}")
    public DeferredResult<ResponseEntity<String>> media(@PathVariable String id, HttpServletRequest request,
                                                        HttpServletResponse response) {
        return authorized(request, "write:media", MastodonFaults.Operation.READ, response, account -> () -> {
            Optional<Media> media = instance.media(id).filter(m -> m.accountId().equals(account.id()));
            if (media.isEmpty()) {
                return error(404, "Record not found");
            }
            boolean ready = media.get().pendingChecks().getAndUpdate(n -> Math.max(0, n - 1)) <= 0;
            return json(ready ? 200 : 206, mediaJson(media.get(), base(request), ready));
        });
    }

    /** A request's effect, run when its answer is made (a fault may run it and answer late, or not at all). */
    @FunctionalInterface
    private interface Call {
        Supplier<ResponseEntity<String>> effect(Account account);
    }

    private DeferredResult<ResponseEntity<String>> authorized(HttpServletRequest request, String scope,
                                                              MastodonFaults.Operation operation,
                                                              HttpServletResponse response, Call call) {
        String header = request.getHeader("Authorization");
        String token = header != null && header.startsWith("Bearer ") ? header.substring(7) : null;
        Optional<Account> account = instance.byToken(token);
        if (account.isEmpty()) {
            return now(error(401, "The access token is invalid"));
        }
        if (!account.get().may(scope)) {
            return now(error(403, "This action is outside the authorized scopes"));
        }
        MastodonInstance.Usage usage = instance.use(account.get().id(), Instant.now());
        if (usage.exceeded()) {
            return now(limited(error(429, "Too many requests"), usage));
        }
        Supplier<ResponseEntity<String>> effect = () -> limited(call.effect(account.get()).get(), usage);
        Optional<MastodonFaults.Fault> fault = operation == null ? Optional.empty()
                : faults.take(account.get().id(), operation);
        if (fault.isEmpty()) {
            return now(effect.get());
        }
        MastodonFaults.Fault f = fault.get();
        return switch (f.type()) {
            case ERROR_500_BEFORE_CREATE -> now(serverError());
            case RATE_LIMIT -> now(limited(error(429, "Too many requests"),
                    new MastodonInstance.Usage(0, Instant.now().plusMillis(f.delayMillis()), true)));
            case ERROR_500_AFTER_CREATE -> {
                effect.get();
                yield now(serverError());
            }
            case GARBLED_AFTER_CREATE -> {
                effect.get();
                yield now(ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body("<html>upstream"));
            }
            case RESET_AFTER_CREATE -> {
                effect.get();
                yield Replies.closeConnection(response);
            }
            case HOLD_AFTER_CREATE -> {
                ResponseEntity<String> answer = effect.get();
                yield Replies.after(state, f.delayMillis(), () -> answer);
            }
        };
    }

    /** The text's and media's problems as the instance answers them (422), if any. */
    private Optional<ResponseEntity<String>> invalid(Account account, String text, List<String> mediaIds) {
        if (text.isBlank() && mediaIds.isEmpty()) {
            return Optional.of(error(422, "Validation failed: Text can't be blank"));
        }
        if (MastodonHtml.length(text) > MastodonHtml.MAX_CHARACTERS) {
            return Optional.of(error(422, "Validation failed: Text character limit of " + MastodonHtml.MAX_CHARACTERS
                    + " exceeded"));
        }
        if (mediaIds.size() > MAX_MEDIA) {
            return Optional.of(error(422, "Validation failed: Media attachments cannot attach more than " + MAX_MEDIA
                    + " files"));
        }
        for (String id : mediaIds) {
            Optional<Media> media = instance.media(id).filter(m -> m.accountId().equals(account.id()));
            if (media.isEmpty()) {
                return Optional.of(error(422, "Validation failed: Media attachments are invalid"));
            }
            if (!media.get().ready()) {
                return Optional.of(error(422, "Cannot attach files that have not finished processing. Try again in a "
                        + "moment!"));
            }
        }
        return Optional.empty();
    }

    private ObjectNode statusJson(Status status, String base) {
        Account account = instance.account(status.accountId()).orElseThrow();
        ObjectNode json = Json.object().put("id", status.id()).put("created_at", status.createdAt().toString());
        json.put("in_reply_to_id", status.inReplyToId());
        json.put("in_reply_to_account_id", status.inReplyToId() == null ? null
                : instance.status(status.inReplyToId()).map(Status::accountId).orElse(null));
        json.put("sensitive", false).put("spoiler_text", "").put("visibility", "public").put("language", "en");
        json.put("uri", base + "/users/" + account.username() + "/statuses/" + status.id());
        json.put("url", base + "/@" + account.username() + "/" + status.id());
        json.put("edited_at", status.editedAt() == null ? null : status.editedAt().toString());
        json.put("content", MastodonHtml.render(status.text(), base));
        json.set("account", accountJson(account, base));
        ArrayNode media = json.putArray("media_attachments");
        status.mediaIds().forEach(id -> instance.media(id).ifPresent(m -> media.add(mediaJson(m, base, true))));
        json.putObject("application").put("name", "Herald").putNull("website");
        return json;
    }

    private static ObjectNode accountJson(Account account, String base) {
        return Json.object().put("id", account.id()).put("username", account.username()).put("acct", account.username())
                .put("display_name", account.username()).put("url", base + "/@" + account.username());
    }

    private static ObjectNode mediaJson(Media media, String base, boolean ready) {
        ObjectNode json = Json.object().put("id", media.id()).put("type", "image");
        json.put("url", ready ? base + "/system/media_attachments/" + media.id() + ".png" : null);
        json.put("preview_url", base + "/system/media_attachments/small/" + media.id() + ".png");
        json.putNull("remote_url");
        json.put("description", media.description());
        json.put("blurhash", "UEHV6nWB2yk8pyo0adR*.7kCMdnj");
        return json;
    }

    private static JsonNode body(HttpServletRequest request) throws IOException {
        String contentType = request.getContentType();
        if (contentType != null && contentType.toLowerCase(Locale.ROOT).startsWith("application/json")) {
            return Json.parse(new String(request.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        }
        ObjectNode form = Json.object();
        for (String field : List.of("status", "in_reply_to_id", "visibility", "language")) {
            if (request.getParameter(field) != null) {
                form.put(field, request.getParameter(field));
            }
        }
        String[] media = request.getParameterValues("media_ids[]");
        if (media != null) {
            ArrayNode ids = form.putArray("media_ids");
            Arrays.stream(media).forEach(ids::add);
        }
        return form;
    }

    private static List<String> ids(JsonNode array) {
        List<String> ids = new ArrayList<>();
        array.forEach(id -> ids.add(id.asText()));
        return ids;
    }

    private static String base(HttpServletRequest request) {
        return request.getScheme() + "://" + request.getServerName() + ":" + request.getServerPort() + BASE;
    }

    private static int parse(String number, int otherwise) {
        try {
            return number == null ? otherwise : Integer.parseInt(number);
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }

    private static ResponseEntity<String> limited(ResponseEntity<String> answer, MastodonInstance.Usage usage) {
        HttpHeaders headers = new HttpHeaders();
        headers.putAll(answer.getHeaders());
        headers.set("X-RateLimit-Limit", Integer.toString(MastodonInstance.RATE_LIMIT));
        headers.set("X-RateLimit-Remaining", Integer.toString(usage.remaining()));
        headers.set("X-RateLimit-Reset", usage.reset().toString());
        return ResponseEntity.status(answer.getStatusCode()).headers(headers).body(answer.getBody());
    }

    /** Answers after the sandbox's artificial latency, as every simulated provider does. */
    private DeferredResult<ResponseEntity<String>> now(ResponseEntity<String> answer) {
        return Replies.now(state, answer);
    }

    private static ResponseEntity<String> ok(JsonNode body) {
        return json(200, body);
    }

    private static ResponseEntity<String> json(int status, JsonNode body) {
        return ResponseEntity.status(status).contentType(MediaType.APPLICATION_JSON).body(Json.write(body));
    }

    private static ResponseEntity<String> serverError() {
        return error(500, "We're sorry, but something went wrong on our end.");
    }

    private static ResponseEntity<String> error(int status, String error) {
        return json(status, Json.object().put("error", error));
    }
}
