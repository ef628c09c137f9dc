-- The trade tape (GET /v1/markets/{id}/trades, docs/api.md "Trades"): a market's trades newest first,
-- walked by the keyset (executed_at, id), so that any page is one descent of this index and costs the
-- same at any depth. It covers every column the tape shows (an index-only scan once vacuumed), and it
-- replaces trades_market_idx (market_id) INCLUDE (…): it serves any lookup by market as well, and that
-- one had no reader left since top traders are maintained (0005).
-- One outcome's tape walks trades_outcome_time_idx (outcome_id, executed_at DESC, id DESC) of 0001.
CREATE INDEX trades_market_time_idx ON trades (market_id, executed_at DESC, id DESC)
  INCLUDE (outcome_id, price, shares, maker_user_id, taker_user_id);
DROP INDEX trades_market_idx;
