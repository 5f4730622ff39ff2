package io.herald.sandbox.linkedin;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.platform.wire.Json;
import io.herald.sandbox.ProviderFaults;
import io.herald.sandbox.SandboxPost;
import io.herald.sandbox.SandboxState.Attachment;
import io.herald.sandbox.SandboxState.LinkedInToken;
import io.herald.sandbox.SandboxState;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;

/**
 * What LinkedIn's REST endpoints share: the author's faults, the version header, tokens and
 * scopes with their refusals, the little-text rendering and how a post is returned.
 */
@Component
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
class LinkedInRest {

    public static final String PROVIDER = "linkedin";
    /** Versions older than this are "retired" in the sandbox. */
    static final String OLDEST_ACTIVE_VERSION = "202511";
    private static final String RESERVED = "\\|{}@[]()<>#*_~";

    private final SandboxState state;
    private final ProviderFaults faults;
    /** By author: the newest version LinkedIn no longer serves to it (a retirement the tests bring forward). */
    private final Map<String, String> retiredUpTo = new ConcurrentHashMap<>();

    LinkedInRest(SandboxState state) {
        this.state = state;
        this.faults = new ProviderFaults(state, PROVIDER, LinkedInErrors.FAULTS);
    }

    SandboxState state() {
        return state;
    }

    ProviderFaults faults() {
        return faults;
    }

    /** A share's URN, numbered from the sandbox's ids. */
    static String shareUrn(long id) {
        return "urn:li:share:" + (7_100_000_000_000_000_000L + id);
    }

    static String postUrl(String urn) {
        return "https://www.linkedin.com/feed/update/" + urn + "/";
    }

    /** The author of the post (or of the deleted post) with this URN, if any. */
    String authorOf(String urn) {
        return state.posts().find(PROVIDER, urn).map(SandboxPost::target)
                .or(() -> state.posts().deletion(PROVIDER, urn).map(d -> d.post().target()))
                .orElse(null);
    }

    /** From now on, versions up to {@code version} answer 426 for {@code author}'s calls. */
    void retire(String author, String version) {
        retiredUpTo.put(author, version);
    }

    /** The version refusal for a call as {@code author}: the configured retirement, then one brought forward. */
    private ResponseEntity<String> checkHeaders(HttpServletRequest request, String author) {
        ResponseEntity<String> refusal = checkHeaders(request);
        String version = request.getHeader("LinkedIn-Version");
        String upTo = author == null ? null : retiredUpTo.get(author);
        if (refusal == null && upTo != null && version.compareTo(upTo) <= 0) {
            return LinkedInErrors.error(426, 0, "NONEXISTENT_VERSION", "Requested version " + version + " is not active");
        }
        return refusal;
    }

    /** Null when the request's headers and token may write as {@code author}, else LinkedIn's refusal. */
    ResponseEntity<String> writer(HttpServletRequest request, String author, String permission) {
        ResponseEntity<String> refusal = checkHeaders(request, author);
        if (refusal != null) {
            return refusal;
        }
        Optional<LinkedInToken> token = liveToken(bearer(request));
        if (token.isEmpty()) {
            return tokenRefusal(bearer(request));
        }
        if (author == null || !actsAs(token.get(), author)
                || !token.get().scopes().contains(writeScope(author))) {
            return LinkedInErrors.accessDenied(permission);
        }
        return null;
    }

    /** Null when the headers and token may read as {@code author}: the restricted read scope is needed. */
    ResponseEntity<String> reader(HttpServletRequest request, String token, String author, String permission) {
        ResponseEntity<String> refusal = checkHeaders(request, author);
        if (refusal != null) {
            return refusal;
        }
        Optional<LinkedInToken> known = liveToken(token);
        if (known.isEmpty()) {
            return tokenRefusal(bearer(request));
        }
        String who = author != null ? author : known.get().author();
        if (!actsAs(known.get(), who) || !known.get().scopes().contains(readScope(who))) {
            return LinkedInErrors.accessDenied(permission);
        }
        return null;
    }

    /** The token's own author, or an organization its member administers. */
    private boolean actsAs(LinkedInToken token, String author) {
        return author.equals(token.author()) || state.administers(token.author(), author);
    }

