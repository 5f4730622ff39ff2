package io.herald.query.stats;

import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;

/** The overview of a workspace's last hours, up to {@code now}. */
public record FindPublicationStatsQuery(WorkspaceId workspaceId, StatsWindow window, Instant now) {
}
