-- Webhook subscriptions (docs/api.md, "Webhooks"): the command side's record, with the signing
-- secrets encrypted (AES-GCM, the credential key). A deleted subscription keeps its row without
-- secrets, so secret versions only grow. After a rotation the previous secret signs too, until
-- previous_until. Never read by projections.
CREATE TABLE webhook_subscription (
    workspace_id        VARCHAR(128) NOT NULL,
    webhook_id          VARCHAR(128) NOT NULL,
    url                 TEXT         NOT NULL,
    events              TEXT[]       NOT NULL,
    enabled             BOOLEAN      NOT NULL,
    deleted             BOOLEAN      NOT NULL DEFAULT FALSE,
    secret_version      BIGINT       NOT NULL,
    secret_ciphertext   BYTEA,
    previous_version    BIGINT       NOT NULL DEFAULT 0,
    previous_ciphertext BYTEA,
    previous_until      TIMESTAMPTZ,
    created_at          TIMESTAMPTZ  NOT NULL,
    updated_at          TIMESTAMPTZ  NOT NULL,
    PRIMARY KEY (workspace_id, webhook_id)
);
