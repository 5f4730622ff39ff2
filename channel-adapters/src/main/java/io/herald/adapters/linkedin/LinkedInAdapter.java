package io.herald.adapters.linkedin;

import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.port.CapabilityReport;
import io.herald.adapters.port.ChannelAdapter;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.CommentRequest;
import io.herald.adapters.port.ContentLimits;
import io.herald.adapters.port.PostChangeRequest;
import io.herald.adapters.port.PostReadRequest;
import io.herald.adapters.port.PostReading;
import io.herald.adapters.port.PublishOutcome;
import io.herald.adapters.port.PublishRequest;
import io.herald.adapters.port.ReadBackOutcome;
import io.herald.adapters.port.ReadBackRequest;
import io.herald.adapters.port.UploadRequest;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.error.FieldViolation;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.PublicationAction;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * LinkedIn through the versioned Posts API ({@code /rest/posts}): the write steps
 * ({@link LinkedInPublisher}), read-back through the author's posts ({@link LinkedInFeedReader}),
 * the capability probe ({@link LinkedInProbe}), and the limits a request must fit before it is accepted.
 */
public final class LinkedInAdapter implements ChannelAdapter {

    static final int COMMENTARY_MAX = 3000;
    /** One image or a multi-image post (Herald allows 10); the comment limit is Herald's (API.md). */
    static final int MAX_IMAGES = 10;
    static final int COMMENT_MAX = 1250;

    private final LinkedInPublisher publisher;
    private final LinkedInFeedReader feedReader;
    private final LinkedInProbe probe;

    public LinkedInAdapter(ProviderHttp http, String apiBaseUrl, String version) {
        LinkedInApi api = LinkedInApi.at(apiBaseUrl, version);
        LinkedInPostEdits edits = new LinkedInPostEdits(http, api);
        this.publisher = new LinkedInPublisher(http, api, edits);
        this.feedReader = new LinkedInFeedReader(http, api, edits);
        this.probe = new LinkedInProbe(http, api);
    }

    @Override
    public ChannelType type() {
        return ChannelType.LINKEDIN;
    }

    /** A link or images, not both; the post's text is required. */
    @Override
    public List<FieldViolation> validate(Content content, PublicationAction action) {
        List<FieldViolation> violations = new ArrayList<>(ContentLimits.publishOnly(action));
        if (!ContentLimits.hasBody(content)) {
            violations.add(new FieldViolation("content.body", "LinkedIn needs the post's text"));
        } else if (content.body().length() > COMMENTARY_MAX) {
            violations.add(new FieldViolation("content.body",
                    "LinkedIn commentary is at most " + COMMENTARY_MAX + " characters"));
        }
        violations.addAll(ContentLimits.social(content, "LinkedIn", MAX_IMAGES, COMMENT_MAX));
        return violations;
    }

    @Override
    public CompletableFuture<PublishOutcome> publish(PublishRequest request) {
        return publisher.publish(request);
    }

    @Override
    public CompletableFuture<PublishOutcome> uploadMedia(UploadRequest request) {
        return publisher.uploadMedia(request);
    }

    @Override
    public CompletableFuture<PublishOutcome> comment(CommentRequest request) {
        return publisher.comment(request);
    }

    @Override
    public CompletableFuture<PublishOutcome> edit(PostChangeRequest request) {
        return publisher.edit(request);
    }

    @Override
    public CompletableFuture<PublishOutcome> delete(PostChangeRequest request) {
        return publisher.delete(request);
    }

    @Override
    public CompletableFuture<ReadBackOutcome> readBack(ReadBackRequest request) {
        return feedReader.readBack(request);
    }

    @Override
    public CompletableFuture<PostReading> readPost(PostReadRequest request) {
        return feedReader.readPost(request);
    }

    @Override
    public CompletableFuture<CapabilityReport> probe(ChannelConnection connection) {
        return probe.probe(connection);
    }
}
