package io.herald.adapters.wordpress;

import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.http.Texts;
import io.herald.adapters.port.CapabilityReport;
import io.herald.adapters.port.ChannelAdapter;
import io.herald.adapters.port.ChannelConnection;
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
 * WordPress through its REST API with an Application Password ({@link WordPressRest}): the write
 * steps ({@link WordPressPublisher}), read-back by the publication id in the post's meta
 * {@value #META_KEY} ({@link WordPressFeedReader}), the capability probe ({@link WordPressProbe}),
 * and the limits a request must fit before it is accepted.
 */
public final class WordPressAdapter implements ChannelAdapter {

    /** The post meta the Herald mu-plugin keeps, exposes and lets a client filter by. */
    public static final String META_KEY = "herald_publication_id";
    static final int MAX_IMAGES = 10;

    private final WordPressPublisher publisher;
    private final WordPressFeedReader feedReader;
    private final WordPressProbe probe;

    public WordPressAdapter(ProviderHttp http) {
        WordPressPostEdits edits = new WordPressPostEdits(http);
        this.publisher = new WordPressPublisher(http, edits);
        this.feedReader = new WordPressFeedReader(http, edits);
        this.probe = new WordPressProbe(http);
    }

    @Override
    public ChannelType type() {
        return ChannelType.WORDPRESS;
    }

    /** Images become the featured image and figures in the content; WordPress posts take no first comment. */
    @Override
    public List<FieldViolation> validate(Content content, PublicationAction action) {
        List<FieldViolation> violations = new ArrayList<>();
        if (!ContentLimits.hasBody(content) && Texts.blank(content.title())) {
            violations.add(new FieldViolation("content", "WordPress needs a title or a body"));
        }
        violations.addAll(ContentLimits.images(content, MAX_IMAGES));
        if (content.firstComment() != null) {
            violations.add(new FieldViolation("content.firstComment",
                    "a first comment is only posted on Facebook and LinkedIn"));
        }
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
