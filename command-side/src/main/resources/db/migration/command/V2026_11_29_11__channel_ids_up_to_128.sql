-- Channel ids follow the API's id rule (up to 128 characters); the first schema allowed 64.
ALTER TABLE channel_connection ALTER COLUMN channel_id TYPE VARCHAR(128);
ALTER TABLE channel_connection ALTER COLUMN workspace_id TYPE VARCHAR(128);
