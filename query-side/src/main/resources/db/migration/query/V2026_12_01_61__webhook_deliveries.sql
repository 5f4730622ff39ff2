-- Webhook subscriptions as the query side sees them: which workspace's webhook wants which
-- event types. Kept by a handler in the publication view's processing group, so the outbox
-- rows of an event are decided in the same transaction as the view row of that event.
CREATE TABLE webhook_subscription_view (
    workspace_id VARCHAR(128) NOT NULL,
    webhook_id   VARCHAR(128) NOT NULL,
    events       TEXT[]       NOT NULL,
    enabled      BOOLEAN      NOT NULL,
    PRIMARY KEY (workspace_id, webhook_id)
);

-- The outbox: one row per (subscription, publication event), written in the transaction that
-- applies the event to the publication view; the body is the view as of that event. A row is
-- PENDING until a try is answered 2xx (DELIVERED) or it runs out of tries or is refused (FAILED).
-- A sender claims a row by moving next_try_at to the end of its lease and naming the lease:
-- a sender that dies leaves the row due again when the lease ends.
CREATE TABLE webhook_delivery (
    delivery_id      VARCHAR(64)  PRIMARY KEY,
    position         BIGSERIAL    NOT NULL UNIQUE,
    workspace_id     VARCHAR(128) NOT NULL,
    webhook_id       VARCHAR(128) NOT NULL,
    publication_id   VARCHAR(128) NOT NULL,
    event_sequence   BIGINT       NOT NULL,
    event_type       VARCHAR(64)  NOT NULL,
    body             TEXT         NOT NULL,
    status           VARCHAR(16)  NOT NULL,
    tries            INT          NOT NULL DEFAULT 0,
    next_try_at      TIMESTAMPTZ  NOT NULL,
    lease_token      VARCHAR(64),
    last_status_code INT,
    last_error       TEXT,
    created_at       TIMESTAMPTZ  NOT NULL,
    delivered_at     TIMESTAMPTZ
);
-- the senders' claim: due rows, oldest first
CREATE INDEX webhook_delivery_due_idx ON webhook_delivery (next_try_at) WHERE status = 'PENDING';
-- the order rule: an earlier pending delivery about the same publication holds back later ones
CREATE INDEX webhook_delivery_order_idx
    ON webhook_delivery (workspace_id, webhook_id, publication_id, event_sequence) WHERE status = 'PENDING';
-- the delivery log of one webhook, newest first
CREATE INDEX webhook_delivery_log_idx ON webhook_delivery (workspace_id, webhook_id, position);
