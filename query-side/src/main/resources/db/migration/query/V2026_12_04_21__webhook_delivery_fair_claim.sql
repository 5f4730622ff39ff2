-- The senders claim due deliveries a workspace at a time in turn (one of each workspace's, then a
-- second of each, ...), so one workspace's backlog never stands before another's delivery: they
-- walk the workspaces that have due rows and, in each, its due rows oldest first. This index
-- serves both; the one on next_try_at alone served the old claim, oldest first over everyone.
CREATE INDEX webhook_delivery_due_per_workspace_idx
    ON webhook_delivery (workspace_id, next_try_at, position) WHERE status = 'PENDING';
DROP INDEX webhook_delivery_due_idx;
