package io.herald.adapters.bluesky;

import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.ContentLimits;
import io.herald.adapters.port.ProviderAdapter;
import io.herald.contracts.error.FieldViolation;
import io.herald.contracts.error.HeraldRejection;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.PublicationAction;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Bluesky accounts through their PDS's XRPC API: the session ({@link BlueskySessions}), the write
 * steps ({@link BlueskyPublisher}), read-back by the record key Herald derives
 * ({@link BlueskyReads}), and the limits a request must fit before it is accepted.
 */
public final class BlueskyAdapter extends ProviderAdapter {

    private final BlueskySessions sessions;
    private final BlueskyConnectionCheck check;

    public BlueskyAdapter(ProviderHttp http) {
        this(http, new BlueskySessions(http));
    }

    private BlueskyAdapter(ProviderHttp http, BlueskySessions sessions) {
        this(http, sessions, new BlueskyReads(http, sessions));
    }

    private BlueskyAdapter(ProviderHttp http, BlueskySessions sessions, BlueskyReads reads) {
        super(BlueskyPlugin.TYPE, BlueskyPublisher.steps(http, sessions), reads.feedReader(), reads);
        this.sessions = sessions;
        this.check = new BlueskyConnectionCheck(http, sessions);
    }

    /** Whether the PDS resolves the handle and the app password makes a session (before a connection is stored). */
    CompletableFuture<Optional<HeraldRejection>> verify(ChannelConnection candidate) {
        return check.verify(candidate);
    }

    /** The sessions held, for tests that stand in for time passing. */
    BlueskySessions sessions() {
        return sessions;
    }

    /** A Bluesky post cannot be edited: {@code putRecord} over it is not shown as an edit by the app. */
    @Override
    public Optional<String> unsupported(PublicationAction action) {
        return action == PublicationAction.UPDATE
                ? Optional.of("update is not supported on bluesky channels: a Bluesky post cannot be edited")
                : Optional.empty();
    }

    /**
     * Text of at most 300 graphemes and 3,000 bytes (the link included, as it is posted), at most
     * four images, a reply of the same limits; no drafts.
     */
    @Override
    public List<FieldViolation> validate(Content content, PublicationAction action) {
        List<FieldViolation> violations = new ArrayList<>();
        violations.addAll(ContentLimits.publishOnly(action));
        if (action == PublicationAction.DELETE) {
            return violations;
        }
        String text = BlueskyPosts.text(content);
        if (text.isEmpty() && !content.hasMedia()) {
            violations.add(new FieldViolation("content.body", "a bluesky post needs a body, a link or images"));
        }
        checkText(violations, "content.body", text);
        violations.addAll(ContentLimits.images(content, BlueskyPosts.MAX_IMAGES));
        String comment = content.firstComment();
        if (comment != null && comment.isBlank()) {
            violations.add(new FieldViolation("content.firstComment", "must not be blank; leave it out instead"));
        } else if (comment != null) {
            checkText(violations, "content.firstComment", comment);
        }
        return violations;
    }

    private static void checkText(List<FieldViolation> violations, String field, String text) {
        int graphemes = BlueskyPosts.graphemes(text);
        if (graphemes > BlueskyPosts.MAX_GRAPHEMES) {
            violations.add(new FieldViolation(field, "a bluesky post is at most " + BlueskyPosts.MAX_GRAPHEMES
                    + " characters (graphemes); this one has " + graphemes));
        } else if (BlueskyPosts.bytes(text) > BlueskyPosts.MAX_BYTES) {
            violations.add(new FieldViolation(field, "a bluesky post is at most " + BlueskyPosts.MAX_BYTES
                    + " bytes in UTF-8"));
        }
    }
}
