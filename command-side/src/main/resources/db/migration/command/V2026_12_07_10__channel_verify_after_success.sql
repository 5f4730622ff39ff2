-- Whether a connection reads its posts again after success (herald.verification.delay later), to
-- see they are still there. Connections made before are left as they were: they do not verify.
ALTER TABLE channel_connection ADD COLUMN verify_after_success BOOLEAN NOT NULL DEFAULT FALSE;
