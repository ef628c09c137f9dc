-- The comments' reply counts rebuilt on their own: the venues seed writes the top traders and candles with
-- its trades, final (lib/seed/venue-trades.ts), and needs only this part of rebuild_row_derived()
-- (migrations 0005 and 0009), which now calls it.
CREATE FUNCTION rebuild_reply_counts() RETURNS void LANGUAGE sql AS $$
  UPDATE comments c SET reply_count = r.n
    FROM (SELECT parent_id, count(*)::int AS n FROM comments WHERE parent_id IS NOT NULL GROUP BY 1) r
   WHERE c.id = r.parent_id AND c.reply_count <> r.n;
  UPDATE comments c SET reply_count = 0
   WHERE c.reply_count <> 0 AND NOT EXISTS (SELECT 1 FROM comments r WHERE r.parent_id = c.id);
$$;

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
  PERFORM rebuild_reply_counts();
  PERFORM rebuild_candles();
END $$;
