-- Positions (docs/api.md "Positions"): every announced change gets an integer that is the same on every
-- instance and replica and grows in commit order, and is kept in change_log for the retention window,
-- so that a stream can be resumed from any position inside it.
--
-- Why commit order holds: a sequence value is taken before commit, so two writers could commit in the
-- other order than they took their values, and a reader that saw the later value first would move past
-- one that commits after it. Here no value is taken before commit. The triggers announce a change into
-- change_pending (unlogged: its rows never outlive their transaction); a deferred constraint trigger runs
-- at COMMIT, takes one advisory lock that is held until the commit is over and visible, numbers the
-- transaction's changes from the sequence and moves them to change_log. The next writer numbers its
-- changes only after that lock is released, that is after the previous commit is visible (on a replica
-- too: its commit record precedes the next one in the WAL). PostgreSQL already serialises the commits
-- of transactions that NOTIFY (async.c, PreCommit_Notify), and every announcing transaction does, so the
-- lock adds only the numbering and recording to that window.
--
-- The NOTIFY of each change is sent by the same step, after its number, with `p` (position), `a` (when it was numbered, µs since 1970) and, for a
-- book, `v` (its version: the outcome's book_heads row is locked by this transaction, so it is final).
-- A session can switch positions off (SET markets.positions = off): its changes are announced at once,
-- without a position and without a record (the benchmark of their cost uses it; nothing else should).

CREATE SEQUENCE change_position;

CREATE TABLE change_log (
  position bigint PRIMARY KEY,
  -- when the change was numbered, at its commit: grows with position
  at       timestamptz NOT NULL DEFAULT clock_timestamp(),
  -- the announcement: {k, s, m, o, r} as in lib/events/market-events.ts, plus v (book version) and
  -- i (new trade ids, at most 101)
  event    jsonb NOT NULL
);

-- horizon: every position up to it has been dropped (retention); a resume from before it must reset.
CREATE TABLE change_log_state (
  one     boolean PRIMARY KEY DEFAULT true CHECK (one),
  horizon bigint NOT NULL DEFAULT 0
);
INSERT INTO change_log_state DEFAULT VALUES;

-- Only the transaction's first change queues the flush (its row has `first`): one call at commit, however
-- many changes the transaction announced. The flush finds the transaction's rows by `n` from its first one
-- (markets.flush_from), through the index: the table churns, and a scan of it would read every dead row
-- since the last vacuum.
CREATE UNLOGGED TABLE change_pending (
  n     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  event jsonb NOT NULL,
  first boolean NOT NULL DEFAULT false
) WITH (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000);

-- The markets feed (GET /v1/markets/changes): each market's position is that of its last change, so a
-- keyset over it visits every market once and a market changed meanwhile again later. Markets deleted
-- stay as tombstones (their last slug), so that a mirror learns of the deletion.
CREATE TABLE market_positions (
  market_id uuid PRIMARY KEY,
  position  bigint NOT NULL,
  slug      text NOT NULL
);
CREATE UNIQUE INDEX market_positions_position_idx ON market_positions (position) INCLUDE (market_id);

CREATE FUNCTION positions_on() RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT coalesce(lower(current_setting('markets.positions', true)), 'on') NOT IN ('off', 'false', '0', 'no');
$$;

CREATE FUNCTION announce(e json) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  first_n bigint;
BEGIN
  IF NOT positions_on() THEN
    PERFORM pg_notify('market_events', (e::jsonb - 'i')::text);
  ELSIF current_setting('markets.flush_from', true) <> '' THEN
    INSERT INTO change_pending (event) VALUES (e::jsonb);
  ELSE
    -- The first change since the transaction began (or since its last flush: SET CONSTRAINTS … IMMEDIATE)
    -- queues the flush. A savepoint rolled back takes the row and the setting back together.
    INSERT INTO change_pending (event, first) VALUES (e::jsonb, true) RETURNING n INTO first_n;
    PERFORM set_config('markets.flush_from', first_n::text, true);
  END IF;
END $$;

-- At commit: numbers the transaction's changes (each distinct one once), records them, moves the markets
-- they name in the feed and sends their NOTIFYs, in one statement after the lock. Its plans are generic:
-- with the changes as parameters a custom plan always looks cheaper, and planning each commit anew (with
-- the statistics of the jsonb columns) cost more than all the rest of the flush.
CREATE FUNCTION change_flush() RETURNS trigger LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  from_n bigint;
  evs  jsonb[];
  k    int;
  c    int;
  b2   bigint;
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
    RETURNING position, at, event),
  -- Markets: created, deleted, a visible field or an outcome's price changed. The slug is the market's
  -- as this transaction leaves it (a rename announces the old slug last); a deleted one keeps its last.
  moved_markets AS (
    INSERT INTO market_positions (market_id, position, slug)
    SELECT c.m, c.position, coalesce(mk.slug, c.s)
      FROM (SELECT DISTINCT ON ((event->>'m')::uuid) (event->>'m')::uuid AS m, position, event->>'s' AS s
              FROM logged
             WHERE event->>'k' IN ('list', 'price', 'detail', 'market') AND event ? 'm' AND event ? 's'
             ORDER BY (event->>'m')::uuid, position DESC) c
      LEFT JOIN markets mk ON mk.id = c.m
    ON CONFLICT (market_id) DO UPDATE SET position = EXCLUDED.position, slug = EXCLUDED.slug)
  SELECT count(*) INTO sent
    FROM (SELECT pg_notify('market_events', ((event - 'i') || jsonb_build_object('p', position, 'a', (extract(epoch FROM at) * 1000000)::int8))::text)
            FROM logged ORDER BY position) x;

  -- A statement that added more than 100 markets names none: number every market that has no position yet.
  IF EXISTS (SELECT 1 FROM unnest(evs) e WHERE e->>'k' = 'list' AND NOT e ? 'm') THEN
    SELECT count(*) INTO c FROM markets m WHERE NOT EXISTS (SELECT 1 FROM market_positions p WHERE p.market_id = m.id);
    IF c > 0 THEN
      b2 := nextval('change_position');
      IF c > 1 THEN PERFORM setval('change_position', b2 + c - 1); END IF;
      INSERT INTO market_positions (market_id, position, slug)
      SELECT m.id, b2 + row_number() OVER (ORDER BY m.id) - 1, m.slug
        FROM markets m WHERE NOT EXISTS (SELECT 1 FROM market_positions p WHERE p.market_id = m.id);
    END IF;
  END IF;
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER change_pending_flush AFTER INSERT ON change_pending
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.first) EXECUTE FUNCTION change_flush();

