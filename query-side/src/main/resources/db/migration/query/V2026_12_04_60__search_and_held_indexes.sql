-- Finding a case by the start of its calendar entry: a prefix is a range of the entry column in
-- byte order, which only a pattern-ops index serves (the database's collation orders otherwise);
-- it serves the exact entry filter as well, so it replaces the plain entry index.
DROP INDEX IF EXISTS publication_view_entry_idx;
CREATE INDEX publication_view_entry_prefix_idx
    ON publication_view (workspace_id, calendar_entry_id text_pattern_ops);

-- The channel listing counts each connection's HELD publications: only those rows are indexed,
-- so the count reads a connection's held rows, never its whole history.
CREATE INDEX publication_view_held_idx
    ON publication_view (workspace_id, channel_id)
    WHERE status = 'HELD';
