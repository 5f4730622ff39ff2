-- A workspace's secret for signed request bodies, encrypted with the credential key (AES-GCM,
-- bound to the workspace id), and the signatures already accepted while they are still inside
-- the tolerance window: shared by every node, so a replay to another node is refused too.
CREATE TABLE herald_signing_secret (
    workspace_id      varchar(128) PRIMARY KEY REFERENCES herald_workspace (workspace_id),
    secret_ciphertext bytea        NOT NULL,
    updated_at        timestamptz  NOT NULL
);

CREATE TABLE herald_seen_signature (
    workspace_id varchar(128) NOT NULL,
    signature    varchar(64)  NOT NULL,
    expires_at   timestamptz  NOT NULL,
    PRIMARY KEY (workspace_id, signature)
);

CREATE INDEX herald_seen_signature_expiry ON herald_seen_signature (expires_at);
