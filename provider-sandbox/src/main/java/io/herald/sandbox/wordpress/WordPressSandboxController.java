package io.herald.sandbox.wordpress;

import io.herald.platform.wire.Json;
import io.herald.sandbox.Replies;
import io.herald.sandbox.SandboxState.WordPressSite;
import io.herald.sandbox.SandboxState;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;

/**
 * A WordPress site's REST API under {@code /sandbox/wordpress/{site}}, reachable both as
 * {@code /wp-json/wp/v2/…} and as {@code /?rest_route=/wp/v2/…}. With the "plugin" behaviour the
 * site keeps {@code herald_publication_id} in meta, filters by it and lists it in OPTIONS; without
 * it, meta is PHP's empty array {@code []} and the filter is ignored, as on a stock site. Each
 * site has one user (id 1, the application password's owner); a post created with another
 * {@code author} id is listed with that author, as when an editor posts on someone's behalf.
 * This controller finds the route and the caller; the routes' own classes answer.
 */
@RestController
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
public class WordPressSandboxController {

    static final String PROVIDER = WordPressRest.PROVIDER;
    private static final Pattern ONE = Pattern.compile("/wp/v2/(posts|media)/(\\d{1,18})");

    private final SandboxState state;
    private final WordPressPosts posts;
    private final WordPressPostEdits postEdits;
    private final WordPressMedia media;

    WordPressSandboxController(WordPressRest rest, WordPressPosts posts, WordPressPostEdits postEdits,
                               WordPressMedia media) {
        this.state = rest.state();
        this.posts = posts;
        this.postEdits = postEdits;
        this.media = media;
    }

    @RequestMapping(value = {"/sandbox/wordpress/{site}", "/sandbox/wordpress/{site}/",
            "/sandbox/wordpress/{site}/wp-json/wp/v2/**"},
            method = {RequestMethod.GET, RequestMethod.POST, RequestMethod.OPTIONS, RequestMethod.PUT,
                    RequestMethod.PATCH, RequestMethod.DELETE})
    public DeferredResult<ResponseEntity<String>> route(@PathVariable String site, HttpServletRequest request,
                                                       HttpServletResponse response)
            throws Exception {
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
            return Replies.now(state, WordPressErrors.noRoute());
        }
        String method = request.getMethod();
        boolean post = route.equals("/wp/v2/posts") && method.equals("POST");
        // a revoked application password makes the request anonymous, as on a stock site (docs/channels.md#wordpress)
        boolean authenticated = WordPressRest.authenticated(known.get(), request.getHeader("Authorization"))
                && state.lapses().lapsed(PROVIDER, known.get().applicationPassword(), post).isEmpty();
        if (route.equals("/wp/v2/users/me") && method.equals("GET")) {
            return Replies.now(state, authenticated
                    ? Replies.json(200, Json.object().put("id", WordPressRest.SITE_USER_ID)
                    .put("name", known.get().username()).put("slug", known.get().username()), new HttpHeaders())
                    : WordPressErrors.error(401, "rest_not_logged_in", "You are not currently logged in."));
        }
        Matcher one = ONE.matcher(route);
        if (one.matches() && !method.equals("OPTIONS")) {
            return one.group(1).equals("posts")
                    ? postEdits.onePost(known.get(), authenticated, one.group(2), rawBody, request, response)
                    : media.attachment(known.get(), authenticated, one.group(2), rawBody, request, response);
        }
        if (route.equals("/wp/v2/media") && method.equals("POST")) {
            return media.upload(known.get(), authenticated, raw, request, response);
        }
        if (!route.equals("/wp/v2/posts") || !Set.of("GET", "POST", "OPTIONS").contains(method)) {
            return Replies.now(state, WordPressErrors.noRoute());
        }
        return switch (method) {
            case "OPTIONS" -> Replies.now(state, posts.options(known.get()));
            case "POST" -> posts.create(known.get(), authenticated, rawBody, request, response);
            default -> posts.list(known.get(), authenticated, request, response);
        };
    }

    /** The body's charset as the request declares it, else UTF-8 (as the JSON bodies of the REST API are). */
    private static Charset charset(HttpServletRequest request) {
        try {
            return request.getCharacterEncoding() == null ? StandardCharsets.UTF_8
                    : Charset.forName(request.getCharacterEncoding());
        } catch (IllegalArgumentException unknown) {
            return StandardCharsets.UTF_8;
        }
    }
}
