-- Push-channel source: every change to orders, trades, venue books, outcome probabilities or a
-- market's visible fields sends NOTIFY market_events '{"k":"price"|"orderbook","s":slug,"o":outcome_id|null}'.
-- Statement-level triggers with transition tables: a bulk import or COPY sends one notification
-- per distinct (kind, market, outcome) and statement, and PostgreSQL folds identical payloads of one
-- transaction into one, delivered at commit to every listening app instance.

-- Tables with an outcome_id column (orders, trades, external_books); TG_ARGV[0] is the kind.
CREATE FUNCTION notify_market_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('market_events', json_build_object('k', TG_ARGV[0], 's', m.slug, 'o', x.outcome_id)::text)
      FROM (SELECT DISTINCT outcome_id FROM old_rows) x
      JOIN outcomes oc ON oc.id = x.outcome_id
      JOIN markets m ON m.id = oc.market_id;
  ELSE
    PERFORM pg_notify('market_events', json_build_object('k', TG_ARGV[0], 's', m.slug, 'o', x.outcome_id)::text)
      FROM (SELECT DISTINCT outcome_id FROM new_rows) x
      JOIN outcomes oc ON oc.id = x.outcome_id
      JOIN markets m ON m.id = oc.market_id;
  END IF;
  RETURN NULL;
END $$;

-- A changed probability moves the price.
CREATE FUNCTION notify_outcome_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('market_events', json_build_object('k', 'price', 's', m.slug, 'o', x.id)::text)
    FROM (SELECT DISTINCT n.id, n.market_id FROM new_rows n JOIN old_rows o ON o.id = n.id
           WHERE n.probability IS DISTINCT FROM o.probability OR n.name IS DISTINCT FROM o.name) x
    JOIN markets m ON m.id = x.market_id;
  RETURN NULL;
END $$;

-- A market whose visible fields changed (volume, status, question …) signals price, which makes
-- clients refetch the market; the derived columns that every write refreshes do not count.
CREATE FUNCTION notify_market_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('market_events', json_build_object('k', 'price', 's', n.slug, 'o', NULL)::text)
    FROM new_rows n JOIN old_rows o ON o.id = n.id
   WHERE to_jsonb(n) - '{updated_at,comments_count,total_liquidity}'::text[]
         IS DISTINCT FROM to_jsonb(o) - '{updated_at,comments_count,total_liquidity}'::text[];
  RETURN NULL;
END $$;

-- A trigger with transition tables serves one event, hence one per operation.
CREATE TRIGGER orders_notify_ins AFTER INSERT ON orders REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_market_events('orderbook');
CREATE TRIGGER orders_notify_upd AFTER UPDATE ON orders REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_market_events('orderbook');
CREATE TRIGGER orders_notify_del AFTER DELETE ON orders REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_market_events('orderbook');

CREATE TRIGGER trades_notify_ins AFTER INSERT ON trades REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_market_events('price');
CREATE TRIGGER trades_notify_upd AFTER UPDATE ON trades REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_market_events('price');
CREATE TRIGGER trades_notify_del AFTER DELETE ON trades REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_market_events('price');

CREATE TRIGGER external_books_notify_ins AFTER INSERT ON external_books REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_market_events('orderbook');
CREATE TRIGGER external_books_notify_upd AFTER UPDATE ON external_books REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_market_events('orderbook');
CREATE TRIGGER external_books_notify_del AFTER DELETE ON external_books REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_market_events('orderbook');

CREATE TRIGGER outcomes_notify_upd AFTER UPDATE ON outcomes REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_outcome_changes();

CREATE TRIGGER markets_notify_upd AFTER UPDATE ON markets REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_market_changes();
