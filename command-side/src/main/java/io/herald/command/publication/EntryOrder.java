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

    /**
     * Intake: the post an update or delete accepted now would act on was named by an operator and
     * could not be read back as the connection's own (an unverified {@code confirm_published}).
     */
    boolean targetUnverified(WorkspaceId workspace, String calendarEntryId, ChannelId channel);

    /**
     * The publish or draft (other than {@code except}) whose post {@code ref} already is, in the
     * workspace: the same id at the same channel, or the same URL at any of its channels.
     */
    java.util.Optional<PublicationId> postHolder(WorkspaceId workspace, ChannelId channel, ProviderRef ref,
                                                 PublicationId except);

    /** What an update or delete may do now. */
    sealed interface Turn {
    }

    /** An operation accepted earlier has not settled; its settling wakes this one. */
    record Wait(PublicationId earlier) implements Turn {
    }

    /** Act on {@code target}, the post of the entry's latest succeeded publish or draft. */
    record Go(ProviderRef target) implements Turn {
    }

    /**
     * The entry's post was named by an operator and could not be read back: nothing is sent to it
     * until an operator confirms a readable reference, whose settling wakes this one.
     */
    record Unverified(PublicationId creator) implements Turn {
    }

    /** An update older than one already applied: it ends without a call. */
    record Superseded(long appliedVersion) implements Turn {
    }

    /** No post to act on: the publish never executed, or the post was deleted. */
    record NothingToChange(String reason) implements Turn {
    }
}
