-- JIT compilation off. PostgreSQL 15-17 built with LLVM (the Debian and PGDG packages; the embedded
-- PostgreSQL 18 has none) compile a statement whose estimated cost passes jit_above_cost (100,000), and on
-- these versions a plan node the planner was told to avoid counts 10^10 toward that cost. The
-- announcements of notify_market_changes and notify_outcome_changes run with nested loops off (migrations
-- 0029, 0030) and keep LATERAL parts that can only be nested loops: each of their statements was compiled,
-- with inlining and optimisation, at every run, 1.0-1.4 s of CPU for a statement that runs in under a
-- millisecond. An import of one trade took 1.0-1.5 s instead of 11-17 ms (docs/performance.md "Writes
-- on a packaged PostgreSQL"). The service's statements are short, and every figure of docs/performance.md is measured
-- without JIT: it is off in these two functions wherever this runs, and for every session of the
-- database where its owner runs the migrations.
ALTER FUNCTION notify_market_changes() SET jit = off;
ALTER FUNCTION notify_outcome_changes() SET jit = off;
DO $$
BEGIN
  EXECUTE format('ALTER DATABASE %I SET jit = off', current_database());
EXCEPTION WHEN insufficient_privilege THEN
  RAISE NOTICE 'jit is left as configured for the database''s sessions: only its owner can turn it off (docs/deploy.md "PostgreSQL settings")';
END $$;
