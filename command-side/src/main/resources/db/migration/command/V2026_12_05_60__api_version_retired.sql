-- API versions (docs/architecture.md#connection-health): a row per connection whose provider answered that it no longer serves
-- the API version Herald sent. Read when an attempt is about to start, so every node configured
-- with that version holds instead of calling; deleted when another version is recorded.
CREATE TABLE channel_version_retired (
    workspace_id VARCHAR(128) NOT NULL,
    channel_id   VARCHAR(128) NOT NULL,
    version      VARCHAR(64)  NOT NULL,
    reason       TEXT         NOT NULL,
    retired_at   TIMESTAMPTZ  NOT NULL,
    PRIMARY KEY (workspace_id, channel_id)
);
