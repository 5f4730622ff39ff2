-- The hash chain of the audit export (docs/audit.md): one row per stored event, written by the
-- audit-chain processor as it follows the store, never by an append. Each workspace's events form
-- one chain; chain_order (store-wide, from 1) is the order the processor chained them in, which is
-- store order (an event whose transaction committed after later ones were chained comes where it
-- was chained). The export lists events in this order.
CREATE TABLE audit_chain (
    global_index BIGINT      PRIMARY KEY,
    chain_order  BIGINT      NOT NULL UNIQUE,
    workspace_id VARCHAR(100) NOT NULL,
    prev_hash    CHAR(64)    NOT NULL,
    hash         CHAR(64)    NOT NULL
);
-- a workspace's export pages through its chain in chain order
CREATE INDEX audit_chain_workspace_idx ON audit_chain (workspace_id, chain_order);

-- The head of each workspace's chain: what the next event's prevHash is.
CREATE TABLE audit_chain_head (
    workspace_id VARCHAR(100) PRIMARY KEY,
    global_index BIGINT       NOT NULL,
    chain_order  BIGINT       NOT NULL,
    hash         CHAR(64)     NOT NULL,
    events       BIGINT       NOT NULL
);

-- Signed chain heads, stored every minute for the workspaces whose chain grew. The signature is
-- Ed25519 over "workspaceId\nposition\nhash\nat" with a key kept outside the database.
CREATE TABLE audit_checkpoint (
    workspace_id VARCHAR(100) NOT NULL,
    global_index BIGINT       NOT NULL,
    chain_order  BIGINT       NOT NULL,
    hash         CHAR(64)     NOT NULL,
    signed_at    VARCHAR(40)  NOT NULL,
    key_id       VARCHAR(64)  NOT NULL,
    signature    TEXT         NOT NULL,
    PRIMARY KEY (workspace_id, chain_order)
);

-- The public halves of the keys that signed checkpoints, and when each signed first and last.
CREATE TABLE audit_signing_key (
    key_id       VARCHAR(64) PRIMARY KEY,
    public_key   TEXT        NOT NULL,
    first_used   TIMESTAMPTZ NOT NULL,
    last_used    TIMESTAMPTZ NOT NULL
);
