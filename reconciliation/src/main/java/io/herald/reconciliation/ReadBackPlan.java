package io.herald.reconciliation;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;

/**
 * One read-back of one attempt. What to look for (channel, action, content, when the attempt
 * started) is read from the publication's own history when the read runs.
 *
 * @param readNo 1 for the first read after the unknown outcome, counting up
 */
public record ReadBackPlan(PublicationId publicationId, WorkspaceId workspaceId, int attemptNo, int readNo) {
}
