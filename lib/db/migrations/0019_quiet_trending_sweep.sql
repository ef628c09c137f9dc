-- The rolling 24 h volume (migration 0003) is not a visible field of a market: 0003 left it out of the
-- changes that announce a market's 'price', and 0006 (then 0017) wrote the function again without it.
-- Since then every trending sweep, once a minute, announced a 'price' change for each market with a
-- trade that had turned 24 h old: browsers on those markets were told to refetch, and each instance
-- dropped the market's cached item, detail and pages and read its row into the list orders again,
-- for a change nothing shows (12,500 markets a minute at 100,000 markets). TRENDING reads
-- are exact without it (they subtract what aged out since the last sweep, and their cached answers
-- expire when the next trade ages: lib/markets/reads/), and the trade writes that move the stored
-- value announce themselves. Everything else is 0017's function as it was.
CREATE OR REPLACE FUNCTION notify_market_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('market_events', json_build_object('k', 'price', 's', n.slug, 'm', n.id, 'o', NULL, 'r', market_groups(n, o))::text)
    FROM new_rows n JOIN old_rows o ON o.id = n.id
   WHERE to_jsonb(n) - '{updated_at,comments_count,total_liquidity,volume_24h}'::text[]
         IS DISTINCT FROM to_jsonb(o) - '{updated_at,comments_count,total_liquidity,volume_24h}'::text[];
  -- The columns the push channels leave out still show in cached answers; a renamed or re-sourced
  -- market invalidates everything of it under its old slug as well.
  PERFORM pg_notify('market_events', json_build_object('k', 'detail', 's', n.slug, 'm', n.id, 'r', market_groups(n, o))::text)
    FROM new_rows n JOIN old_rows o ON o.id = n.id
   WHERE (n.updated_at, n.comments_count, n.total_liquidity) IS DISTINCT FROM (o.updated_at, o.comments_count, o.total_liquidity);
  PERFORM pg_notify('market_events', json_build_object('k', 'market', 's', s.slug, 'm', n.id, 'r', market_groups(n, o))::text)
    FROM new_rows n JOIN old_rows o ON o.id = n.id, LATERAL (VALUES (n.slug), (o.slug)) s (slug)
   WHERE (n.slug, n.external_source) IS DISTINCT FROM (o.slug, o.external_source);
  RETURN NULL;
END $$;
