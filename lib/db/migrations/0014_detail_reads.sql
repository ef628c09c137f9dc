-- A market's top ten traders without reading market_traders itself (a cold market detail):
-- the index of migration 0005 found the rows but every one of them, twice ten, was then a random read
-- of the table (952 MB at 100,000 markets) for user_id and trades. This one holds user_id and only rows
-- with trades, so both walks of getMarket's top traders are index-only scans; it replaces the old one,
-- which nothing else reads. Built before the old one is dropped: the drop's exclusive lock is held
-- only from there to the commit.
SET LOCAL maintenance_work_mem = '256MB';
CREATE INDEX IF NOT EXISTS market_traders_top_cover_idx ON market_traders (market_id, volume DESC) INCLUDE (user_id) WHERE trades > 0;
DROP INDEX IF EXISTS market_traders_top_idx;
