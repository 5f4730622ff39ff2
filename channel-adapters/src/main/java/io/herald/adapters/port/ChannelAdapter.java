package io.herald.adapters.port;

import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.error.FieldViolation;
import io.herald.contracts.publication.AttemptTrace;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.PublicationAction;
import java.util.List;
import java.util.Optional;
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

    /**
     * Whether the post an operator names is the connection's own: read with the connection's
     * credentials, so a decision cannot aim later updates and deletes at another's post. Safe to
     * repeat. A channel that cannot tell says {@link PostOwnership.Unreadable}.
     */
    default CompletableFuture<PostOwnership> readOwnership(PostOwnershipRequest request) {
        return CompletableFuture.completedFuture(new PostOwnership.Unreadable(
                type().wireName() + " channels cannot read a post back to check whose it is"));
    }

    /** What the connection's credentials allow: publishing, and reading back. */
    CompletableFuture<CapabilityReport> probe(ChannelConnection connection);

    /**
     * The provider's limits on a request, checked at intake so that a post that can never be
     * accepted is never attempted: the one place they live. Empty when the request fits.
     */
    default List<FieldViolation> validate(Content content, PublicationAction action) {
        return List.of();
    }

    /**
     * Why this channel type cannot do {@code action} at all (a Bluesky post cannot be edited), or
     * empty: intake refuses such a request with {@code action_not_supported} before any other check.
     */
    default Optional<String> unsupported(PublicationAction action) {
        return Optional.empty();
    }

    /** Uploads one image for a later post (repeatable). Call only after the attempt was recorded. */
    default CompletableFuture<PublishOutcome> uploadMedia(UploadRequest request) {
        return CompletableFuture.completedFuture(new PublishOutcome.Failed(FailureKind.REJECTED, "unsupported_step",
                type().wireName() + " channels take no images through Herald", null,
                AttemptTrace.nothingCameBack(null, null)));
    }

    /**
     * Prepares the post once for the whole post (a container), for a channel whose step before the
     * post is {@code PER_POST} (repeatable). Call only after the attempt was recorded.
     */
    default CompletableFuture<PublishOutcome> prepare(PrepareRequest request) {
        return CompletableFuture.completedFuture(new PublishOutcome.Failed(FailureKind.REJECTED, "unsupported_step",
                type().wireName() + " channels prepare no post before publishing it", null,
                AttemptTrace.nothingCameBack(null, null)));
    }

    /** Writes the first comment under the post (once only). Call only after the attempt was recorded. */
    default CompletableFuture<PublishOutcome> comment(CommentRequest request) {
        return CompletableFuture.completedFuture(new PublishOutcome.Failed(FailureKind.REJECTED, "unsupported_step",
                type().wireName() + " posts take no first comment through Herald", null,
                AttemptTrace.nothingCameBack(null, null)));
    }
}
