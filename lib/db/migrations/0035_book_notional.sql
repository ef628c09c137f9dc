-- Each book's resting notional, Σ price × shares over its depth, kept with its head. A market's
-- total_liquidity is that sum over its outcomes; the ingest's totals update (lib/ingest/writer.ts) summed
-- every level of every outcome of each market a batch touched, about 46 levels a market on a hot book,
-- each in a heap page of its own once the stream had rewritten it: half of that update's time, and more as
-- the stream went on. It now reads one head per outcome. The depth changes in exactly two places,
-- book_apply (by deltas: the notional moves by Σ price × Δshares) and book_resync (from scratch), and
-- both keep the notional; a deleted outcome's head goes with its depth (book_record_each).
ALTER TABLE book_heads ADD COLUMN notional numeric(30,6) NOT NULL DEFAULT 0;

INSERT INTO book_heads AS h (outcome_id, notional)
SELECT outcome_id, sum(price * shares) FROM book_depth GROUP BY 1 ORDER BY 1
ON CONFLICT (outcome_id) DO UPDATE SET notional = EXCLUDED.notional;

-- As migration 0024's, with the heads' notional moved by the deltas: the head's insert, its lock and the
-- notional in one statement, in the outcomes' order as before.
CREATE OR REPLACE FUNCTION book_apply(deltas book_delta[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  ids uuid[];
  zero book_delta[];
BEGIN
  SELECT array_agg(DISTINCT d.outcome_id) INTO ids FROM unnest(deltas) d;
  IF ids IS NULL THEN RETURN; END IF;
  -- The heads first: the writers of one book wait here, before reading anything of it.
  INSERT INTO book_heads AS h (outcome_id, notional)
  SELECT d.outcome_id, sum(d.price * d.shares) FROM unnest(deltas) d GROUP BY 1 ORDER BY 1
  ON CONFLICT (outcome_id) DO UPDATE SET notional = h.notional + EXCLUDED.notional;
  WITH up AS (
    INSERT INTO book_depth AS b (outcome_id, side, price, shares)
    SELECT d.outcome_id, d.side, d.price, d.shares FROM unnest(deltas) d ORDER BY 1, 2, 3
    ON CONFLICT (outcome_id, side, price) DO UPDATE SET shares = b.shares + EXCLUDED.shares
    RETURNING b.outcome_id, b.side, b.price, b.shares)
  SELECT array_agg(ROW(up.outcome_id, up.side, up.price, up.shares)::book_delta) INTO zero FROM up WHERE up.shares = 0;
  IF zero IS NOT NULL THEN
    DELETE FROM book_depth b
     WHERE b.outcome_id = ANY(ARRAY(SELECT DISTINCT z.outcome_id FROM unnest(zero) z))
       AND (b.outcome_id, b.side, b.price) IN (SELECT z.outcome_id, z.side, z.price FROM unnest(zero) z)
       AND b.shares = 0;
  END IF;
  PERFORM book_record(ids, deltas);
END $$;

-- As migration 0011's, and each head's notional from the depth rebuilt.
CREATE OR REPLACE FUNCTION book_resync() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM book_depth;
  INSERT INTO book_depth (outcome_id, side, price, shares)
  SELECT outcome_id, side, price, sum(shares - filled_shares) FROM orders
   WHERE type = 'LIMIT' AND status IN ('OPEN', 'PARTIALLY_FILLED') AND shares > filled_shares
   GROUP BY 1, 2, 3;
  PERFORM book_record((SELECT array_agg(DISTINCT x) FROM (
    SELECT outcome_id AS x FROM book_depth UNION SELECT outcome_id FROM book_heads
    UNION SELECT outcome_id FROM external_books) u));
  UPDATE book_heads h SET notional = s.n
    FROM (SELECT outcome_id, sum(price * shares) AS n FROM book_depth GROUP BY 1) s
   WHERE h.outcome_id = s.outcome_id AND h.notional <> s.n;
  UPDATE book_heads h SET notional = 0
   WHERE h.notional <> 0 AND NOT EXISTS (SELECT 1 FROM book_depth d WHERE d.outcome_id = h.outcome_id);
END $$;
