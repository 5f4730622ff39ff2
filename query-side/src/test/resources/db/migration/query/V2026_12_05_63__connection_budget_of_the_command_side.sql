-- Tests of the read store alone: the command side's connection_budget table (its migration
-- V2026_12_05_62), which the channel listing reads for each connection's budget. The application
-- has the command side's own migration instead of this one.
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
