// npm run bench:candles [-- --runs 200 --trades 1000000 --skip-reads --skip-writes --skip-backfill]
// Times the candle reads of lib/markets/sql/candles.ts straight against the database (no HTTP, no cache:
// every call is a cache miss), on an outcome with a million trades: p50/p99 of 1,000 candles per
// interval, and of a batch of 50 such outcomes. Then what the rollup triggers of migration 0009 cost
// a writer (100,000 trades in batches, 5,000 one by one, with and without them), and how long the migration's backfill
// takes on this database. Needs a database of its own: DATABASE_URL, or the embedded cluster in
// EMBEDDED_PG_DIR (default .data/pg-bench), database candles_bench. The first run makes the data
// (a throwaway market of 1,000,000 trades over 90 days, and one of 50 outcomes × 20,000 trades); later
// runs reuse it. Prints only; never asserts.
import path from "node:path";
import { parseArgs } from "node:util";
import { closeDb, db } from "../lib/db/client";
import { liftBounds } from "../lib/db/bounds";
import { startEmbeddedPostgres } from "../lib/db/embedded";
import { migrate } from "../lib/db/migrate";
import { CANDLE_INTERVALS, INTERVALS, type CandleInterval, candleWindow } from "../lib/markets/candles";
import { getCandleSets, getCandles } from "../lib/markets/sql/candles";

const { values: args } = parseArgs({
  options: {
    runs: { type: "string" },
    trades: { type: "string" },
    "skip-reads": { type: "boolean", default: false },
    "skip-writes": { type: "boolean", default: false },
    "skip-backfill": { type: "boolean", default: false },
  },
});
const RUNS = Number(args.runs ?? 200);
const HEAVY_TRADES = Number(args.trades ?? 1_000_000);
const SPAN_S = 90 * 86400;
const BATCH = 50;
const BATCH_TRADES = 20_000;

const log = (m: string) => console.error(m);
let stop = async () => {};
if (!process.env.DATABASE_URL) {
  const dir = process.env.EMBEDDED_PG_DIR || path.join(process.cwd(), ".data", "pg-bench");
  const embedded = await startEmbeddedPostgres({ dir, database: "candles_bench", log });
  process.env.DATABASE_URL = embedded.url;
  stop = embedded.stop;
}
// The bench's own statements (data, writes, backfill) run long; reads keep the request pool's limits.
const sql = db();

const ms = (t0: number) => performance.now() - t0;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const fmt = (n: number) => n.toFixed(1).padStart(8);

/** A throwaway market with `outcomes` outcomes and `perOutcome` trades each, spread over the last 90 days; its id. */
async function makeMarket(slug: string, outcomes: number, perOutcome: number): Promise<string[]> {
  const [existing] = await sql<{ id: string }[]>`SELECT id FROM markets WHERE slug = ${slug}`;
  if (existing) return (await sql<{ id: string }[]>`SELECT id FROM outcomes WHERE market_id = ${existing.id} ORDER BY index`).map((r) => r.id);
  const t0 = performance.now();
  const ids = await sql.begin(async (tx) => {
    await liftBounds(tx);
    const [user] = await tx<{ id: string }[]>`
      INSERT INTO users (id, username) VALUES (gen_random_uuid(), ${`${slug}-user`}) RETURNING id`;
    const [market] = await tx<{ id: string }[]>`
      INSERT INTO markets (id, slug, question, description, category, sub_category, type, status, trading_starts_at, trading_ends_at,
                           platform_fee, spread, total_volume, image_url, created_at, updated_at)
      VALUES (gen_random_uuid(), ${slug}, ${`Bench market ${slug}?`}, 'Made by scripts/bench-candles.ts.', 'OTHER', 'Bench',
              ${outcomes === 2 ? "BINARY" : "MULTI"}, 'LOCKED', now() - interval '91 days', now() + interval '30 days', 0.02, 1, 0, '', now(), now())
      RETURNING id`;
    const rows = await tx<{ id: string }[]>`
      INSERT INTO outcomes (id, market_id, name, side, index, probability)
      SELECT gen_random_uuid(), ${market.id}, 'Option ' || i, CASE WHEN ${outcomes} = 2 AND i = 1 THEN 'NO' ELSE 'YES' END::outcome_side, i, 50
        FROM generate_series(0, ${outcomes - 1}) i
      RETURNING id`;
    // In statements of 100,000 trades, through the rollup triggers like any writer.
    for (const o of outcomes === 2 ? rows.slice(0, perOutcome ? 1 : 0) : rows) {
      for (let done = 0; done < perOutcome; done += 100_000) {
        const n = Math.min(100_000, perOutcome - done);
        await tx`
          INSERT INTO trades (id, market_id, outcome_id, price, shares, maker_user_id, taker_user_id, executed_at)
          SELECT gen_random_uuid(), ${market.id}, ${o.id}, round((0.05 + 0.9 * random())::numeric, 3),
                 round((1 + 500 * random())::numeric, 6), ${user.id}, ${user.id},
                 now() - make_interval(secs => ${SPAN_S} * random())
            FROM generate_series(1, ${n})`;
      }
    }
    return rows.map((r) => r.id);
  });
  await sql`VACUUM (ANALYZE) trades, candles`;
  log(`made ${slug}: ${outcomes} outcomes, ${(perOutcome * (outcomes === 2 ? 1 : outcomes)).toLocaleString("en")} trades in ${(ms(t0) / 1000).toFixed(1)} s`);
  return ids;
}

