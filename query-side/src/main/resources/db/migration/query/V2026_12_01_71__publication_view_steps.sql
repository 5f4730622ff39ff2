-- The publication's steps (uploads, the post, the first comment) and the step a decision is about.
-- Rows written before have '[]': their single step is derived from the post when they are read.
ALTER TABLE publication_view ADD COLUMN steps jsonb NOT NULL DEFAULT '[]';
ALTER TABLE publication_view ADD COLUMN decision_step text;
