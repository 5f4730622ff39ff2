-- A connection's settings are its channel plug-in's own record, tagged with the channel type
-- ("type": "facebook"); rows written before held every provider's fields, the others' null.
UPDATE channel_connection
SET settings = jsonb_strip_nulls(settings) || jsonb_build_object('type', channel_type)
WHERE NOT settings ? 'type';
