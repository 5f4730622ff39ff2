-- The audit export and verifier of one workspace read its events through an index on the
-- workspace instead of parsing every stored event's JSON. Every Herald event names its
-- workspace in its payload (Jackson JSON, UTF-8): the column is computed once per event, when it
-- is appended, and here for the events already stored (the ALTER rewrites the table once).

-- IMMUTABLE so a generated column may use it: convert_from depends only on the database's
-- encoding, which never changes for a database. A payload that is JSON but names no workspace
-- gets NULL. The column is computed on append, so it must never fail: PostgreSQL refuses the
-- JSON escape \u0000 (Jackson writes a NUL in any string that way, e.g. in a provider's error
-- text), so it is read as \u0020 here; the text keeps its structure (an escaped backslash before
-- "u0000" stays one) and a workspace id never holds either.
CREATE FUNCTION herald_event_workspace(payload BYTEA) RETURNS TEXT
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$ SELECT replace(convert_from(payload, 'UTF8'), '\u0000', '\u0020')::json ->> 'workspaceId' $$;

ALTER TABLE domain_event_entry
    ADD COLUMN workspace_id TEXT GENERATED ALWAYS AS (herald_event_workspace(payload)) STORED;

-- the export: a workspace's events in store order, resumed after a global index
CREATE INDEX domain_event_entry_workspace_position_idx ON domain_event_entry (workspace_id, global_index);
-- the verifier: a workspace's streams one after another, each in sequence order
CREATE INDEX domain_event_entry_workspace_stream_idx
    ON domain_event_entry (workspace_id, aggregate_identifier, sequence_number);
