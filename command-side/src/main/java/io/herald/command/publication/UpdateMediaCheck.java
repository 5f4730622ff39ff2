package io.herald.command.publication;

import io.herald.adapters.port.ChannelPlugins;
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
 * An update that names images, checked against the images of the post it changes by the channel's
 * plug-in (some providers change only a post's text). One without images keeps them.
 */
@Component
class UpdateMediaCheck {

    private final EntryOrder entries;
    private final EventStore events;
    private final ChannelPlugins plugins;

    UpdateMediaCheck(EntryOrder entries, EventStore events, ChannelPlugins plugins) {
        this.entries = entries;
        this.events = events;
        this.plugins = plugins;
    }

    void check(WorkspaceId workspace, String calendarEntryId, ChannelId channel, ChannelType type,
               List<ContentMedia> requested, boolean mediaGiven) {
        if (!mediaGiven) {
            return;
        }
        List<FieldViolation> problems = plugins.plugin(type).checkUpdateMedia(
                () -> entries.postCreator(workspace, calendarEntryId, channel).map(this::publishedMedia), requested);
        if (!problems.isEmpty()) {
            throw HeraldRejection.invalid(problems);
        }
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
