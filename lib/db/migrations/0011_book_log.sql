-- Book versions and the record of every past book (docs/api.md "Book versions" and "Past books").
--
--   book_depth     resting LIMIT shares per (outcome, side, price) of every order: what the served book
--                  is netted from, kept from the orders' transition tables (as migration 0005 keeps its counters)
--   book_levels    the served native book (crossing levels netted, dust ≤ 0.05 dropped), exactly what
--                  GET …/orderbook shows; a mirrored outcome's served book is book_heads.served instead
--   book_heads     per outcome: version (advances once per statement that changes the served book; from
--                  the database, so the same on every instance and replica), changed_at (the version's time)
--   book_changes   one row per version: the levels that changed ("side price shares", shares 0.00 =
--                  removed) or, with replace, the whole book; partitioned by day on `at`
--   book_snapshots the whole served book every BOOK_SNAPSHOT_EVERY versions (and after a gap or a
--                  replace), so that any moment is one snapshot plus fewer than that many changes
--
-- Writers of one outcome's book are serialised by its book_heads row (locked first, held to commit), and
-- a version's time is taken after that lock (never earlier than the previous one's), so per outcome the
-- order of versions, of their times and of their commits is the same.
-- The record can be switched off per session or database (SET markets.book_log = off); versions are
-- kept either way. Old days are dropped whole by book_log_maintain() (lib/markets/book-log-sweeper.ts).

CREATE TYPE book_delta AS (outcome_id uuid, side order_side, price numeric, shares numeric);

CREATE TABLE book_depth (
  outcome_id uuid NOT NULL,
  side       order_side NOT NULL,
  price      numeric(4,3) NOT NULL,
  shares     numeric(20,2) NOT NULL,
  PRIMARY KEY (outcome_id, side, price)
);

CREATE TABLE book_levels (
  outcome_id uuid NOT NULL,
  side       order_side NOT NULL,
  price      numeric(4,3) NOT NULL,
  shares     numeric(20,2) NOT NULL,
  PRIMARY KEY (outcome_id, side, price)
);

