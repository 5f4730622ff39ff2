-- Channel types are stored by their wire names ("facebook"), as the API and events spell them; rows
-- written before held the enum constant's name ("FACEBOOK"). A connection's settings are its channel
-- plug-in's own record, tagged with the type; rows written before held every provider's fields.
UPDATE publication_view SET channel_type = lower(channel_type) WHERE channel_type <> lower(channel_type);
UPDATE channel_connection_view
SET type     = lower(type),
    settings = jsonb_strip_nulls(settings) || jsonb_build_object('type', lower(type))
WHERE type <> lower(type) OR NOT settings ? 'type';
