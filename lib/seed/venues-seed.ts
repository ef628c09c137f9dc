// Writes the `venues` profile (lib/seed/venues.ts): the catalogue rows generated in JS and streamed
// with COPY as the demo seed writes them, and the trades (the bulk: ~43M) with the candles and top
// traders they derive (lib/seed/venue-trades.ts) in COPY's binary format, final: nothing is read back
// to be aggregated. One transaction, indexes and foreign keys rebuilt after the load, then VACUUM
// (ANALYZE). While Node generates a COPY's next buffer, PostgreSQL takes in the last: the two cores
// work at once.
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { liftBounds } from "../db/bounds";
import { uuidBytes } from "../db/copy-binary";
import type { Sql } from "../db/client";
import { vacuumAnalyze } from "../db/vacuum";
import {
  type MarketRow,
  type SeedContext,
  volumeString,
  generateComments,
  generateExternalBooks,
  generateMarket,
  generateOrders,
  generateUser,
  userId,
} from "./generate";
import {
  BULK_TABLES,
  Json,
  type Row,
  SEED_TABLES,
  SEEDED_TABLES,
  type SeedDatabaseOptions,
  type SeedSummary,
  type SeedTable,
  COLUMNS,
  checkDerived,
  marketRow,
  outcomeRow,
  resetDatabase,
  withoutIndexes,
  writeTable,
} from "./seed";
import { CANDLE_COLUMNS, TRADE_COLUMNS, TRADER_COLUMNS, type TradeTotals, candleCopy, tradeCopy, traderCopy } from "./venue-trades";
import { type Percentiles, type TradePlan, percentiles, tradePlans, venueContext, venueDepth, venueTradeCounts } from "./venues";

/** Markets per chunk: each chunk is one COPY per table. */
const CHUNK = 1000;
/** Chunks between two flushes of the announced changes. */
const FLUSH_EVERY = 10;

/** A chunk's catalogue rows; the market rows wait for their volumes, which their trades add up. */
type ChunkRows = Record<Exclude<SeedTable, "users" | "trades" | "markets">, Row[]> & {
  markets: { market: MarketRow; comments: number; liquidity: number }[];
  plans: TradePlan[];
  trades: number;
};

/** The markets' columns in a venues seed: the demo seed's and the rolling 24 h volume, written final from the trades' totals. */
const MARKET_COLUMNS = [...COLUMNS.markets, "volume_24h"];

/** The catalogue rows of a chunk (everything but the trades, which are planned), with depth following the trade count. */
function chunkRows(ctx: SeedContext, markets: MarketRow[], counts: Int32Array, perMarket: Float64Array): ChunkRows {
  const rows: ChunkRows = { markets: [], outcomes: [], comments: [], orders: [], external_books: [], plans: [], trades: 0 };
  for (const m of markets) {
    const plans = tradePlans(ctx, m, counts[m.index]);
    const trades = plans.reduce((a, p) => a + p.n, 0);
    perMarket[m.index] = trades;
    const depth = venueDepth(trades);
    for (const o of m.outcomes) rows.outcomes.push(outcomeRow(o));
    let comments = 0;
    generateComments(
      ctx,
      m,
      (c) => {
        comments++;
        rows.comments.push([c.id, c.market_id, c.user_id, c.content, c.parent_id, String(c.likes_count), c.created_at, c.updated_at]);
      },
      depth.comments,
    );
    let liquidity = 0; // price thousandths × share hundredths = 1e-5 USDT, as the demo seed sums it
    generateOrders(
      ctx,
      m,
      (o) => {
        if (o.type === "LIMIT" && (o.status === "OPEN" || o.status === "PARTIALLY_FILLED"))
          liquidity += Math.round(Number(o.price) * 1000) * (Math.round(Number(o.shares) * 100) - Math.round(Number(o.filled_shares) * 100));
        rows.orders.push([
          o.id,
          o.market_id,
          o.outcome_id,
          o.user_id,
          o.side,
          o.type,
          o.price,
          o.shares,
          o.filled_shares,
          o.status,
          o.created_at,
          o.updated_at,
        ]);
      },
      depth.levels,
    );
    // Closed markets have no open book: a venue's book only while the market trades.
    if (m.status === "ACTIVE")
      generateExternalBooks(
        ctx,
        m,
        (b) => {
          for (const l of [...b.bids, ...b.asks]) liquidity += Math.round(Number(l.price) * 1000) * Math.round(Number(l.shares) * 100);
          rows.external_books.push([b.outcome_id, new Json(b.bids), new Json(b.asks), b.updated_at]);
        },
        depth.levels,
      );
    rows.markets.push({ market: m, comments, liquidity });
    rows.plans.push(...plans);
    rows.trades += trades;
  }
  return rows;
}

