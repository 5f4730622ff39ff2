-- Channel connections as admins and operators see them. Holds no secret: the events it is built
-- from carry none.
CREATE TABLE channel_connection_view (
    workspace_id       VARCHAR(100)  NOT NULL,
    channel_id         VARCHAR(200)  NOT NULL,
    connection_id      VARCHAR(400)  NOT NULL UNIQUE,
    type               VARCHAR(30)   NOT NULL,
    settings           JSONB         NOT NULL,
    auto_reattempt     BOOLEAN       NOT NULL,
    -- a probe describes one version of the credentials; a newer version voids it
    credential_version BIGINT        NOT NULL,
    capabilities       JSONB,
    probed_at          TIMESTAMPTZ,
    updated_at         TIMESTAMPTZ   NOT NULL,
    last_sequence      BIGINT        NOT NULL,
    PRIMARY KEY (workspace_id, channel_id)
);
