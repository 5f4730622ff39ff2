package io.herald.sandbox.instagram;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.platform.wire.Json;
import io.herald.sandbox.SandboxState;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The Instagram Graph API (Instagram Login) under {@code /sandbox/instagram/v23.0}, as Meta answers:
 * bearer tokens (or {@code access_token}; code 190 when unknown or expired), containers made by
 * {@code POST /{ig-user-id}/media} whose image the sandbox FETCHES from {@code image_url} as Meta does
 * (a URL that cannot be fetched is refused, a non-JPEG ends in {@code ERROR}), carousels of 2–10
 * children, {@code GET /{container-id}?fields=status_code,status}, {@code media_publish} (only a
 * {@code FINISHED} container: code 9007 / 2207027 otherwise; code 9 / 2207042 past the publishing
 * limit; a fault answers "Media Not Found" with or without publishing), the account's media,
 * comments, {@code content_publishing_limit} over a rolling window and {@code refresh_access_token}
 * (refused for a token younger than 24 hours). Errors use the Graph envelope.
 */
@RestController
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
public class InstagramApiController {

    public static final String BASE = "/sandbox/instagram/v23.0";
    static final String PROVIDER = "instagram";

    private final InstagramAccounts accounts;
    private final SandboxState state;
    private final HttpClient fetcher = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
            .followRedirects(HttpClient.Redirect.NORMAL).build();

    InstagramApiController(InstagramAccounts accounts, SandboxState state) {
        this.accounts = accounts;
        this.state = state;
    }

