-- Uploaded images (docs/api.md, "Media"): one row per workspace and media id (med_ + the SHA-256 of the
-- bytes), the bytes in the row. The same bytes in two workspaces are two rows: each its own.
CREATE TABLE media (
    workspace_id VARCHAR(128) NOT NULL,
    media_id     VARCHAR(68)  NOT NULL,
    content_type VARCHAR(32)  NOT NULL,
    byte_count   BIGINT       NOT NULL,
    width        INTEGER      NOT NULL,
    height       INTEGER      NOT NULL,
    content      BYTEA        NOT NULL,
    created_at   TIMESTAMPTZ  NOT NULL,
    PRIMARY KEY (workspace_id, media_id)
);
