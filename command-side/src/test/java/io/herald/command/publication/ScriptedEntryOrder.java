package io.herald.command.publication;

import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;

/** An entry order that answers what a test set; publishes and drafts never ask it. */
final class ScriptedEntryOrder implements EntryOrder {

    private Turn turn = new NothingToChange("no turn was scripted");
    int asked;

    ScriptedEntryOrder answer(Turn next) {
        this.turn = next;
        return this;
    }

    @Override
    public Turn turnOf(PublicationId publicationId) {
        asked++;
        return turn;
    }

    @Override
    public boolean hasPostToChange(WorkspaceId workspace, String calendarEntryId, ChannelId channel) {
        return true;
    }

    @Override
    public java.util.Optional<PublicationId> postCreator(WorkspaceId workspace, String calendarEntryId,
                                                         ChannelId channel) {
        return java.util.Optional.empty();
    }

    @Override
    public boolean targetUnverified(WorkspaceId workspace, String calendarEntryId, ChannelId channel) {
        return false;
    }

    @Override
    public java.util.Optional<PublicationId> postHolder(WorkspaceId workspace, ChannelId channel,
                                                        io.herald.contracts.publication.ProviderRef ref,
                                                        PublicationId except) {
        return java.util.Optional.empty();
    }

    @Override
    public boolean isInLine(PublicationId publicationId) {
        return false;
    }
}
