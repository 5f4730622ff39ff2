package io.herald.query.audit;

/** A breach with the workspace of its publication, as the breach table keeps it. */
record LocatedBreach(String workspaceId, Breach breach) {
}
