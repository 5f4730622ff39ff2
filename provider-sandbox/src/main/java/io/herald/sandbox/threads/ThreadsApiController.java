package io.herald.sandbox.threads;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.platform.wire.Json;
import io.herald.sandbox.Replies;
import io.herald.sandbox.SandboxState;
import io.herald.sandbox.threads.ThreadsAccounts.Container;
import io.herald.sandbox.threads.ThreadsAccounts.Post;
import io.herald.sandbox.threads.ThreadsAccounts.User;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;

/**
 * The Threads API ({@code graph.threads.net/v1.0}) under {@code /sandbox/threads/v1.0}, as Meta
 * answers: the token as {@code access_token} or a bearer header; containers ({@code POST
 * /{user}/threads}: TEXT, IMAGE with an {@code image_url} the API fetches over HTTP itself,
 * CAROUSEL of 2 to 20 finished carousel items, {@code reply_to_id}; text up to 500 characters) whose
 * status goes from IN_PROGRESS to FINISHED after a short delay (ERROR when the image could not be
 * fetched or is no image; EXPIRED after 24 hours); {@code POST /{user}/threads_publish}; a
 * container's or a thread's {@code GET /{id}}, the user's threads by {@code since}, {@code until}
 * and {@code limit}, a thread's replies, {@code DELETE /{id}}, the publishing limit (250 posts and
 * 1,000 replies in a rolling 24 hours), {@code GET /refresh_access_token} (refused for a token younger
 * than 24 hours; a revoked token answers 400, code 190/460); errors in the Graph
 * envelope with {@code type: "THApiException"}.
 */
@RestController
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
public class ThreadsApiController {

    static final String BASE = "/sandbox/threads/v1.0";
    static final int MAX_TEXT = 500;
    static final int MAX_CHILDREN = 20;
    private static final int MAX_IMAGE_BYTES = 8 * 1024 * 1024;
    private static final Set<String> IMAGE_TYPES = Set.of("image/jpeg", "image/png");
    private static final DateTimeFormatter META_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssxx");
    private static final long LONG_LIVED_SECONDS = ThreadsAccounts.TOKEN_LIFETIME.toSeconds();

    private final ThreadsAccounts accounts;
    private final ThreadsFaults faults;
    private final SandboxState state;
    private final HttpClient fetcher = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
            .followRedirects(HttpClient.Redirect.NEVER).build();

    ThreadsApiController(ThreadsAccounts accounts, ThreadsFaults faults, SandboxState state) {
        this.accounts = accounts;
        this.faults = faults;
        this.state = state;
    }

    @PostMapping(BASE + "/{user}/threads")
    public DeferredResult<ResponseEntity<String>> create(@PathVariable String user, HttpServletRequest request) {
        Optional<User> caller = caller(request);
        if (caller.isEmpty() || !owns(caller.get(), user)) {
            return now(caller.isEmpty() ? invalidToken(request) : notAllowed());
        }
        String userId = caller.get().id();
        Optional<ThreadsFaults.Fault> fault = faults.take(userId, ThreadsFaults.Operation.CREATE_CONTAINER);
        if (fault.isPresent() && fault.get().type() == ThreadsFaults.Type.ERROR_500) {
            return now(serverError());
        }
        String mediaType = upper(request.getParameter("media_type"));
        String text = request.getParameter("text");
        String imageUrl = request.getParameter("image_url");
        boolean carouselItem = Boolean.parseBoolean(request.getParameter("is_carousel_item"));
        String replyTo = request.getParameter("reply_to_id");
        List<String> children = request.getParameter("children") == null ? List.of()
                : Arrays.stream(request.getParameter("children").split(",")).map(String::trim)
                        .filter(s -> !s.isEmpty()).toList();
        if (mediaType == null || !Set.of("TEXT", "IMAGE", "CAROUSEL").contains(mediaType)) {
            return now(error(400, 100, null, "Param media_type must be one of {TEXT, IMAGE, CAROUSEL}"));
        }
        if (text != null && text.codePointCount(0, text.length()) > MAX_TEXT) {
            return now(error(400, 100, null, "Param text must be at most " + MAX_TEXT + " characters long."));
        }
        if ("TEXT".equals(mediaType) && (text == null || text.isBlank())) {
            return now(error(400, 100, null, "Param text is required for a TEXT post"));
        }
        if ("IMAGE".equals(mediaType) && (imageUrl == null || imageUrl.isBlank())) {
            return now(error(400, 100, null, "Param image_url is required for an IMAGE post"));
        }
        if (replyTo != null && accounts.post(replyTo).isEmpty()) {
            return now(doesNotExist(replyTo));
        }
        if ("CAROUSEL".equals(mediaType)) {
            if (children.size() < 2 || children.size() > MAX_CHILDREN) {
                return now(error(400, 100, null, "A carousel has between 2 and " + MAX_CHILDREN + " children"));
            }
            for (String child : children) {
                Optional<Container> item = accounts.container(child).filter(c -> c.userId.equals(userId));
                if (item.isEmpty() || !item.get().carouselItem) {
                    return now(error(400, 100, null, "Param children holds " + child
                            + ", which is no carousel item of this user"));
                }
                if (!"FINISHED".equals(item.get().status(Instant.now()))) {
                    return now(error(400, 24, 4279009, "Media Not Found"));
                }
            }
        }
        Instant created = Instant.now();
        String fetchError = "IMAGE".equals(mediaType) ? fetch(userId, imageUrl) : null;
        if (fault.isPresent() && fault.get().type() == ThreadsFaults.Type.CONTAINER_ERROR) {
            fetchError = "UNKNOWN: the media could not be processed";
        }
        Container container = accounts.addContainer(new Container(accounts.nextId(), userId, mediaType,
                carouselItem ? null : text, imageUrl, carouselItem, children, replyTo, created,
                created.plusMillis(accounts.settings(userId).finishDelayMillis()), fetchError));
        return now(ok(Json.object().put("id", container.id())));
    }

