-- Two repeats gone from every application of a statement's book deltas (docs/ingest.md "What a batch costs"):
--   * book_apply deletes the levels that reached zero by the row versions its upsert returned (ctid: a TID
--     scan), where it read every level of their books to find them: 0.2 ms and 280 buffers a statement
--     where it took 4.9 ms and 3,100 on the venues data set's ingest, more as the books deepened;
--   * book_record, given keys, no longer inserts and locks the heads again: keys come only from book_apply,
--     which has done both, in the outcomes' order, in its first statement. Without keys it goes through
--     book_record_each, which takes its own locks, as before.

-- As migration 0035's, the levels at zero deleted by their row versions.
CREATE OR REPLACE FUNCTION book_apply(deltas book_delta[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  ids uuid[];
  zero tid[];
BEGIN
  SELECT array_agg(DISTINCT d.outcome_id) INTO ids FROM unnest(deltas) d;
  IF ids IS NULL THEN RETURN; END IF;
  -- The heads first: the writers of one book wait here, before reading anything of it.
  INSERT INTO book_heads AS h (outcome_id, notional)
  SELECT d.outcome_id, sum(d.price * d.shares) FROM unnest(deltas) d GROUP BY 1 ORDER BY 1
  ON CONFLICT (outcome_id) DO UPDATE SET notional = h.notional + EXCLUDED.notional;
  -- A level's row version that reached zero is this transaction's, locked by it: still at that ctid below.
  WITH up AS (
    INSERT INTO book_depth AS b (outcome_id, side, price, shares)
    SELECT d.outcome_id, d.side, d.price, d.shares FROM unnest(deltas) d ORDER BY 1, 2, 3
    ON CONFLICT (outcome_id, side, price) DO UPDATE SET shares = b.shares + EXCLUDED.shares
    RETURNING b.ctid, b.shares)
  SELECT array_agg(up.ctid) INTO zero FROM up WHERE up.shares = 0;
  IF zero IS NOT NULL THEN
    DELETE FROM book_depth b WHERE b.ctid = ANY(zero) AND b.shares = 0;
  END IF;
  PERFORM book_record(ids, deltas);
END $$;

-- As migration 0024's, without the heads' insert and lock when given keys (book_apply's, above).
CREATE OR REPLACE FUNCTION book_record(ids uuid[], keys book_delta[] DEFAULT NULL) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  fast_ids uuid[];
  rest_ids uuid[];
  ch_ids uuid[];
  ch_texts text[];
  v_ids uuid[];
  v_versions bigint[];
  v_at timestamptz[];
  v_due boolean[];
  due_ids uuid[];
BEGIN
  IF ids IS NULL OR cardinality(ids) = 0 THEN RETURN; END IF;
  IF keys IS NULL THEN
    PERFORM book_record_each(ids, keys);
    RETURN;
  END IF;

  SELECT array_agg(h.outcome_id ORDER BY h.outcome_id) INTO fast_ids
    FROM book_heads h JOIN outcomes oc ON oc.id = h.outcome_id JOIN markets m ON m.id = oc.market_id
   WHERE h.outcome_id = ANY(ids) AND m.external_source IS NULL AND h.served IS NULL AND NOT h.crossed
     AND NOT coalesce((SELECT max(d.price) FROM book_depth d WHERE d.outcome_id = h.outcome_id AND d.side = 'BUY')
                      >= (SELECT min(d.price) FROM book_depth d WHERE d.outcome_id = h.outcome_id AND d.side = 'SELL'), false);
  fast_ids := coalesce(fast_ids, '{}');
  SELECT array_agg(DISTINCT x ORDER BY x) INTO rest_ids FROM unnest(ids) x WHERE NOT x = ANY(fast_ids);
  IF rest_ids IS NOT NULL THEN PERFORM book_record_each(rest_ids, keys); END IF;
  IF cardinality(fast_ids) = 0 THEN RETURN; END IF;

  -- Not crossed: at the prices written, the served book is the depth without dust, level by level.
  WITH k AS (SELECT DISTINCT x.outcome_id, x.side, x.price FROM unnest(keys) x WHERE x.outcome_id = ANY(fast_ids)),
       -- Probes by key (LATERAL): a join would let the planner scan the whole table for a few hundred keys.
       n AS (SELECT k.outcome_id, k.side, k.price, d.shares FROM k
               CROSS JOIN LATERAL (SELECT d.shares FROM book_depth d
                                    WHERE d.outcome_id = k.outcome_id AND d.side = k.side AND d.price = k.price) d
              WHERE d.shares > 0.05),
       c AS (SELECT k.outcome_id, k.side, k.price, l.shares FROM k
               CROSS JOIN LATERAL (SELECT l.shares FROM book_levels l
                                    WHERE l.outcome_id = k.outcome_id AND l.side = k.side AND l.price = k.price) l),
       diff AS (
         SELECT coalesce(n.outcome_id, c.outcome_id) AS outcome_id, coalesce(n.side, c.side) AS side,
                coalesce(n.price, c.price) AS price, coalesce(n.shares, 0.00) AS shares
           FROM n FULL JOIN c ON c.outcome_id = n.outcome_id AND c.side = n.side AND c.price = n.price
          WHERE n.shares IS DISTINCT FROM c.shares),
       del AS (DELETE FROM book_levels l
                WHERE l.outcome_id = ANY(ARRAY(SELECT DISTINCT diff.outcome_id FROM diff WHERE diff.shares = 0))
                  AND (l.outcome_id, l.side, l.price) IN (SELECT diff.outcome_id, diff.side, diff.price FROM diff WHERE diff.shares = 0)),
       ins AS (INSERT INTO book_levels AS l (outcome_id, side, price, shares)
               SELECT diff.outcome_id, diff.side, diff.price, diff.shares FROM diff WHERE diff.shares > 0
               ON CONFLICT (outcome_id, side, price) DO UPDATE SET shares = EXCLUDED.shares)
  SELECT array_agg(g.outcome_id ORDER BY g.outcome_id), array_agg(g.txt ORDER BY g.outcome_id) INTO ch_ids, ch_texts
    FROM (SELECT diff.outcome_id,
                 string_agg(CASE WHEN diff.side = 'BUY' THEN 'b ' ELSE 'a ' END || diff.price::numeric(4,3)::text || ' ' || diff.shares::numeric(20,2)::text, ','
                            ORDER BY diff.side, CASE WHEN diff.side = 'BUY' THEN -diff.price ELSE diff.price END) AS txt
            FROM diff GROUP BY diff.outcome_id) g;
  IF ch_ids IS NULL THEN RETURN; END IF;

  WITH up AS (
    UPDATE book_heads h SET version = h.version + 1, changed_at = greatest(clock_timestamp(), h.changed_at)
     WHERE h.outcome_id = ANY(ch_ids)
    RETURNING h.outcome_id, h.version, h.changed_at,
              (h.snapshot_version = 0 OR h.logged_version <> h.version - 1 OR h.version - h.snapshot_version >= book_snapshot_every()) AS due)
  SELECT array_agg(up.outcome_id ORDER BY up.outcome_id), array_agg(up.version ORDER BY up.outcome_id),
         array_agg(up.changed_at ORDER BY up.outcome_id), array_agg(up.due ORDER BY up.outcome_id)
    INTO v_ids, v_versions, v_at, v_due FROM up;
  IF NOT book_log_on() THEN RETURN; END IF;
  SELECT array_agg(v.o) INTO due_ids FROM unnest(v_ids, v_due) AS v (o, due) WHERE v.due;
  due_ids := coalesce(due_ids, '{}');

  INSERT INTO book_changes (outcome_id, version, at, replace, levels)
  SELECT v.o, v.version, v.at, false, t.txt
    FROM unnest(v_ids, v_versions, v_at) AS v (o, version, at)
    JOIN unnest(ch_ids, ch_texts) AS t (o, txt) ON t.o = v.o;
  INSERT INTO book_snapshots (outcome_id, version, at, version_at, levels)
  SELECT v.o, v.version, v.at, v.at, book_levels_text(v.o)
    FROM unnest(v_ids, v_versions, v_at, v_due) AS v (o, version, at, due)
   WHERE v.due;
  UPDATE book_heads h SET logged_version = h.version,
                          snapshot_version = CASE WHEN h.outcome_id = ANY(due_ids) THEN h.version ELSE h.snapshot_version END
   WHERE h.outcome_id = ANY(v_ids);
END $$;
