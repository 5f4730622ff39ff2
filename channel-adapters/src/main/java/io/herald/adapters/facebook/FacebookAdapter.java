package io.herald.adapters.facebook;

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
 * Facebook Page posts through the Graph API: the write steps ({@link FacebookPublisher}), read-back
 * through the Page feed ({@link FacebookFeedReader}), the capability probe ({@link FacebookProbe}),
 * and the limits a request must fit before it is accepted.
 */
public final class FacebookAdapter implements ChannelAdapter {

    /** A post on Facebook has either a link or photos; the comment limit is Herald's (API.md). */
    static final int MAX_IMAGES = 10;
    static final int COMMENT_MAX = 1250;
    static final int MESSAGE_MAX = 63206;

    private final FacebookPublisher publisher;
    private final FacebookFeedReader feedReader;
    private final FacebookProbe probe;

    public FacebookAdapter(ProviderHttp http, String graphBaseUrl) {
        FacebookGraph graph = FacebookGraph.at(graphBaseUrl);
        FacebookPostEdits edits = new FacebookPostEdits(http, graph);
        this.publisher = new FacebookPublisher(http, graph, edits);
        this.feedReader = new FacebookFeedReader(http, graph, edits);
        this.probe = new FacebookProbe(http, graph);
    }

    @Override
    public ChannelType type() {
        return ChannelType.FACEBOOK;
    }

    @Override
    public List<FieldViolation> validate(Content content, PublicationAction action) {
        List<FieldViolation> violations = new ArrayList<>(ContentLimits.publishOnly(action));
        boolean hasBody = ContentLimits.hasBody(content);
        if (!hasBody && content.link() == null && !content.hasMedia()) {
            violations.add(new FieldViolation("content.body", "Facebook needs a message, a link or images"));
        }
        if (hasBody && content.body().length() > MESSAGE_MAX) {
            violations.add(new FieldViolation("content.body",
                    "Facebook messages are at most " + MESSAGE_MAX + " characters"));
        }
        violations.addAll(ContentLimits.social(content, "Facebook", MAX_IMAGES, COMMENT_MAX));
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
