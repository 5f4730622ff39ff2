package io.herald.query.counts;

import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.PublicationStatus;
import java.util.Map;

/**
 * A workspace's publication counts. Every status appears in {@code byStatus}, with 0 where none;
 * {@code byChannel} lists only the statuses a channel has.
 *
 * @param needsDecision how many wait in the decision queue
 */
public record PublicationCounts(
        WorkspaceId workspaceId,
        long total,
        long needsDecision,
        Map<PublicationStatus, Long> byStatus,
        Map<String, ChannelCounts> byChannel) {

    public record ChannelCounts(long total, long needsDecision, Map<PublicationStatus, Long> byStatus) {
    }
}
