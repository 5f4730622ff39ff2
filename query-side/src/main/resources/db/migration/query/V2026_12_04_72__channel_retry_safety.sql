-- How an unknown create on a connection can be settled (client_id, provider_key, read_back, none),
-- as its latest probe found. Connections probed before: every channel then could only read back, so
-- it follows from the read-back capability they show.
ALTER TABLE channel_connection_view ADD COLUMN retry_safety VARCHAR(16);
UPDATE channel_connection_view
SET retry_safety = CASE WHEN (capabilities -> 'reconcile' ->> 'available')::boolean THEN 'read_back' ELSE 'none' END
WHERE capabilities IS NOT NULL;
