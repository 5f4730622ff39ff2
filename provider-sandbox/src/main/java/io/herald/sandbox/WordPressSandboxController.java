package io.herald.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.platform.wire.Json;
import io.herald.sandbox.SandboxState.WordPressSite;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.Part;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

/**
 * A WordPress site's REST API under {@code /sandbox/wordpress/{site}}, reachable both as
 * {@code /wp-json/wp/v2/…} and as {@code /?rest_route=/wp/v2/…}. With the "plugin" behaviour the
 * site keeps {@code herald_publication_id} in meta, filters by it and lists it in OPTIONS; without
 * it, meta is PHP's empty array {@code []} and the filter is ignored, as on a stock site. Each
 * site has one user (id 1, the application password's owner); a post created with another
 * {@code author} id is listed with that author, as when an editor posts on someone's behalf.
 */
@RestController
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
public class WordPressSandboxController {

    static final String PROVIDER = "wordpress";
    static final String META_KEY = "herald_publication_id";
    private static final Set<String> STATUSES = Set.of("publish", "future", "draft", "pending", "private");
    private static final DateTimeFormatter LOCAL = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss");

    /** The user id of each site's one user (its application password's owner), as WordPress numbers its first user. */
    static final long SITE_USER_ID = 1;

    private final SandboxState state;
    /**
     * Post author by site and post id, for posts whose author is not the site's user: an editor may
     * create a post as another user ({@code "author"} on create), as on a real site.
     */
    private final Map<String, Long> otherAuthors = new ConcurrentHashMap<>();

    public WordPressSandboxController(SandboxState state) {
        this.state = state;
    }

    @RequestMapping(value = {"/sandbox/wordpress/{site}", "/sandbox/wordpress/{site}/",
            "/sandbox/wordpress/{site}/wp-json/wp/v2/**"},
            method = {RequestMethod.GET, RequestMethod.POST, RequestMethod.OPTIONS, RequestMethod.PUT,
                    RequestMethod.PATCH, RequestMethod.DELETE})
    public DeferredResult<ResponseEntity<String>> route(@PathVariable String site, HttpServletRequest request,
                                                       HttpServletResponse response)
            throws IOException, ServletException {
        state.countRequest();
        // read as bytes, before any parameter lookup: a media upload's body is a file, not text
        boolean multipart = request.getContentType() != null
                && request.getContentType().toLowerCase(Locale.ROOT).startsWith("multipart/");
        byte[] raw = multipart ? new byte[0] : request.getInputStream().readAllBytes();
        String rawBody = raw.length == 0 ? null : new String(raw, charset(request));
        String route = request.getParameter("rest_route");
        if (route == null) {
            String path = request.getRequestURI();
            int at = path.indexOf("/wp-json");
            route = at < 0 ? "/" : path.substring(at + "/wp-json".length());
        }
        Optional<WordPressSite> known = state.wordPressSite(site);
        if (known.isEmpty()) {
            return Replies.now(state, error(404, "rest_no_route", "No route was found matching the URL and request method."));
        }
        String method = request.getMethod();
        boolean post = route.equals("/wp/v2/posts") && method.equals("POST");
        // a revoked application password makes the request anonymous, as on a stock site (PROVIDERS.md)
        boolean authenticated = authenticated(known.get(), request.getHeader("Authorization"))
                && state.lapses().lapsed(PROVIDER, known.get().applicationPassword(), post).isEmpty();
        if (route.equals("/wp/v2/users/me") && method.equals("GET")) {
            return Replies.now(state, authenticated
                    ? Replies.json(200, Json.object().put("id", SITE_USER_ID).put("name", known.get().username())
                    .put("slug", known.get().username()), new HttpHeaders())
                    : error(401, "rest_not_logged_in", "You are not currently logged in."));
        }
        java.util.regex.Matcher one = ONE.matcher(route);
        if (one.matches() && !method.equals("OPTIONS")) {
            return one.group(1).equals("posts")
                    ? onePost(known.get(), authenticated, one.group(2), rawBody, request, response)
                    : attachment(known.get(), authenticated, one.group(2), rawBody, request, response);
        }
        if (route.equals("/wp/v2/media") && method.equals("POST")) {
            return upload(known.get(), authenticated, raw, request, response);
        }
        if (!route.equals("/wp/v2/posts") || !Set.of("GET", "POST", "OPTIONS").contains(method)) {
            return Replies.now(state, error(404, "rest_no_route", "No route was found matching the URL and request method."));
        }
        return switch (method) {
            case "OPTIONS" -> Replies.now(state, options(known.get()));
            case "POST" -> create(known.get(), authenticated, rawBody, request, response);
            default -> list(known.get(), authenticated, request, response);
        };
    }

