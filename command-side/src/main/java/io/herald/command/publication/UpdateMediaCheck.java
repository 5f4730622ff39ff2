package io.herald.command.publication;

import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.error.FieldViolation;
import io.herald.contracts.error.HeraldRejection;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.ContentMedia;
import io.herald.contracts.publication.PublicationRequestedEvent;
import java.util.List;
import org.axonframework.eventsourcing.eventstore.DomainEventStream;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.springframework.stereotype.Component;

/**
 * Facebook and LinkedIn change only the text of a post (API.md): an update that names images must
 * name the published post's, in the same order with the same alt texts; one without images keeps them.
 */
@Component
class UpdateMediaCheck {

    private final EntryOrder entries;
    private final EventStore events;

    UpdateMediaCheck(EntryOrder entries, EventStore events) {
        this.entries = entries;
        this.events = events;
    }

    void check(WorkspaceId workspace, String calendarEntryId, ChannelId channel, ChannelType type,
               List<ContentMedia> requested, boolean mediaGiven) {
        if (!mediaGiven || type == ChannelType.WORDPRESS) {
            return;
        }
        // no post to change is answered as nothing_to_change by intake
        entries.postCreator(workspace, calendarEntryId, channel).ifPresent(creator -> {
            if (!publishedMedia(creator).equals(requested)) {
                throw HeraldRejection.invalid(List.of(new FieldViolation("content.media",
                        (type == ChannelType.FACEBOOK ? "Facebook" : "LinkedIn")
                        + " changes only the text of a post: name the published images unchanged, or leave media"
                        + " out to keep them")));
            }
        });
    }

    private List<ContentMedia> publishedMedia(PublicationId creator) {
        DomainEventStream stream = events.readEvents(creator.value());
        while (stream.hasNext()) {
            if (stream.next().getPayload() instanceof PublicationRequestedEvent requested) {
                return requested.content().media();
            }
        }
        return List.of();
    }
}