    /** A registered token that has not lapsed; a post uses up one of those left before a lapse. */
    Optional<LinkedInToken> liveToken(String token) {
        return state.lapses().lapsed(PROVIDER, token, false).isPresent() ? Optional.empty()
                : state.linkedInToken(token);
    }

    /** LinkedIn's 401 for a token it does not accept: expired and revoked ones say so (docs/channels.md#linkedin). */
    ResponseEntity<String> tokenRefusal(String token) {
        Optional<String> lapsed = state.lapses().lapsed(PROVIDER, token, false);
        if (lapsed.isEmpty()) {
            return LinkedInErrors.invalidToken();
        }
        return "REVOKED".equals(lapsed.get())
                ? LinkedInErrors.error(401, 65601, "REVOKED_ACCESS_TOKEN",
                        "The token used in the request has been revoked by the user")
                : LinkedInErrors.error(401, 65602, "EXPIRED_ACCESS_TOKEN", "The token used in the request has expired");
    }

    /** A post as LinkedIn returns it; images and the edited flag appear only on posts that have them. */
    ObjectNode element(SandboxPost post) {
        long millis = post.createdAt().toEpochMilli();
        List<SandboxState.Edit> edits = state.posts().edits(PROVIDER, post.id());
        ObjectNode element = Json.object()
                .put("id", post.id())
                .put("author", post.target())
                .put("commentary", post.storedText())
                .put("visibility", "PUBLIC")
                .put("lifecycleState", post.status())
                .put("createdAt", millis)
                .put("publishedAt", millis)
                .put("lastModifiedAt", edits.isEmpty() ? millis : edits.get(edits.size() - 1).at().toEpochMilli());
        List<Attachment> images = state.media().attachments(PROVIDER, post.id());
        if (images.size() == 1) {
            ObjectNode media = element.putObject("content").putObject("media").put("id", images.get(0).mediaId());
            if (images.get(0).altText() != null) {
                media.put("altText", images.get(0).altText());
            }
        } else if (images.size() > 1) {
            ArrayNode list = element.putObject("content").putObject("multiImage").putArray("images");
            for (Attachment image : images) {
                ObjectNode item = list.addObject().put("id", image.mediaId());
                if (image.altText() != null) {
                    item.put("altText", image.altText());
                }
            }
        }
        if (!edits.isEmpty()) {
            element.putObject("lifecycleStateInfo").put("isEditedByAuthor", true);
        }
        return element;
    }

    /** What LinkedIn shows: escapes removed, and the text cut at the first unescaped reserved character. */
    static String render(String commentary) {
        StringBuilder shown = new StringBuilder();
        for (int i = 0; i < commentary.length(); i++) {
            char c = commentary.charAt(i);
            if (c == '\\' && i + 1 < commentary.length() && RESERVED.indexOf(commentary.charAt(i + 1)) >= 0) {
                shown.append(commentary.charAt(++i));
            } else if (RESERVED.indexOf(c) >= 0) {
                break;
            } else {
                shown.append(c);
            }
        }
        return shown.toString();
    }

    static String writeScope(String author) {
        return author.startsWith("urn:li:organization:") ? "w_organization_social" : "w_member_social";
    }

    static String readScope(String author) {
        return author.startsWith("urn:li:organization:") ? "r_organization_social" : "r_member_social";
    }

    static String bearer(HttpServletRequest request) {
        String header = request.getHeader("Authorization");
        return header != null && header.regionMatches(true, 0, "Bearer ", 0, 7) ? header.substring(7).trim() : null;
    }

    static ResponseEntity<String> checkHeaders(HttpServletRequest request) {
        String version = request.getHeader("LinkedIn-Version");
        if (version == null || version.isBlank()) {
            return LinkedInErrors.error(400, 0, "VERSION_MISSING",
                    "A version must be present. Please specify a version by adding the LinkedIn-Version header.");
        }
        if (!version.matches("\\d{6}") || version.compareTo(OLDEST_ACTIVE_VERSION) < 0) {
            return LinkedInErrors.error(426, 0, "NONEXISTENT_VERSION", "Requested version " + version + " is not active");
        }
        return null;
    }
}