-- No foreign keys: TRUNCATE outcomes (the seed's reset) must not need to name these tables.
CREATE TABLE book_heads (
  outcome_id       uuid PRIMARY KEY,
  version          bigint NOT NULL DEFAULT 0,
  changed_at       timestamptz NOT NULL DEFAULT '-infinity',
  -- a mirrored outcome's served book as text (book_text order), null for a native one
  served           text,
  logged_version   bigint NOT NULL DEFAULT 0,
  snapshot_version bigint NOT NULL DEFAULT 0,
  -- the depth's best bid reaches its best ask: netting changes the served book beyond the prices written
  crossed          boolean NOT NULL DEFAULT false
);

CREATE TABLE book_changes (
  outcome_id uuid NOT NULL,
  version    bigint NOT NULL,
  at         timestamptz NOT NULL,
  replace    boolean NOT NULL DEFAULT false,
  levels     text NOT NULL
) PARTITION BY RANGE (at);
CREATE INDEX book_changes_version_idx ON book_changes (outcome_id, version);

CREATE TABLE book_snapshots (
  outcome_id uuid NOT NULL,
  version    bigint NOT NULL,
  -- from when it applies: the version's time, or the start of the oldest kept day for a carried one
  at         timestamptz NOT NULL,
  version_at timestamptz NOT NULL,
  levels     text NOT NULL
) PARTITION BY RANGE (at);
CREATE INDEX book_snapshots_at_idx ON book_snapshots (outcome_id, at, version);

-- Inserts never fail for want of a day: book_log_maintain() creates days ahead and moves any rows that
-- landed here into their day when it creates it.
CREATE TABLE book_changes_default PARTITION OF book_changes DEFAULT;
CREATE TABLE book_snapshots_default PARTITION OF book_snapshots DEFAULT;

CREATE TABLE book_log_state (
  one        boolean PRIMARY KEY DEFAULT true CHECK (one),
  started_at timestamptz NOT NULL
);
INSERT INTO book_log_state (started_at) VALUES (now());

-- ------------------------------------------------------------------------------ text forms

-- A list of levels as stored in the log: "b 0.500 12.00,a 0.510 3.00" (side b or a, price with three
-- decimals, shares with two), bids first, each side in the served order. '' is an empty book.
CREATE FUNCTION book_levels_text(o uuid) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT coalesce(string_agg(CASE WHEN side = 'BUY' THEN 'b ' ELSE 'a ' END || price::text || ' ' || shares::text, ','
                             ORDER BY side, CASE WHEN side = 'BUY' THEN -price ELSE price END), '')
    FROM book_levels WHERE outcome_id = o;
$$;

-- A venue's stored book as the API serves it (lib/markets/order-book.ts formatExternalBook): prices
-- rounded to three decimals and shares to two, half up; bids highest first, asks lowest first, levels of
-- one price in their stored order; nothing netted, merged or dropped.
CREATE FUNCTION book_venue_text(bids jsonb, asks jsonb) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(string_agg(s || ' ' || round(p, 3)::numeric(20,3)::text || ' ' || round(q, 2)::numeric(30,2)::text, ','
                             ORDER BY s DESC, CASE WHEN s = 'b' THEN -round(p, 3) ELSE round(p, 3) END, n), '')
    FROM (SELECT 'b' AS s, (l->>'price')::numeric AS p, (l->>'shares')::numeric AS q, n
            FROM jsonb_array_elements(coalesce(bids, '[]')) WITH ORDINALITY AS x (l, n)
          UNION ALL
          SELECT 'a', (l->>'price')::numeric, (l->>'shares')::numeric, n
            FROM jsonb_array_elements(coalesce(asks, '[]')) WITH ORDINALITY AS x (l, n)) v;
$$;

-- ------------------------------------------------------------------------------ netting

-- The served native book of one outcome from its depth: the same rules as buildNativeBook (crossing
-- levels matched away best first, then levels of 0.05 shares or less dropped).
CREATE FUNCTION book_netted(o uuid) RETURNS TABLE (side order_side, price numeric, shares numeric)
LANGUAGE plpgsql STABLE AS $$
DECLARE
  bp numeric[]; bs numeric[]; ap numeric[]; sa numeric[];
  b int := 1; a int := 1; m numeric;
BEGIN
  SELECT coalesce(array_agg(d.price ORDER BY d.price DESC), '{}'), coalesce(array_agg(d.shares ORDER BY d.price DESC), '{}')
    INTO bp, bs FROM book_depth d WHERE d.outcome_id = o AND d.side = 'BUY' AND d.shares > 0;
  SELECT coalesce(array_agg(d.price ORDER BY d.price), '{}'), coalesce(array_agg(d.shares ORDER BY d.price), '{}')
    INTO ap, sa FROM book_depth d WHERE d.outcome_id = o AND d.side = 'SELL' AND d.shares > 0;
  WHILE b <= cardinality(bp) AND a <= cardinality(ap) AND bp[b] >= ap[a] LOOP
    m := least(bs[b], sa[a]);
    bs[b] := bs[b] - m;
    sa[a] := sa[a] - m;
    IF bs[b] = 0 THEN b := b + 1; END IF;
    IF sa[a] = 0 THEN a := a + 1; END IF;
  END LOOP;
  RETURN QUERY SELECT 'BUY'::order_side, x.p, x.s FROM unnest(bp[b:], bs[b:]) AS x (p, s) WHERE x.s > 0.05;
  RETURN QUERY SELECT 'SELL'::order_side, x.p, x.s FROM unnest(ap[a:], sa[a:]) AS x (p, s) WHERE x.s > 0.05;
END $$;

-- ------------------------------------------------------------------------------ recording

CREATE FUNCTION book_log_on() RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT coalesce(lower(current_setting('markets.book_log', true)), 'on') NOT IN ('off', 'false', '0', 'no');
$$;

-- Every this many versions an outcome's whole book is written again: a past book is one snapshot and
-- fewer than this many changes.
CREATE FUNCTION book_snapshot_every() RETURNS integer LANGUAGE sql IMMUTABLE AS 'SELECT 200';

-- Brings the served books of these outcomes up to date with their sources (native: book_depth;
-- mirrored: external_books) and, for each whose served book changed, advances its version and records
-- the change. Locks the heads in id order first. With `keys` (the prices a statement wrote), a native book
-- whose depth is not crossed, before or after, is compared at those prices only: there the served book is
-- the depth without dust, level by level. Otherwise the whole book is netted again and compared.
CREATE FUNCTION book_record(ids uuid[], keys book_delta[] DEFAULT NULL) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  fast boolean;
  crossed_now boolean;
  o uuid;
  src text;          -- NULL: the outcome is gone; 'native' or 'venue'
  h book_heads;
  changed text;
  replaced boolean;
  v bigint;
  t timestamptz;
  full_text text;
  log_on boolean := book_log_on();
BEGIN
  IF ids IS NULL OR cardinality(ids) = 0 THEN RETURN; END IF;
  INSERT INTO book_heads (outcome_id) SELECT DISTINCT x FROM unnest(ids) x ORDER BY 1 ON CONFLICT DO NOTHING;
  PERFORM 1 FROM book_heads WHERE outcome_id = ANY(ids) ORDER BY outcome_id FOR UPDATE;
  FOR o IN SELECT DISTINCT x FROM unnest(ids) x ORDER BY 1 LOOP
    SELECT CASE WHEN m.external_source IS NULL THEN 'native' ELSE 'venue' END INTO src
      FROM outcomes oc JOIN markets m ON m.id = oc.market_id WHERE oc.id = o;
    IF src IS NULL THEN
      -- A deleted outcome: nothing serves its book any more (its log ages out with the rest).
      DELETE FROM book_heads WHERE outcome_id = o;
      DELETE FROM book_levels WHERE outcome_id = o;
      DELETE FROM book_depth WHERE outcome_id = o;
      CONTINUE;
    END IF;
    SELECT * INTO h FROM book_heads WHERE outcome_id = o;
    IF src = 'native' THEN
      replaced := h.served IS NOT NULL; -- it was mirrored: the whole book replaces the venue's
      crossed_now := coalesce((SELECT max(d.price) FROM book_depth d WHERE d.outcome_id = o AND d.side = 'BUY')
                              >= (SELECT min(d.price) FROM book_depth d WHERE d.outcome_id = o AND d.side = 'SELL'), false);
      fast := keys IS NOT NULL AND NOT replaced AND NOT h.crossed AND NOT crossed_now;
      IF crossed_now IS DISTINCT FROM h.crossed THEN UPDATE book_heads SET crossed = crossed_now WHERE outcome_id = o; END IF;
      WITH k AS (SELECT DISTINCT x.side, x.price FROM unnest(keys) x WHERE fast AND x.outcome_id = o),
           n AS (SELECT x.side, x.price, x.shares FROM book_netted(o) x WHERE NOT fast
                 UNION ALL
                 SELECT d.side, d.price, d.shares FROM book_depth d JOIN k ON k.side = d.side AND k.price = d.price
                  WHERE fast AND d.outcome_id = o AND d.shares > 0.05),
           c AS (SELECT l.side, l.price, l.shares FROM book_levels l
                  WHERE l.outcome_id = o AND (NOT fast OR EXISTS (SELECT 1 FROM k WHERE k.side = l.side AND k.price = l.price))),
           diff AS (
             SELECT coalesce(n.side, c.side) AS side, coalesce(n.price, c.price) AS price, coalesce(n.shares, 0.00) AS shares
               FROM n FULL JOIN c ON c.side = n.side AND c.price = n.price
              WHERE n.shares IS DISTINCT FROM c.shares),
           del AS (DELETE FROM book_levels l USING diff
                    WHERE l.outcome_id = o AND l.side = diff.side AND l.price = diff.price AND diff.shares = 0),
           ins AS (INSERT INTO book_levels AS l (outcome_id, side, price, shares)
                   SELECT o, diff.side, diff.price, diff.shares FROM diff WHERE diff.shares > 0
                   ON CONFLICT (outcome_id, side, price) DO UPDATE SET shares = EXCLUDED.shares)
      SELECT string_agg(CASE WHEN diff.side = 'BUY' THEN 'b ' ELSE 'a ' END || diff.price::numeric(4,3)::text || ' ' || diff.shares::numeric(20,2)::text, ','
                        ORDER BY diff.side, CASE WHEN diff.side = 'BUY' THEN -diff.price ELSE diff.price END)
        INTO changed FROM diff;
      IF replaced THEN
        changed := book_levels_text(o); -- the whole native book, after the levels above
      END IF;
      IF changed IS NULL THEN CONTINUE; END IF;
      full_text := CASE WHEN replaced THEN changed END; -- else read for a snapshot, when one is due
    ELSE
      full_text := (SELECT book_venue_text(e.bids, e.asks) FROM external_books e WHERE e.outcome_id = o);
      full_text := coalesce(full_text, '');
      IF h.served IS NOT DISTINCT FROM full_text AND NOT EXISTS (SELECT 1 FROM book_levels WHERE outcome_id = o) THEN CONTINUE; END IF;
      DELETE FROM book_levels WHERE outcome_id = o; -- it was native
      replaced := true;
      changed := full_text;
    END IF;

    UPDATE book_heads SET version = version + 1, changed_at = greatest(clock_timestamp(), changed_at),
                          served = CASE WHEN src = 'venue' THEN full_text END
     WHERE outcome_id = o RETURNING version, changed_at INTO v, t;
    IF log_on THEN
      INSERT INTO book_changes (outcome_id, version, at, replace, levels) VALUES (o, v, t, replaced, changed);
      IF replaced OR h.snapshot_version = 0 OR h.logged_version <> v - 1 OR v - h.snapshot_version >= book_snapshot_every() THEN
        INSERT INTO book_snapshots (outcome_id, version, at, version_at, levels)
        VALUES (o, v, t, t, coalesce(full_text, book_levels_text(o)));
        UPDATE book_heads SET logged_version = v, snapshot_version = v WHERE outcome_id = o;
      ELSE
        UPDATE book_heads SET logged_version = v WHERE outcome_id = o;
      END IF;
    END IF;
  END LOOP;
END $$;

-- Adds resting-share deltas to book_depth (keys in order, so writers lock rows alike) and records the
-- books they touched.
CREATE FUNCTION book_apply(deltas book_delta[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  ids uuid[];
BEGIN
  SELECT array_agg(DISTINCT d.outcome_id) INTO ids FROM unnest(deltas) d;
  IF ids IS NULL THEN RETURN; END IF;
  -- The heads first: the writers of one book wait here, before reading anything of it.
  INSERT INTO book_heads (outcome_id) SELECT x FROM unnest(ids) x ORDER BY 1 ON CONFLICT DO NOTHING;
  PERFORM 1 FROM book_heads WHERE outcome_id = ANY(ids) ORDER BY outcome_id FOR UPDATE;
  INSERT INTO book_depth AS b (outcome_id, side, price, shares)
  SELECT d.outcome_id, d.side, d.price, d.shares FROM unnest(deltas) d ORDER BY 1, 2, 3
  ON CONFLICT (outcome_id, side, price) DO UPDATE SET shares = b.shares + EXCLUDED.shares;
  DELETE FROM book_depth b USING unnest(deltas) d
   WHERE b.outcome_id = d.outcome_id AND b.side = d.side AND b.price = d.price AND b.shares = 0;
  PERFORM book_record(ids, deltas);
END $$;

-- Orders: what each statement added to and took from the resting LIMIT shares.
CREATE FUNCTION book_orders_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  deltas book_delta[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(ROW(outcome_id, side, price, s)::book_delta) INTO deltas
      FROM (SELECT outcome_id, side, price, sum(shares - filled_shares) AS s FROM new_rows
             WHERE type = 'LIMIT' AND status IN ('OPEN', 'PARTIALLY_FILLED') AND shares > filled_shares
             GROUP BY 1, 2, 3) x;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(ROW(outcome_id, side, price, -s)::book_delta) INTO deltas
      FROM (SELECT outcome_id, side, price, sum(shares - filled_shares) AS s FROM old_rows
             WHERE type = 'LIMIT' AND status IN ('OPEN', 'PARTIALLY_FILLED') AND shares > filled_shares
             GROUP BY 1, 2, 3) x;
  ELSE
    SELECT array_agg(ROW(outcome_id, side, price, s)::book_delta) INTO deltas
      FROM (SELECT outcome_id, side, price, sum(s) AS s
              FROM (SELECT outcome_id, side, price, shares - filled_shares AS s FROM new_rows
                     WHERE type = 'LIMIT' AND status IN ('OPEN', 'PARTIALLY_FILLED')
                    UNION ALL
                    SELECT outcome_id, side, price, -(shares - filled_shares) FROM old_rows
                     WHERE type = 'LIMIT' AND status IN ('OPEN', 'PARTIALLY_FILLED')) u
             GROUP BY 1, 2, 3 HAVING sum(s) <> 0) x;
  END IF;
  IF deltas IS NOT NULL THEN PERFORM book_apply(deltas); END IF;
  RETURN NULL;
END $$;

-- Venue books: the outcomes whose stored book was written.
CREATE FUNCTION book_venue_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM book_record((SELECT array_agg(DISTINCT outcome_id) FROM old_rows));
  ELSE
    PERFORM book_record((SELECT array_agg(DISTINCT outcome_id) FROM new_rows));
  END IF;
  RETURN NULL;
END $$;

-- A market that changes source (native ↔ mirrored) serves another book for each of its outcomes.
-- Row by row, and only then: the frequent updates of a market's derived columns never reach it.
CREATE FUNCTION book_market_resourced() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM book_record((SELECT array_agg(oc.id) FROM outcomes oc WHERE oc.market_id = NEW.id));
  RETURN NULL;
END $$;

-- Everything again from the rows: after a TRUNCATE, and the backfill below.
CREATE FUNCTION book_resync() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM book_depth;
  INSERT INTO book_depth (outcome_id, side, price, shares)
  SELECT outcome_id, side, price, sum(shares - filled_shares) FROM orders
   WHERE type = 'LIMIT' AND status IN ('OPEN', 'PARTIALLY_FILLED') AND shares > filled_shares
   GROUP BY 1, 2, 3;
  PERFORM book_record((SELECT array_agg(DISTINCT x) FROM (
    SELECT outcome_id AS x FROM book_depth UNION SELECT outcome_id FROM book_heads
    UNION SELECT outcome_id FROM external_books) u));
END $$;

CREATE FUNCTION book_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM book_resync();
  RETURN NULL;
END $$;

CREATE TRIGGER orders_book_ins AFTER INSERT ON orders REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION book_orders_changed();
CREATE TRIGGER orders_book_upd AFTER UPDATE ON orders REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION book_orders_changed();
CREATE TRIGGER orders_book_del AFTER DELETE ON orders REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION book_orders_changed();
CREATE TRIGGER orders_book_truncate AFTER TRUNCATE ON orders
  FOR EACH STATEMENT EXECUTE FUNCTION book_truncated();

CREATE TRIGGER external_books_book_ins AFTER INSERT ON external_books REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION book_venue_changed();
CREATE TRIGGER external_books_book_upd AFTER UPDATE ON external_books REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION book_venue_changed();
CREATE TRIGGER external_books_book_del AFTER DELETE ON external_books REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION book_venue_changed();
CREATE TRIGGER external_books_book_truncate AFTER TRUNCATE ON external_books
  FOR EACH STATEMENT EXECUTE FUNCTION book_truncated();

CREATE TRIGGER markets_book_resourced AFTER UPDATE OF external_source ON markets FOR EACH ROW
  WHEN ((OLD.external_source IS NULL) <> (NEW.external_source IS NULL))
  EXECUTE FUNCTION book_market_resourced();

-- ------------------------------------------------------------------------------ reading the past

-- The served book of an outcome as of time T, rebuilt from the log, as (version, version's time, text),
-- or nothing when the log cannot say (not recorded then). Used when old days are dropped; the API
-- rebuilds in lib/markets/book-log.ts the same way.
CREATE FUNCTION book_text_at(o uuid, ts timestamptz) RETURNS TABLE (version bigint, version_at timestamptz, levels text)
LANGUAGE plpgsql STABLE AS $$
DECLARE
  s record;
  last_v bigint;
  last_at timestamptz;
  txt text;
BEGIN
  SELECT x.version, x.version_at, x.levels INTO s FROM book_snapshots x
   WHERE x.outcome_id = o AND x.at <= ts ORDER BY x.at DESC, x.version DESC LIMIT 1;
  IF NOT FOUND THEN RETURN; END IF;
  SELECT max(c.version), max(c.at) INTO last_v, last_at FROM book_changes c
   WHERE c.outcome_id = o AND c.version > s.version AND c.version < s.version + book_snapshot_every() AND c.at <= ts;
  IF last_v IS NULL THEN
    RETURN QUERY SELECT s.version, s.version_at, s.levels;
    RETURN;
  END IF;
  -- Each level's last value: the snapshot's, overwritten by each change in version order.
  SELECT coalesce(string_agg(k || ' ' || p || ' ' || q, ',' ORDER BY k DESC, CASE WHEN k = 'b' THEN -p::numeric ELSE p::numeric END), '')
    INTO txt
    FROM (SELECT DISTINCT ON (k, p::numeric) k, p, q
            FROM (SELECT s.version AS v, split_part(l, ' ', 1) AS k, split_part(l, ' ', 2) AS p, split_part(l, ' ', 3) AS q
                    FROM string_to_table(s.levels, ',') l WHERE l <> ''
                  UNION ALL
                  SELECT c.version, split_part(l, ' ', 1), split_part(l, ' ', 2), split_part(l, ' ', 3)
                    FROM book_changes c, string_to_table(c.levels, ',') l
                   WHERE c.outcome_id = o AND c.version > s.version AND c.version <= last_v AND l <> '') u
           ORDER BY k, p::numeric, v DESC) w
   WHERE q::numeric > 0;
  RETURN QUERY SELECT last_v, last_at, txt;
END $$;

-- ------------------------------------------------------------------------------ days and retention

CREATE FUNCTION book_log_day_name(base text, d date) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT base || '_p' || to_char(d, 'YYYYMMDD');
$$;

-- Creates the day [d, d + 1) (UTC) of both log tables if missing, moving in any rows the default
-- partition holds for it.
CREATE FUNCTION book_log_create_day(d date) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  base text;
  lo timestamptz := d::timestamp AT TIME ZONE 'UTC';
  hi timestamptz := (d + 1)::timestamp AT TIME ZONE 'UTC';
  made boolean := false;
BEGIN
  FOREACH base IN ARRAY ARRAY['book_changes', 'book_snapshots'] LOOP
    IF to_regclass(book_log_day_name(base, d)) IS NOT NULL THEN CONTINUE; END IF;
    EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS)', book_log_day_name(base, d), base);
    EXECUTE format('WITH moved AS (DELETE FROM %I WHERE at >= $1 AND at < $2 RETURNING *) INSERT INTO %I SELECT * FROM moved',
                   base || '_default', book_log_day_name(base, d)) USING lo, hi;
    EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', base, book_log_day_name(base, d), lo, hi);
    made := true;
  END LOOP;
  RETURN made;
END $$;

-- One pass of the retention job: days created `ahead` days ahead; each day older than `keep_days`
-- days dropped whole (DROP TABLE of a partition: a brief lock, no row-by-row delete). Before a day is
-- dropped, each outcome it recorded whose book changed again later gets a carried snapshot at the start
-- of the next day, so that every kept moment can still be rebuilt. Lock waits are bounded (`lock_ms`):
-- a pass that cannot get its locks at once fails and the next one tries again.
CREATE FUNCTION book_log_maintain(keep_days integer, ahead integer DEFAULT 2, lock_ms integer DEFAULT 2000)
RETURNS TABLE (created integer, dropped integer, carried integer) LANGUAGE plpgsql AS $$
DECLARE
  today date := (now() AT TIME ZONE 'UTC')::date;
  d date;
  next_start timestamptz;
  n_created integer := 0;
  n_dropped integer := 0;
  n_carried integer := 0;
  k integer;
BEGIN
  PERFORM set_config('lock_timeout', lock_ms || 'ms', true);
  FOR d IN SELECT generate_series(today - 1, today + ahead, interval '1 day')::date LOOP
    IF book_log_create_day(d) THEN n_created := n_created + 1; END IF;
  END LOOP;
  FOR d IN
    SELECT to_date(right(c.relname, 8), 'YYYYMMDD') AS day
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = 'book_changes'::regclass AND c.relname ~ '^book_changes_p[0-9]{8}$'
       AND to_date(right(c.relname, 8), 'YYYYMMDD') < today - keep_days
     ORDER BY 1
  LOOP
    next_start := (d + 1)::timestamp AT TIME ZONE 'UTC';
    PERFORM book_log_create_day(d + 1);
    INSERT INTO book_snapshots (outcome_id, version, at, version_at, levels)
    SELECT x.outcome_id, r.version, next_start, r.version_at, r.levels
      FROM (SELECT outcome_id FROM book_changes WHERE at >= next_start - interval '1 day' AND at < next_start
            UNION SELECT outcome_id FROM book_snapshots WHERE at >= next_start - interval '1 day' AND at < next_start) x
      JOIN book_heads h ON h.outcome_id = x.outcome_id AND h.changed_at >= next_start
      CROSS JOIN LATERAL book_text_at(x.outcome_id, next_start - interval '1 microsecond') r;
    GET DIAGNOSTICS k = ROW_COUNT;
    n_carried := n_carried + k;
    EXECUTE format('DROP TABLE IF EXISTS %I', book_log_day_name('book_changes', d));
    EXECUTE format('DROP TABLE IF EXISTS %I', book_log_day_name('book_snapshots', d));
    n_dropped := n_dropped + 1;
  END LOOP;
  RETURN QUERY SELECT n_created, n_dropped, n_carried;
END $$;

-- ------------------------------------------------------------------------------ now

SELECT book_log_create_day(d::date) FROM generate_series((now() AT TIME ZONE 'UTC')::date - 1, (now() AT TIME ZONE 'UTC')::date + 2, interval '1 day') d;
-- Every current book becomes version 1, recorded whole.
SELECT book_resync();
