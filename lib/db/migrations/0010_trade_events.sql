-- Trades announce themselves apart from probability changes (they were 'price'): new trades as 'trade',
-- corrected or deleted ones as 'trade_edit'. The push channels signal a market's trade tape
-- (`market:{slug}:trades`) with the new trades, or tell its watchers to refetch after an edit; the price
-- channel and the response cache treat both as a trade was treated before (lib/events/market-events.ts).
DROP TRIGGER trades_notify_ins ON trades;
DROP TRIGGER trades_notify_upd ON trades;
DROP TRIGGER trades_notify_del ON trades;
CREATE TRIGGER trades_notify_ins AFTER INSERT ON trades REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_market_events('trade');
CREATE TRIGGER trades_notify_upd AFTER UPDATE ON trades REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_market_events('trade_edit');
CREATE TRIGGER trades_notify_del AFTER DELETE ON trades REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_market_events('trade_edit');