-- The markets table truncated: the markets that were in it no longer exist for the feed (every client is
-- told to reset by the `flush` change). Only then: a `flush` also stands for a users change, and the
-- tombstones of deleted markets must stay.
CREATE FUNCTION market_positions_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM market_positions;
  RETURN NULL;
END $$;
CREATE TRIGGER markets_positions_truncate AFTER TRUNCATE ON markets FOR EACH STATEMENT EXECUTE FUNCTION market_positions_truncated();

-- Retention: drops the oldest changes numbered before `keep` ago, at most `batch` of them, and moves the
-- horizon to the last one dropped. Returns how many it dropped (lib/events/change-log-sweeper.ts calls it
-- until fewer than `batch`). Every instance calls it: one trim at a time holds the state row, and another
-- that finds it held returns 0 at once (no wait, no deadlock between two deletes of the same rows).
CREATE FUNCTION change_log_trim(keep interval, batch int) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
  h bigint;
  n int;
BEGIN
  PERFORM 1 FROM change_log_state FOR UPDATE SKIP LOCKED;
  IF NOT FOUND THEN RETURN 0; END IF;
  WITH gone AS (
    DELETE FROM change_log WHERE position IN (SELECT position FROM change_log ORDER BY position LIMIT batch)
      AND at < clock_timestamp() - keep
    RETURNING position)
  SELECT max(position), count(*) INTO h, n FROM gone;
  IF n > 0 THEN UPDATE change_log_state SET horizon = greatest(horizon, h); END IF;
  RETURN n;
END $$;

-- Every market there is now starts the feed.
INSERT INTO market_positions (market_id, position, slug)
SELECT id, nextval('change_position'), slug FROM (SELECT id, slug FROM markets ORDER BY id) m;

