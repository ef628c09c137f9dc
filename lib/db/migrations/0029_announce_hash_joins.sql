-- The triggers that announce updated markets and outcomes join a statement's old and new rows by id, and
-- PL/pgSQL keeps the plan of that join for the session: the plan made at the first call, when a transition
-- table estimated at one row (its true size is not what the planner is given) makes a nested loop look
-- cheapest. The loop reads every old row again for each new one: an ingest batch's totals update of 300
-- markets compared 89,700 pairs, 200 ms of its announcements, and the cost grew with the square of the
-- markets a batch touched as the stream went on (docs/performance.md "Ingest"). Without nested loops the
-- planner joins them by hash, whatever it estimates: 25–40 ms for the same 300 markets. (The LATERAL parts
-- of these statements can only be nested loops and stay so; the functions they call have no joins.)
ALTER FUNCTION notify_market_changes() SET enable_nestloop = off;
ALTER FUNCTION notify_outcome_changes() SET enable_nestloop = off;
