package io.herald.command.media;

import io.herald.command.publishing.TimerRows;
import io.herald.contracts.publication.ContentMedia;
import io.herald.contracts.publication.PublicationRequestedEvent;
import java.sql.Timestamp;
import java.util.List;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Records which images each publication names ({@code media_use}), in the transaction that appends
 * its request: it belongs to the subscribing processor of the timer rows, like the entry's line of
 * operations. Whether the publication has finished is that line's state ({@code entry_operation}),
 * so nothing here changes when it ends: an image is in use while a publication naming it is OPEN
 * there, and its last use is the latest request naming it. Both are this module's own tables, so
 * deleting an image and sweeping old ones need nothing of the query side.
 *
 * <p>An image deleted (or swept) in the moment between a request's check that it exists and the
 * commit of that request leaves a publication naming a missing image: its upload step then fails
 * with {@code unknown_media} and sends nothing.
 */
@Component
@ProcessingGroup(TimerRows.PROCESSING_GROUP)
class MediaUses {

    private final JdbcTemplate jdbc;

    MediaUses(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** A request without images (most of them) costs no statement. */
    @EventHandler
    void on(PublicationRequestedEvent event) {
        List<ContentMedia> images = event.content() == null || event.content().media() == null ? List.of()
                : event.content().media();
        if (images.isEmpty()) {
            return;
        }
        Timestamp at = Timestamp.from(event.requestedAt());
        jdbc.batchUpdate("INSERT INTO media_use (workspace_id, media_id, publication_id, used_at) VALUES (?, ?, ?, ?)"
                        + " ON CONFLICT (workspace_id, media_id, publication_id) DO NOTHING",
                images.stream().map(image -> new Object[] {event.workspaceId().value(), image.mediaId().value(),
                        event.publicationId().value(), at}).toList());
    }
}