    /** Fetches the image as Meta does; why it is unusable, or null when it is an image Threads takes. */
    private String fetch(String userId, String url) {
        URI address;
        try {
            address = URI.create(url);
        } catch (IllegalArgumentException e) {
            return "FAILED_DOWNLOAD: the image_url is no URL";
        }
        if (!"http".equals(address.getScheme()) && !"https".equals(address.getScheme())) {
            return "FAILED_DOWNLOAD: the image_url is not http(s)";
        }
        try {
            HttpResponse<InputStream> answer = fetcher.send(HttpRequest.newBuilder(address)
                    .timeout(Duration.ofSeconds(10)).header("User-Agent", "facebookexternalhit/1.1").GET().build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            byte[] bytes;
            try (InputStream body = answer.body()) {
                bytes = body.readNBytes(MAX_IMAGE_BYTES + 1);
            }
            String type = answer.headers().firstValue("Content-Type").orElse("").toLowerCase(Locale.ROOT);
            accounts.fetched(new ThreadsAccounts.Fetch(userId, url, answer.statusCode(), type, bytes.length,
                    Instant.now()));
            if (answer.statusCode() != 200) {
                return "FAILED_DOWNLOAD: the image_url answered " + answer.statusCode();
            }
            if (bytes.length > MAX_IMAGE_BYTES) {
                return "FILE_SIZE_EXCEEDED: the image is larger than 8 MB";
            }
            if (!IMAGE_TYPES.contains(type.split(";")[0].trim()) || !imageBytes(bytes)) {
                return "UNSUPPORTED_FORMAT: the image is no JPEG or PNG";
            }
            return null;
        } catch (IOException e) {
            accounts.fetched(new ThreadsAccounts.Fetch(userId, url, 0, null, 0, Instant.now()));
            return "FAILED_DOWNLOAD: the image_url could not be read";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "FAILED_DOWNLOAD: interrupted";
        }
    }

    private static boolean imageBytes(byte[] bytes) {
        String head = HexFormat.of().formatHex(bytes, 0, Math.min(8, bytes.length));
        return head.startsWith("ffd8ff") || head.startsWith("89504e470d0a1a0a");
    }

    @PostMapping(BASE + "/{user}/threads_publish")
    public DeferredResult<ResponseEntity<String>> publish(@PathVariable String user, HttpServletRequest request) {
        Optional<User> caller = caller(request);
        if (caller.isEmpty() || !owns(caller.get(), user)) {
            return now(caller.isEmpty() ? invalidToken(request) : notAllowed());
        }
        String userId = caller.get().id();
        String creationId = request.getParameter("creation_id");
        Optional<ThreadsFaults.Fault> fault = faults.take(userId, ThreadsFaults.Operation.PUBLISH);
        if (fault.isPresent() && fault.get().type() == ThreadsFaults.Type.ERROR_500) {
            return now(serverError());
        }
        if (fault.isPresent() && fault.get().type() == ThreadsFaults.Type.HOLD_BEFORE_PUBLISH) {
            return Replies.after(state, fault.get().delayMillis(), ThreadsApiController::serverError);
        }
        Supplier<ResponseEntity<String>> effect = () -> publishNow(userId, creationId);
        if (fault.isEmpty()) {
            return now(effect.get());
        }
        ResponseEntity<String> answer = effect.get();
        if (!answer.getStatusCode().is2xxSuccessful()) {
            return now(answer);
        }
        return switch (fault.get().type()) {
            case HOLD_AFTER_PUBLISH -> Replies.after(state, fault.get().delayMillis(), () -> answer);
            case MEDIA_NOT_FOUND_AFTER_PUBLISH -> now(error(400, 24, 4279009, "Media Not Found"));
            default -> now(answer);
        };
    }

    private ResponseEntity<String> publishNow(String userId, String creationId) {
        Optional<Container> found = accounts.container(creationId).filter(c -> c.userId.equals(userId));
        if (found.isEmpty()) {
            return doesNotExist(creationId);
        }
        Container container = found.get();
        Instant now = Instant.now();
        synchronized (container) {
            String status = container.status(now);
            switch (status) {
                case "IN_PROGRESS":
                    return error(400, 9007, 2207027, "Media ID is not available: the container is not ready");
                case "EXPIRED":
                    return error(400, 9007, 2207008, "The media container has expired");
                case "ERROR":
                    return error(400, 9007, 2207001, "The media could not be published: " + container.errorMessage);
                case "PUBLISHED":
                    return error(400, 9007, 2207006, "The media has already been published");
                default:
                    break;
            }
            if (container.carouselItem) {
                return error(400, 100, null, "A carousel item is published through its carousel");
            }
            boolean reply = container.replyToId != null;
            ThreadsAccounts.Settings settings = accounts.settings(userId);
            if (accounts.used(userId, reply, now) >= (reply ? settings.replyLimit() : settings.postLimit())) {
                return error(400, 9, 2207042, "The user has reached the " + (reply ? "reply" : "publishing")
                        + " limit of its 24 hours");
            }
            Post post = accounts.publish(container, now);
            return ok(Json.object().put("id", post.id()));
        }
    }

    @GetMapping(BASE + "/refresh_access_token")
    public DeferredResult<ResponseEntity<String>> refresh(HttpServletRequest request) {
        Optional<User> caller = caller(request);
        if (caller.isEmpty()) {
            return now(invalidToken(request));
        }
        if (!"th_refresh_token".equals(request.getParameter("grant_type"))) {
            return now(error(400, 100, null, "Param grant_type must be th_refresh_token"));
        }
        Instant issued = accounts.issuedAt(token(request));
        if (issued != null && issued.isAfter(Instant.now().minus(Duration.ofHours(24)))) {
            // as Meta refuses a long-lived token younger than a day
            return now(error(400, 10, null, "The access token is too new to be refreshed: it must be at least 24"
                    + " hours old"));
        }
        String fresh = accounts.refresh(token(request));
        return now(ok(Json.object().put("access_token", fresh).put("token_type", "bearer")
                .put("expires_in", LONG_LIVED_SECONDS)));
    }

    @GetMapping(BASE + "/{id}")
    public DeferredResult<ResponseEntity<String>> read(@PathVariable String id, HttpServletRequest request) {
        return reading(request, caller -> {
            String wanted = "me".equals(id) ? caller.id() : id;
            Set<String> fields = fields(request);
            if (accounts.user(wanted).isPresent()) {
                if (!wanted.equals(caller.id())) {
                    return notAllowed();
                }
                return ok(Json.object().put("id", wanted).put("username", caller.username())
                        .put("name", caller.username()));
            }
            Optional<Container> container = accounts.container(wanted).filter(c -> c.userId.equals(caller.id()));
            if (container.isPresent()) {
                Container c = container.get();
                String status = c.status(Instant.now());
                ObjectNode body = Json.object().put("id", c.id());
                if (fields.isEmpty() || fields.contains("status")) {
                    body.put("status", status);
                }
                if ((fields.isEmpty() || fields.contains("error_message"))
                        && ("ERROR".equals(status) || "EXPIRED".equals(status))) {
                    body.put("error_message", "ERROR".equals(status) ? c.errorMessage : "EXPIRED: the container is older"
                            + " than 24 hours");
                }
                return ok(body);
            }
            return accounts.post(wanted).filter(p -> p.userId().equals(caller.id()))
                    .map(p -> ok(postJson(p, caller, fields, request)))
                    .orElseGet(() -> doesNotExist(wanted));
        });
    }

    @GetMapping(BASE + "/{user}/threads")
    public DeferredResult<ResponseEntity<String>> threads(@PathVariable String user, HttpServletRequest request) {
        return reading(request, caller -> {
            if (!owns(caller, user)) {
                return notAllowed();
            }
            Optional<Instant> since = time(request.getParameter("since"));
            Optional<Instant> until = time(request.getParameter("until"));
            if (since == null || until == null) {
                return error(400, 100, null, "Params since and until are Unix times or dates");
            }
            int limit = Math.min(100, Math.max(1, parse(request.getParameter("limit"), 25)));
            int after = Math.max(0, parse(request.getParameter("after"), 0));
            List<Post> matching = accounts.posts(caller.id(), false, false).stream()
                    .filter(p -> since.isEmpty() || !p.timestamp().isBefore(since.get()))
                    .filter(p -> until.isEmpty() || !p.timestamp().isAfter(until.get()))
                    .toList();
            return ok(page(matching, after, limit, caller, fields(request), request));
        });
    }

    @GetMapping(BASE + "/{media}/replies")
    public DeferredResult<ResponseEntity<String>> replies(@PathVariable String media, HttpServletRequest request) {
        return reading(request, caller -> {
            Optional<Post> post = accounts.post(media);
            if (post.isEmpty()) {
                return doesNotExist(media);
            }
            return ok(page(accounts.replies(media), 0, 100, caller, fields(request), request));
        });
    }

    @GetMapping(BASE + "/{user}/threads_publishing_limit")
    public DeferredResult<ResponseEntity<String>> limit(@PathVariable String user, HttpServletRequest request) {
        return reading(request, caller -> {
            if (!owns(caller, user)) {
                return notAllowed();
            }
            Instant now = Instant.now();
            ThreadsAccounts.Settings settings = accounts.settings(caller.id());
            long window = Duration.ofMillis(settings.windowMillis()).toSeconds();
            ObjectNode body = Json.object();
            ObjectNode row = body.putArray("data").addObject();
            row.put("quota_usage", accounts.used(caller.id(), false, now));
            row.putObject("config").put("quota_total", settings.postLimit()).put("quota_duration", window);
            row.put("reply_quota_usage", accounts.used(caller.id(), true, now));
            row.putObject("reply_config").put("quota_total", settings.replyLimit()).put("quota_duration", window);
            return ok(body);
        });
    }

    @DeleteMapping(BASE + "/{media}")
    public DeferredResult<ResponseEntity<String>> delete(@PathVariable String media, HttpServletRequest request) {
        Optional<User> caller = caller(request);
        if (caller.isEmpty()) {
            return now(invalidToken(request));
        }
        Optional<ThreadsFaults.Fault> fault = faults.take(caller.get().id(), ThreadsFaults.Operation.DELETE);
        if (fault.isPresent()) {
            return now(serverError());
        }
        Optional<Post> post = accounts.post(media);
        if (post.isEmpty()) {
            return now(doesNotExist(media));
        }
        if (!post.get().userId().equals(caller.get().id())) {
            return now(notAllowed());
        }
        accounts.delete(post.get());
        return now(ok(Json.object().put("success", true).put("deleted_id", media)));
    }

    private DeferredResult<ResponseEntity<String>> reading(HttpServletRequest request,
                                                           Function<User, ResponseEntity<String>> read) {
        Optional<User> caller = caller(request);
        if (caller.isEmpty()) {
            return now(invalidToken(request));
        }
        if (faults.take(caller.get().id(), ThreadsFaults.Operation.READ).isPresent()) {
            return now(serverError());
        }
        return now(read.apply(caller.get()));
    }

    private ObjectNode page(List<Post> posts, int after, int limit, User caller, Set<String> fields,
                            HttpServletRequest request) {
        ObjectNode body = Json.object();
        ArrayNode data = body.putArray("data");
        posts.stream().skip(after).limit(limit).forEach(p -> data.add(postJson(p, caller, fields, request)));
        ObjectNode paging = body.putObject("paging");
        ObjectNode cursors = paging.putObject("cursors").put("before", Integer.toString(after));
        if (after + limit < posts.size()) {
            cursors.put("after", Integer.toString(after + limit));
        }
        return body;
    }

    private ObjectNode postJson(Post post, User caller, Set<String> fields, HttpServletRequest request) {
        ObjectNode all = Json.object().put("id", post.id()).put("media_product_type", "THREADS")
                .put("media_type", switch (post.mediaType()) {
                    case "IMAGE" -> "IMAGE";
                    case "CAROUSEL" -> "CAROUSEL_ALBUM";
                    default -> "TEXT_POST";
                })
                .put("text", post.text())
                .put("timestamp", META_TIME.format(post.timestamp().atOffset(ZoneOffset.UTC)))
                .put("permalink", base(request) + "/www/@" + caller.username() + "/post/" + post.id())
                .put("shortcode", post.id())
                .put("username", caller.username())
                .put("is_reply", post.replyToId() != null);
        if (post.replyToId() != null) {
            all.putObject("replied_to").put("id", post.replyToId());
        }
        if (fields.isEmpty()) {
            return all;
        }
        ObjectNode some = Json.object().put("id", post.id());
        fields.forEach(f -> {
            if (all.has(f)) {
                some.set(f, all.get(f));
            }
        });
        return some;
    }

    private Optional<User> caller(HttpServletRequest request) {
        return accounts.byToken(token(request), Instant.now());
    }

    private static String token(HttpServletRequest request) {
        String header = request.getHeader(HttpHeaders.AUTHORIZATION);
        if (header != null && header.startsWith("Bearer ")) {
            return header.substring(7);
        }
        return request.getParameter("access_token");
    }

    private static boolean owns(User caller, String user) {
        return "me".equals(user) || caller.id().equals(user);
    }

    private static Set<String> fields(HttpServletRequest request) {
        String fields = request.getParameter("fields");
        return fields == null ? Set.of() : Arrays.stream(fields.split(",")).map(String::trim)
                .filter(s -> !s.isEmpty()).collect(Collectors.toSet());
    }

    /** Empty when absent; null when unreadable. */
    private static Optional<Instant> time(String text) {
        if (text == null || text.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Instant.ofEpochSecond(Long.parseLong(text.trim())));
        } catch (NumberFormatException notSeconds) {
            try {
                return Optional.of(OffsetDateTime.parse(text.trim()).toInstant());
            } catch (DateTimeParseException notDate) {
                return null;
            }
        }
    }

