package io.herald.command.publication;

import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.ProviderRef;

/**
 * Whose turn it is among the operations of one (workspace, calendar entry, channel): the
 * publication asks, as a parameter of its command handler, before an update or delete starts.
 * The answer comes from rows written in the same transactions as the operations' events.
 */
public interface EntryOrder {

    Turn turnOf(PublicationId publicationId);

    /** Intake: would an update or delete accepted now have a post to act on (now, or once a publish settles)? */
    boolean hasPostToChange(WorkspaceId workspace, String calendarEntryId, ChannelId channel);

    /** Whether the operation was accepted already (a replay of its request is answered as such). */
    boolean isInLine(PublicationId publicationId);

    /** The publish or draft whose post an update of the entry at that channel would change, if any. */
    java.util.Optional<PublicationId> postCreator(WorkspaceId workspace, String calendarEntryId, ChannelId channel);

    /** What an update or delete may do now. */
    sealed interface Turn {
    }

    /** An operation accepted earlier has not settled; its settling wakes this one. */
    record Wait(PublicationId earlier) implements Turn {
    }

    /** Act on {@code target}, the post of the entry's latest succeeded publish or draft. */
    record Go(ProviderRef target) implements Turn {
    }

    /** An update older than one already applied: it ends without a call. */
    record Superseded(long appliedVersion) implements Turn {
    }

    /** No post to act on: the publish never executed, or the post was deleted. */
    record NothingToChange(String reason) implements Turn {
    }
}