    private static final java.util.regex.Pattern ONE = java.util.regex.Pattern.compile("/wp/v2/(posts|media)/(\\d{1,18})");

    /** The body's charset as the request declares it, else UTF-8 (as the JSON bodies of the REST API are). */
    private static java.nio.charset.Charset charset(HttpServletRequest request) {
        try {
            return request.getCharacterEncoding() == null ? StandardCharsets.UTF_8
                    : java.nio.charset.Charset.forName(request.getCharacterEncoding());
        } catch (IllegalArgumentException unknown) {
            return StandardCharsets.UTF_8;
        }
    }

    private DeferredResult<ResponseEntity<String>> create(WordPressSite site, boolean authenticated, String rawBody,
                                                         HttpServletRequest request, HttpServletResponse response) {
        Optional<SandboxFault> fault = state.takeFault(PROVIDER, site.site(), SandboxFault.Operation.PUBLISH);
        if (fault.isPresent()) {
            SandboxFault f = fault.get();
            switch (f.type()) {
                case RESET_AFTER_READ:
                    return Replies.closeConnection(response);
                case ERROR_5XX_NO_EFFECT:
                    return Replies.now(state, criticalError());
                case RATE_LIMIT:
                    return Replies.now(state, rateLimited(f));
                case TOKEN_ERROR:
                    return Replies.now(state, cannotCreate());
                default:
                    break;
            }
        }
        if (!authenticated) {
            return Replies.now(state, cannotCreate());
        }
        JsonNode body = Json.parse(rawBody);
        if (!body.isObject()) {
            return Replies.now(state, error(400, "rest_invalid_json", "Invalid JSON body passed."));
        }
        String status = body.path("status").asText("draft");
        if (!STATUSES.contains(status)) {
            return Replies.now(state, invalidParam("status", "status is not one of publish, future, draft, pending, private."));
        }
        Instant now = Instant.now();
        Instant date = now;
        if (body.hasNonNull("date")) {
            try {
                date = parseDate(body.path("date").asText());
            } catch (DateTimeParseException e) {
                return Replies.now(state, invalidParam("date", "Invalid date."));
            }
        }
        if (status.equals("future") && !date.isAfter(now)) {
            status = "publish";
        }
        if (status.equals("publish") && date.isAfter(now)) {
            status = "future";
        }
        long author = body.path("author").asLong(SITE_USER_ID);
        if (author <= 0) {
            return Replies.now(state, error(400, "rest_invalid_author", "Invalid author ID."));
        }
        String meta = site.plugin() ? Json.text(body.path("meta"), META_KEY) : null;
        Optional<Long> featuredMedia;
        try {
            featuredMedia = featuredMedia(site, body);
        } catch (IllegalArgumentException notAnInteger) {
            return Replies.now(state, invalidParam("featured_media", "featured_media is not of type integer."));
        }
        long id = state.nextId();
        if (author != SITE_USER_ID) {
            otherAuthors.put(site.site() + "/" + id, author);
        }
        SandboxPost post = new SandboxPost(Long.toString(id), site.site(), body.path("content").asText(""),
                body.path("content").asText(""), null, body.path("title").asText(""), status, date, meta,
                siteBase(request, site.site()) + "/?p=" + id);
        // the featured image is known before the answer is rendered
        featuredMedia.ifPresent(mediaId -> state.feature(PROVIDER, post.id(), mediaId));
        ResponseEntity<String> created = createdAnswer(site, post, request);
        if (fault.isEmpty()) {
            state.addPost(PROVIDER, post);
            return Replies.now(state, created);
        }
        SandboxFault f = fault.get();
        return switch (f.type()) {
            case DELAY_THEN_CREATE -> {
                state.addPost(PROVIDER, post);
                yield Replies.after(state, f.delayMillis(), () -> created);
            }
            case CREATE_AFTER -> {
                state.later(f.delayMillis(), () -> state.addPost(PROVIDER, post));
                yield Replies.hold(state);
            }
            case ERROR_5XX_WITH_EFFECT -> {
                state.addPost(PROVIDER, post);
                yield Replies.now(state, criticalError());
            }
            default -> throw new IllegalStateException("unexpected fault " + f.type());
        };
    }

    private ResponseEntity<String> createdAnswer(WordPressSite site, SandboxPost post, HttpServletRequest request) {
        HttpHeaders headers = new HttpHeaders();
        headers.set("Location", siteBase(request, site.site()) + "/?rest_route=/wp/v2/posts/" + post.id());
        return Replies.json(201, render(site, post, true), headers);
    }