    /** A write's answer comes the sandbox's artificial latency after its effect, as every simulated provider's. */
    private ResponseEntity<String> afterLatency(ResponseEntity<String> answer) {
        long millis = state.latencyMillis();
        if (millis > 0) {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return answer;
    }

    @PostMapping(BASE + "/{userId}/media")
    public ResponseEntity<String> createContainer(@PathVariable String userId,
                                                  @RequestHeader(value = "Authorization", required = false) String auth,
                                                  @RequestParam Map<String, String> form) {
        Optional<ResponseEntity<String>> refused = authorise(auth, form, userId);
        if (refused.isPresent()) {
            return refused.get();
        }
        String children = form.get("children");
        if ("CAROUSEL".equals(form.get("media_type"))) {
            List<String> ids = children == null ? List.of() : Arrays.stream(children.split(","))
                    .map(String::strip).filter(s -> !s.isEmpty()).toList();
            if (ids.size() < 2 || ids.size() > 10) {
                return error(400, "Invalid parameter: a carousel has 2 to 10 children", 100, 2207034);
            }
            for (String id : ids) {
                var child = accounts.container(id);
                if (child.isEmpty() || !child.get().carouselItem || !child.get().accountId.equals(userId)) {
                    return error(400, "Invalid parameter: child " + id + " is not a carousel item", 100, null);
                }
            }
            String caption = form.get("caption");
            if (caption != null && caption.length() > 2200) {
                return error(400, "The caption is too long", 100, 2207010);
            }
            var container = accounts.create(userId, caption, null, null, false, ids);
            return afterLatency(json(Json.object().put("id", container.id())));
        }
        String imageUrl = form.get("image_url");
        if (imageUrl == null || imageUrl.isBlank()) {
            return error(400, "The parameter image_url is required", 100, null);
        }
        byte[] image;
        try {
            image = fetch(imageUrl);
        } catch (IOException | RuntimeException e) {
            return error(400, "Media download has failed. The media URI doesn't meet our requirements. ("
                    + e.getMessage() + ")", 9004, 2207052);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return error(500, "interrupted", 2, null);
        }
        String caption = form.get("caption");
        if (caption != null && caption.length() > 2200) {
            return error(400, "The caption is too long", 100, 2207010);
        }
        var container = accounts.create(userId, "true".equals(form.get("is_carousel_item")) ? null : caption,
                imageUrl, form.get("alt_text"), "true".equals(form.get("is_carousel_item")), List.of());
        if (!jpeg(image)) {
            accounts.fail(container, "The image format is not supported. Only JPEG images are accepted.");
        }
        return afterLatency(json(Json.object().put("id", container.id())));
    }

    @PostMapping(BASE + "/{userId}/media_publish")
    public ResponseEntity<String> publish(@PathVariable String userId,
                                          @RequestHeader(value = "Authorization", required = false) String auth,
                                          @RequestParam Map<String, String> form) throws InterruptedException {
        Optional<ResponseEntity<String>> refused = authorise(auth, form, userId, true);
        if (refused.isPresent()) {
            return refused.get();
        }
        var before = accounts.take(userId, InstagramAccounts.Fault.PUBLISH_HOLD_BEFORE);
        if (before.isPresent()) {
            Thread.sleep(before.get().delayMillis());
            return error(500, "An unexpected error has occurred. Please retry your request later.", 2, null);
        }
        var found = accounts.container(form.getOrDefault("creation_id", ""));
        if (found.isEmpty() || !found.get().accountId.equals(userId)) {
            return error(400, "Unsupported post request. Object with ID does not exist", 100, 33);
        }
        var container = found.get();
        if (!"FINISHED".equals(container.status)) {
            return error(400, "Media ID is not available", 9007, 2207027);
        }
        if (accounts.take(userId, InstagramAccounts.Fault.PUBLISH_MEDIA_NOT_FOUND_BEFORE).isPresent()) {
            return error(400, "The requested resource does not exist", 100, 33);
        }
        int[] limit = accounts.limit(userId);
        if (limit[0] >= limit[1]) {
            return error(400, "Application request limit reached: the account published its maximum of posts",
                    9, 2207042);
        }
        var media = accounts.publish(container);
        if (accounts.take(userId, InstagramAccounts.Fault.PUBLISH_MEDIA_NOT_FOUND_AFTER).isPresent()) {
            return afterLatency(error(400, "Media Not Found", 24, 4279009));
        }
        var after = accounts.take(userId, InstagramAccounts.Fault.PUBLISH_HOLD_AFTER);
        if (after.isPresent()) {
            Thread.sleep(after.get().delayMillis());
        }
        return afterLatency(json(Json.object().put("id", media.id())));
    }

    /** A container's status, or a media object: what Meta answers at {@code GET /{id}}. */
    @GetMapping(BASE + "/{id}")
    public ResponseEntity<String> object(@PathVariable String id,
                                         @RequestHeader(value = "Authorization", required = false) String auth,
                                         @RequestParam Map<String, String> query) {
        var token = token(auth, query);
        if (token.isEmpty()) {
            return invalidToken();
        }
        Optional<String> lapsed = state.lapses().lapsed(PROVIDER, token.get().value(), false);
        if (lapsed.isPresent()) {
            return lapsedToken(lapsed.get());
        }
        if ("me".equals(id)) {
            var account = accounts.account(token.get().accountId()).orElseThrow();
            return json(Json.object().put("id", account.id()).put("user_id", account.id())
                    .put("username", account.username()));
        }
        var container = accounts.container(id);
        if (container.isPresent() && container.get().accountId.equals(token.get().accountId())) {
            String status = container.get().status;
            String detail = container.get().error != null ? container.get().error : status;
            return json(Json.object().put("id", id).put("status_code", status).put("status", detail));
        }
        var media = accounts.media(id);
        if (media.isPresent() && media.get().accountId().equals(token.get().accountId())) {
            return json(mediaNode(media.get()));
        }
        return error(400, "Unsupported get request. Object with ID '" + id + "' does not exist", 100, 33);
    }

    @GetMapping(BASE + "/{userId}/media")
    public ResponseEntity<String> media(@PathVariable String userId,
                                        @RequestHeader(value = "Authorization", required = false) String auth,
                                        @RequestParam Map<String, String> query) {
        Optional<ResponseEntity<String>> refused = authorise(auth, query, userId);
        if (refused.isPresent()) {
            return refused.get();
        }
        int limit = Math.min(100, Integer.parseInt(query.getOrDefault("limit", "25")));
        int offset = Integer.parseInt(query.getOrDefault("after", "0"));
        List<InstagramAccounts.Media> all = accounts.mediaOf(userId);
        ObjectNode body = Json.object();
        ArrayNode data = body.putArray("data");
        all.stream().skip(offset).limit(limit).forEach(m -> data.add(mediaNode(m)));
        if (offset + limit < all.size()) {
            body.putObject("paging").putObject("cursors").put("after", Integer.toString(offset + limit));
        }
        return json(body);
    }

    @PostMapping(BASE + "/{mediaId}/comments")
    public ResponseEntity<String> comment(@PathVariable String mediaId,
                                          @RequestHeader(value = "Authorization", required = false) String auth,
                                          @RequestParam Map<String, String> form) {
        var token = token(auth, form);
        if (token.isEmpty()) {
            return invalidToken();
        }
        var media = accounts.media(mediaId);
        if (media.isEmpty()) {
            return error(400, "Unsupported post request. Object with ID '" + mediaId + "' does not exist", 100, 33);
        }
        String message = form.get("message");
        if (message == null || message.isBlank()) {
            return error(400, "The parameter message is required", 100, null);
        }
        return afterLatency(json(Json.object().put("id", accounts.comment(mediaId, message).id())));
    }

    @GetMapping(BASE + "/{mediaId}/comments")
    public ResponseEntity<String> comments(@PathVariable String mediaId,
                                           @RequestHeader(value = "Authorization", required = false) String auth,
                                           @RequestParam Map<String, String> query) {
        if (token(auth, query).isEmpty()) {
            return invalidToken();
        }
        ObjectNode body = Json.object();
        ArrayNode data = body.putArray("data");
        accounts.commentsOf(mediaId).forEach(c -> data.addObject().put("id", c.id()).put("text", c.text())
                .put("timestamp", format(c.timestamp())));
        return json(body);
    }

    @GetMapping(BASE + "/{userId}/content_publishing_limit")
    public ResponseEntity<String> publishingLimit(@PathVariable String userId,
                                                  @RequestHeader(value = "Authorization", required = false) String auth,
                                                  @RequestParam Map<String, String> query) {
        Optional<ResponseEntity<String>> refused = authorise(auth, query, userId);
        if (refused.isPresent()) {
            return refused.get();
        }
        int[] limit = accounts.limit(userId);
        ObjectNode body = Json.object();
        ObjectNode entry = body.putArray("data").addObject().put("quota_usage", limit[0]);
        entry.putObject("config").put("quota_total", limit[1]).put("quota_duration", limit[2]);
        return json(body);
    }

    @GetMapping(BASE + "/refresh_access_token")
    public ResponseEntity<String> refresh(@RequestHeader(value = "Authorization", required = false) String auth,
                                          @RequestParam Map<String, String> query) {
        var token = token(auth, query);
        if (token.isEmpty()) {
            return invalidToken();
        }
        if (!"ig_refresh_token".equals(query.get("grant_type"))) {
            return error(400, "Unsupported grant_type", 100, null);
        }
        if (token.get().issuedAt().isAfter(accounts.now().minus(Duration.ofHours(24)))) {
            return error(400, "The access token is too new to be refreshed: it must be at least 24 hours old", 10,
                    null);
        }
        var fresh = accounts.refresh(token.get());
        return json(Json.object().put("access_token", fresh.value()).put("token_type", "bearer")
                .put("expires_in", Duration.between(accounts.now(), fresh.expiresAt()).toSeconds()));
    }

    private static ObjectNode mediaNode(InstagramAccounts.Media media) {
        return Json.object().put("id", media.id()).put("caption", media.caption())
                .put("timestamp", format(media.timestamp())).put("permalink", media.permalink())
                .put("media_type", media.items() > 1 ? "CAROUSEL_ALBUM" : "IMAGE");
    }

    /** Meta's timestamp shape, {@code 2026-12-06T01:02:03+0000}. */
    static String format(Instant at) {
        return at.truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString().replace("Z", "+0000");
    }

    private byte[] fetch(String url) throws IOException, InterruptedException {
        HttpResponse<byte[]> answer = fetcher.send(HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
        if (answer.statusCode() != 200) {
            throw new IOException("the image URL answered HTTP " + answer.statusCode());
        }
        return answer.body();
    }

    private static boolean jpeg(byte[] image) {
        return image.length > 3 && (image[0] & 0xff) == 0xff && (image[1] & 0xff) == 0xd8;
    }

    private Optional<InstagramAccounts.Token> token(String auth, Map<String, String> params) {
        String value = auth != null && auth.startsWith("Bearer ") ? auth.substring(7) : params.get("access_token");
        return accounts.token(value);
    }

    private Optional<ResponseEntity<String>> authorise(String auth, Map<String, String> params, String userId) {
        return authorise(auth, params, userId, false);
    }

    /** {@code post}: the call makes a post, which uses up one of those a lapsing token has left. */
    private Optional<ResponseEntity<String>> authorise(String auth, Map<String, String> params, String userId,
                                                       boolean post) {
        var token = token(auth, params);
        if (token.isEmpty()) {
            return Optional.of(invalidToken());
        }
        Optional<String> lapsed = state.lapses().lapsed(PROVIDER, token.get().value(), post);
        if (lapsed.isPresent()) {
            return Optional.of(lapsedToken(lapsed.get()));
        }
        if (!token.get().expiresAt().isAfter(accounts.now())) {
            return Optional.of(error(400, "Error validating access token: Session has expired", 190, 463));
        }
        if (!token.get().accountId().equals(userId)) {
            return Optional.of(error(400, "Unsupported request: the token cannot act for user " + userId, 100, 33));
        }
        return Optional.empty();
    }

    /** Meta's answer to a token that lapsed ({@code /sandbox/_admin/lapses}), by the kind of lapse. */
    private static ResponseEntity<String> lapsedToken(String kind) {
        return switch (kind) {
            case "APP_REMOVED", "REVOKED" -> error(400, "Error validating access token: The user has not authorized"
                    + " application.", 190, 458);
            case "PASSWORD_CHANGED" -> error(400, "Error validating access token: The session has been invalidated"
                    + " because the user changed their password.", 190, 460);
            case "LOGGED_OUT" -> error(400, "Error validating access token: The user has logged out.", 190, 467);
            default -> error(400, "Error validating access token: Session has expired.", 190, 463);
        };
    }

    private ResponseEntity<String> invalidToken() {
        return error(400, "Invalid OAuth access token - Cannot parse access token", 190, null);
    }

    static ResponseEntity<String> error(int status, String message, int code, Integer subcode) {
        ObjectNode body = Json.object();
        ObjectNode error = body.putObject("error").put("message", message).put("type", "OAuthException")
                .put("code", code);
        if (subcode != null) {
            error.put("error_subcode", subcode);
        }
        error.put("fbtrace_id", "AsbxIg" + Long.toHexString(System.nanoTime()));
        return ResponseEntity.status(HttpStatus.valueOf(status)).contentType(MediaType.APPLICATION_JSON)
                .body(Json.write(body));
    }

    private static ResponseEntity<String> json(ObjectNode body) {
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(Json.write(body));
    }

    @SuppressWarnings("unused")
    private static List<String> list(String csv) {
        return csv == null ? List.of() : new ArrayList<>(Arrays.asList(csv.split(",")));
    }
}
