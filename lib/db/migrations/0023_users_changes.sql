-- A users change (a name or a picture) is announced as a kind of its own, `users`
-- (lib/events/market-events.ts), no longer as `flush`. The caches still drop everything for it (a user shows
-- in the comments, top traders and trades of any market), but the streams have nothing to start again: no
-- book, trade or market they hold was changed by it, and every import that upserts its users used to send
-- every stream client a reset (docs/api.md "Positions").
DROP TRIGGER users_cache_upd ON users;
DROP TRIGGER users_cache_del ON users;
CREATE TRIGGER users_cache_upd AFTER UPDATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION notify_cache_statement('users');
CREATE TRIGGER users_cache_del AFTER DELETE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION notify_cache_statement('users');