    private DeferredResult<ResponseEntity<String>> list(WordPressSite site, boolean authenticated,
                                                       HttpServletRequest request, HttpServletResponse response) {
        Optional<SandboxFault> fault = state.takeFault(PROVIDER, site.site(), SandboxFault.Operation.READ);
        if (fault.isPresent()) {
            SandboxFault f = fault.get();
            return switch (f.type()) {
                case RESET_AFTER_READ -> Replies.closeConnection(response);
                case CREATE_AFTER -> Replies.hold(state);
                case RATE_LIMIT -> Replies.now(state, rateLimited(f));
                case TOKEN_ERROR -> Replies.now(state, error(401, "rest_forbidden_context",
                        "Sorry, you are not allowed to edit posts in this post type."));
                case DELAY_THEN_CREATE -> {
                    ResponseEntity<String> answer = listAnswer(site, authenticated, request);
                    yield Replies.after(state, f.delayMillis(), () -> answer);
                }
                default -> Replies.now(state, criticalError());
            };
        }
        return Replies.now(state, listAnswer(site, authenticated, request));
    }

    private ResponseEntity<String> listAnswer(WordPressSite site, boolean authenticated, HttpServletRequest request) {
        List<String> statuses = Arrays.asList(Optional.ofNullable(request.getParameter("status")).orElse("publish")
                .split(","));
        boolean edit = "edit".equals(request.getParameter("context"));
        if (!authenticated && statuses.stream().anyMatch(s -> !s.equals("publish"))) {
            ObjectNode body = Json.object().put("code", "rest_invalid_param").put("message", "Invalid parameter(s): status");
            ObjectNode data = body.putObject("data").put("status", 400);
            data.putObject("params").put("status", "Status is forbidden.");
            data.putObject("details").putObject("status").put("code", "rest_forbidden_status")
                    .put("message", "Status is forbidden.").putObject("data").put("status", 401);
            return Replies.json(400, body, new HttpHeaders());
        }
        if (!authenticated && edit) {
            return error(401, "rest_forbidden_context", "Sorry, you are not allowed to edit posts in this post type.");
        }
        String filter = site.plugin() && authenticated ? request.getParameter(META_KEY) : null;
        List<SandboxPost> matching = new ArrayList<>();
        List<SandboxPost> all = new ArrayList<>(state.posts(PROVIDER, site.site()));
        java.util.Collections.reverse(all);
        for (SandboxPost post : all) {
            if (!statuses.contains(post.status())) {
                continue;
            }
            if (filter != null && !filter.equals(post.publicationMeta())) {
                continue;
            }
            matching.add(post);
        }
        int perPage = parseInt(request.getParameter("per_page"), 10);
        int page = parseInt(request.getParameter("page"), 1);
        int from = Math.min((page - 1) * perPage, matching.size());
        ArrayNode body = Json.MAPPER.createArrayNode();
        for (SandboxPost post : matching.subList(from, Math.min(from + perPage, matching.size()))) {
            body.add(render(site, post, edit));
        }
        HttpHeaders headers = new HttpHeaders();
        headers.set("X-WP-Total", Integer.toString(matching.size()));
        headers.set("X-WP-TotalPages", Integer.toString(Math.max(1, (matching.size() + perPage - 1) / perPage)));
        return Replies.json(200, body, headers);
    }

    private ObjectNode render(WordPressSite site, SandboxPost post, boolean edit) {
        ObjectNode node = Json.object();
        node.put("id", Long.parseLong(post.id()));
        String local = LOCAL.format(post.createdAt().atOffset(ZoneOffset.UTC));
        node.put("date", local);
        node.put("date_gmt", local);
        node.put("slug", "post-" + post.id() + (post.status().equals("trash") ? "__trashed" : ""));
        node.put("status", post.status());
        node.put("type", "post");
        node.put("link", post.url());
        node.put("author", otherAuthors.getOrDefault(site.site() + "/" + post.id(), SITE_USER_ID));
        // only on posts that were given one, so posts without stay as they always were
        state.featured(PROVIDER, post.id()).ifPresent(mediaId -> node.put("featured_media", mediaId));
        ObjectNode title = node.putObject("title");
        ObjectNode content = node.putObject("content");
        if (edit) {
            title.put("raw", post.title());
            content.put("raw", post.text());
        }
        title.put("rendered", post.title());
        content.put("rendered", "<p>" + post.text() + "</p>\n");
        content.put("protected", false);
        if (site.plugin()) {
            node.putObject("meta").put(META_KEY, post.publicationMeta() == null ? "" : post.publicationMeta());
        } else {
            // PHP encodes the empty meta array as [], not {}.
            node.putArray("meta");
        }
        return node;
    }

