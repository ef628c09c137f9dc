-- Every announcement that names a market also says where it is listed: 'r' is a list of
-- [category, sub_category, tags, status], the market's own after the change, and before it as well
-- when the change moved it (another category, sub-category, tags or status). The response cache keys
-- its related-markets lists by these (lib/markets/reads/tags.ts, relatedTags), so a trade drops the lists of
-- the markets that could show the traded one, not every list and every cached market page; and a
-- change that names one place only moved no market between lists (the sub-category counts hold).
-- A place too long to announce safely (NOTIFY payloads are capped at 8 kB) is sent as null: the cache
-- then drops every related list and count, as it did for any change before.

-- A market's place, or null when too long to announce.
CREATE OR REPLACE FUNCTION market_group(m markets) RETURNS json LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN octet_length(m.sub_category) + coalesce(octet_length(array_to_string(m.tags, '')), 0) + 4 * cardinality(m.tags) <= 2000
    THEN json_build_array(m.category, m.sub_category, m.tags, m.status)
  END
$$;

-- The places of a market changed from o to n: n's, and o's too when they differ.
CREATE OR REPLACE FUNCTION market_groups(n markets, o markets) RETURNS json LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN (n.category, n.sub_category, n.tags, n.status) IS NOT DISTINCT FROM (o.category, o.sub_category, o.tags, o.status)
    THEN json_build_array(market_group(n))
    ELSE json_build_array(market_group(n), market_group(o))
  END
$$;

CREATE OR REPLACE FUNCTION notify_market_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('market_events', json_build_object('k', TG_ARGV[0], 's', m.slug, 'm', m.id, 'o', x.outcome_id, 'r', json_build_array(market_group(m)))::text)
      FROM (SELECT DISTINCT outcome_id FROM old_rows) x
      JOIN outcomes oc ON oc.id = x.outcome_id
      JOIN markets m ON m.id = oc.market_id;
  ELSE
    PERFORM pg_notify('market_events', json_build_object('k', TG_ARGV[0], 's', m.slug, 'm', m.id, 'o', x.outcome_id, 'r', json_build_array(market_group(m)))::text)
      FROM (SELECT DISTINCT outcome_id FROM new_rows) x
      JOIN outcomes oc ON oc.id = x.outcome_id
      JOIN markets m ON m.id = oc.market_id;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION notify_outcome_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('market_events', json_build_object('k', 'price', 's', m.slug, 'm', m.id, 'o', x.id, 'r', json_build_array(market_group(m)))::text)
    FROM (SELECT DISTINCT n.id, n.market_id FROM new_rows n JOIN old_rows o ON o.id = n.id
           WHERE n.probability IS DISTINCT FROM o.probability OR n.name IS DISTINCT FROM o.name) x
    JOIN markets m ON m.id = x.market_id;
  -- Any other column of an outcome (colour, description, image …) shows on the market and in lists.
  PERFORM pg_notify('market_events', json_build_object('k', 'detail', 's', m.slug, 'm', m.id, 'r', json_build_array(market_group(m)))::text)
    FROM (SELECT DISTINCT n.market_id FROM new_rows n JOIN old_rows o ON o.id = n.id
           WHERE to_jsonb(n) IS DISTINCT FROM to_jsonb(o)) x
    JOIN markets m ON m.id = x.market_id;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION notify_market_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('market_events', json_build_object('k', 'price', 's', n.slug, 'm', n.id, 'o', NULL, 'r', market_groups(n, o))::text)
    FROM new_rows n JOIN old_rows o ON o.id = n.id
   WHERE to_jsonb(n) - '{updated_at,comments_count,total_liquidity}'::text[]
         IS DISTINCT FROM to_jsonb(o) - '{updated_at,comments_count,total_liquidity}'::text[];
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

CREATE OR REPLACE FUNCTION notify_cache_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- TG_ARGV[0]: the kind; the rows name their market by market_id (or are markets themselves).
  IF TG_TABLE_NAME = 'markets' THEN
    PERFORM pg_notify('market_events', json_build_object('k', TG_ARGV[0], 's', r.slug, 'm', r.id, 'r', json_build_array(market_group(r)))::text) FROM old_rows r;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('market_events', json_build_object('k', TG_ARGV[0], 's', m.slug, 'm', m.id, 'r', json_build_array(market_group(m)))::text)
      FROM (SELECT DISTINCT market_id FROM old_rows) x JOIN markets m ON m.id = x.market_id;
  ELSE
    PERFORM pg_notify('market_events', json_build_object('k', TG_ARGV[0], 's', m.slug, 'm', m.id, 'r', json_build_array(market_group(m)))::text)
      FROM (SELECT DISTINCT market_id FROM new_rows) x JOIN markets m ON m.id = x.market_id;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION notify_trades_left_outcomes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('market_events', json_build_object('k', 'trade_edit', 's', m.slug, 'm', m.id, 'o', x.outcome_id, 'r', json_build_array(market_group(m)))::text)
    FROM (SELECT DISTINCT outcome_id FROM old_rows EXCEPT SELECT outcome_id FROM new_rows) x
    JOIN outcomes oc ON oc.id = x.outcome_id
    JOIN markets m ON m.id = oc.market_id;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION notify_markets_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (SELECT count(*) FROM (SELECT 1 FROM new_rows LIMIT 101) x) <= 100 THEN
    PERFORM pg_notify('market_events', json_build_object('k', 'list', 's', r.slug, 'm', r.id, 'r', json_build_array(market_group(r)))::text) FROM new_rows r;
  ELSE
    PERFORM pg_notify('market_events', json_build_object('k', 'list')::text);
  END IF;
  RETURN NULL;
END $$;
