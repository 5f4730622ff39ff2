-- The command side's own record of channel connections: what the intake checks a publication's
-- channel against, and where credentials live, encrypted (AES-GCM). Never read by projections.
CREATE TABLE channel_connection (
    workspace_id       VARCHAR(64)  NOT NULL,
    channel_id         VARCHAR(64)  NOT NULL,
    channel_type       VARCHAR(16)  NOT NULL,
    settings           JSONB        NOT NULL,
    credential_version BIGINT       NOT NULL,
    secrets_ciphertext BYTEA        NOT NULL,
    auto_reattempt     BOOLEAN      NOT NULL DEFAULT FALSE,
    updated_at         TIMESTAMPTZ  NOT NULL,
    PRIMARY KEY (workspace_id, channel_id)
);