    private ResponseEntity<String> options(WordPressSite site) {
        ObjectNode body = Json.object();
        body.put("namespace", "wp/v2");
        body.putArray("methods").add("GET").add("POST");
        ArrayNode endpoints = body.putArray("endpoints");
        ObjectNode get = endpoints.addObject();
        get.putArray("methods").add("GET");
        ObjectNode getArgs = get.putObject("args");
        getArgs.putObject("context").put("type", "string").put("default", "view");
        getArgs.putObject("page").put("type", "integer").put("default", 1);
        getArgs.putObject("per_page").put("type", "integer").put("default", 10);
        getArgs.putObject("status").put("type", "array").put("default", "publish");
        if (site.plugin()) {
            getArgs.putObject(META_KEY).put("description", "Limit result set to posts Herald published with this id.")
                    .put("type", "string").put("required", false);
        }
        ObjectNode post = endpoints.addObject();
        post.putArray("methods").add("POST");
        ObjectNode postArgs = post.putObject("args");
        postArgs.putObject("title").put("type", "object");
        postArgs.putObject("content").put("type", "object");
        postArgs.putObject("status").put("type", "string");
        postArgs.putObject("date").put("type", "string");
        postArgs.putObject("meta").put("type", "object");
        ObjectNode schema = body.putObject("schema");
        schema.put("$schema", "http://json-schema.org/draft-04/schema#");
        schema.put("title", "post");
        schema.put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        properties.putObject("id").put("type", "integer");
        properties.putObject("status").put("type", "string");
        ObjectNode meta = properties.putObject("meta");
        meta.put("type", "object");
        ObjectNode metaProperties = meta.putObject("properties");
        if (site.plugin()) {
            metaProperties.putObject(META_KEY).put("type", "string").put("default", "");
        }
        HttpHeaders headers = new HttpHeaders();
        headers.set("Allow", "GET, POST");
        return Replies.json(200, body, headers);
    }

    /**
     * {@code POST /wp/v2/media}: the file's bytes as the body (with {@code Content-Type} and
     * {@code Content-Disposition: attachment; filename=…}) or as multipart part {@code file};
     * {@code alt_text}, {@code caption}, {@code title} as query or form fields. The file name's
     * extension decides whether the type is allowed; image bytes under another image extension
     * are renamed, anything else is refused with WordPress's 500.
     */
    private DeferredResult<ResponseEntity<String>> upload(WordPressSite site, boolean authenticated, byte[] raw,
                                                         HttpServletRequest request, HttpServletResponse response)
            throws IOException, ServletException {
        Optional<SandboxFault> fault = state.takeFault(PROVIDER, site.site(), SandboxFault.Operation.UPLOAD);
        DeferredResult<ResponseEntity<String>> early = beforeEffect(fault, response, WordPressSandboxController::cannotUpload);
        if (early != null || isReset(fault)) {
            return early;
        }
        if (!authenticated) {
            return Replies.now(state, cannotUpload());
        }
        boolean multipart = request.getContentType() != null
                && request.getContentType().toLowerCase(Locale.ROOT).startsWith("multipart/");
        byte[] bytes;
        String fileName;
        if (multipart) {
            Part file = request.getPart("file");
            if (file == null) {
                return Replies.now(state, error(400, "rest_upload_no_data", "No data supplied."));
            }
            bytes = file.getInputStream().readAllBytes();
            fileName = file.getSubmittedFileName();
        } else {
            bytes = raw;
            if (bytes.length == 0) {
                return Replies.now(state, error(400, "rest_upload_no_data", "No data supplied."));
            }
            if (request.getContentType() == null) {
                return Replies.now(state, error(400, "rest_upload_no_content_type", "No Content-Type supplied."));
            }
            String disposition = request.getHeader("Content-Disposition");
            if (disposition == null) {
                return Replies.now(state, error(400, "rest_upload_no_content_disposition",
                        "No Content-Disposition supplied."));
            }
            fileName = fileName(disposition);
            String md5 = request.getHeader("Content-MD5");
            if (md5 != null && !md5.equalsIgnoreCase(md5Hex(bytes))) {
                return Replies.now(state, error(412, "rest_upload_hash_mismatch", "Content hash did not match expected."));
            }
        }
        if (fileName == null || fileName.isBlank()) {
            return Replies.now(state, error(400, "rest_upload_invalid_disposition", "Invalid Content-Disposition supplied."
                    + " Content-Disposition needs to be formatted as `attachment; filename=\"image.png\"` or similar."));
        }
        int dot = fileName.lastIndexOf('.');
        String extension = dot < 0 ? "" : fileName.substring(dot + 1).toLowerCase(Locale.ROOT);
        Optional<String> sniffed = SandboxImages.type(bytes);
        if (!IMAGE_EXTENSIONS.containsKey(extension) || sniffed.isEmpty()) {
            return Replies.now(state, error(500, multipart ? "rest_upload_unknown_error" : "rest_upload_sideload_error",
                    "Sorry, you are not allowed to upload this file type."));
        }
        String mime = sniffed.get();
        if (!IMAGE_EXTENSIONS.get(extension).equals(mime)) {
            // image bytes under another image extension: renamed to what they are
            fileName = fileName.substring(0, dot + 1) + EXTENSION_OF.get(mime);
        }
        SandboxImages.Size size = SandboxImages.size(bytes, mime).orElse(null);
        long id = state.nextId();
        String stored = fileName;
        String title = Optional.ofNullable(request.getParameter("title"))
                .orElse(stored.contains(".") ? stored.substring(0, stored.lastIndexOf('.')) : stored);
        SandboxMedia attachment = new SandboxMedia(Long.toString(id), site.site(), mime, bytes.length,
                SandboxImages.sha256(bytes), size == null ? null : size.width(), size == null ? null : size.height(),
                Optional.ofNullable(request.getParameter("alt_text")).orElse(""),
                Optional.ofNullable(request.getParameter("caption")).orElse(""), title, stored, "inherit", null,
                Instant.now(), siteBase(request, site.site()) + "/wp-content/uploads/2026/12/" + stored);
        String base = siteBase(request, site.site());
        return Replies.withEffect(state, fault, () -> state.putMedia(PROVIDER, attachment), () -> {
            HttpHeaders headers = new HttpHeaders();
            headers.set("Location", base + "/?rest_route=/wp/v2/media/" + id);
            headers.set("X-WP-Upload-Attachment-ID", Long.toString(id));
            return Replies.json(201, renderMedia(attachment, base), headers);
        }, WordPressSandboxController::criticalError);
    }

