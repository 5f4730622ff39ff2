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

-- Publications requested before this version join their entry's line in the order they were
-- requested, with the state their stream shows, so an update of a post published earlier finds it.
WITH events AS (
    SELECT aggregate_identifier AS publication_id,
           sequence_number,
           global_index,
           substring(payload_type FROM '[^.]+$') AS type,
           convert_from(payload, 'UTF8')::jsonb AS payload
      FROM domain_event_entry
     WHERE aggregate_identifier LIKE 'pub\_%'
       AND payload_type NOT LIKE '%PublicationReadBackRequestedEvent'
),
-- every stored request names these; a payload without them is no request Herald wrote
requested AS (
    SELECT publication_id, global_index, payload FROM events
     WHERE type = 'PublicationRequestedEvent' AND payload ->> 'workspaceId' IS NOT NULL
       AND payload ->> 'calendarEntryId' IS NOT NULL AND payload ->> 'channelId' IS NOT NULL
       AND payload ->> 'action' IS NOT NULL AND payload ->> 'contentVersion' IS NOT NULL
),
-- success is final: the post of the last Succeeded event or FOUND reconciliation
found AS (
    SELECT DISTINCT ON (publication_id) publication_id, payload -> 'providerRef' AS ref
      FROM events
     WHERE type = 'PublicationSucceededEvent'
        OR (type = 'PublicationReconciledEvent' AND payload ->> 'result' = 'FOUND')
     ORDER BY publication_id, sequence_number DESC
),
latest AS (
    SELECT DISTINCT ON (publication_id) publication_id, type, payload
      FROM events
     WHERE type <> 'PublicationRequestedEvent'
     ORDER BY publication_id, sequence_number DESC
)
INSERT INTO entry_operation (publication_id, workspace_id, calendar_entry_id, channel_id, seq, action,
                             content_version, state, ref_id, ref_url)
SELECT r.publication_id,
       r.payload ->> 'workspaceId',
       r.payload ->> 'calendarEntryId',
       r.payload ->> 'channelId',
       row_number() OVER (PARTITION BY r.payload ->> 'workspaceId', r.payload ->> 'calendarEntryId',
                                       r.payload ->> 'channelId' ORDER BY r.global_index),
       r.payload ->> 'action',
       (r.payload ->> 'contentVersion')::bigint,
       CASE
           WHEN f.publication_id IS NOT NULL THEN 'DONE'
           WHEN l.type = 'PublicationAbandonedEvent'
                OR (l.type = 'PublicationFailedEvent' AND l.payload ->> 'retryAt' IS NULL)
                OR (l.type = 'PublicationReconciledEvent' AND l.payload ->> 'result' = 'NOT_FOUND')
               THEN 'NOT_EXECUTED'
           ELSE 'OPEN'
       END,
       f.ref ->> 'id',
       f.ref ->> 'url'
  FROM requested r
  LEFT JOIN found f ON f.publication_id = r.publication_id
  LEFT JOIN latest l ON l.publication_id = r.publication_id;

INSERT INTO entry_line (workspace_id, calendar_entry_id, channel_id, next_seq)
SELECT workspace_id, calendar_entry_id, channel_id, max(seq)
  FROM entry_operation
 GROUP BY workspace_id, calendar_entry_id, channel_id;
