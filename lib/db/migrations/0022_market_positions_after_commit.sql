-- The markets feed's positions (docs/api.md "Markets feed") are moved after the commit, by
-- market_positions_apply(), not inside it. The commits of announcing transactions wait for one another
-- (migration 0021: the numbering lock, and PostgreSQL's own for NOTIFY); moving each changed market's
-- row in market_positions under that lock lengthened the wait of every writer. The change log already
-- names every market-level change in commit order, so the feed's table follows it a moment later.
--
-- Why the feed stays exact: market_positions_apply() applies a prefix of the committed change log (the
-- committed positions are always a prefix: they are numbered under the lock, which is released only
-- after the commit is visible) and records how far it got in market_positions_state.applied; one pass
-- runs at a time, each from where the last one stopped, so a pass only ever gives markets positions
-- above every position an earlier pass made visible. A reader that stops at a position therefore never
-- finds a market appear below it later. A market's position only moves forward.
--
-- A statement that adds more than 100 markets announces one change that names none ('list' without m):
-- the pass that meets it takes the numbering lock (every numbered change is then committed), applies the
-- whole log, and numbers the markets that have no position from the sequence, above all of it.

CREATE TABLE market_positions_state (
  one     boolean PRIMARY KEY DEFAULT true CHECK (one),
  -- every change up to this position is reflected in market_positions
  applied bigint NOT NULL DEFAULT 0
);
-- Until now the commit moved the markets itself: everything logged is applied.
INSERT INTO market_positions_state (applied) SELECT coalesce(max(position), 0) FROM change_log;

CREATE OR REPLACE FUNCTION change_flush() RETURNS trigger LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  from_n bigint;
  evs  jsonb[];
  k    int;
  sent int;
BEGIN
  from_n := coalesce(nullif(current_setting('markets.flush_from', true), '')::bigint, 0);
  PERFORM set_config('markets.flush_from', '', true);
  -- Only this transaction's rows are visible here: every other transaction's are uncommitted or deleted.
  -- (A range with two ends: the generic plan then reads the index, never the whole table.) Before the
  -- lock: commits wait for it one after another, so it covers only what needs the order.
  WITH moved AS (DELETE FROM change_pending WHERE n BETWEEN from_n AND from_n + 1e15::bigint RETURNING n, event)
  SELECT array_agg(e.event ORDER BY e.n) INTO evs FROM (SELECT min(n) AS n, event FROM moved GROUP BY event) e;
  k := coalesce(cardinality(evs), 0);
  IF k = 0 THEN RETURN NULL; END IF;
  PERFORM pg_advisory_xact_lock(727275);

  WITH logged AS (
    -- numbered in announcement order (a volatile output is computed after the sort)
    INSERT INTO change_log (position, event)
    SELECT nextval('change_position'),
           CASE WHEN u.e->>'k' = 'orderbook' AND u.e ? 'o'
                THEN u.e || coalesce((SELECT jsonb_build_object('v', h.version) FROM book_heads h WHERE h.outcome_id = (u.e->>'o')::uuid), '{}')
                ELSE u.e END
      FROM unnest(evs) WITH ORDINALITY AS u (e, ord)
     ORDER BY u.ord
    RETURNING position, at, event)
  SELECT count(*) INTO sent
    FROM (SELECT pg_notify('market_events', ((event - 'i') || jsonb_build_object('p', position, 'a', (extract(epoch FROM at) * 1000000)::int8))::text)
            FROM logged ORDER BY position) x;

  RETURN NULL;
END $$;
-- One pass over at most `batch` changes after the applied position (all of them when one names no market).
-- Returns how many changes it read; 0 when another pass is running (it holds the state row).
CREATE FUNCTION market_positions_apply(batch int) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
  a    bigint;
  top  bigint;
  n    int;
  bulk boolean;
  c    int;
  b    bigint;
BEGIN
  SELECT applied INTO a FROM market_positions_state FOR UPDATE SKIP LOCKED;
  IF NOT FOUND THEN RETURN 0; END IF;
  SELECT max(position), count(*), coalesce(bool_or(event->>'k' = 'list' AND NOT event ? 'm'), false) INTO top, n, bulk
    FROM (SELECT position, event FROM change_log WHERE position > a ORDER BY position LIMIT batch) w;
  IF n = 0 THEN RETURN 0; END IF;
  IF bulk THEN
    -- Every change numbered so far is committed once the lock is granted; this statement sees them all.
    PERFORM pg_advisory_xact_lock(727275);
    SELECT max(position), count(*) INTO top, n FROM change_log WHERE position > a;
  END IF;
  -- Markets: created, deleted, a visible field or an outcome's price changed. The slug is the market's
  -- as it is now; a deleted market keeps the last one it was announced with (a tombstone).
  INSERT INTO market_positions AS p (market_id, position, slug)
  SELECT c.m, c.position, coalesce(mk.slug, c.s)
    FROM (SELECT DISTINCT ON ((event->>'m')::uuid) (event->>'m')::uuid AS m, position, event->>'s' AS s
            FROM change_log
           WHERE position > a AND position <= top
             AND event->>'k' IN ('list', 'price', 'detail', 'market') AND event ? 'm' AND event ? 's'
           ORDER BY (event->>'m')::uuid, position DESC) c
    LEFT JOIN markets mk ON mk.id = c.m
  ON CONFLICT (market_id) DO UPDATE SET position = EXCLUDED.position, slug = EXCLUDED.slug
   WHERE p.position < EXCLUDED.position;
  IF bulk THEN
    SELECT count(*) INTO c FROM markets m WHERE NOT EXISTS (SELECT 1 FROM market_positions p WHERE p.market_id = m.id);
    IF c > 0 THEN
      b := nextval('change_position');
      IF c > 1 THEN PERFORM setval('change_position', b + c - 1); END IF;
      INSERT INTO market_positions (market_id, position, slug)
      SELECT m.id, b + row_number() OVER (ORDER BY m.id) - 1, m.slug
        FROM markets m WHERE NOT EXISTS (SELECT 1 FROM market_positions p WHERE p.market_id = m.id);
    END IF;
  END IF;
  UPDATE market_positions_state SET applied = top;
  RETURN n;
END $$;

-- The markets table truncated: what the log said of the markets that were in it is moot (their
-- positions are gone, and must not come back as tombstones).
CREATE OR REPLACE FUNCTION market_positions_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM market_positions;
  UPDATE market_positions_state SET applied = greatest(applied, (SELECT coalesce(max(position), 0) FROM change_log));
  RETURN NULL;
END $$;

-- Retention never drops a change the feed's table has not taken yet.
CREATE OR REPLACE FUNCTION change_log_trim(keep interval, batch int) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
  h bigint;
  n int;
BEGIN
  PERFORM 1 FROM change_log_state FOR UPDATE SKIP LOCKED;
  IF NOT FOUND THEN RETURN 0; END IF;
  WITH gone AS (
    DELETE FROM change_log WHERE position IN (SELECT position FROM change_log ORDER BY position LIMIT batch)
      AND at < clock_timestamp() - keep
      AND position <= (SELECT applied FROM market_positions_state)
    RETURNING position)
  SELECT max(position), count(*) INTO h, n FROM gone;
  IF n > 0 THEN UPDATE change_log_state SET horizon = greatest(horizon, h); END IF;
  RETURN n;
END $$;