    /** {@code GET}, {@code POST} (alt text, caption, title) and {@code DELETE ?force=true} of one attachment. */
    private DeferredResult<ResponseEntity<String>> attachment(WordPressSite site, boolean authenticated, String id,
                                                             String rawBody, HttpServletRequest request,
                                                             HttpServletResponse response) {
        String method = request.getMethod();
        String base = siteBase(request, site.site());
        if (method.equals("GET")) {
            return read(site, response, () -> state.media(PROVIDER, id).filter(m -> m.target().equals(site.site()))
                    .map(m -> Replies.json(200, renderMedia(m, base), new HttpHeaders()))
                    .orElseGet(WordPressSandboxController::invalidId));
        }
        boolean delete = method.equals("DELETE");
        Optional<SandboxFault> fault = state.takeFault(PROVIDER, site.site(),
                delete ? SandboxFault.Operation.DELETE : SandboxFault.Operation.EDIT);
        DeferredResult<ResponseEntity<String>> early = beforeEffect(fault, response,
                delete ? WordPressSandboxController::cannotDelete : WordPressSandboxController::cannotEdit);
        if (early != null || isReset(fault)) {
            return early;
        }
        if (!authenticated) {
            return Replies.now(state, delete ? cannotDelete() : cannotEdit());
        }
        Optional<SandboxMedia> known = state.media(PROVIDER, id).filter(m -> m.target().equals(site.site()));
        if (known.isEmpty()) {
            return Replies.now(state, invalidId());
        }
        if (delete) {
            if (!forced(request)) {
                return Replies.now(state, error(501, "rest_trash_not_supported",
                        "The media does not support trashing. Set 'force=true' to delete."));
            }
            ObjectNode previous = renderMedia(known.get(), base);
            return Replies.withEffect(state, fault, () -> {
                state.removeMedia(PROVIDER, id);
                state.unfeature(PROVIDER, Long.parseLong(id));
            }, () -> {
                ObjectNode body = Json.object().put("deleted", true);
                body.set("previous", previous);
                return Replies.json(200, body, new HttpHeaders());
            }, WordPressSandboxController::criticalError);
        }
        JsonNode body = rawBody == null ? Json.object() : Json.parse(rawBody);
        String alt = Optional.ofNullable(Json.text(body, "alt_text")).orElse(request.getParameter("alt_text"));
        String caption = Optional.ofNullable(Json.text(body, "caption")).orElse(request.getParameter("caption"));
        String title = Optional.ofNullable(Json.text(body, "title")).orElse(request.getParameter("title"));
        return Replies.withEffect(state, fault, () -> state.updateMedia(PROVIDER, id, m -> m.withTexts(
                        alt != null ? alt : m.altText(), caption != null ? caption : m.caption(),
                        title != null ? title : m.title())),
                () -> Replies.json(200, renderMedia(state.media(PROVIDER, id).orElse(known.get()), base),
                        new HttpHeaders()),
                WordPressSandboxController::criticalError);
    }

