-- The outcomes' announcements read their market by key again. Migration 0029 turned nested loops off for
-- the whole of notify_outcome_changes, so that it joins a statement's old and new rows by hash; but its join
-- to markets then became a hash join too, over a scan of every market: 350–950 ms a statement at 360,000
-- markets, the ingest's heaviest (docs/performance.md "Ingest"). Each market is now read in a LATERAL
-- subquery with LIMIT 1, which PostgreSQL cannot flatten into a join: a probe of markets_pkey per market,
-- while the old and new rows are still joined by hash.
CREATE OR REPLACE FUNCTION notify_outcome_changes()
 RETURNS trigger
 LANGUAGE plpgsql
 -- 0029's setting, which CREATE OR REPLACE would otherwise drop: the old and new rows joined by hash.
 SET enable_nestloop = off
AS $function$
BEGIN
  PERFORM announce(json_build_object('k', 'price', 's', m.slug, 'm', m.id, 'o', x.id, 'r', json_build_array(market_group(m))))
    FROM (SELECT DISTINCT n.id, n.market_id FROM new_rows n JOIN old_rows o ON o.id = n.id
           WHERE n.probability IS DISTINCT FROM o.probability OR n.name IS DISTINCT FROM o.name) x
   CROSS JOIN LATERAL (SELECT * FROM markets mk WHERE mk.id = x.market_id LIMIT 1) m;
  -- Any other column of an outcome (colour, description, image …) shows on the market and in lists.
  PERFORM announce(json_build_object('k', 'detail', 's', m.slug, 'm', m.id, 'r', json_build_array(market_group(m))))
    FROM (SELECT DISTINCT n.market_id FROM new_rows n JOIN old_rows o ON o.id = n.id
           WHERE to_jsonb(n) IS DISTINCT FROM to_jsonb(o)) x
   CROSS JOIN LATERAL (SELECT * FROM markets mk WHERE mk.id = x.market_id LIMIT 1) m;
  RETURN NULL;
END $function$;
