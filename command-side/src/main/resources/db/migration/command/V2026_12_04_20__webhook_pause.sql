-- An endpoint that stopped answering is paused instead of holding the senders' slots: after
-- herald.webhooks.pause-after-timeouts tries in a row that timed out or could not connect, its
-- deliveries stay PENDING and are not claimed until an admin resumes it (or PUTs it again).
-- unreachable_tries counts those tries in a row; any answer sets it back to 0.
ALTER TABLE webhook_subscription
    ADD COLUMN unreachable_tries INT NOT NULL DEFAULT 0,
    ADD COLUMN paused_at         TIMESTAMPTZ,
    ADD COLUMN paused_reason     TEXT;
-- the senders read the paused endpoints on every poll
CREATE INDEX webhook_subscription_paused_idx ON webhook_subscription (workspace_id, webhook_id)
    WHERE paused_at IS NOT NULL AND NOT deleted;