    /** {@code GET}, {@code POST|PUT|PATCH} (update) and {@code DELETE} (trash, or {@code force=true}) of one post. */
    private DeferredResult<ResponseEntity<String>> onePost(WordPressSite site, boolean authenticated, String id,
                                                          String rawBody, HttpServletRequest request,
                                                          HttpServletResponse response) {
        String method = request.getMethod();
        if (method.equals("GET")) {
            boolean edit = "edit".equals(request.getParameter("context"));
            return read(site, response, () -> {
                Optional<SandboxPost> post = state.post(PROVIDER, site.site(), id);
                if (post.isEmpty()) {
                    return invalidId();
                }
                if (!authenticated && (edit || !post.get().status().equals("publish"))) {
                    return error(401, "rest_forbidden", "Sorry, you are not allowed to do that.");
                }
                return Replies.json(200, render(site, post.get(), edit), new HttpHeaders());
            });
        }
        boolean delete = method.equals("DELETE");
        Optional<SandboxFault> fault = state.takeFault(PROVIDER, site.site(),
                delete ? SandboxFault.Operation.DELETE : SandboxFault.Operation.EDIT);
        DeferredResult<ResponseEntity<String>> early = beforeEffect(fault, response,
                delete ? WordPressSandboxController::cannotDelete : WordPressSandboxController::cannotEdit);
        if (early != null || isReset(fault)) {
            return early;
        }
        if (!authenticated) {
            return Replies.now(state, delete ? cannotDelete() : cannotEdit());
        }
        Optional<SandboxPost> post = state.post(PROVIDER, site.site(), id);
        if (post.isEmpty()) {
            return Replies.now(state, invalidId());
        }
        return delete ? deletePost(site, post.get(), fault, request) : updatePost(site, post.get(), rawBody, fault);
    }

    private DeferredResult<ResponseEntity<String>> deletePost(WordPressSite site, SandboxPost post,
                                                             Optional<SandboxFault> fault, HttpServletRequest request) {
        if (forced(request)) {
            ObjectNode previous = render(site, post, true);
            return Replies.withEffect(state, fault,
                    () -> state.removePost(PROVIDER, site.site(), post.id(), "force", Instant.now()),
                    () -> {
                        ObjectNode body = Json.object().put("deleted", true);
                        body.set("previous", previous);
                        return Replies.json(200, body, new HttpHeaders());
                    }, WordPressSandboxController::criticalError);
        }
        if (post.status().equals("trash")) {
            return Replies.now(state, error(410, "rest_already_trashed", "The post has already been deleted."));
        }
        return Replies.withEffect(state, fault, () -> {
            state.recordDeletion(PROVIDER, post, "trash", Instant.now());
            state.updatePost(PROVIDER, site.site(), post.id(), current -> withStatus(current, "trash"));
        }, () -> Replies.json(200, render(site, state.post(PROVIDER, site.site(), post.id())
                .orElse(withStatus(post, "trash")), true), new HttpHeaders()), WordPressSandboxController::criticalError);
    }

    private DeferredResult<ResponseEntity<String>> updatePost(WordPressSite site, SandboxPost post, String rawBody,
                                                             Optional<SandboxFault> fault) {
        JsonNode body = rawBody == null ? Json.object() : Json.parse(rawBody);
        if (!body.isObject()) {
            return Replies.now(state, error(400, "rest_invalid_json", "Invalid JSON body passed."));
        }
        String status = body.hasNonNull("status") ? body.path("status").asText() : post.status();
        if (body.hasNonNull("status") && !STATUSES.contains(status)) {
            return Replies.now(state, invalidParam("status", "status is not one of publish, future, draft, pending, private."));
        }
        Instant date = post.createdAt();
        if (body.hasNonNull("date")) {
            try {
                date = parseDate(body.path("date").asText());
            } catch (DateTimeParseException e) {
                return Replies.now(state, invalidParam("date", "Invalid date."));
            }
        }
        Optional<Long> featuredMedia;
        try {
            featuredMedia = featuredMedia(site, body);
        } catch (IllegalArgumentException notAnInteger) {
            return Replies.now(state, invalidParam("featured_media", "featured_media is not of type integer."));
        }
        Instant now = Instant.now();
        if (status.equals("future") && !date.isAfter(now)) {
            status = "publish";
        }
        if (status.equals("publish") && date.isAfter(now)) {
            status = "future";
        }
        String content = body.has("content") ? text(body.path("content")) : post.text();
        String title = body.has("title") ? text(body.path("title")) : post.title();
        String meta = site.plugin() && body.path("meta").has(META_KEY) ? Json.text(body.path("meta"), META_KEY)
                : post.publicationMeta();
        SandboxPost changed = new SandboxPost(post.id(), post.target(), content, content, post.link(), title, status,
                date, meta, post.url());
        return Replies.withEffect(state, fault, () -> {
            state.updatePost(PROVIDER, site.site(), post.id(), current -> changed);
            featuredMedia.ifPresent(mediaId -> state.feature(PROVIDER, post.id(), mediaId));
            state.recordEdit(PROVIDER, changed, Instant.now());
        }, () -> Replies.json(200, render(site, changed, true), new HttpHeaders()),
                WordPressSandboxController::criticalError);
    }

