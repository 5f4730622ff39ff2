-- Connection health (docs/architecture.md, "Connection health"): a row per connection whose credentials a provider refused as
-- expired or revoked (NEEDS_REAUTH), deleted when a probe passes again. Read when an attempt is
-- about to start, so every node holds instead of calling. Written with the events, never by hand.
CREATE TABLE channel_auth_lost (
    workspace_id       VARCHAR(128) NOT NULL,
    channel_id         VARCHAR(128) NOT NULL,
    credential_version BIGINT       NOT NULL,
    reason             TEXT         NOT NULL,
    lost_at            TIMESTAMPTZ  NOT NULL,
    PRIMARY KEY (workspace_id, channel_id)
);

-- The HELD publications of each connection, resumed oldest first when it works again.
CREATE TABLE publication_held (
    publication_id VARCHAR(255) PRIMARY KEY,
    workspace_id   VARCHAR(128) NOT NULL,
    channel_id     VARCHAR(128) NOT NULL,
    requested_at   TIMESTAMPTZ,
    held_at        TIMESTAMPTZ  NOT NULL
);
CREATE INDEX publication_held_channel_idx ON publication_held (workspace_id, channel_id, requested_at);

-- Known token expiries (accessTokenExpiresAt), swept for the warning before they lapse.
CREATE TABLE channel_token_expiry (
    connection_id VARCHAR(400) PRIMARY KEY,
    expires_at    TIMESTAMPTZ  NOT NULL,
    warned        BOOLEAN      NOT NULL
);
CREATE INDEX channel_token_expiry_due_idx ON channel_token_expiry (expires_at) WHERE NOT warned;
