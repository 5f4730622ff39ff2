-- The publications' due work, one row per publication at most: the expiry of the attempt in
-- flight, a scheduled or retried start, or the next read-back. Written and deleted in the same
-- transaction as the event that makes the work due or moot; due times come from the database
-- clock. A recurring sweep takes due rows (FOR UPDATE SKIP LOCKED) and sends the command; the
-- publication decides, so a row that fires twice or late changes nothing.
CREATE TABLE publication_timer (
    publication_id VARCHAR(255)             NOT NULL PRIMARY KEY,
    -- ATTEMPT_EXPIRY, ATTEMPT_DUE or READ_BACK_DUE
    kind           VARCHAR(32)              NOT NULL,
    -- the attempt the work is about: the one in flight, the one due, the one to read back
    attempt_no     INTEGER                  NOT NULL,
    -- for ATTEMPT_DUE: why the attempt starts (AttemptTrigger)
    trigger        VARCHAR(64),
    -- for READ_BACK_DUE: the number of the read that is due (1 after the settle delay)
    read_no        INTEGER                  NOT NULL DEFAULT 0,
    due_at         TIMESTAMP WITH TIME ZONE NOT NULL,
    -- claims since the row was last written: a row that keeps firing without effect is stuck
    fires          INTEGER                  NOT NULL DEFAULT 0
);
CREATE INDEX publication_timer_due_idx ON publication_timer (due_at);