    /**
     * {@code featured_media} of a create or update: an image attachment of the site, or 0. On
     * 6.1 an id that is no image attachment is ignored silently (0); a non-integer is refused.
     */
    private Optional<Long> featuredMedia(WordPressSite site, JsonNode body) {
        if (!body.has("featured_media")) {
            return Optional.empty();
        }
        JsonNode value = body.path("featured_media");
        long id;
        if (value.isIntegralNumber()) {
            id = value.asLong();
        } else if (value.isTextual() && value.asText().matches("\\d{1,18}")) {
            id = Long.parseLong(value.asText());
        } else {
            throw new IllegalArgumentException("featured_media");
        }
        boolean image = state.media(PROVIDER, Long.toString(id))
                .filter(m -> m.target().equals(site.site()) && m.contentType() != null).isPresent();
        return Optional.of(image ? id : 0L);
    }

    /** A READ fault's effect on a single read, as on the list; the answer is built when it is sent. */
    private DeferredResult<ResponseEntity<String>> read(WordPressSite site, HttpServletResponse response,
                                                       java.util.function.Supplier<ResponseEntity<String>> answer) {
        Optional<SandboxFault> fault = state.takeFault(PROVIDER, site.site(), SandboxFault.Operation.READ);
        if (fault.isEmpty()) {
            return Replies.now(state, answer.get());
        }
        SandboxFault f = fault.get();
        return switch (f.type()) {
            case RESET_AFTER_READ -> Replies.closeConnection(response);
            case CREATE_AFTER -> Replies.hold(state);
            case RATE_LIMIT -> Replies.now(state, rateLimited(f));
            case TOKEN_ERROR -> Replies.now(state, error(401, "rest_forbidden_context",
                    "Sorry, you are not allowed to edit posts in this post type."));
            case DELAY_THEN_CREATE -> Replies.after(state, f.delayMillis(), answer);
            default -> Replies.now(state, criticalError());
        };
    }

    /** Faults that act before any effect; null when there is none or it acts with the effect. */
    private DeferredResult<ResponseEntity<String>> beforeEffect(Optional<SandboxFault> fault,
                                                               HttpServletResponse response,
                                                               java.util.function.Supplier<ResponseEntity<String>> refused) {
        if (fault.isEmpty()) {
            return null;
        }
        return switch (fault.get().type()) {
            case RESET_AFTER_READ -> Replies.closeConnection(response);
            case ERROR_5XX_NO_EFFECT -> Replies.now(state, criticalError());
            case RATE_LIMIT -> Replies.now(state, rateLimited(fault.get()));
            // a revoked application password makes the request anonymous
            case TOKEN_ERROR -> Replies.now(state, refused.get());
            default -> null;
        };
    }

    private static boolean isReset(Optional<SandboxFault> fault) {
        return fault.isPresent() && fault.get().type() == SandboxFault.Type.RESET_AFTER_READ;
    }

