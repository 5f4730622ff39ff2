package io.herald.contracts.publication;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;

/** One publication of a workspace; answers an empty {@code Optional} when it is not that workspace's. */
public record FindPublicationQuery(WorkspaceId workspaceId, PublicationId publicationId) {
}
