package io.herald.adapters.port;

import io.herald.contracts.channel.ChannelType;
import java.util.concurrent.CompletableFuture;

/**
 * The one interface the attempt calls and read-backs use to talk to a provider. Every method is non-blocking: a slow
 * provider holds an HTTP exchange, never a processor thread. The futures never complete
 * exceptionally for provider behaviour: every answer, or its absence, is classified.
 */
public interface ChannelAdapter {

    ChannelType type();

    /** Creates the post. Call only after the attempt was recorded (write-ahead). */
    CompletableFuture<PublishOutcome> publish(PublishRequest request);

    /** Looks at the provider for what a past attempt left behind. Safe to repeat. */
    CompletableFuture<ReadBackOutcome> readBack(ReadBackRequest request);

    /** Changes the text of the entry's post (update). Call only after the attempt was recorded. */
    CompletableFuture<PublishOutcome> edit(PostChangeRequest request);

    /** Removes the entry's post; the provider's "does not exist" counts as done. Call only after the attempt was recorded. */
    CompletableFuture<PublishOutcome> delete(PostChangeRequest request);

    /** Reads one post by its id: the read-back of an update or delete. Safe to repeat. */
    CompletableFuture<PostReading> readPost(PostReadRequest request);

    /** What the connection's credentials allow: publishing, and reading back. */
    CompletableFuture<CapabilityReport> probe(ChannelConnection connection);
}
