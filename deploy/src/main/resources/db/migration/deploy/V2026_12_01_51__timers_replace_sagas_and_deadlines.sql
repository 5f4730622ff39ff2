-- The publishing and reconciliation sagas and their db-scheduler deadlines are replaced by the
-- publication_timer rows, the dispatcher and the timer sweep. Work in flight under the old
-- machinery becomes timer rows here, derived from each publication's event stream (the state the
-- aggregate decides on), with the reconciliation saga's read count where one was open. Every row
-- is due now or at the time the old deadline had; the publication refuses whatever is moot.
-- Upgrade with every node stopped: a node of the old version must not append meanwhile.
WITH events AS (
    SELECT aggregate_identifier AS publication_id,
           sequence_number,
           substring(payload_type FROM '[^.]+$') AS type,
           convert_from(payload, 'UTF8')::jsonb AS payload
      FROM domain_event_entry
     WHERE aggregate_identifier LIKE 'pub\_%'
       AND payload_type NOT LIKE '%PublicationReadBackRequestedEvent'
),
latest AS (
    SELECT DISTINCT ON (publication_id) publication_id, type, payload
      FROM events
     ORDER BY publication_id, sequence_number DESC
),
attempts AS (
    SELECT publication_id, max((payload ->> 'attemptNo')::int) AS attempt_no
      FROM events
     WHERE type = 'PublicationAttemptedEvent'
     GROUP BY publication_id
),
reads AS (
    SELECT a.association_value AS publication_id,
           coalesce((convert_from(s.serialized_saga, 'UTF8')::jsonb ->> 'reads')::int, 0) AS reads
      FROM association_value_entry a
      JOIN saga_entry s ON s.saga_id = a.saga_id
     WHERE a.saga_type LIKE '%ReconciliationSaga' AND a.association_key = 'publicationId'
)
INSERT INTO publication_timer (publication_id, kind, attempt_no, trigger, read_no, due_at)
SELECT l.publication_id,
       CASE
           WHEN l.type = 'PublicationAttemptedEvent' THEN 'ATTEMPT_EXPIRY'
           WHEN l.type IN ('PublicationOutcomeUnknownEvent', 'PublicationReconciledEvent')
                AND coalesce(l.payload ->> 'result', 'UNKNOWN') = 'UNKNOWN' THEN 'READ_BACK_DUE'
           ELSE 'ATTEMPT_DUE'
       END,
       CASE
           WHEN l.type IN ('PublicationAttemptedEvent', 'PublicationOutcomeUnknownEvent')
                OR (l.type = 'PublicationReconciledEvent' AND l.payload ->> 'result' = 'UNKNOWN')
               THEN coalesce(t.attempt_no, 0)
           ELSE coalesce(t.attempt_no, 0) + 1
       END,
       CASE
           WHEN l.type = 'PublicationRequestedEvent' THEN 'INITIAL'
           WHEN l.type = 'PublicationFailedEvent' THEN 'RETRY'
           WHEN l.type = 'PublicationExecutionRequestedEvent' THEN l.payload ->> 'trigger'
           WHEN l.type = 'PublicationReconciledEvent' AND l.payload ->> 'result' = 'NOT_FOUND'
               THEN 'AUTO_REATTEMPT_AFTER_NOT_FOUND'
       END,
       CASE
           WHEN l.type IN ('PublicationOutcomeUnknownEvent', 'PublicationReconciledEvent')
                AND coalesce(l.payload ->> 'result', 'UNKNOWN') = 'UNKNOWN' THEN coalesce(r.reads, 0) + 1
           ELSE 0
       END,
       CASE
           WHEN l.type = 'PublicationAttemptedEvent' THEN (l.payload ->> 'expiresAt')::timestamptz
           WHEN l.type = 'PublicationFailedEvent' THEN (l.payload ->> 'retryAt')::timestamptz
           WHEN l.type = 'PublicationRequestedEvent' AND l.payload ->> 'scheduledAt' IS NOT NULL
               THEN greatest(now(), (l.payload ->> 'scheduledAt')::timestamptz)
           ELSE now()
       END
  FROM latest l
  LEFT JOIN attempts t ON t.publication_id = l.publication_id
  LEFT JOIN reads r ON r.publication_id = l.publication_id
 WHERE l.type IN ('PublicationRequestedEvent', 'PublicationAttemptedEvent', 'PublicationExecutionRequestedEvent')
    OR (l.type = 'PublicationFailedEvent' AND l.payload ->> 'retryAt' IS NOT NULL)
    OR l.type = 'PublicationOutcomeUnknownEvent'
    OR (l.type = 'PublicationReconciledEvent'
        AND (l.payload ->> 'result' = 'UNKNOWN'
             OR (l.payload ->> 'result' = 'NOT_FOUND' AND l.payload ->> 'source' = 'AUTOMATIC')));

-- the old deadlines (attempt expiry, attempt due, watchdog, read-back due) are all covered above
DELETE FROM scheduled_tasks WHERE task_name LIKE 'AxonDeadline%';

-- the sagas' processors are gone. The dispatcher starts at the head of the stream as it is now
-- (everything before is covered by the rows above), in two segments (herald.processing's
-- default); on a new database the head is the start.
DELETE FROM token_entry WHERE processor_name IN ('publishing-saga', 'reconciliation-saga');
INSERT INTO token_entry (processor_name, segment, token, token_type, "timestamp", owner)
SELECT 'publication-dispatcher', segment,
       CASE WHEN head IS NULL THEN NULL ELSE convert_to('{"index":' || head || ',"gaps":[]}', 'UTF8') END,
       CASE WHEN head IS NULL THEN NULL ELSE 'org.axonframework.eventhandling.GapAwareTrackingToken' END,
       to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), NULL
  FROM (SELECT max(global_index) AS head FROM domain_event_entry) store, generate_series(0, 1) AS segment;

DROP TABLE association_value_entry;
DROP TABLE saga_entry;
