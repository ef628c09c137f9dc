-- New markets are named up to 5,000 a statement, where it was 100 (migrations 0015 and 0021). A statement
-- that adds more markets than that announces one change naming none ('list' without m): every instance then
-- rebuilds its lists' orders from the database (lists come from SQL meanwhile, seconds at 360,000 markets),
-- the markets channel's streams reset (`bulk`, docs/api.md "Server-sent events: GET /v1/stream") and the
-- feed's pass numbers them under the numbering lock. An ingest batch (1,000 lines by default, docs/ingest.md)
-- that brings a venue's new markets, a few hundred at once, now names each: the instances read those markets
-- by key, and the streams say `created` for each. A bulk load (the seed, a large import) stays one
-- announcement: named, its NOTIFYs and the instances' reads would grow with it.
CREATE OR REPLACE FUNCTION notify_markets_added()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF (SELECT count(*) FROM (SELECT 1 FROM new_rows LIMIT 5001) x) <= 5000 THEN
    PERFORM announce(json_build_object('k', 'list', 's', r.slug, 'm', r.id, 'r', json_build_array(market_group(r)))) FROM new_rows r;
  ELSE
    PERFORM announce(json_build_object('k', 'list'));
  END IF;
  RETURN NULL;
END $function$;
