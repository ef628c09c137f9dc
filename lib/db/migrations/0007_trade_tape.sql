-- The trade tape (GET /v1/markets/{id}/trades, docs/api.md "Trades"): a market's or one outcome's trades
-- newest first, walked by the keyset (executed_at, id), so that any page is one descent of an index and
-- costs the same at any depth. Both indexes cover every column of a trade (the tape reads them with an
-- index-only scan once vacuumed, and the planner has no reason to prefer a walk of trades_time_idx):
--   * trades_market_time_idx replaces trades_market_idx (market_id) INCLUDE (…), which it serves as well
--     and which had no reader left since top traders are maintained (0005);
--   * trades_outcome_tape_idx replaces trades_outcome_time_idx (outcome_id, executed_at DESC, id DESC)
--     INCLUDE (price) of 0001: same keys, so the price history reads it as before.
CREATE INDEX trades_market_time_idx ON trades (market_id, executed_at DESC, id DESC)
  INCLUDE (outcome_id, price, shares, maker_user_id, taker_user_id);
DROP INDEX trades_market_idx;
CREATE INDEX trades_outcome_tape_idx ON trades (outcome_id, executed_at DESC, id DESC)
  INCLUDE (market_id, price, shares, maker_user_id, taker_user_id);
DROP INDEX trades_outcome_time_idx;
