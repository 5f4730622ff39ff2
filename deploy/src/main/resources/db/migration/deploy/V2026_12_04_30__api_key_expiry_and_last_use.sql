-- An API key may expire (set when it is created), and its last use is kept, written at most once a
-- minute per key so that a request does not cost a write. Both are listed with the workspace's keys.
ALTER TABLE herald_api_key ADD COLUMN expires_at   timestamptz;
ALTER TABLE herald_api_key ADD COLUMN last_used_at timestamptz;
