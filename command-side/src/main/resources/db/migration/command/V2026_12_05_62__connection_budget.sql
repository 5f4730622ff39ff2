-- Pacing (docs/architecture.md#connection-health): each connection's budget, one row per window of its
-- channel's documented quotas (e.g. LinkedIn's day), shared by every node: an attempt starts only
-- when every window has room, and is counted in the same transaction as its write-ahead event.
-- The row named 'provider' carries the time a provider's rate-limit answer asked Herald to wait.
CREATE TABLE connection_budget (
    workspace_id   VARCHAR(128) NOT NULL,
    channel_id     VARCHAR(128) NOT NULL,
    window_name    VARCHAR(32)  NOT NULL,
    window_start   TIMESTAMPTZ,
    window_seconds BIGINT,
    capacity       INTEGER,
    used           INTEGER      NOT NULL DEFAULT 0,
    blocked_until  TIMESTAMPTZ,
    source         VARCHAR(32)  NOT NULL,
    PRIMARY KEY (workspace_id, channel_id, window_name)
);
