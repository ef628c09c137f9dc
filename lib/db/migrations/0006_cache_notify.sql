-- The response cache (lib/markets/reads/) drops what a commit changed from the same NOTIFY stream
-- that drives the push channels. Payloads now name the market id too ('m'), so answers keyed by id
-- are found, and every table a cached answer shows announces its changes. Kinds the push channels
-- do not know ('detail', 'market', 'list', 'flush') are the cache's alone; sockets ignore them.

CREATE OR REPLACE FUNCTION notify_market_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('market_events', json_build_object('k', TG_ARGV[0], 's', m.slug, 'm', m.id, 'o', x.outcome_id)::text)
      FROM (SELECT DISTINCT outcome_id FROM old_rows) x
      JOIN outcomes oc ON oc.id = x.outcome_id
      JOIN markets m ON m.id = oc.market_id;
  ELSE
    PERFORM pg_notify('market_events', json_build_object('k', TG_ARGV[0], 's', m.slug, 'm', m.id, 'o', x.outcome_id)::text)
      FROM (SELECT DISTINCT outcome_id FROM new_rows) x
      JOIN outcomes oc ON oc.id = x.outcome_id
      JOIN markets m ON m.id = oc.market_id;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION notify_outcome_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('market_events', json_build_object('k', 'price', 's', m.slug, 'm', m.id, 'o', x.id)::text)
    FROM (SELECT DISTINCT n.id, n.market_id FROM new_rows n JOIN old_rows o ON o.id = n.id
           WHERE n.probability IS DISTINCT FROM o.probability OR n.name IS DISTINCT FROM o.name) x
    JOIN markets m ON m.id = x.market_id;
  -- Any other column of an outcome (colour, description, image …) shows on the market and in lists.
  PERFORM pg_notify('market_events', json_build_object('k', 'detail', 's', m.slug, 'm', m.id)::text)
    FROM (SELECT DISTINCT n.market_id FROM new_rows n JOIN old_rows o ON o.id = n.id
           WHERE to_jsonb(n) IS DISTINCT FROM to_jsonb(o)) x
    JOIN markets m ON m.id = x.market_id;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION notify_market_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('market_events', json_build_object('k', 'price', 's', n.slug, 'm', n.id, 'o', NULL)::text)
    FROM new_rows n JOIN old_rows o ON o.id = n.id
   WHERE to_jsonb(n) - '{updated_at,comments_count,total_liquidity}'::text[]
         IS DISTINCT FROM to_jsonb(o) - '{updated_at,comments_count,total_liquidity}'::text[];
  -- The columns the push channels leave out still show in cached answers; a renamed or re-sourced
  -- market invalidates everything of it under its old slug as well.
  PERFORM pg_notify('market_events', json_build_object('k', 'detail', 's', n.slug, 'm', n.id)::text)
    FROM new_rows n JOIN old_rows o ON o.id = n.id
   WHERE (n.updated_at, n.comments_count, n.total_liquidity) IS DISTINCT FROM (o.updated_at, o.comments_count, o.total_liquidity);
  PERFORM pg_notify('market_events', json_build_object('k', 'market', 's', s.slug, 'm', n.id)::text)
    FROM new_rows n JOIN old_rows o ON o.id = n.id, LATERAL (VALUES (n.slug), (o.slug)) s (slug)
   WHERE (n.slug, n.external_source) IS DISTINCT FROM (o.slug, o.external_source);
  RETURN NULL;
END $$;

-- Cache-only announcements: one per statement and market (identical payloads fold at commit).
CREATE FUNCTION notify_cache_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- TG_ARGV[0]: the kind; the rows name their market by market_id (or are markets themselves).
  IF TG_TABLE_NAME = 'markets' THEN
    PERFORM pg_notify('market_events', json_build_object('k', TG_ARGV[0], 's', r.slug, 'm', r.id)::text) FROM old_rows r;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('market_events', json_build_object('k', TG_ARGV[0], 's', m.slug, 'm', m.id)::text)
      FROM (SELECT DISTINCT market_id FROM old_rows) x JOIN markets m ON m.id = x.market_id;
  ELSE
    PERFORM pg_notify('market_events', json_build_object('k', TG_ARGV[0], 's', m.slug, 'm', m.id)::text)
      FROM (SELECT DISTINCT market_id FROM new_rows) x JOIN markets m ON m.id = x.market_id;
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION notify_cache_statement() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('market_events', json_build_object('k', TG_ARGV[0])::text);
  RETURN NULL;
END $$;

-- New markets appear in lists and slug probes; nothing cached shows them yet.
CREATE TRIGGER markets_cache_ins AFTER INSERT ON markets
  FOR EACH STATEMENT EXECUTE FUNCTION notify_cache_statement('list');
CREATE TRIGGER markets_cache_del AFTER DELETE ON markets REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_cache_rows('market');

CREATE TRIGGER outcomes_cache_ins AFTER INSERT ON outcomes REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_cache_rows('market');
CREATE TRIGGER outcomes_cache_del AFTER DELETE ON outcomes REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_cache_rows('market');

CREATE TRIGGER comments_cache_ins AFTER INSERT ON comments REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_cache_rows('detail');
CREATE TRIGGER comments_cache_upd AFTER UPDATE ON comments REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_cache_rows('detail');
CREATE TRIGGER comments_cache_del AFTER DELETE ON comments REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_cache_rows('detail');

-- A user's name or picture shows in comments and top traders of any market: everything goes.
CREATE TRIGGER users_cache_upd AFTER UPDATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION notify_cache_statement('flush');
CREATE TRIGGER users_cache_del AFTER DELETE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION notify_cache_statement('flush');

CREATE TRIGGER markets_cache_truncate AFTER TRUNCATE ON markets FOR EACH STATEMENT EXECUTE FUNCTION notify_cache_statement('flush');
CREATE TRIGGER outcomes_cache_truncate AFTER TRUNCATE ON outcomes FOR EACH STATEMENT EXECUTE FUNCTION notify_cache_statement('flush');
CREATE TRIGGER comments_cache_truncate AFTER TRUNCATE ON comments FOR EACH STATEMENT EXECUTE FUNCTION notify_cache_statement('flush');
CREATE TRIGGER users_cache_truncate AFTER TRUNCATE ON users FOR EACH STATEMENT EXECUTE FUNCTION notify_cache_statement('flush');
CREATE TRIGGER orders_cache_truncate AFTER TRUNCATE ON orders FOR EACH STATEMENT EXECUTE FUNCTION notify_cache_statement('flush');
CREATE TRIGGER trades_cache_truncate AFTER TRUNCATE ON trades FOR EACH STATEMENT EXECUTE FUNCTION notify_cache_statement('flush');
CREATE TRIGGER external_books_cache_truncate AFTER TRUNCATE ON external_books FOR EACH STATEMENT EXECUTE FUNCTION notify_cache_statement('flush');
