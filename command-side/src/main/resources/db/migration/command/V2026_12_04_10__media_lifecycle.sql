-- Which publications name which images (MediaUses): written with the publication's request, in
-- its transaction. Together with entry_operation's state it answers "is an image in use by a
-- publication that has not finished" (a DELETE is refused then) and "when was it last named" (the
-- retention sweep removes images no publication named for herald.media.retention). Removed with
-- the image.
CREATE TABLE media_use (
    workspace_id   VARCHAR(128) NOT NULL,
    media_id       VARCHAR(68)  NOT NULL,
    publication_id VARCHAR(255) NOT NULL,
    used_at        TIMESTAMPTZ  NOT NULL,
    PRIMARY KEY (workspace_id, media_id, publication_id)
);
CREATE INDEX media_use_publication_idx ON media_use (publication_id);

-- The bytes of images each workspace keeps, for herald.media.quota-bytes: the row is locked by the
-- conditional update that admits an upload, so two uploads at once cannot both pass the quota.
CREATE TABLE media_usage (
    workspace_id VARCHAR(128) NOT NULL PRIMARY KEY,
    stored_bytes BIGINT       NOT NULL
);

INSERT INTO media_usage (workspace_id, stored_bytes)
SELECT workspace_id, sum(byte_count) FROM media GROUP BY workspace_id;

-- The images of publications requested before this version, from their stored requests.
INSERT INTO media_use (workspace_id, media_id, publication_id, used_at)
SELECT DISTINCT ON (e.payload ->> 'workspaceId', m ->> 'mediaId', e.aggregate_identifier)
       e.payload ->> 'workspaceId', m ->> 'mediaId', e.aggregate_identifier,
       e.time_stamp::timestamptz
  FROM (SELECT aggregate_identifier, time_stamp, convert_from(payload, 'UTF8')::jsonb AS payload
          FROM domain_event_entry
         WHERE aggregate_identifier LIKE 'pub\_%' AND payload_type LIKE '%.PublicationRequestedEvent') e
  CROSS JOIN LATERAL jsonb_array_elements(
        CASE WHEN jsonb_typeof(e.payload -> 'content' -> 'media') = 'array'
             THEN e.payload -> 'content' -> 'media' ELSE '[]'::jsonb END) m
 WHERE e.payload ->> 'workspaceId' IS NOT NULL AND m ->> 'mediaId' IS NOT NULL;

-- The retention sweep looks for the oldest uploads first.
CREATE INDEX media_created_idx ON media (created_at);
