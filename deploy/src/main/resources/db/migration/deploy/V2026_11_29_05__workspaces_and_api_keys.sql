-- Tenants and their API keys. A key is stored only as the SHA-256 of the raw key: the raw key
-- holds 256 random bits, so a slow password hash would add cost to every request and no safety.
CREATE TABLE herald_workspace (
    workspace_id varchar(128) PRIMARY KEY,
    name         varchar(200) NOT NULL,
    created_at   timestamptz  NOT NULL
);

CREATE TABLE herald_api_key (
    key_id       varchar(64)  PRIMARY KEY,
    workspace_id varchar(128) NOT NULL REFERENCES herald_workspace (workspace_id),
    label        varchar(64)  NOT NULL,
    roles        varchar(200) NOT NULL,
    key_hash     bytea        NOT NULL,
    created_at   timestamptz  NOT NULL,
    created_by   varchar(200) NOT NULL,
    revoked_at   timestamptz
);

CREATE INDEX herald_api_key_workspace ON herald_api_key (workspace_id);