    private static ObjectNode renderMedia(SandboxMedia media, String siteBase) {
        ObjectNode node = Json.object();
        node.put("id", Long.parseLong(media.id()));
        String local = LOCAL.format(media.createdAt().atOffset(ZoneOffset.UTC));
        node.put("date", local);
        node.put("date_gmt", local);
        node.put("slug", media.title().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-"));
        node.put("status", media.status());
        node.put("type", "attachment");
        node.put("link", siteBase + "/?attachment_id=" + media.id());
        node.putObject("title").put("raw", media.title()).put("rendered", media.title());
        node.put("author", SITE_USER_ID);
        node.putObject("caption").put("raw", media.caption()).put("rendered",
                media.caption().isEmpty() ? "" : "<p>" + media.caption() + "</p>\n");
        node.put("alt_text", media.altText());
        node.put("media_type", "image");
        node.put("mime_type", media.contentType());
        ObjectNode details = node.putObject("media_details");
        if (media.width() != null) {
            details.put("width", media.width()).put("height", media.height());
        }
        details.put("file", "2026/12/" + media.fileName());
        details.put("filesize", media.bytes());
        details.putObject("sizes");
        node.putNull("post");
        node.put("source_url", media.sourceUrl());
        return node;
    }

    private static SandboxPost withStatus(SandboxPost post, String status) {
        return new SandboxPost(post.id(), post.target(), post.text(), post.storedText(), post.link(), post.title(),
                status, post.createdAt(), post.publicationMeta(), post.url());
    }

    /** A title or content field: plain text, or an object with {@code raw}. */
    private static String text(JsonNode field) {
        return field.isObject() ? field.path("raw").asText("") : field.asText("");
    }

    private static boolean forced(HttpServletRequest request) {
        String force = request.getParameter("force");
        return "true".equals(force) || "1".equals(force);
    }

    private static String fileName(String disposition) {
        try {
            return ContentDisposition.parse(disposition).getFilename();
        } catch (IllegalArgumentException unreadable) {
            return null;
        }
    }

    private static String md5Hex(byte[] bytes) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("MD5").digest(bytes));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static final Map<String, String> IMAGE_EXTENSIONS = Map.of("jpg", "image/jpeg", "jpeg", "image/jpeg",
            "jpe", "image/jpeg", "png", "image/png", "gif", "image/gif", "webp", "image/webp", "bmp", "image/bmp",
            "tif", "image/tiff", "tiff", "image/tiff");
    private static final Map<String, String> EXTENSION_OF = Map.of("image/jpeg", "jpg", "image/png", "png",
            "image/gif", "gif", "image/webp", "webp", "image/bmp", "bmp", "image/tiff", "tif");

    private static ResponseEntity<String> cannotUpload() {
        return error(401, "rest_cannot_create", "Sorry, you are not allowed to upload media on this site.");
    }

    private static ResponseEntity<String> cannotEdit() {
        return error(401, "rest_cannot_edit", "Sorry, you are not allowed to edit this post.");
    }

    private static ResponseEntity<String> cannotDelete() {
        return error(401, "rest_cannot_delete", "Sorry, you are not allowed to delete this post.");
    }

    private static ResponseEntity<String> invalidId() {
        return error(404, "rest_post_invalid_id", "Invalid post ID.");
    }

    static boolean authenticated(WordPressSite site, String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
            return false;
        }
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(authorization.substring(6).trim()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return false;
        }
        int colon = decoded.indexOf(':');
        if (colon < 0) {
            return false;
        }
        String user = decoded.substring(0, colon);
        String password = decoded.substring(colon + 1).replace(" ", "");
        return user.equals(site.username()) && password.equals(site.applicationPassword().replace(" ", ""));
    }

    static Instant parseDate(String value) {
        try {
            return OffsetDateTime.parse(value).toInstant();
        } catch (DateTimeParseException e) {
            // A date without offset is in the site's time zone; the sandbox's sites run on UTC.
            return LocalDateTime.parse(value).toInstant(ZoneOffset.UTC);
        }
    }

    private static int parseInt(String value, int fallback) {
        try {
            return value == null ? fallback : Math.max(1, Integer.parseInt(value));
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    private static String siteBase(HttpServletRequest request, String site) {
        return ServletUriComponentsBuilder.fromContextPath(request).path("/sandbox/wordpress/" + site).build().toUriString();
    }

    private static ResponseEntity<String> cannotCreate() {
        return error(401, "rest_cannot_create", "Sorry, you are not allowed to create posts as this user.");
    }

    private static ResponseEntity<String> invalidParam(String param, String message) {
        ObjectNode body = Json.object().put("code", "rest_invalid_param").put("message", "Invalid parameter(s): " + param);
        body.putObject("data").put("status", 400).putObject("params").put(param, message);
        return Replies.json(400, body, new HttpHeaders());
    }

    private static ResponseEntity<String> rateLimited(SandboxFault fault) {
        HttpHeaders headers = new HttpHeaders();
        if (fault.retryAfterSeconds() > 0) {
            headers.set("Retry-After", Long.toString(fault.retryAfterSeconds()));
        }
        return Replies.json(429, Json.object().put("code", "too_many_requests")
                .put("message", "Too many requests.").set("data", Json.object().put("status", 429)), headers);
    }

    private static ResponseEntity<String> criticalError() {
        ObjectNode body = Json.object().put("code", "internal_server_error")
                .put("message", "<p>There has been a critical error on this website.</p>");
        body.putObject("data").put("status", 500);
        body.putArray("additional_errors");
        return Replies.json(500, body, new HttpHeaders());
    }

    private static ResponseEntity<String> error(int status, String code, String message) {
        ObjectNode body = Json.object().put("code", code).put("message", message);
        body.putObject("data").put("status", status);
        return Replies.json(status, body, new HttpHeaders());
    }
}
