package io.herald.contracts.publication;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import org.axonframework.serialization.Revision;

/**
 * A failed attempt. With {@code retryAt} the publication waits for a retry (the request provably
 * did not execute); without it the failure is final and needs an operator.
 *
 * <p>After a post step's final failure, or one that names {@link #PREPARATION_EXPIRED}, what a
 * per-post step prepared (a container) is no longer used: a later try prepares the post again.
 */
@Revision("1")
public record PublicationFailedEvent(
        PublicationId publicationId,
        WorkspaceId workspaceId,
        int attemptNo,
        FailureKind kind,
        String errorCode,
        String detail,
        AttemptTrace trace,
        Instant retryAt,
        Instant failedAt) {

    /**
     * The error code of a post step's failure that found what a per-post step prepared gone (an
     * expired container): nothing was sent, and the publication forgets the reference, so that
     * its retry prepares the post again.
     */
    public static final String PREPARATION_EXPIRED = "preparation_expired";

    /** The post step found what was prepared for it gone: the next try prepares it again. */
    public boolean preparationExpired() {
        return PREPARATION_EXPIRED.equals(errorCode);
    }
}
