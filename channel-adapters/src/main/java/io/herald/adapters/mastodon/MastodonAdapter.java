package io.herald.adapters.mastodon;

import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.port.ContentLimits;
import io.herald.adapters.port.PostOwnership;
import io.herald.adapters.port.PostOwnershipRequest;
import io.herald.adapters.port.ProviderAdapter;
import io.herald.contracts.error.FieldViolation;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.PublicationAction;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Mastodon accounts through their instance's REST API: the write steps ({@link MastodonPublisher}),
 * read-back over the account's statuses and the probe ({@link MastodonReads}), and the limits a
 * request must fit before it is accepted.
 */
public final class MastodonAdapter extends ProviderAdapter {

    /** The default of {@code herald.channels.mastodon.media-processing-wait}. */
    public static final Duration MEDIA_PROCESSING_WAIT = Duration.ofSeconds(30);

    private final MastodonReads reads;

    /** An adapter that waits up to {@link #MEDIA_PROCESSING_WAIT} for an image being processed. */
    public MastodonAdapter(ProviderHttp http) {
        this(http, MEDIA_PROCESSING_WAIT);
    }

    /** {@code mediaProcessingWait}: how long an upload answered 202 is checked again before the step fails. */
    public MastodonAdapter(ProviderHttp http, Duration mediaProcessingWait) {
        this(new MastodonApi(http), mediaProcessingWait);
    }

    private MastodonAdapter(MastodonApi api, Duration mediaProcessingWait) {
        this(api, new MastodonReads(api), mediaProcessingWait);
    }

    private MastodonAdapter(MastodonApi api, MastodonReads reads, Duration mediaProcessingWait) {
        super(MastodonPlugin.TYPE, MastodonPublisher.steps(api, mediaProcessingWait), reads.feedReader(), reads);
        this.reads = reads;
    }

    @Override
    public CompletableFuture<PostOwnership> readOwnership(PostOwnershipRequest request) {
        return reads.readOwnership(request);
    }

    /**
     * A status of at most 500 characters counted the Mastodon way (a link as 23, a remote mention
     * without its domain), at most four images, a first comment of the same limit; no drafts.
     */
    @Override
    public List<FieldViolation> validate(Content content, PublicationAction action) {
        List<FieldViolation> violations = new ArrayList<>(ContentLimits.publishOnly(action));
        if (action == PublicationAction.DELETE) {
            return violations;
        }
        String text = MastodonText.of(content);
        if (text.isEmpty() && !content.hasMedia()) {
            violations.add(new FieldViolation("content.body", "a mastodon status needs a body, a link or images"));
        }
        checkText(violations, "content.body", text);
        violations.addAll(ContentLimits.images(content, MastodonText.MAX_IMAGES));
        String comment = content.firstComment();
        if (comment != null && comment.isBlank()) {
            violations.add(new FieldViolation("content.firstComment", "must not be blank; leave it out instead"));
        } else if (comment != null) {
            checkText(violations, "content.firstComment", comment.strip());
        }
        return violations;
    }

    private static void checkText(List<FieldViolation> violations, String field, String text) {
        int length = MastodonText.length(text);
        if (length > MastodonText.MAX_CHARACTERS) {
            violations.add(new FieldViolation(field, "a mastodon status is at most " + MastodonText.MAX_CHARACTERS
                    + " characters (a link counts as " + MastodonText.URL_CHARACTERS + "); this one has " + length));
        }
    }
}
