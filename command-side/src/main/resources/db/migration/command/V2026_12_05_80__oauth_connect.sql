-- A connect through a provider's OAuth consent: the state handed to the provider (single use,
-- expiring, bound to workspace, channel, channel type and the admin key that started it), the PKCE
-- verifier and, after the exchange, the connections the admin may choose among (both encrypted).
CREATE TABLE oauth_connect_state (
    id                 VARCHAR(64)  PRIMARY KEY,
    workspace_id       VARCHAR(64)  NOT NULL,
    channel_id         VARCHAR(128) NOT NULL,
    channel_type       VARCHAR(64)  NOT NULL,
    actor              VARCHAR(400) NOT NULL,
    verifier_ciphertext BYTEA       NOT NULL,
    carried            JSONB        NOT NULL,
    stage              VARCHAR(16)  NOT NULL,
    choices_ciphertext BYTEA,
    created_at         TIMESTAMPTZ  NOT NULL,
    expires_at         TIMESTAMPTZ  NOT NULL
);
CREATE INDEX oauth_connect_state_expiry ON oauth_connect_state (expires_at);

-- Herald's app registration on servers that register apps per server (Mastodon instances), per
-- server and callback address; the client secret encrypted.
CREATE TABLE oauth_app_registration (
    server_url            VARCHAR(2100) NOT NULL,
    redirect_uri          VARCHAR(2100) NOT NULL,
    client_id             VARCHAR(500)  NOT NULL,
    client_secret_ciphertext BYTEA      NOT NULL,
    registered_at         TIMESTAMPTZ   NOT NULL,
    PRIMARY KEY (server_url, redirect_uri)
);
