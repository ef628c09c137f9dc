-- Values that reads used to aggregate on every request, kept instead by triggers in the same
-- transaction as the write that changes them:
--   * market_counts: markets per (status, category, sub_category): the list's `total` for the
--     status, category and subCategory filters, and the sub-category choice, without counting rows;
--   * market_traders: volume and number of trades per (market, user): a market's top traders;
--   * comments.reply_count: the replies of each comment.
-- Counters that fall to 0 stay as rows (readers skip them): deleting them would race concurrent
-- writers. Deltas of both signs go through INSERT … ON CONFLICT, whose proposed row is checked
-- before the conflict is found, so the counters carry no CHECK (n >= 0); e2e/api/maintained.spec.ts
-- compares them with the rows instead.
-- Nothing references markets by foreign key, so `TRUNCATE markets, …` needs no new names; TRUNCATE
-- triggers empty these tables instead. Deltas are applied in key order, so that two writers lock
-- the counters they share in the same order.

-- ------------------------------------------------------------------------------ market_counts

CREATE TABLE market_counts (
  status       market_status NOT NULL,
  category     market_category NOT NULL,
  sub_category text NOT NULL,
  n            integer NOT NULL,
  PRIMARY KEY (status, category, sub_category)
);

-- (A transition table exists only for its own event, hence one statement per event.)
CREATE FUNCTION market_counts_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO market_counts AS c (status, category, sub_category, n)
    SELECT status, category, sub_category, count(*) FROM new_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (status, category, sub_category) DO UPDATE SET n = c.n + EXCLUDED.n;
  ELSE
    INSERT INTO market_counts AS c (status, category, sub_category, n)
    SELECT status, category, sub_category, -count(*) FROM old_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (status, category, sub_category) DO UPDATE SET n = c.n + EXCLUDED.n;
  END IF;
  RETURN NULL;
END $$;

-- Row by row, and only when a counted column changes: the frequent writes of volumes and liquidity
-- never reach the function.
CREATE FUNCTION market_counts_move() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO market_counts AS c (status, category, sub_category, n)
  SELECT status, category, sub_category, n
    FROM (VALUES (OLD.status, OLD.category, OLD.sub_category, -1), (NEW.status, NEW.category, NEW.sub_category, 1))
         AS d (status, category, sub_category, n)
   ORDER BY 1, 2, 3
  ON CONFLICT (status, category, sub_category) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN NULL;
END $$;

CREATE FUNCTION market_counts_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM market_counts;
  RETURN NULL;
END $$;

CREATE TRIGGER markets_counts_ins AFTER INSERT ON markets REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION market_counts_rows();
CREATE TRIGGER markets_counts_del AFTER DELETE ON markets REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION market_counts_rows();
CREATE TRIGGER markets_counts_upd AFTER UPDATE OF status, category, sub_category ON markets FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.category IS DISTINCT FROM NEW.category
        OR OLD.sub_category IS DISTINCT FROM NEW.sub_category)
  EXECUTE FUNCTION market_counts_move();
CREATE TRIGGER markets_counts_truncate AFTER TRUNCATE ON markets
  FOR EACH STATEMENT EXECUTE FUNCTION market_counts_truncate();

INSERT INTO market_counts (status, category, sub_category, n)
SELECT status, category, sub_category, count(*) FROM markets GROUP BY 1, 2, 3;

-- ------------------------------------------------------------------------------ market_traders

-- A user's volume on a market: Σ price × shares of the market's trades in which the user is maker
-- or taker, a trade counting once for a user who is both (the definition getMarket used to compute).
-- Its keys are added after the backfill at the end: one sorted build instead of millions of inserts.
CREATE TABLE market_traders (
  market_id uuid NOT NULL,
  user_id   uuid NOT NULL,
  volume    numeric NOT NULL,
  trades    integer NOT NULL
);

-- The maker and the taker of each trade, the taker only when it is another user.
-- Markets that no longer exist are skipped: deleting a market cascades to its trades, and
-- markets_traders_del removes its rows.
CREATE FUNCTION market_traders_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO market_traders AS t (market_id, user_id, volume, trades)
    SELECT market_id, user_id, sum(v), count(*)
      FROM (SELECT market_id, maker_user_id AS user_id, price * shares AS v FROM new_rows WHERE maker_user_id IS NOT NULL
            UNION ALL
            SELECT market_id, taker_user_id, price * shares FROM new_rows
             WHERE taker_user_id IS NOT NULL AND taker_user_id IS DISTINCT FROM maker_user_id) d
     WHERE EXISTS (SELECT 1 FROM markets m WHERE m.id = d.market_id)
     GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (market_id, user_id) DO UPDATE SET volume = t.volume + EXCLUDED.volume, trades = t.trades + EXCLUDED.trades;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO market_traders AS t (market_id, user_id, volume, trades)
    SELECT market_id, user_id, -sum(v), -count(*)
      FROM (SELECT market_id, maker_user_id AS user_id, price * shares AS v FROM old_rows WHERE maker_user_id IS NOT NULL
            UNION ALL
            SELECT market_id, taker_user_id, price * shares FROM old_rows
             WHERE taker_user_id IS NOT NULL AND taker_user_id IS DISTINCT FROM maker_user_id) d
     WHERE EXISTS (SELECT 1 FROM markets m WHERE m.id = d.market_id)
     GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (market_id, user_id) DO UPDATE SET volume = t.volume + EXCLUDED.volume, trades = t.trades + EXCLUDED.trades;
  ELSE
    INSERT INTO market_traders AS t (market_id, user_id, volume, trades)
    SELECT market_id, user_id, sum(v), sum(n)
      FROM (SELECT market_id, maker_user_id AS user_id, price * shares AS v, 1 AS n FROM new_rows WHERE maker_user_id IS NOT NULL
            UNION ALL
            SELECT market_id, taker_user_id, price * shares, 1 FROM new_rows
             WHERE taker_user_id IS NOT NULL AND taker_user_id IS DISTINCT FROM maker_user_id
            UNION ALL
            SELECT market_id, maker_user_id, -(price * shares), -1 FROM old_rows WHERE maker_user_id IS NOT NULL
            UNION ALL
            SELECT market_id, taker_user_id, -(price * shares), -1 FROM old_rows
             WHERE taker_user_id IS NOT NULL AND taker_user_id IS DISTINCT FROM maker_user_id) d
     WHERE EXISTS (SELECT 1 FROM markets m WHERE m.id = d.market_id)
     GROUP BY 1, 2
    HAVING sum(v) <> 0 OR sum(n) <> 0
     ORDER BY 1, 2
    ON CONFLICT (market_id, user_id) DO UPDATE SET volume = t.volume + EXCLUDED.volume, trades = t.trades + EXCLUDED.trades;
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION market_traders_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE market_traders;
  RETURN NULL;