-- The announcements, as before, through announce().
CREATE OR REPLACE FUNCTION notify_cache_rows()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  -- TG_ARGV[0]: the kind; the rows name their market by market_id (or are markets themselves).
  IF TG_TABLE_NAME = 'markets' THEN
    PERFORM announce(json_build_object('k', TG_ARGV[0], 's', r.slug, 'm', r.id, 'r', json_build_array(market_group(r)))) FROM old_rows r;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM announce(json_build_object('k', TG_ARGV[0], 's', m.slug, 'm', m.id, 'r', json_build_array(market_group(m))))
      FROM (SELECT DISTINCT market_id FROM old_rows) x JOIN markets m ON m.id = x.market_id;
  ELSE
    PERFORM announce(json_build_object('k', TG_ARGV[0], 's', m.slug, 'm', m.id, 'r', json_build_array(market_group(m))))
      FROM (SELECT DISTINCT market_id FROM new_rows) x JOIN markets m ON m.id = x.market_id;
  END IF;
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION notify_cache_statement()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM announce(json_build_object('k', TG_ARGV[0]));
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION notify_market_changes()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM announce(json_build_object('k', 'price', 's', n.slug, 'm', n.id, 'o', NULL, 'r', market_groups(n, o)))
    FROM new_rows n JOIN old_rows o ON o.id = n.id
   WHERE to_jsonb(n) - '{updated_at,comments_count,total_liquidity,volume_24h}'::text[]
         IS DISTINCT FROM to_jsonb(o) - '{updated_at,comments_count,total_liquidity,volume_24h}'::text[];
  -- The columns the push channels leave out still show in cached answers; a renamed or re-sourced
  -- market invalidates everything of it under its old slug as well.
  PERFORM announce(json_build_object('k', 'detail', 's', n.slug, 'm', n.id, 'r', market_groups(n, o)))
    FROM new_rows n JOIN old_rows o ON o.id = n.id
   WHERE (n.updated_at, n.comments_count, n.total_liquidity) IS DISTINCT FROM (o.updated_at, o.comments_count, o.total_liquidity);
  PERFORM announce(json_build_object('k', 'market', 's', s.slug, 'm', n.id, 'r', market_groups(n, o)))
    FROM new_rows n JOIN old_rows o ON o.id = n.id, LATERAL (VALUES (n.slug), (o.slug)) s (slug)
   WHERE (n.slug, n.external_source) IS DISTINCT FROM (o.slug, o.external_source);
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION notify_market_events()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM announce(json_build_object('k', TG_ARGV[0], 's', m.slug, 'm', m.id, 'o', x.outcome_id, 'r', json_build_array(market_group(m))))
      FROM (SELECT DISTINCT outcome_id FROM old_rows) x
      JOIN outcomes oc ON oc.id = x.outcome_id
      JOIN markets m ON m.id = oc.market_id;
  ELSIF TG_ARGV[0] = 'trade' THEN
    -- New trades name themselves (at most 101: a signal carries 100, the 101st says there were more), in
    -- one pass over the statement's rows however many outcomes it touched.
    PERFORM announce(json_build_object('k', TG_ARGV[0], 's', m.slug, 'm', m.id, 'o', x.outcome_id, 'r', json_build_array(market_group(m)), 'i', x.ids))
      FROM (SELECT outcome_id, to_json((array_agg(id))[1:101]) AS ids FROM new_rows GROUP BY outcome_id) x
      JOIN outcomes oc ON oc.id = x.outcome_id
      JOIN markets m ON m.id = oc.market_id;
  ELSE
    -- Orders and venue books (external_books has no id column, so trade ids cannot be asked for here).
    PERFORM announce(json_build_object('k', TG_ARGV[0], 's', m.slug, 'm', m.id, 'o', x.outcome_id, 'r', json_build_array(market_group(m))))
      FROM (SELECT DISTINCT outcome_id FROM new_rows) x
      JOIN outcomes oc ON oc.id = x.outcome_id
      JOIN markets m ON m.id = oc.market_id;
  END IF;
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION notify_markets_added()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF (SELECT count(*) FROM (SELECT 1 FROM new_rows LIMIT 101) x) <= 100 THEN
    PERFORM announce(json_build_object('k', 'list', 's', r.slug, 'm', r.id, 'r', json_build_array(market_group(r)))) FROM new_rows r;
  ELSE
    PERFORM announce(json_build_object('k', 'list'));
  END IF;
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION notify_outcome_changes()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM announce(json_build_object('k', 'price', 's', m.slug, 'm', m.id, 'o', x.id, 'r', json_build_array(market_group(m))))
    FROM (SELECT DISTINCT n.id, n.market_id FROM new_rows n JOIN old_rows o ON o.id = n.id
           WHERE n.probability IS DISTINCT FROM o.probability OR n.name IS DISTINCT FROM o.name) x
    JOIN markets m ON m.id = x.market_id;
  -- Any other column of an outcome (colour, description, image …) shows on the market and in lists.
  PERFORM announce(json_build_object('k', 'detail', 's', m.slug, 'm', m.id, 'r', json_build_array(market_group(m))))
    FROM (SELECT DISTINCT n.market_id FROM new_rows n JOIN old_rows o ON o.id = n.id
           WHERE to_jsonb(n) IS DISTINCT FROM to_jsonb(o)) x
    JOIN markets m ON m.id = x.market_id;
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION notify_trades_left_outcomes()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM announce(json_build_object('k', 'trade_edit', 's', m.slug, 'm', m.id, 'o', x.outcome_id, 'r', json_build_array(market_group(m))))
    FROM (SELECT DISTINCT outcome_id FROM old_rows EXCEPT SELECT outcome_id FROM new_rows) x
    JOIN outcomes oc ON oc.id = x.outcome_id
    JOIN markets m ON m.id = oc.market_id;
  RETURN NULL;
END $function$;

