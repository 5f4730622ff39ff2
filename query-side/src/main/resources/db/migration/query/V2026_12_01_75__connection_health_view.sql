-- Connection health in the views (docs/api.md, "Channel connections"): why a HELD publication waits, and each connection's
-- status, its reason, its token's known expiry and how many of its publications are HELD.
ALTER TABLE publication_view ADD COLUMN held_reason TEXT;

ALTER TABLE channel_connection_view ADD COLUMN status VARCHAR(16) NOT NULL DEFAULT 'ACTIVE';
ALTER TABLE channel_connection_view ADD COLUMN status_reason TEXT;
ALTER TABLE channel_connection_view ADD COLUMN token_expires_at TIMESTAMPTZ;
