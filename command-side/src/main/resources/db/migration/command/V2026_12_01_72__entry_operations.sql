-- The operations of one (workspace, calendar entry, channel) in the order they were accepted:
-- publish/draft create the entry's post, update/delete act on it, one at a time. Rows are written
-- in the transaction that appends the operation's event, so they commit or roll back with it.
-- seq comes from entry_line.next_seq under that row's lock, so seq order is commit order even
-- when two nodes accept operations of one entry at the same moment.
CREATE TABLE entry_line (
    workspace_id      VARCHAR(128) NOT NULL,
    calendar_entry_id VARCHAR(128) NOT NULL,
    channel_id        VARCHAR(128) NOT NULL,
    next_seq          BIGINT       NOT NULL,
    PRIMARY KEY (workspace_id, calendar_entry_id, channel_id)
);

CREATE TABLE entry_operation (
    publication_id    VARCHAR(255) NOT NULL PRIMARY KEY,
    workspace_id      VARCHAR(128) NOT NULL,
    calendar_entry_id VARCHAR(128) NOT NULL,
    channel_id        VARCHAR(128) NOT NULL,
    seq               BIGINT       NOT NULL,
    -- publish, draft, update or delete
    action            VARCHAR(16)  NOT NULL,
    content_version   BIGINT       NOT NULL,
    -- OPEN (not settled), DONE (succeeded), NOT_EXECUTED (failed for good, abandoned, superseded)
    state             VARCHAR(16)  NOT NULL,
    -- for DONE publish/draft: the post created; for update/delete: the post acted on
    ref_id            VARCHAR(512),
    ref_url           VARCHAR(2048)
);
CREATE UNIQUE INDEX entry_operation_line_idx ON entry_operation (workspace_id, calendar_entry_id, channel_id, seq);
