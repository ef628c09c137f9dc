-- New markets, named: the lists' in-memory orders (lib/markets/list-index.ts) add a market
-- announced by id with one read of its row; a statement-wide 'list' makes them read every market again.
-- A statement that adds few markets names each; a bulk insert (seed, import) stays one announcement,
-- since NOTIFY queues every distinct payload until commit.
CREATE OR REPLACE FUNCTION notify_markets_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (SELECT count(*) FROM (SELECT 1 FROM new_rows LIMIT 101) x) <= 100 THEN
    PERFORM pg_notify('market_events', json_build_object('k', 'list', 's', r.slug, 'm', r.id)::text) FROM new_rows r;
  ELSE
    PERFORM pg_notify('market_events', json_build_object('k', 'list')::text);
  END IF;
  RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS markets_cache_ins ON markets;
CREATE TRIGGER markets_cache_ins AFTER INSERT ON markets REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_markets_added();
