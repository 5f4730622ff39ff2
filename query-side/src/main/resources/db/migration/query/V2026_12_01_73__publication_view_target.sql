-- For update and delete: the post acted on (the providerRef of the entry's latest succeeded publish).
ALTER TABLE publication_view ADD COLUMN target_ref_id TEXT;
ALTER TABLE publication_view ADD COLUMN target_ref_url TEXT;
