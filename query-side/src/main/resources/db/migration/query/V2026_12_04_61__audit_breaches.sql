-- The rule verifier's findings, kept as the events arrive (the audit-verifier processor) and by a
-- full re-verification job, so that the auditor's verify call reads these rows, not the store.

-- One small row per publication stream: how far it was verified (a write that read less of the
-- stream does not replace one that read more), the attempt still open at its end with the rule 2
-- breach it becomes once overdue, the entry line an update or delete belongs to, and how many
-- breaches of its own it has.
CREATE TABLE audit_stream (
    publication_id VARCHAR(100) PRIMARY KEY,
    workspace_id   VARCHAR(100) NOT NULL,
    last_sequence  BIGINT       NOT NULL,
    open_sequence  BIGINT,
    open_overdue_at TIMESTAMPTZ,
    open_detail    TEXT,
    entry_line     TEXT,
    -- its rule 1-5 breaches in audit_breach: a stream without any needs no delete when verified again
    stream_breaches INTEGER     NOT NULL DEFAULT 0
);
CREATE INDEX audit_stream_open_idx ON audit_stream (workspace_id, open_overdue_at)
    WHERE open_overdue_at IS NOT NULL;
CREATE INDEX audit_stream_line_idx ON audit_stream (entry_line) WHERE entry_line IS NOT NULL;

-- The breaches: rules 1 to 5 per stream, 8 and 9 across an entry line's updates and deletes.
CREATE TABLE audit_breach (
    workspace_id   VARCHAR(100) NOT NULL,
    publication_id VARCHAR(100) NOT NULL,
    rule           INTEGER      NOT NULL,
    event_sequence BIGINT       NOT NULL,
    detail         TEXT         NOT NULL
);
CREATE UNIQUE INDEX audit_breach_key_idx ON audit_breach (publication_id, rule, event_sequence, md5(detail));
CREATE INDEX audit_breach_workspace_idx ON audit_breach (workspace_id, publication_id, event_sequence);

-- Full re-verifications from the first event, started by the system key and run in the background.
CREATE TABLE audit_verification_job (
    job_id       VARCHAR(64)  PRIMARY KEY,
    status       VARCHAR(16)  NOT NULL,
    events_done  BIGINT       NOT NULL DEFAULT 0,
    events_total BIGINT       NOT NULL DEFAULT 0,
    started_at   TIMESTAMPTZ  NOT NULL,
    finished_at  TIMESTAMPTZ,
    -- the last sign of life: a RUNNING job silent for long ran on a node that stopped
    updated_at   TIMESTAMPTZ  NOT NULL,
    failure      TEXT
);
