-- Candles (docs/api.md "Candles"): OHLCV of each outcome's trades per minute, hour and day (UTC),
-- kept in the writer's transaction by statement triggers on trades, so that a request reads at most
-- 15,000 rows of one width (60 s for 1m/5m/15m, 3600 s for 1h/4h, 86400 s for 1d/1w) instead of up
-- to a million trades.
--
-- Invariant: for every outcome, width w ∈ {60, 3600, 86400} and bucket b (a multiple of w seconds
-- after the unix epoch) that holds trades, exactly one row, equal to aggregating those trades:
-- open/close the price of the first/last trade by (executed_at, id), which first_at/first_id and
-- last_at/last_id name; high/low; volume Σ shares; notional Σ price × shares; trades their count.
-- No row for a bucket without trades.
--   * INSERT merges the candles of the new rows into the stored ones at the three widths: min/max
--     by (executed_at, id), sums. Merging is order-free, so it needs no read of trades.
--   * DELETE and UPDATE recompute every bucket their rows touched: minutes from trades, hours
--     from minutes, days from hours (an UPDATE only for rows whose outcome, time, price or shares
--     changed).
--   * TRUNCATE empties the table.
-- Concurrency: each statement first takes a transaction-level advisory lock per outcome it writes
-- (in one global order), so the writers of one outcome take turns until commit, as they would on
-- the candle rows they share anyway. A recomputation then reads, in a statement of its own, the
-- trades of every earlier writer of the outcome (READ COMMITTED takes a snapshot per statement).
-- A REPEATABLE READ writer that started before such a writer committed fails with a serialization
-- error on the candle rows they share instead of writing from an older state.
-- Nothing references candles by foreign key: deleting an outcome deletes its trades (cascade),
-- whose trigger empties their buckets.

CREATE TABLE candles (
  outcome_id uuid NOT NULL,
  first_id   uuid NOT NULL,
  last_id    uuid NOT NULL,
  bucket     timestamptz NOT NULL,
  first_at   timestamptz NOT NULL,
  last_at    timestamptz NOT NULL,
  width      integer NOT NULL CHECK (width IN (60, 3600, 86400)),
  trades     integer NOT NULL,
  open       numeric(4,3) NOT NULL,
  high       numeric(4,3) NOT NULL,
  low        numeric(4,3) NOT NULL,
  close      numeric(4,3) NOT NULL,
  volume     numeric NOT NULL,
  notional   numeric NOT NULL
);