try {
  await migrate(sql, log);
  const [heavy] = await makeMarket(`bench-heavy-${HEAVY_TRADES}`, 2, HEAVY_TRADES);
  const many = await makeMarket(`bench-batch-${BATCH}x${BATCH_TRADES}`, BATCH, BATCH_TRADES);
  const [{ market_id: heavyMarket }] = await sql<{ market_id: string }[]>`SELECT market_id FROM outcomes WHERE id = ${heavy}`;
  const [{ n: heavyTrades }] = await sql<{ n: number }[]>`SELECT sum(trades)::int AS n FROM candles WHERE outcome_id = ${heavy} AND width = 86400`;

  // Windows of 1,000 intervals ending at random points of the data (distinct every run), so each read
  // is a fresh one over full intervals; for 1d and 1w the whole 90 days.
  const now = Date.now() / 1000;
  const endOf = (interval: CandleInterval, i: number) => {
    const span = Math.max(0, SPAN_S - 1000 * INTERVALS[interval].seconds);
    return Math.floor(now - (((i * 7919) % 1000) / 1000) * span);
  };
  if (!args["skip-reads"]) {
    console.log(`candles of one outcome with ${heavyTrades.toLocaleString("en")} trades over 90 days, from the database (cache miss)`);
    console.log(`${RUNS} runs per interval after 5 warm-up runs; milliseconds`);
    console.log(`${"interval".padEnd(10)} ${"candles".padStart(8)} ${"p50".padStart(8)} ${"p99".padStart(8)} ${"max".padStart(8)}`);
    for (const interval of CANDLE_INTERVALS) {
      const times: number[] = [];
      let candles = 0;
      for (let i = -5; i < RUNS; i++) {
        const window = candleWindow({ endTs: endOf(interval, i + 5) }, interval, now);
        const t0 = performance.now();
        const answer = await getCandles({ id: heavyMarket, outcomeId: heavy, window });
        if (i >= 0) times.push(ms(t0));
        candles = Math.max(candles, answer.candles.length);
      }
      console.log(`${interval.padEnd(10)} ${String(candles).padStart(8)} ${fmt(pct(times, 50))} ${fmt(pct(times, 99))} ${fmt(Math.max(...times))}`);
    }

    console.log(`\nbatch: ${BATCH} outcomes × ${BATCH_TRADES.toLocaleString("en")} trades, getCandleSets: the one query GET /v1/candles makes for its misses`);
    console.log(`${"interval".padEnd(10)} ${"candles".padStart(8)} ${"p50".padStart(8)} ${"p99".padStart(8)} ${"max".padStart(8)}`);
    for (const interval of ["1h", "1m", "1d"] as const) {
      const times: number[] = [];
      let candles = 0;
      const runs = Math.max(10, Math.floor(RUNS / 5));
      for (let i = -2; i < runs; i++) {
        const window = candleWindow({ endTs: endOf(interval, i + 2) }, interval, now);
        const t0 = performance.now();
        const found = await getCandleSets(many, window);
        if (i >= 0) times.push(ms(t0));
        candles = Math.max(
          candles,
          [...found.values()].reduce((n, f) => n + (f?.candles.length ?? 0), 0),
        );
      }
      console.log(`${interval.padEnd(10)} ${String(candles).padStart(8)} ${fmt(pct(times, 50))} ${fmt(pct(times, 99))} ${fmt(Math.max(...times))}`);
    }
  }

  if (!args["skip-writes"]) {
    // Trades as a live writer makes them (executed now, each statement its own transaction) into a
    // market of their own, once with the rollup triggers and once without; deleted again after each
    // run (untimed). The other triggers on trades (notify, top traders, rolling volume) run in both.
    console.log("\nwrite cost of the rollup triggers (live trades, one transaction per statement; median of 3 interleaved rounds)");
    console.log(`${"statements".padEnd(28)} ${"with (s)".padStart(9)} ${"without (s)".padStart(12)} ${"ratio".padStart(6)}`);
    const [target] = await makeMarket("bench-writes", 2, 0);
    const [{ market_id: writesMarket }] = await sql<{ market_id: string }[]>`SELECT market_id FROM outcomes WHERE id = ${target}`;
    const setCandleTriggers = (on: boolean) =>
      sql.begin(async (tx) => {
        await liftBounds(tx); // waits for autovacuum to step aside
        const verb = tx.unsafe(on ? "ENABLE" : "DISABLE");
        await tx`ALTER TABLE trades ${verb} TRIGGER trades_candles_ins, ${verb} TRIGGER trades_candles_upd, ${verb} TRIGGER trades_candles_del`;
      });
    const timed = async (withTriggers: boolean, statements: number, perStatement: number) => {
      if (!withTriggers) await setCandleTriggers(false);
      try {
        const t0 = performance.now();
        for (let s = 0; s < statements; s++) {
          await sql`
            INSERT INTO trades (id, market_id, outcome_id, price, shares, executed_at)
            SELECT gen_random_uuid(), ${writesMarket}, ${target}, round((0.05 + 0.9 * random())::numeric, 3),
                   round((1 + 100 * random())::numeric, 6), clock_timestamp()
              FROM generate_series(1, ${perStatement})`;
        }
        return ms(t0) / 1000;
      } finally {
        await sql.begin(async (tx) => {
          await liftBounds(tx);
          await tx`DELETE FROM trades WHERE outcome_id = ${target}`;
        });
        if (!withTriggers) await setCandleTriggers(true);
      }
    };
    for (const [statements, perStatement] of [
      [100, 1000],
      [1000, 100],
      [5000, 1],
    ]) {
      // Interleaved rounds, medians: the machine's load drifts more than the triggers cost.
      const runs: Record<"with" | "without", number[]> = { with: [], without: [] };
      for (let round = 0; round < 3; round++) {
        runs.without.push(await timed(false, statements, perStatement));
        runs.with.push(await timed(true, statements, perStatement));
      }
      const [without, withTriggers] = [pct(runs.without, 50), pct(runs.with, 50)];
      const label = `${statements.toLocaleString("en")} × ${perStatement} trade${perStatement > 1 ? "s" : ""}`;
      console.log(
        `${label.padEnd(28)} ${withTriggers.toFixed(2).padStart(9)} ${without.toFixed(2).padStart(12)} ${(withTriggers / without).toFixed(2).padStart(6)}`,
      );
    }
    // The same writes seen by the server: EXPLAIN ANALYZE times each trigger of each statement, which
    // the machine's load disturbs far less than wall-clock rounds.
    console.log("\nthe rollup trigger's share of the server's time per statement (EXPLAIN ANALYZE, each statement its own transaction)");
    console.log(`${"statements".padEnd(28)} ${"candles ms".padStart(11)} ${"statement ms".padStart(13)} ${"ratio".padStart(6)}`);
    type Plan = [{ "Execution Time": number; Triggers: { "Trigger Name": string; Time: number }[] }];
    for (const [statements, perStatement] of [
      [500, 1],
      [100, 100],
      [20, 1000],
    ]) {
      let candles = 0;
      let total = 0;
      try {
        for (let s = 0; s < statements; s++) {
          const [row] = await sql<{ "QUERY PLAN": Plan }[]>`
            EXPLAIN (ANALYZE, FORMAT JSON)
            INSERT INTO trades (id, market_id, outcome_id, price, shares, executed_at)
            SELECT gen_random_uuid(), ${writesMarket}, ${target}, round((0.05 + 0.9 * random())::numeric, 3),
                   round((1 + 100 * random())::numeric, 6), clock_timestamp()
              FROM generate_series(1, ${perStatement})`;
          const [plan] = row["QUERY PLAN"];
          total += plan["Execution Time"];
          candles += plan.Triggers.find((t) => t["Trigger Name"] === "trades_candles_ins")?.Time ?? 0;
        }
      } finally {
        await sql.begin(async (tx) => {
          await liftBounds(tx);
          await tx`DELETE FROM trades WHERE outcome_id = ${target}`;
        });
      }
      const label = `${statements.toLocaleString("en")} × ${perStatement} trade${perStatement > 1 ? "s" : ""}`;
      const [c, t] = [candles / statements, total / statements];
      // Ratio: the statement's time over what it would take without the rollup trigger.
      console.log(`${label.padEnd(28)} ${c.toFixed(3).padStart(11)} ${t.toFixed(3).padStart(13)} ${(t / (t - c)).toFixed(2).padStart(6)}`);
    }
  }

  if (!args["skip-backfill"]) {
    // What migration 0009 does to existing trades: rebuild_candles() and the key, rolled back.
    const [{ n }] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM trades`;
    let seconds = 0;
    let rows = 0;
    await sql
      .begin(async (tx) => {
        await liftBounds(tx);
        await tx`SET LOCAL maintenance_work_mem = '256MB'`;
        await tx`SET LOCAL work_mem = '64MB'`;
        await tx`ALTER TABLE candles DROP CONSTRAINT candles_pkey`;
        const t0 = performance.now();
        await tx`SELECT rebuild_candles()`;
        await tx`ALTER TABLE candles ADD PRIMARY KEY (outcome_id, width, bucket)`;
        seconds = ms(t0) / 1000;
        [{ rows }] = await tx<{ rows: number }[]>`SELECT count(*)::int AS rows FROM candles`;
        throw new Error("rollback");
      })
      .catch((e: Error) => {
        if (e.message !== "rollback") throw e;
      });
    console.log(
      `\nmigration backfill (rebuild_candles + primary key, rolled back): ${n.toLocaleString("en")} trades → ${rows.toLocaleString("en")} candle rows in ${seconds.toFixed(1)} s`,
    );
  }
} finally {
  await closeDb();
  await stop();
}
