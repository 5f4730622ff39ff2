-- API versions in the channel view (docs/architecture.md#connection-health): the provider API version a connection
-- speaks, its sunset where known, and where it stands (CURRENT, EXPIRING, RETIRED, UNKNOWN).
ALTER TABLE channel_connection_view ADD COLUMN api_version VARCHAR(64);
ALTER TABLE channel_connection_view ADD COLUMN api_version_sunset_at TIMESTAMPTZ;
ALTER TABLE channel_connection_view ADD COLUMN api_version_state VARCHAR(16);
