package io.herald.adapters.instagram;

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
 * Instagram professional accounts through the Graph API: a post is a container the provider builds
 * from the caption and the images it fetches from Herald's public address, then published
 * ({@link InstagramPublisher}); read-back through the container's status ({@link InstagramReads});
 * the limits a request must fit before it is accepted.
 */
public final class InstagramAdapter extends ProviderAdapter {

    private final InstagramTokens tokens;

    public InstagramAdapter(ProviderHttp http, String graphBaseUrl, Duration pollInterval) {
        this(new InstagramCalls(http, InstagramGraph.at(graphBaseUrl)), pollInterval);
    }

    private InstagramAdapter(InstagramCalls calls, Duration pollInterval) {
        this(calls, new InstagramReads(calls), pollInterval);
    }

    private InstagramAdapter(InstagramCalls calls, InstagramReads reads, Duration pollInterval) {
        super(InstagramPlugin.TYPE, new InstagramPublisher(calls, pollInterval).steps(),
                reads.feedReader(), reads);
        this.tokens = new InstagramTokens(calls);
    }

    InstagramTokens tokens() {
        return tokens;
    }

    @Override
    public Optional<String> unsupported(PublicationAction action) {
        return switch (action) {
            case PUBLISH -> Optional.empty();
            case DRAFT -> Optional.of("draft is not supported on instagram channels");
            case UPDATE -> Optional.of("update is not supported on instagram channels: a caption cannot be edited"
                    + " through the API");
            case DELETE -> Optional.of("delete is not supported on instagram channels: the API has no delete");
        };
    }

    /**
     * A caption of at most 2,200 characters and 30 hashtags, 1 to 10 images (JPEG, checked with the
     * stored type at intake), a first comment of the same length.
     */
    @Override
    public List<FieldViolation> validate(Content content, PublicationAction action) {
        List<FieldViolation> violations = new ArrayList<>(ContentLimits.publishOnly(action));
        if (action != PublicationAction.PUBLISH) {
            return violations;
        }
        String caption = InstagramCaption.of(content);
        if (caption.length() > InstagramCaption.MAX_CHARACTERS) {
            violations.add(new FieldViolation("content.body", "an instagram caption is at most "
                    + InstagramCaption.MAX_CHARACTERS + " characters (the link included); this one has "
                    + caption.length()));
        }
        if (InstagramCaption.hashtags(caption) > InstagramCaption.MAX_HASHTAGS) {
            violations.add(new FieldViolation("content.body", "an instagram caption has at most "
                    + InstagramCaption.MAX_HASHTAGS + " hashtags"));
        }
        if (content.media().isEmpty()) {
            violations.add(new FieldViolation("content.media", "an instagram post needs at least one image"));
        }
        violations.addAll(ContentLimits.images(content, InstagramCaption.MAX_IMAGES));
        String comment = content.firstComment();
        if (comment != null && comment.isBlank()) {
            violations.add(new FieldViolation("content.firstComment", "must not be blank; leave it out instead"));
        } else if (comment != null && comment.strip().length() > InstagramCaption.MAX_CHARACTERS) {
            violations.add(new FieldViolation("content.firstComment", "an instagram comment is at most "
                    + InstagramCaption.MAX_CHARACTERS + " characters"));
        }
        return violations;
    }
}
