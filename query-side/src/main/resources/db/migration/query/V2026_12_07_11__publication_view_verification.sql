-- What the verification after success found: when the post was last read again and found still
-- there, and when it was found gone (the publication stays SUCCEEDED and waits for a decision).
ALTER TABLE publication_view ADD COLUMN verified_at TIMESTAMP WITH TIME ZONE;
ALTER TABLE publication_view ADD COLUMN vanished_at TIMESTAMP WITH TIME ZONE;
-- Whether the connection reads its posts again after success.
ALTER TABLE channel_connection_view ADD COLUMN verify_after_success BOOLEAN NOT NULL DEFAULT FALSE;