export interface VenueSeedSummary extends SeedSummary {
  /** Trades per market (markets with trades and without). */
  percentiles: Percentiles;
}

export async function seedVenues(sql: Sql, opts: Omit<SeedDatabaseOptions, "heavyTrades" | "tradesPerOutcome" | "copy"> = {}): Promise<VenueSeedSummary> {
  const started = Date.now();
  const ctx = venueContext(opts);
  const log = opts.log ?? (() => {});
  const secs = (t0: number) => `${((Date.now() - t0) / 1000).toFixed(1)} s`;
  const tPlan = Date.now();
  const counts = venueTradeCounts(ctx);
  log(`seeding the venues profile: ${ctx.markets} markets, ${ctx.users} users (seed ${ctx.seed}); trade counts ranked in ${secs(tPlan)}`);
  const summary = Object.fromEntries(SEED_TABLES.map((t) => [t, 0])) as Record<SeedTable, number>;
  const perMarket = new Float64Array(ctx.markets);
  let rows = 0;

  let tCommit = 0;
  await sql.begin(async (tx_) => {
    const tx = tx_ as unknown as Sql;
    await liftBounds(tx);
    // The derived rebuilds aggregate ~43M trades: sorts and hashes in memory rather than in temp files.
    await tx`SET LOCAL work_mem = '256MB'`;
    if (opts.reset) await resetDatabase(tx);
    const load = async () => {
      const tLoad = Date.now();
      const users = (function* () {
        for (let i = 0; i < ctx.users; i++) {
          const u = generateUser(ctx, i);
          yield [u.id, u.username, u.profile_image_url, u.created_at] as Row;
        }
      })();
      rows += summary.users = await writeTable(tx, "users", users, true);
      // Trader index k is user k of the generator (userId), as the demo seed picks them.
      const traders = Array.from({ length: ctx.users }, (_, k) => uuidBytes(userId(ctx, k)));
      // The rolling 24 h volume counts the trades after the trending watermark − 24 h (docs/api.md "Sorting").
      const [{ since }] = await tx<
        { since: number }[]
      >`SELECT extract(epoch FROM swept_at - interval '24 hours')::float8 * 1000 AS since FROM trending_watermark`;
      const copyMs = { trades: 0, candles: 0, market_traders: 0, markets: 0, outcomes: 0, comments: 0, orders: 0, external_books: 0 };
      // The trades and what they derive in COPY's binary format (lib/db/copy-binary.ts).
      const copyIn = async (table: keyof typeof copyMs, columns: readonly string[], data: Iterable<Buffer>) => {
        const t = Date.now();
        await pipeline(Readable.from(data), await tx`COPY ${tx(table)} (${tx(columns)}) FROM STDIN (FORMAT binary)`.writable());
        copyMs[table] += Date.now() - t;
      };
      let generateMs = 0;
      let analyzeMs = 0;
      const generate = (from: number) => {
        const t = Date.now();
        const markets: MarketRow[] = [];
        for (let i = from; i < Math.min(ctx.markets, from + CHUNK); i++) markets.push(generateMarket(ctx, i));
        const chunk = chunkRows(ctx, markets, counts, perMarket);
        generateMs += Date.now() - t;
        return chunk;
      };
      for (let from = 0; from < ctx.markets; from += CHUNK) {
        const chunk = generate(from);
        // The trades first: they add up the volumes the market rows are written with.
        const totals: TradeTotals = { volume: new Map(), traders: new Map() };
        await copyIn("trades", TRADE_COLUMNS, tradeCopy(chunk.plans, traders, since, totals));
        await copyIn("candles", CANDLE_COLUMNS, candleCopy(chunk.plans, traders.length));
        await copyIn("market_traders", TRADER_COLUMNS, traderCopy(totals, traders));
        summary.trades += chunk.trades;
        rows += chunk.trades;
        const marketRows = chunk.markets.map(({ market, comments, liquidity }) => {
          const v = totals.volume.get(market.id);
          market.total_volume = volumeString(v?.all ?? 0);
          return [...marketRow(market, comments, liquidity), volumeString(v?.recent ?? 0)];
        });
        let t1 = Date.now();
        const written = await writeTable(tx, "markets", marketRows, true, MARKET_COLUMNS);
        summary.markets += written;
        rows += written;
        copyMs.markets += Date.now() - t1;
        for (const table of ["outcomes", "comments", "orders", "external_books"] as const) {
          t1 = Date.now();
          const n = await writeTable(tx, table, chunk[table], true);
          summary[table] += n;
          rows += n;
          copyMs[table] += Date.now() - t1;
        }
        // Number the announced changes now and then (migration 0021's flush, which otherwise runs once at
        // COMMIT): a seed announces ~23 changes a market, and one flush of 8M would hold them all in memory.
        if ((from / CHUNK) % FLUSH_EVERY === FLUSH_EVERY - 1) {
          await tx`SET CONSTRAINTS change_pending_flush IMMEDIATE`;
          await tx`SET CONSTRAINTS change_pending_flush DEFERRED`;
          // The announcing triggers' statements keep the plan PL/pgSQL made at their first call, when the
          // tables were a chunk: a hash join over every market (and outcome) loaded since, for each chunk and
          // table that names them (outcomes, comments, orders, venue books). New statistics of those tables
          // make the plans stale, and PostgreSQL plans them again: a probe of the key per market.
          const tAnalyze = Date.now();
          await tx`ANALYZE markets, outcomes`;
          analyzeMs += Date.now() - tAnalyze;
        }
        opts.onProgress?.({ done: Math.min(ctx.markets, from + CHUNK), total: ctx.markets, rows });
      }
      const copies = Object.entries(copyMs).map(([t, ms]) => `${t} ${(ms / 1000).toFixed(1)} s`);
      log(
        `  wrote ${rows.toLocaleString("en-US")} rows in ${secs(tLoad)} (COPY ${copies.join(", ")}; the catalogue generated in ${(generateMs / 1000).toFixed(1)} s, the statistics of markets and outcomes ${(analyzeMs / 1000).toFixed(1)} s)`,
      );
    };
    const t0 = Date.now();
    // The load writes the top traders, candles and rolling volumes with the trades (lib/seed/venue-trades.ts),
    // so the triggers that keep them are off. The trades would announce themselves to no one: an
    // announcement names the trade's outcome and market, whose rows go in after the trades.
    await tx`SELECT set_row_derived_triggers(false)`;
    await tx`TRUNCATE market_traders, candles`;
    await tx`ALTER TABLE trades DISABLE TRIGGER trades_volume_24h_ins, DISABLE TRIGGER trades_notify_ins`;
    await withoutIndexes(
      tx,
      // The markets and their search text too (unlike the demo seed): the text's two trigram indexes (market_search,
      // filled by the markets' insert trigger) are far cheaper built once over 360,000 rows.
      ["markets", "market_search", ...BULK_TABLES, "market_traders", "candles"],
      async () => {
        await load();
        const tReplies = Date.now();
        await tx`SELECT rebuild_reply_counts()`;
        log(`  reply counts rebuilt in ${secs(tReplies)}`);
      },
      log,
      // The book triggers (migration 0011) look up each written outcome, its market and its venue book by
      // id, one at a time: without these keys every lookup reads the whole table loaded so far.
      ["markets_pkey", "outcomes_pkey", "external_books_pkey"],
      5_000,
    );
    await tx`SELECT set_row_derived_triggers(true)`;
    await tx`ALTER TABLE trades ENABLE TRIGGER trades_volume_24h_ins, ENABLE TRIGGER trades_notify_ins`;
    log(`  load complete in ${secs(t0)}`);
    const t1 = Date.now();
    const fixed = await checkDerived(tx);
    log(`  derived columns checked in ${secs(t1)}${fixed ? ` (${fixed} markets corrected)` : ""}`);
    tCommit = Date.now();
  });
  // The commit numbers every announced change (positions, migration 0021) and sends its NOTIFY.
  log(`  committed in ${secs(tCommit)}`);
  const t2 = Date.now();
  // Two vacuums at once, one a core: the trades on their own, everything else (the candles the largest) beside them.
  const vacuum = async (tables: string[]) => {
    const t = Date.now();
    await vacuumAnalyze(sql, tables);
    return `${tables.length === 1 ? tables[0] : "the rest"} ${secs(t)}`;
  };
  const parts = await Promise.all([vacuum(["trades"]), vacuum(SEEDED_TABLES.filter((t) => t !== "trades"))]);
  log(`  vacuum (analyze) in ${secs(t2)} (${parts.join(", ")})`);
  const ms = Date.now() - started;
  const p = percentiles(perMarket);
  log(`seeded ${SEED_TABLES.map((t) => `${t}=${summary[t]}`).join(" ")} in ${(ms / 1000).toFixed(1)} s`);
  log(
    `trades per market: p50=${p.p50} p90=${p.p90} p99=${p.p99} p99.9=${p.p999} max=${p.max} total=${p.total} (${p.over100k} markets ≥ 100,000, ${p.over1m} ≥ 1,000,000)`,
  );
  return { ...summary, ms, percentiles: p };
}
