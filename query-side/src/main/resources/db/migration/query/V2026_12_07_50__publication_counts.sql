-- The console's counts and the channel listing's held publications read these few rows instead of
-- counting a workspace's publications: per workspace, channel and status, how many publications and
-- how many of them wait for a decision. The publication-view projection changes them in the same
-- transaction as the view rows (and empties them with the view before a rebuild). Each writer adds
-- to a slot of its own (one of 16), so two batches committing at once seldom wait for each other's
-- row; a reader sums the slots. A slot may hold a negative share: only the sum means anything.
CREATE TABLE publication_counts (
    workspace_id VARCHAR(100) NOT NULL,
    channel_id   VARCHAR(200) NOT NULL,
    status       VARCHAR(30)  NOT NULL,
    slot         SMALLINT     NOT NULL,
    publications BIGINT       NOT NULL,
    waiting      BIGINT       NOT NULL,
    PRIMARY KEY (workspace_id, channel_id, status, slot)
);

INSERT INTO publication_counts (workspace_id, channel_id, status, slot, publications, waiting)
SELECT workspace_id, channel_id, status, 0, count(*), count(*) FILTER (WHERE needs_decision)
FROM publication_view
GROUP BY workspace_id, channel_id, status;
