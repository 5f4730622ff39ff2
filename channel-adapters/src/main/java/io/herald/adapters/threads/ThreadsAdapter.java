package io.herald.adapters.threads;

import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.port.ContentLimits;
import io.herald.adapters.port.ProviderAdapter;
import io.herald.contracts.error.FieldViolation;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.PublicationAction;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Threads profiles through the Threads API: the container steps and the reply and delete
 * ({@link ThreadsPublisher}), read-back through the container's status and the profile's threads,
 * and the probe ({@link ThreadsReads}), and the limits a request must fit before it is accepted.
 */
public final class ThreadsAdapter extends ProviderAdapter {

    private final ThreadsTokens tokens;

    /** A container still in progress is asked again after a second. */
    public ThreadsAdapter(ProviderHttp http, String baseUrl, Duration containerWait) {
        this(http, baseUrl, containerWait, Duration.ofSeconds(1));
    }

    /**
     * {@code containerWait}: how long a carousel item or a reply container is waited for within its
     * step; {@code containerPollInterval}: when a post's container still in progress is asked again.
     */
    public ThreadsAdapter(ProviderHttp http, String baseUrl, Duration containerWait, Duration containerPollInterval) {
        this(new ThreadsApi(http, baseUrl), containerWait, containerPollInterval);
    }

    private ThreadsAdapter(ThreadsApi api, Duration containerWait, Duration containerPollInterval) {
        this(api, new ThreadsPublisher(api, containerWait, containerPollInterval));
    }

    private ThreadsAdapter(ThreadsApi api, ThreadsPublisher publisher) {
        this(api, publisher, new ThreadsReads(api, publisher));
    }

    private ThreadsAdapter(ThreadsApi api, ThreadsPublisher publisher, ThreadsReads reads) {
        super(ThreadsPlugin.TYPE, publisher.steps(), reads.feedReader(), reads);
        this.tokens = new ThreadsTokens(api);
    }

    /** How the connections' long-lived tokens are renewed. */
    ThreadsTokens tokens() {
        return tokens;
    }

    /** Threads posts cannot be edited through the API, and there are no drafts. */
    @Override
    public Optional<String> unsupported(PublicationAction action) {
        return switch (action) {
            case UPDATE -> Optional.of("update is not supported on threads channels: Threads posts cannot be edited"
                    + " through its API (delete and publish again)");
            case DRAFT -> Optional.of("draft is not supported on threads channels");
            default -> Optional.empty();
        };
    }

    /**
     * A text of at most 500 characters (the body, and the link after it), at most 20 images (a
     * carousel from 2), a first comment (a reply) of the same limit.
     */
    @Override
    public List<FieldViolation> validate(Content content, PublicationAction action) {
        List<FieldViolation> violations = new ArrayList<>(ContentLimits.publishOnly(action));
        if (action == PublicationAction.DELETE) {
            return violations;
        }
        String text = ThreadsApi.text(content);
        if (text.isEmpty() && !content.hasMedia()) {
            violations.add(new FieldViolation("content.body", "a threads post needs a body, a link or images"));
        }
        checkText(violations, "content.body", text);
        if (content.media().size() > ThreadsApi.MAX_CAROUSEL) {
            violations.add(new FieldViolation("content.media", "a threads post has at most " + ThreadsApi.MAX_CAROUSEL
                    + " images (a carousel); this one has " + content.media().size()));
        }
        String comment = content.firstComment();
        if (comment != null && comment.isBlank()) {
            violations.add(new FieldViolation("content.firstComment", "must not be blank; leave it out instead"));
        } else if (comment != null) {
            checkText(violations, "content.firstComment", comment.strip());
        }
        return violations;
    }

    private static void checkText(List<FieldViolation> violations, String field, String text) {
        int length = ThreadsApi.length(text);
        if (length > ThreadsApi.MAX_TEXT) {
            violations.add(new FieldViolation(field, "a threads post is at most " + ThreadsApi.MAX_TEXT
                    + " characters; this one has " + length));
        }
    }
}
