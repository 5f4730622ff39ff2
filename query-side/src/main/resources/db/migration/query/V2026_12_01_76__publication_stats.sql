-- The console's overview reads these two tables and never the publication rows: their size grows
-- with hours and channels, not with publications, so a page view costs the same however many exist.
-- Both are written with the publication view (same transaction), so they agree with it.

-- Per workspace and hour: how many publications reached each outcome (SUCCEEDED, FAILED,
-- OUTCOME_UNKNOWN, HELD) and how many decision cases opened and closed (CASE_OPENED, CASE_CLOSED).
CREATE TABLE publication_hour_stats (
    workspace_id  VARCHAR(100) NOT NULL,
    hour          TIMESTAMPTZ  NOT NULL,
    kind          VARCHAR(30)  NOT NULL,
    publications  BIGINT       NOT NULL,
    PRIMARY KEY (workspace_id, hour, kind)
);

-- Per workspace, channel and hour: the provider's answer times as a histogram on a log scale
-- (bucket b holds answers of at most 1.1^b milliseconds), so percentiles need no event scan.
CREATE TABLE answer_time_buckets (
    workspace_id  VARCHAR(100) NOT NULL,
    channel_id    VARCHAR(200) NOT NULL,
    hour          TIMESTAMPTZ  NOT NULL,
    bucket        INTEGER      NOT NULL,
    answers       BIGINT       NOT NULL,
    PRIMARY KEY (workspace_id, hour, channel_id, bucket)
);
