-- The attempts of a publish's steps beside its post (image uploads, the first comment), recorded
-- with their Attempted events: their results neither settle the entry's operation nor name its post.
-- A publish without images or comment never writes them, so its results cost no read.
ALTER TABLE entry_operation ADD COLUMN upload_attempts  INTEGER[] NOT NULL DEFAULT '{}';
ALTER TABLE entry_operation ADD COLUMN comment_attempts INTEGER[] NOT NULL DEFAULT '{}';
