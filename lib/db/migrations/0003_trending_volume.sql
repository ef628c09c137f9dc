-- TRENDING (docs/api.md "Sorting": price × shares of the trades executed in the last 24 h) kept on the market
-- row, so that the list sorts it from an index instead of aggregating a day of trades per request.
--
-- Invariant: markets.volume_24h = Σ price × shares of the market's trades executed after
-- trending_watermark.swept_at − 24 h.
--   * Trade writes keep it: the triggers below add and subtract the rows they write.
--   * sweep_volume_24h() moves the watermark to now() and subtracts the trades that aged out;
--     every app instance calls it once a minute.
--   * Readers subtract what aged out since the last sweep (lib/markets/sql/lists.ts), so the order
--     they return is exact at any moment, swept or not.

ALTER TABLE markets ADD COLUMN volume_24h numeric NOT NULL DEFAULT 0;

CREATE TABLE trending_watermark (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  swept_at  timestamptz NOT NULL
);

-- The rolling volume changes as trades age out; it is not a visible field of the market, so it
-- does not signal the push channels (the trade itself already did).
CREATE OR REPLACE FUNCTION notify_market_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('market_events', json_build_object('k', 'price', 's', n.slug, 'o', NULL)::text)
    FROM new_rows n JOIN old_rows o ON o.id = n.id
   WHERE to_jsonb(n) - '{updated_at,comments_count,total_liquidity,volume_24h}'::text[]
         IS DISTINCT FROM to_jsonb(o) - '{updated_at,comments_count,total_liquidity,volume_24h}'::text[];
  RETURN NULL;
END $$;

INSERT INTO trending_watermark (swept_at) VALUES (now());
UPDATE markets m SET volume_24h = t.v
  FROM (SELECT market_id, sum(price * shares) AS v FROM trades
         WHERE executed_at > now() - interval '24 hours' GROUP BY market_id) t
 WHERE t.market_id = m.id;

CREATE INDEX markets_status_trending_idx ON markets (status, volume_24h, id);
CREATE INDEX markets_cat_trending_idx    ON markets (status, category, volume_24h, id);
-- The trades that age out between two sweeps.
-- (trades_time_idx (executed_at) INCLUDE (market_id, price, shares) from 0001 serves it.)

-- Adds the volume of `delta` rows (market_id, v) that count under the current watermark.
-- FOR SHARE holds the watermark until this transaction commits: a sweep, which could not see
-- these rows yet, must not move it meanwhile.
CREATE FUNCTION trades_volume_24h() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  since timestamptz;
BEGIN
  SELECT swept_at - interval '24 hours' INTO since FROM trending_watermark FOR SHARE;
  IF TG_OP = 'INSERT' THEN
    UPDATE markets m SET volume_24h = m.volume_24h + d.v
      FROM (SELECT market_id, sum(price * shares) AS v FROM new_rows WHERE executed_at > since GROUP BY market_id) d
     WHERE m.id = d.market_id;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE markets m SET volume_24h = m.volume_24h - d.v
      FROM (SELECT market_id, sum(price * shares) AS v FROM old_rows WHERE executed_at > since GROUP BY market_id) d
     WHERE m.id = d.market_id;
  ELSE
    UPDATE markets m SET volume_24h = m.volume_24h + d.v
      FROM (SELECT market_id, sum(v) AS v FROM (
              SELECT market_id, price * shares AS v FROM new_rows WHERE executed_at > since
              UNION ALL
              SELECT market_id, -(price * shares) FROM old_rows WHERE executed_at > since) x
             GROUP BY market_id) d
     WHERE m.id = d.market_id AND d.v <> 0;
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION trades_volume_24h_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE markets SET volume_24h = 0 WHERE volume_24h <> 0;
  RETURN NULL;
END $$;

CREATE TRIGGER trades_volume_24h_ins AFTER INSERT ON trades REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION trades_volume_24h();
CREATE TRIGGER trades_volume_24h_upd AFTER UPDATE ON trades REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION trades_volume_24h();
CREATE TRIGGER trades_volume_24h_del AFTER DELETE ON trades REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION trades_volume_24h();
CREATE TRIGGER trades_volume_24h_truncate AFTER TRUNCATE ON trades
  FOR EACH STATEMENT EXECUTE FUNCTION trades_volume_24h_truncate();

-- Moves the watermark to now(), subtracting the trades that aged out since the last sweep.
-- Returns the new watermark, or NULL when it did nothing: a transaction that wrote trades still
-- holds the watermark (SKIP LOCKED: a sweep never waits for writers), or a market row it needs is
-- locked (lock_timeout: it gives up before it could deadlock with such a writer). Run it in a
-- transaction of its own.
CREATE FUNCTION sweep_volume_24h() RETURNS timestamptz LANGUAGE plpgsql AS $$
DECLARE
  was timestamptz;
BEGIN
  SELECT swept_at INTO was FROM trending_watermark FOR UPDATE SKIP LOCKED;
  IF NOT FOUND OR was >= now() THEN
    RETURN NULL;
  END IF;
  PERFORM set_config('lock_timeout', '200ms', true);
  UPDATE markets m SET volume_24h = m.volume_24h - d.v
    FROM (SELECT market_id, sum(price * shares) AS v FROM trades
           WHERE executed_at > was - interval '24 hours' AND executed_at <= now() - interval '24 hours'
           GROUP BY market_id) d
   WHERE m.id = d.market_id;
  UPDATE trending_watermark SET swept_at = now();
  RETURN now();
EXCEPTION WHEN lock_not_available THEN
  RETURN NULL;
END $$;
