package io.herald.adapters.port;

import io.herald.contracts.channel.ChannelType;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * A {@link ChannelAdapter} assembled from a provider's three parts: its {@link Publisher} (the
 * write steps), its {@link FeedReader} (read-back) and its {@link Probe}. A provider adds only its
 * limits ({@link #validate}).
 */
public abstract class ProviderAdapter implements ChannelAdapter {

    /** One write step; called only after the attempt was recorded. */
    @FunctionalInterface
    public interface Step<R> {
        CompletableFuture<PublishOutcome> call(R request);
    }

    /**
     * The write steps of a provider.
     *
     * @param uploadMedia null where the provider takes no images through Herald
     * @param comment     null where its posts take no first comment
     * @param prepare     null where the provider has no step that prepares the whole post (a container)
     */
    public record Publisher(Step<PublishRequest> publish, Step<UploadRequest> uploadMedia,
                            Step<CommentRequest> comment, Step<PostChangeRequest> edit,
                            Step<PostChangeRequest> delete, Step<PrepareRequest> prepare) {

        /** The write steps of a provider that prepares nothing once per post. */
        public Publisher(Step<PublishRequest> publish, Step<UploadRequest> uploadMedia, Step<CommentRequest> comment,
                         Step<PostChangeRequest> edit, Step<PostChangeRequest> delete) {
            this(publish, uploadMedia, comment, edit, delete, null);
        }
    }

    /** Read-back: what a past attempt left, and one post by its id. Safe to repeat. */
    public record FeedReader(Function<ReadBackRequest, CompletableFuture<ReadBackOutcome>> readBack,
                             Function<PostReadRequest, CompletableFuture<PostReading>> readPost) {
    }

    /** What a connection's credentials allow. */
    @FunctionalInterface
    public interface Probe {
        CompletableFuture<CapabilityReport> probe(ChannelConnection connection);
    }

    private final ChannelType type;
    private final Publisher publisher;
    private final FeedReader feedReader;
    private final Probe probe;

    protected ProviderAdapter(ChannelType type, Publisher publisher, FeedReader feedReader, Probe probe) {
        this.type = type;
        this.publisher = publisher;
        this.feedReader = feedReader;
        this.probe = probe;
    }

    @Override
    public final ChannelType type() {
        return type;
    }

    @Override
    public final CompletableFuture<PublishOutcome> publish(PublishRequest request) {
        return publisher.publish().call(request);
    }

    @Override
    public final CompletableFuture<PublishOutcome> uploadMedia(UploadRequest request) {
        return publisher.uploadMedia() == null ? ChannelAdapter.super.uploadMedia(request)
                : publisher.uploadMedia().call(request);
    }

    @Override
    public final CompletableFuture<PublishOutcome> prepare(PrepareRequest request) {
        return publisher.prepare() == null ? ChannelAdapter.super.prepare(request) : publisher.prepare().call(request);
    }

    @Override
    public final CompletableFuture<PublishOutcome> comment(CommentRequest request) {
        return publisher.comment() == null ? ChannelAdapter.super.comment(request) : publisher.comment().call(request);
    }

    @Override
    public final CompletableFuture<PublishOutcome> edit(PostChangeRequest request) {
        return publisher.edit().call(request);
    }

    @Override
    public final CompletableFuture<PublishOutcome> delete(PostChangeRequest request) {
        return publisher.delete().call(request);
    }

    @Override
    public final CompletableFuture<ReadBackOutcome> readBack(ReadBackRequest request) {
        return feedReader.readBack().apply(request);
    }

    @Override
    public final CompletableFuture<PostReading> readPost(PostReadRequest request) {
        return feedReader.readPost().apply(request);
    }

    @Override
    public final CompletableFuture<CapabilityReport> probe(ChannelConnection connection) {
        return probe.probe(connection);
    }
}
