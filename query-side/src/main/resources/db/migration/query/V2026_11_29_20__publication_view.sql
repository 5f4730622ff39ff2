-- The publication list, detail and decision queue read this one table: one row per publication,
-- written only by the publication-view projection. Attempts and reconciliations are read whole
-- with their publication, so they live as jsonb arrays on the row instead of child tables.
CREATE TABLE publication_view (
    publication_id    VARCHAR(100)  PRIMARY KEY,
    workspace_id      VARCHAR(100)  NOT NULL,
    calendar_entry_id VARCHAR(500)  NOT NULL,
    content_version   BIGINT        NOT NULL,
    channel_id        VARCHAR(200)  NOT NULL,
    channel_type      VARCHAR(30)   NOT NULL,
    action            VARCHAR(30)   NOT NULL,
    status            VARCHAR(30)   NOT NULL,
    content_hash      VARCHAR(100)  NOT NULL,
    scheduled_at      TIMESTAMPTZ,
    requested_at      TIMESTAMPTZ   NOT NULL,
    updated_at        TIMESTAMPTZ   NOT NULL,
    provider_ref_id   TEXT,
    provider_ref_url  TEXT,
    needs_decision    BOOLEAN       NOT NULL DEFAULT FALSE,
    decision_reason   TEXT,
    attempts          JSONB         NOT NULL DEFAULT '[]'::jsonb,
    reconciliations   JSONB         NOT NULL DEFAULT '[]'::jsonb,
    -- the aggregate sequence number of the last event applied: redelivered events at or below it
    -- are ignored, which makes every update idempotent
    last_sequence     BIGINT        NOT NULL
);

-- list: newest first, cursor paging on (requested_at, publication_id), optional filters
CREATE INDEX publication_view_list_idx
    ON publication_view (workspace_id, requested_at DESC, publication_id DESC);
CREATE INDEX publication_view_status_idx
    ON publication_view (workspace_id, status, requested_at DESC, publication_id DESC);
CREATE INDEX publication_view_channel_idx
    ON publication_view (workspace_id, channel_id, requested_at DESC, publication_id DESC);
CREATE INDEX publication_view_entry_idx
    ON publication_view (workspace_id, calendar_entry_id);
-- the decision queue is small compared with the whole history: index only what waits
CREATE INDEX publication_view_decision_idx
    ON publication_view (workspace_id, requested_at, publication_id)
    WHERE needs_decision;