END $$;

CREATE FUNCTION market_traders_of_deleted_markets() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM market_traders t USING old_rows o WHERE t.market_id = o.id;
  RETURN NULL;
END $$;

CREATE TRIGGER trades_traders_ins AFTER INSERT ON trades REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION market_traders_rows();
CREATE TRIGGER trades_traders_upd AFTER UPDATE ON trades REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION market_traders_rows();
CREATE TRIGGER trades_traders_del AFTER DELETE ON trades REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION market_traders_rows();
CREATE TRIGGER trades_traders_truncate AFTER TRUNCATE ON trades
  FOR EACH STATEMENT EXECUTE FUNCTION market_traders_truncate();
CREATE TRIGGER markets_traders_del AFTER DELETE ON markets REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION market_traders_of_deleted_markets();

-- ------------------------------------------------------------------------------ reply_count

ALTER TABLE comments ADD COLUMN reply_count integer NOT NULL DEFAULT 0 CHECK (reply_count >= 0);

-- A reply may be written before its parent (the parent key is deferred), so a new comment also
-- counts the replies already there that came in earlier statements.
CREATE FUNCTION comment_replies_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE comments c SET reply_count = c.reply_count + d.n
      FROM (SELECT id, sum(n) AS n
              FROM (SELECT parent_id AS id, count(*) AS n FROM new_rows WHERE parent_id IS NOT NULL GROUP BY 1
                    UNION ALL
                    SELECT r.parent_id, count(*) FROM new_rows p JOIN comments r ON r.parent_id = p.id
                     WHERE NOT EXISTS (SELECT 1 FROM new_rows x WHERE x.id = r.id) GROUP BY 1) x
             GROUP BY 1 ORDER BY 1) d
     WHERE c.id = d.id;
  ELSE
    UPDATE comments c SET reply_count = c.reply_count - d.n
      FROM (SELECT parent_id AS id, count(*) AS n FROM old_rows WHERE parent_id IS NOT NULL GROUP BY 1 ORDER BY 1) d
     WHERE c.id = d.id;
  END IF;
  RETURN NULL;
END $$;

-- Row by row, and only when parent_id changes: never for the updates of reply_count above.
CREATE FUNCTION comment_replies_move() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE comments SET reply_count = reply_count - 1 WHERE id = OLD.parent_id;
  UPDATE comments SET reply_count = reply_count + 1 WHERE id = NEW.parent_id;
  RETURN NULL;
END $$;

CREATE TRIGGER comments_replies_ins AFTER INSERT ON comments REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION comment_replies_rows();
CREATE TRIGGER comments_replies_del AFTER DELETE ON comments REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION comment_replies_rows();
CREATE TRIGGER comments_replies_upd AFTER UPDATE OF parent_id ON comments FOR EACH ROW
  WHEN (OLD.parent_id IS DISTINCT FROM NEW.parent_id)
  EXECUTE FUNCTION comment_replies_move();

-- ------------------------------------------------------------------------------ bulk loads

-- Rebuilds market_traders and reply_count from the rows, for every market: the backfill below, and
-- the seed, which loads with the row triggers off (set_row_derived_triggers) and rebuilds once,
-- with the indexes of the tables dropped meanwhile.
CREATE FUNCTION rebuild_row_derived() RETURNS void LANGUAGE plpgsql AS $$
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
END $$;

-- The row triggers of market_traders and reply_count, on or off (ALTER TABLE: in the caller's
-- transaction, rolled back with it).
CREATE FUNCTION set_row_derived_triggers(enabled boolean) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  verb text := CASE WHEN enabled THEN 'ENABLE' ELSE 'DISABLE' END;
BEGIN
  EXECUTE format('ALTER TABLE trades %1$s TRIGGER trades_traders_ins, %1$s TRIGGER trades_traders_upd, %1$s TRIGGER trades_traders_del', verb);
  EXECUTE format('ALTER TABLE comments %1$s TRIGGER comments_replies_ins, %1$s TRIGGER comments_replies_del, %1$s TRIGGER comments_replies_upd', verb);
END $$;

SET LOCAL maintenance_work_mem = '256MB';
SELECT rebuild_row_derived();
ALTER TABLE market_traders ADD PRIMARY KEY (market_id, user_id);
-- A market's top ten without reading all of its traders.
CREATE INDEX market_traders_top_idx ON market_traders (market_id, volume DESC);
