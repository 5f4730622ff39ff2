package io.herald.sandbox.wordpress;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.platform.wire.Json;
import io.herald.sandbox.ProviderFaults;
import io.herald.sandbox.Replies;
import io.herald.sandbox.SandboxFault;
import io.herald.sandbox.SandboxPost;
import io.herald.sandbox.SandboxState.WordPressSite;
import io.herald.sandbox.SandboxState;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import org.springframework.web.context.request.async.DeferredResult;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

/**
 * What a WordPress site's routes share: the site's faults, application passwords, how a post is
 * rendered (with its author, featured image and meta), and the fields of a create or update.
 */
@Component
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
class WordPressRest {

    public static final String PROVIDER = "wordpress";
    static final String META_KEY = "herald_publication_id";
    static final Set<String> STATUSES = Set.of("publish", "future", "draft", "pending", "private");
    static final DateTimeFormatter LOCAL = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss");
    /** The user id of each site's one user (its application password's owner), as WordPress numbers its first user. */
    static final long SITE_USER_ID = 1;

    private final SandboxState state;
    private final ProviderFaults faults;
    /**
     * Post author by site and post id, for posts whose author is not the site's user: an editor may
     * create a post as another user ({@code "author"} on create), as on a real site.
     */
    private final Map<String, Long> otherAuthors = new ConcurrentHashMap<>();

    WordPressRest(SandboxState state) {
        this.state = state;
        this.faults = new ProviderFaults(state, PROVIDER, WordPressErrors.FAULTS);
    }

    SandboxState state() {
        return state;
    }

    ProviderFaults faults() {
        return faults;
    }

    /**
     * A write at the site: the fault it takes first, then the application password, refused as
     * {@code refused} says when it does not sign in; then {@code request} answers, given the fault.
     */
    <E extends Exception> DeferredResult<ResponseEntity<String>> write(WordPressSite site,
                                                                       SandboxFault.Operation operation,
                                                                       boolean authenticated,
                                                                       HttpServletResponse response,
                                                                       Supplier<ResponseEntity<String>> refused,
                                                                       ProviderFaults.Write<E> request) throws E {
        return faults.write(site.site(), operation, response, refused,
                fault -> authenticated ? request.answer(fault) : Replies.now(state, refused.get()));
    }

    /** An update or, with {@code delete}, a delete of one post or attachment of the site. */
    DeferredResult<ResponseEntity<String>> change(WordPressSite site, boolean delete, boolean authenticated,
                                                  HttpServletResponse response,
                                                  ProviderFaults.Write<RuntimeException> request) {
        return write(site, delete ? SandboxFault.Operation.DELETE : SandboxFault.Operation.EDIT, authenticated,
                response, delete ? WordPressErrors::cannotDelete : WordPressErrors::cannotEdit, request);
    }

    void authoredBy(WordPressSite site, long postId, long author) {
        otherAuthors.put(site.site() + "/" + postId, author);
    }

    ObjectNode render(WordPressSite site, SandboxPost post, boolean edit) {
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
        state.media().featured(PROVIDER, post.id()).ifPresent(mediaId -> node.put("featured_media", mediaId));
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

    /**
     * {@code featured_media} of a create or update: an image attachment of the site, or 0. On
     * 6.1 an id that is no image attachment is ignored silently (0); a non-integer is refused
     * ({@link IllegalArgumentException}, answered with {@link #invalidFeaturedMedia}).
     */
    Optional<Long> featuredMedia(WordPressSite site, JsonNode body) {
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
        boolean image = state.media().find(PROVIDER, Long.toString(id))
                .filter(m -> m.target().equals(site.site()) && m.contentType() != null).isPresent();
        return Optional.of(image ? id : 0L);
    }

    static ResponseEntity<String> invalidFeaturedMedia() {
        return WordPressErrors.invalidParam("featured_media", "featured_media is not of type integer.");
    }

    static ResponseEntity<String> invalidStatus() {
        return WordPressErrors.invalidParam("status", "status is not one of publish, future, draft, pending, private.");
    }

    /** The body's {@code date}, else {@code fallback}; null when it is no date. */
    static Instant date(JsonNode body, Instant fallback) {
        if (!body.hasNonNull("date")) {
            return fallback;
        }
        try {
            return parseDate(body.path("date").asText());
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** WordPress's status for a post dated {@code date}: a future post is scheduled, a past one published. */
    static String scheduled(String status, Instant date, Instant now) {
        if (status.equals("future") && !date.isAfter(now)) {
            return "publish";
        }
        if (status.equals("publish") && date.isAfter(now)) {
            return "future";
        }
        return status;
    }

    static Instant parseDate(String value) {
        try {
            return OffsetDateTime.parse(value).toInstant();
        } catch (DateTimeParseException e) {
            // A date without offset is in the site's time zone; the sandbox's sites run on UTC.
            return LocalDateTime.parse(value).toInstant(ZoneOffset.UTC);
        }
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

    static String siteBase(HttpServletRequest request, String site) {
        return ServletUriComponentsBuilder.fromContextPath(request).path("/sandbox/wordpress/" + site).build().toUriString();
    }

    static boolean forced(HttpServletRequest request) {
        String force = request.getParameter("force");
        return "true".equals(force) || "1".equals(force);
    }
}
