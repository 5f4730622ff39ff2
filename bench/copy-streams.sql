-- Grows a store with copies of its stored publication streams, for bench/grown.sh and the rebuild test
-- on a grown store (deploy/src/test/java/io/herald/deploy/audit/RebuildAtScaleIT.java). Run this file in
-- the session that then calls
--
--   SELECT pg_temp.copy_publication_streams(<events the store should hold at least>);
--
-- which answers the number of copies written. Copy k of a stream: aggregate id `<id>-c<k>`, event
-- identifiers `<id>-c<k>`, calendar entry ids `c<k>-<entry>`, and every time k days earlier (the
-- row's time_stamp and each instant in the payload), so copies are the past, not the last 24 hours.
-- The copies get new global indexes, beyond every token: a tracking processor left where it is
-- handles them as new events. Only publication streams are copied (ids `pub_…`), each copy in store
-- order. The functions live in the session's temporary schema and go with it.

-- every stored instant of a payload ("…T…Z"), moved back by d
CREATE OR REPLACE FUNCTION pg_temp.shifted(t text, d interval) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE m text;
BEGIN
    FOR m IN SELECT DISTINCT (regexp_matches(t, '"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z)"', 'g'))[1] LOOP
        t := replace(t, '"' || m || '"',
                     '"' || to_char((m::timestamptz - d) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '"');
    END LOOP;
    RETURN t;
END $$;

CREATE OR REPLACE FUNCTION pg_temp.copy_publication_streams(target bigint) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
    have bigint;
    per_copy bigint;
    copies integer;
BEGIN
    SELECT count(*) INTO have FROM domain_event_entry;
    SELECT count(*) INTO per_copy FROM domain_event_entry WHERE aggregate_identifier LIKE 'pub\_%';
    IF per_copy = 0 THEN
        RETURN 0;
    END IF;
    copies := greatest(0, ceil((target - have)::numeric / per_copy))::integer;
    INSERT INTO domain_event_entry (aggregate_identifier, sequence_number, type, event_identifier, meta_data, payload,
        payload_revision, payload_type, time_stamp)
    SELECT e.aggregate_identifier || '-c' || k, e.sequence_number, e.type, e.event_identifier || '-c' || k, e.meta_data,
           convert_to(pg_temp.shifted(replace(replace(convert_from(e.payload, 'UTF8'), e.aggregate_identifier,
                      e.aggregate_identifier || '-c' || k), '"calendarEntryId":"', '"calendarEntryId":"c' || k || '-'),
                      k * interval '1 day'), 'UTF8'),
           e.payload_revision, e.payload_type,
           to_char((e.time_stamp::timestamptz - k * interval '1 day') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    FROM generate_series(1, copies) k, domain_event_entry e
    WHERE e.aggregate_identifier LIKE 'pub\_%'
    ORDER BY k, e.global_index;
    RETURN copies;
END $$;