-- The advisory locks of the outcomes a statement writes: class 21, one key per outcome (its hash),
-- taken in key order so that two writers of several outcomes cannot wait for each other in a circle.
CREATE FUNCTION candles_lock(outcomes uuid[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  k integer;
BEGIN
  FOR k IN SELECT DISTINCT hashtext(o::text) FROM unnest(outcomes) o ORDER BY 1 LOOP
    PERFORM pg_advisory_xact_lock(21, k);
  END LOOP;
END $$;

CREATE FUNCTION candles_merge_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- candles_lock, inlined: this runs for every trade a live writer inserts.
  PERFORM pg_advisory_xact_lock(21, k) FROM (SELECT DISTINCT hashtext(outcome_id::text) AS k FROM new_rows ORDER BY 1) x;
  WITH a AS (
    -- One ordering for every array, so PostgreSQL sorts the rows once.
    SELECT outcome_id, date_bin('1 minute', executed_at, timestamptz 'epoch') AS bucket,
           array_agg(price ORDER BY executed_at, id) AS p, array_agg(executed_at ORDER BY executed_at, id) AS t,
           array_agg(id ORDER BY executed_at, id) AS i,
           max(price) AS high, min(price) AS low, sum(shares) AS volume, sum(price * shares) AS notional, count(*)::int AS n
      FROM new_rows GROUP BY 1, 2),
  m AS (
    SELECT outcome_id, 60 AS width, bucket, p[1] AS open, high, low, p[n] AS close, t[1] AS first_at, i[1] AS first_id,
           t[n] AS last_at, i[n] AS last_id, volume, notional, n AS trades FROM a),
  h AS (
    SELECT outcome_id, 3600 AS width, date_bin('1 hour', bucket, timestamptz 'epoch') AS bucket,
           (array_agg(open ORDER BY bucket))[1] AS open, max(high) AS high, min(low) AS low,
           (array_agg(close ORDER BY bucket))[count(*)] AS close,
           min(first_at) AS first_at, (array_agg(first_id ORDER BY bucket))[1] AS first_id,
           max(last_at) AS last_at, (array_agg(last_id ORDER BY bucket))[count(*)] AS last_id,
           sum(volume) AS volume, sum(notional) AS notional, sum(trades)::int AS trades
      FROM m GROUP BY 1, 3),
  d AS (
    SELECT outcome_id, 86400 AS width, date_bin('1 day', bucket, timestamptz 'epoch') AS bucket,
           (array_agg(open ORDER BY bucket))[1] AS open, max(high) AS high, min(low) AS low,
           (array_agg(close ORDER BY bucket))[count(*)] AS close,
           min(first_at) AS first_at, (array_agg(first_id ORDER BY bucket))[1] AS first_id,
           max(last_at) AS last_at, (array_agg(last_id ORDER BY bucket))[count(*)] AS last_id,
           sum(volume) AS volume, sum(notional) AS notional, sum(trades)::int AS trades
      FROM h GROUP BY 1, 3)
  INSERT INTO candles AS c (outcome_id, width, bucket, open, high, low, close, first_at, first_id, last_at, last_id, volume, notional, trades)
  SELECT * FROM (SELECT * FROM m UNION ALL SELECT * FROM h UNION ALL SELECT * FROM d) x ORDER BY outcome_id, width, bucket
  ON CONFLICT (outcome_id, width, bucket) DO UPDATE SET
    open     = CASE WHEN (EXCLUDED.first_at, EXCLUDED.first_id) < (c.first_at, c.first_id) THEN EXCLUDED.open ELSE c.open END,
    first_at = CASE WHEN (EXCLUDED.first_at, EXCLUDED.first_id) < (c.first_at, c.first_id) THEN EXCLUDED.first_at ELSE c.first_at END,
    first_id = CASE WHEN (EXCLUDED.first_at, EXCLUDED.first_id) < (c.first_at, c.first_id) THEN EXCLUDED.first_id ELSE c.first_id END,
    close    = CASE WHEN (EXCLUDED.last_at, EXCLUDED.last_id) > (c.last_at, c.last_id) THEN EXCLUDED.close ELSE c.close END,
    last_at  = CASE WHEN (EXCLUDED.last_at, EXCLUDED.last_id) > (c.last_at, c.last_id) THEN EXCLUDED.last_at ELSE c.last_at END,
    last_id  = CASE WHEN (EXCLUDED.last_at, EXCLUDED.last_id) > (c.last_at, c.last_id) THEN EXCLUDED.last_id ELSE c.last_id END,
    high     = greatest(c.high, EXCLUDED.high),
    low      = least(c.low, EXCLUDED.low),
    volume   = c.volume + EXCLUDED.volume,
    notional = c.notional + EXCLUDED.notional,
    trades   = c.trades + EXCLUDED.trades;
  RETURN NULL;
END $$;

-- Rewrites the candles of the given (outcome, minute) buckets and of the hours and days that hold
-- them from what the tables hold now: a bucket left without trades loses its row.
CREATE FUNCTION candles_recompute(outcomes uuid[], minutes timestamptz[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM candles_lock(outcomes);
  -- Statements of their own from here: each reads what the writers that held the locks committed.
  DELETE FROM candles c USING unnest(outcomes, minutes) k (o, b)
   WHERE c.outcome_id = k.o AND c.width = 60 AND c.bucket = k.b;
  INSERT INTO candles (outcome_id, width, bucket, open, high, low, close, first_at, first_id, last_at, last_id, volume, notional, trades)
  SELECT outcome_id, 60, bucket, p[1], high, low, p[n], t[1], i[1], t[n], i[n], volume, notional, n
    FROM (SELECT k.o AS outcome_id, k.b AS bucket,
                 array_agg(tr.price ORDER BY tr.executed_at, tr.id) AS p, array_agg(tr.executed_at ORDER BY tr.executed_at, tr.id) AS t,
                 array_agg(tr.id ORDER BY tr.executed_at, tr.id) AS i,
                 max(tr.price) AS high, min(tr.price) AS low, sum(tr.shares) AS volume, sum(tr.price * tr.shares) AS notional,
                 count(*)::int AS n
            FROM (SELECT DISTINCT o, b FROM unnest(outcomes, minutes) u (o, b)) k
            JOIN trades tr ON tr.outcome_id = k.o AND tr.executed_at >= k.b AND tr.executed_at < k.b + interval '1 minute'
           GROUP BY 1, 2) a
   ORDER BY 1, 3;
  PERFORM candles_recompute_level(outcomes, minutes, 3600);
  PERFORM candles_recompute_level(outcomes, minutes, 86400);
END $$;

-- One coarser width of candles_recompute: the buckets of `w` seconds holding the given instants,
-- rolled up from the next finer width (hours from minutes, days from hours).
CREATE FUNCTION candles_recompute_level(outcomes uuid[], instants timestamptz[], w integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  stride interval := make_interval(secs => w);
  finer integer := CASE w WHEN 3600 THEN 60 ELSE 3600 END;
BEGIN
  DELETE FROM candles c
   USING (SELECT DISTINCT o, date_bin(stride, b, timestamptz 'epoch') AS b FROM unnest(outcomes, instants) u (o, b)) k
   WHERE c.outcome_id = k.o AND c.width = w AND c.bucket = k.b;
  INSERT INTO candles (outcome_id, width, bucket, open, high, low, close, first_at, first_id, last_at, last_id, volume, notional, trades)
  SELECT k.o, w, k.b,
         (array_agg(f.open ORDER BY f.bucket))[1], max(f.high), min(f.low), (array_agg(f.close ORDER BY f.bucket))[count(*)],
         min(f.first_at), (array_agg(f.first_id ORDER BY f.bucket))[1], max(f.last_at), (array_agg(f.last_id ORDER BY f.bucket))[count(*)],
         sum(f.volume), sum(f.notional), sum(f.trades)::int
    FROM (SELECT DISTINCT o, date_bin(stride, b, timestamptz 'epoch') AS b FROM unnest(outcomes, instants) u (o, b)) k
    JOIN candles f ON f.outcome_id = k.o AND f.width = finer AND f.bucket >= k.b AND f.bucket < k.b + stride
   GROUP BY k.o, k.b
   ORDER BY 1, 3;
END $$;

CREATE FUNCTION candles_recompute_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  outcomes uuid[];
  minutes timestamptz[];
BEGIN
  IF TG_OP = 'DELETE' THEN
    SELECT array_agg(o), array_agg(b) INTO outcomes, minutes
      FROM (SELECT DISTINCT outcome_id AS o, date_bin('1 minute', executed_at, timestamptz 'epoch') AS b FROM old_rows) k;
  ELSE
    -- Only rows whose candle columns changed (an id that changed pairs with no row: both sides count).
    SELECT array_agg(o), array_agg(b) INTO outcomes, minutes
      FROM (SELECT outcome_id AS o, date_bin('1 minute', executed_at, timestamptz 'epoch') AS b
              FROM (SELECT id, outcome_id, executed_at, price, shares FROM old_rows
                    EXCEPT SELECT id, outcome_id, executed_at, price, shares FROM new_rows) x
            UNION
            SELECT outcome_id, date_bin('1 minute', executed_at, timestamptz 'epoch')
              FROM (SELECT id, outcome_id, executed_at, price, shares FROM new_rows
                    EXCEPT SELECT id, outcome_id, executed_at, price, shares FROM old_rows) y) k;
  END IF;
  IF outcomes IS NOT NULL THEN
    PERFORM candles_recompute(outcomes, minutes);
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION candles_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE candles;
  RETURN NULL;
END $$;

-- Every candle from the trades, set-based: the backfill below and bulk loads (rebuild_row_derived).
CREATE FUNCTION rebuild_candles() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE candles;
  INSERT INTO candles (outcome_id, width, bucket, open, high, low, close, first_at, first_id, last_at, last_id, volume, notional, trades)
  SELECT outcome_id, 60, bucket, p[1], high, low, p[n], t[1], i[1], t[n], i[n], volume, notional, n
    FROM (SELECT outcome_id, date_bin('1 minute', executed_at, timestamptz 'epoch') AS bucket,
                 array_agg(price ORDER BY executed_at, id) AS p, array_agg(executed_at ORDER BY executed_at, id) AS t,
                 array_agg(id ORDER BY executed_at, id) AS i,
                 max(price) AS high, min(price) AS low, sum(shares) AS volume, sum(price * shares) AS notional, count(*)::int AS n
            FROM trades GROUP BY 1, 2) a;
  INSERT INTO candles (outcome_id, width, bucket, open, high, low, close, first_at, first_id, last_at, last_id, volume, notional, trades)
  SELECT outcome_id, 3600, date_bin('1 hour', bucket, timestamptz 'epoch'),
         (array_agg(open ORDER BY bucket))[1], max(high), min(low), (array_agg(close ORDER BY bucket))[count(*)],
         min(first_at), (array_agg(first_id ORDER BY bucket))[1], max(last_at), (array_agg(last_id ORDER BY bucket))[count(*)],
         sum(volume), sum(notional), sum(trades)::int
    FROM candles
   WHERE width = 60
   GROUP BY 1, 3;
  INSERT INTO candles (outcome_id, width, bucket, open, high, low, close, first_at, first_id, last_at, last_id, volume, notional, trades)
  SELECT outcome_id, 86400, date_bin('1 day', bucket, timestamptz 'epoch'),
         (array_agg(open ORDER BY bucket))[1], max(high), min(low), (array_agg(close ORDER BY bucket))[count(*)],
         min(first_at), (array_agg(first_id ORDER BY bucket))[1], max(last_at), (array_agg(last_id ORDER BY bucket))[count(*)],
         sum(volume), sum(notional), sum(trades)::int
    FROM candles
   WHERE width = 3600
   GROUP BY 1, 3;
END $$;

CREATE TRIGGER trades_candles_ins AFTER INSERT ON trades REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION candles_merge_rows();
CREATE TRIGGER trades_candles_upd AFTER UPDATE ON trades REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION candles_recompute_rows();
CREATE TRIGGER trades_candles_del AFTER DELETE ON trades REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION candles_recompute_rows();
CREATE TRIGGER trades_candles_truncate AFTER TRUNCATE ON trades
  FOR EACH STATEMENT EXECUTE FUNCTION candles_truncate();

-- An UPDATE that moves trades to another outcome changes the candles (and the history and tape) of
-- the outcome they left too; trades_notify_upd (0002, 0006, 0010) announces only the rows' new
-- outcomes. The same payload as notify_market_events with the kind of a trade correction
-- ('trade_edit', lib/events/market-events.ts), so the cache drops hist:o:<outcome> and watchers refetch.
CREATE FUNCTION notify_trades_left_outcomes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('market_events', json_build_object('k', 'trade_edit', 's', m.slug, 'm', m.id, 'o', x.outcome_id)::text)
    FROM (SELECT DISTINCT outcome_id FROM old_rows EXCEPT SELECT outcome_id FROM new_rows) x
    JOIN outcomes oc ON oc.id = x.outcome_id
    JOIN markets m ON m.id = oc.market_id;
  RETURN NULL;
END $$;

CREATE TRIGGER trades_notify_upd_left AFTER UPDATE ON trades REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_trades_left_outcomes();

-- Bulk loads (the seed) turn the row triggers off and rebuild once: candles join the values
-- these two functions of migration 0005 cover.
CREATE OR REPLACE FUNCTION set_row_derived_triggers(enabled boolean) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  verb text := CASE WHEN enabled THEN 'ENABLE' ELSE 'DISABLE' END;
BEGIN
  EXECUTE format('ALTER TABLE trades %1$s TRIGGER trades_traders_ins, %1$s TRIGGER trades_traders_upd, %1$s TRIGGER trades_traders_del', verb);
  EXECUTE format('ALTER TABLE trades %1$s TRIGGER trades_candles_ins, %1$s TRIGGER trades_candles_upd, %1$s TRIGGER trades_candles_del', verb);
  EXECUTE format('ALTER TABLE comments %1$s TRIGGER comments_replies_ins, %1$s TRIGGER comments_replies_del, %1$s TRIGGER comments_replies_upd', verb);
END $$;

CREATE OR REPLACE FUNCTION rebuild_row_derived() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE market_traders;
  INSERT INTO market_traders (market_id, user_id, volume, trades)
  SELECT market_id, user_id, sum(v), count(*)
    FROM (SELECT market_id, maker_user_id AS user_id, price * shares AS v FROM trades WHERE maker_user_id IS NOT NULL
          UNION ALL
          SELECT market_id, taker_user_id, price * shares FROM trades
           WHERE taker_user_id IS NOT NULL AND taker_user_id IS DISTINCT FROM maker_user_id) d
   GROUP BY 1, 2;
  UPDATE comments c SET reply_count = r.n
    FROM (SELECT parent_id, count(*)::int AS n FROM comments WHERE parent_id IS NOT NULL GROUP BY 1) r
   WHERE c.id = r.parent_id AND c.reply_count <> r.n;
  UPDATE comments c SET reply_count = 0
   WHERE c.reply_count <> 0 AND NOT EXISTS (SELECT 1 FROM comments r WHERE r.parent_id = c.id);
  PERFORM rebuild_candles();
END $$;

-- Backfill, then the key (one sorted build instead of millions of index inserts).
SET LOCAL maintenance_work_mem = '256MB';
SET LOCAL work_mem = '64MB';
SELECT rebuild_candles();
ALTER TABLE candles ADD PRIMARY KEY (outcome_id, width, bucket);
