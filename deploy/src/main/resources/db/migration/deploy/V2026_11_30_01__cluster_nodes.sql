-- The nodes of a cluster announce themselves here every few seconds, so that a node that holds no
-- event processor segment yet still counts when the others work out their fair share.
-- seen_at is always the database's clock, never a node's.
CREATE TABLE herald_node (
    node_id VARCHAR(255) NOT NULL PRIMARY KEY,
    seen_at TIMESTAMPTZ  NOT NULL
);