    private static String upper(String text) {
        return text == null ? null : text.trim().toUpperCase(Locale.ROOT);
    }

    private static int parse(String number, int otherwise) {
        try {
            return number == null ? otherwise : Integer.parseInt(number);
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }

    private static String base(HttpServletRequest request) {
        return request.getScheme() + "://" + request.getServerName() + ":" + request.getServerPort()
                + "/sandbox/threads";
    }

    private DeferredResult<ResponseEntity<String>> now(ResponseEntity<String> answer) {
        return Replies.now(state, answer);
    }

    private static ResponseEntity<String> ok(JsonNode body) {
        return Replies.json(200, body, new HttpHeaders());
    }

    /** A revoked token: 400, 190/460 as Meta answers an invalidated session; any other: 401, 190. */
    private ResponseEntity<String> invalidToken(HttpServletRequest request) {
        if (accounts.revoked(token(request))) {
            return error(400, 190, 460, "Error validating access token: The session has been invalidated because"
                    + " the user changed their password or Facebook has changed the session for security reasons.");
        }
        return error(401, 190, null, "Invalid OAuth access token - Cannot parse access token");
    }

    private static ResponseEntity<String> notAllowed() {
        return error(403, 10, null, "Application does not have permission for this action");
    }

    private static ResponseEntity<String> doesNotExist(String id) {
        return error(400, 100, 33, "Unsupported request. Object with ID '" + id + "' does not exist, cannot be"
                + " loaded due to missing permissions, or does not support this operation");
    }

    static ResponseEntity<String> serverError() {
        return error(500, 2, null, "An unexpected error has occurred. Please retry your request later.");
    }

    static ResponseEntity<String> error(int status, int code, Integer subcode, String message) {
        ObjectNode error = Json.object().putObject("error").put("message", message).put("type", "THApiException")
                .put("code", code);
        if (subcode != null) {
            error.put("error_subcode", subcode);
        }
        error.put("fbtrace_id", "A" + Long.toHexString(System.nanoTime()));
        ObjectNode body = Json.object();
        body.set("error", error);
        return Replies.json(status, body, new HttpHeaders());
    }
}
