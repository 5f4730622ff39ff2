-- Whether the post of a publish or draft was read back as the connection's own when an operator
-- named it: false while the channel could not read it (the entry's updates and deletes then wait
-- for a confirmation that can be read), null otherwise (created by Herald, or confirmed before
-- decisions were checked).
ALTER TABLE entry_operation ADD COLUMN ref_verified BOOLEAN;
