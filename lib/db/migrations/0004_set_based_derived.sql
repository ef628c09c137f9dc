-- refresh_market_derived() as one set-based statement, so that every write path (import, simulator,
-- seed of any size) shares one definition of the derived columns. NULL means every market.
-- EXECUTE … USING plans it once with the ids known: index probes for a few markets, grouped scans
-- for all of them. It rewrites only the markets whose stored values differ and returns how many.
DROP FUNCTION refresh_market_derived(uuid[]);

CREATE FUNCTION refresh_market_derived(ids uuid[]) RETURNS integer LANGUAGE plpgsql AS $fn$
DECLARE
  changed integer;
BEGIN
  EXECUTE $q$
    WITH target AS (SELECT id, external_source FROM markets WHERE $1 IS NULL OR id = ANY($1)),
    c AS (SELECT market_id, count(*)::int AS n FROM comments
           WHERE $1 IS NULL OR market_id = ANY($1) GROUP BY market_id),
    o AS (SELECT market_id, sum(price * (shares - filled_shares)) AS liq FROM orders
           WHERE ($1 IS NULL OR market_id = ANY($1)) AND type = 'LIMIT' AND status IN ('OPEN', 'PARTIALLY_FILLED')
           GROUP BY market_id),
    b AS (SELECT oc.market_id, sum((l->>'price')::numeric * (l->>'shares')::numeric) AS liq
            FROM outcomes oc JOIN external_books eb ON eb.outcome_id = oc.id, jsonb_array_elements(eb.bids || eb.asks) l
           WHERE $1 IS NULL OR oc.market_id = ANY($1) GROUP BY oc.market_id),
    d AS (SELECT t.id, coalesce(c.n, 0) AS comments_count,
                 CASE WHEN t.external_source IS NULL THEN coalesce(o.liq, 0) ELSE coalesce(b.liq, 0) END AS total_liquidity
            FROM target t LEFT JOIN c ON c.market_id = t.id LEFT JOIN o ON o.market_id = t.id LEFT JOIN b ON b.market_id = t.id)
    UPDATE markets m SET comments_count = d.comments_count, total_liquidity = d.total_liquidity
      FROM d
     WHERE d.id = m.id AND (m.comments_count, m.total_liquidity) IS DISTINCT FROM (d.comments_count, d.total_liquidity)
  $q$ USING ids;
  GET DIAGNOSTICS changed = ROW_COUNT;
  RETURN changed;
END $fn$;
