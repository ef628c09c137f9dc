-- The markets counters (0005) spread over 16 rows a key (docs/ingest.md "Lanes"). Every writer that adds a
-- market, or moves one between status, category or sub-category, added to the one row of its key, and held
-- that row until it committed: two ingest lanes whose batches both resolve or add a market of a category
-- waited for each other's whole batch (250–320 ms a statement, measured in minutes 5 and 6 of a two-lane
-- stream on the venues data set). A transaction now adds to the slot its transaction id picks, so two
-- concurrent writers meet on a row only when their ids agree modulo 16. A key's count is the sum of its
-- slots (lib/markets/sql/lists.ts); a slot may be negative, the sum never is.
ALTER TABLE market_counts ADD COLUMN slot smallint NOT NULL DEFAULT 0 CHECK (slot BETWEEN 0 AND 15);
ALTER TABLE market_counts DROP CONSTRAINT market_counts_pkey;
ALTER TABLE market_counts ADD PRIMARY KEY (status, category, sub_category, slot);

-- The slot of the calling transaction (it has an id: it is writing markets).
CREATE FUNCTION market_counts_slot() RETURNS smallint LANGUAGE sql VOLATILE AS $$
  SELECT (txid_current() % 16)::smallint
$$;

CREATE OR REPLACE FUNCTION market_counts_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  s smallint := market_counts_slot();
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO market_counts AS c (status, category, sub_category, slot, n)
    SELECT status, category, sub_category, s, count(*) FROM new_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (status, category, sub_category, slot) DO UPDATE SET n = c.n + EXCLUDED.n;
  ELSE
    INSERT INTO market_counts AS c (status, category, sub_category, slot, n)
    SELECT status, category, sub_category, s, -count(*) FROM old_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (status, category, sub_category, slot) DO UPDATE SET n = c.n + EXCLUDED.n;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION market_counts_move() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO market_counts AS c (status, category, sub_category, slot, n)
  SELECT status, category, sub_category, market_counts_slot(), n
    FROM (VALUES (OLD.status, OLD.category, OLD.sub_category, -1), (NEW.status, NEW.category, NEW.sub_category, 1))
         AS d (status, category, sub_category, n)
   ORDER BY 1, 2, 3
  ON CONFLICT (status, category, sub_category, slot) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN NULL;
END $$;
