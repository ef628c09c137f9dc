-- Trades announce themselves as kind 'trade' (they were 'price'), so that the push channels can signal a
-- market's trade tape (`market:{slug}:trades`) apart from probability changes, while the price channel and
-- the response cache treat a trade as before (lib/events/market-events.ts).
DROP TRIGGER trades_notify_ins ON trades;
DROP TRIGGER trades_notify_upd ON trades;
DROP TRIGGER trades_notify_del ON trades;
CREATE TRIGGER trades_notify_ins AFTER INSERT ON trades REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_market_events('trade');
CREATE TRIGGER trades_notify_upd AFTER UPDATE ON trades REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_market_events('trade');
CREATE TRIGGER trades_notify_del AFTER DELETE ON trades REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_market_events('trade');
