// Writes the generated demo dataset: one transaction, table by table in FK order, through batched
// INSERTs for small seeds and streamed COPY for large ones, then the derived values, then VACUUM
// (ANALYZE) so that index-only scans work from the first request.
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type postgres from "postgres";
import { liftBounds } from "../db/bounds";
import type { Sql } from "../db/client";
import { vacuumAnalyze } from "../db/vacuum";
import {
  type MarketRow,
  type OutcomeRow,
  type SeedContext,
  type SeedOptions,
  type TradeRow,
  generateComments,
  generateExternalBooks,
  generateMarket,
  generateOrders,
  generateTrades,
  generateUser,
  seedContext,
  volumeString,
} from "./generate";
import { MARKET_COLUMNS, OUTCOME_COLUMNS } from "../markets/rows";
import { heavyTrades, heavyVolume, isHeavyTarget } from "./heavy";

export const SEED_TABLES = ["users", "markets", "outcomes", "comments", "orders", "trades", "external_books"] as const;
export type SeedTable = (typeof SEED_TABLES)[number];

export interface SeedProgress {
  /** Markets written so far (with all their rows), out of `total`. */
  done: number;
  total: number;
  /** Rows written so far over all tables. */
  rows: number;
}

export interface SeedDatabaseOptions extends Partial<SeedOptions> {
  log?: (m: string) => void;
  onProgress?: (p: SeedProgress) => void;
  /** Empty the data tables first, in the same transaction: a failed seed leaves the old data. */
  reset?: boolean;
  /**
   * Scale tests: this many more trades on the first outcome of the first ACTIVE native market
   * (lib/seed/heavy.ts); 0 or absent for none. The default demo stays as it is.
   */
  heavyTrades?: number;
  /**
   * COPY with indexes and foreign keys rebuilt after the load (default), or batched multi-row
   * INSERTs into the fully indexed tables (false). COPY is the default at every size: the default
   * 400 markets take ~5 s that way against ~33 s through INSERTs.
   */
  copy?: boolean;
}

/** Tables whose indexes and foreign keys are rebuilt after a COPY load (users and markets are small). */
export const BULK_TABLES = ["outcomes", "comments", "orders", "trades", "external_books"];

export type SeedSummary = Record<SeedTable, number> & { ms: number };

/** A jsonb value: COPY writes it as JSON text, INSERT hands the object to the driver's json serializer. */
export class Json {
  constructor(readonly value: unknown) {}
}
/** A row in column order: text values, text[] as string arrays, jsonb wrapped; null = SQL NULL. */
export type Value = string | null | string[] | Json;
export type Row = Value[];

const pgArray = (xs: string[]) => `{${xs.map((x) => `"${x.replace(/["\\]/g, "\\$&")}"`).join(",")}}`;
const json = (x: unknown) => (x == null ? null : new Json(x));
const bool = (b: boolean) => (b ? "t" : "f");

/** The markets table's columns beyond those the reads select (MARKET_COLUMNS). */
const MARKET_SEED_COLUMNS = [...MARKET_COLUMNS, "external_market_id", "creator_id", "price_market", "predict_market", "total_liquidity"] as const;
type MarketSeedColumn = (typeof MARKET_SEED_COLUMNS)[number];
type OutcomeColumn = (typeof OUTCOME_COLUMNS)[number];

export const COLUMNS: Record<SeedTable, readonly string[]> = {
  users: ["id", "username", "profile_image_url", "created_at"],
  markets: MARKET_SEED_COLUMNS,
  outcomes: OUTCOME_COLUMNS,
  comments: ["id", "market_id", "user_id", "content", "parent_id", "likes_count", "created_at", "updated_at"],
  orders: ["id", "market_id", "outcome_id", "user_id", "side", "type", "price", "shares", "filled_shares", "status", "created_at", "updated_at"],
  trades: ["id", "market_id", "outcome_id", "price", "shares", "maker_user_id", "taker_user_id", "executed_at"],
  external_books: ["outcome_id", "bids", "asks", "updated_at"],
};

/** A row's values in the order of its table's column list; the record type makes every column named once. */
const inOrder = <C extends string>(columns: readonly C[], values: Record<C, Value>): Row => columns.map((c) => values[c]);

export const marketRow = (m: MarketRow, comments: number, liquidity: number): Row =>
  inOrder<MarketSeedColumn>(MARKET_SEED_COLUMNS, {
    id: m.id,
    slug: m.slug,
    question: m.question,
    description: m.description,
    category: m.category,
    sub_category: m.sub_category,
    type: m.type,
    status: m.status,
    trading_starts_at: m.trading_starts_at,
    trading_ends_at: m.trading_ends_at,
    resolution_date: m.resolution_date,
    winning_outcome_id: m.winning_outcome_id,
    resolved_at: m.resolved_at,
    settled_at: m.settled_at,
    resolved_by: m.resolved_by,
    resolution_source: m.resolution_source,
    resolution_note: m.resolution_note,
    platform_fee: m.platform_fee,
    spread: String(m.spread),
    total_volume: m.total_volume,
    image_url: m.image_url,
    video_url: null,
    video_poster_url: null,
    video_source_url: null,
    video_provider: null,
    video_status: null,
    external_source: m.external_source,
    external_market_id: m.external_market_id,
    tags: m.tags,
    views: String(m.views),
    verified: bool(m.verified),
    featured: bool(m.featured),
    creator_id: m.creator_id,
    price_market: json(m.price_market),
    predict_market: json(m.predict_market),
    created_at: m.created_at,
    updated_at: m.updated_at,
    comments_count: String(comments),
    total_liquidity: volumeString(liquidity),
  });

export const outcomeRow = (o: OutcomeRow): Row =>
  inOrder<OutcomeColumn>(OUTCOME_COLUMNS, {
    id: o.id,
    market_id: o.market_id,
    name: o.name,
    side: o.side,
    index: String(o.index),
    probability: o.probability,
    description: o.description,
    image_url: o.image_url,
    color: o.color,
    question_id: o.question_id,
    condition_id: o.condition_id,
    position_id: o.position_id,
    payout_wei: o.payout_wei,
    created_at: o.created_at,
    updated_at: o.updated_at,
  });

/**
 * Every row of a chunk of markets, each child generated once. The derived columns of the markets
 * (total_volume, comments_count, total_liquidity) are summed here in exact integer units, so the
 * market rows are written final and the closing check in SQL finds nothing to correct.
 */
function chunkRows(ctx: SeedContext, markets: MarketRow[], heavy?: { market: MarketRow; volume: number }): Record<Exclude<SeedTable, "users">, Row[]> {
  const rows = { markets: [] as Row[], outcomes: [] as Row[], comments: [] as Row[], orders: [] as Row[], trades: [] as Row[], external_books: [] as Row[] };
  for (const m of markets) {
    for (const o of m.outcomes) rows.outcomes.push(outcomeRow(o));
    let comments = 0;
    generateComments(ctx, m, (c) => {
      comments++;
      rows.comments.push([c.id, c.market_id, c.user_id, c.content, c.parent_id, String(c.likes_count), c.created_at, c.updated_at]);
    });
    let liquidity = 0; // price thousandths × share hundredths = 1e-5 USDT
    generateOrders(ctx, m, (o) => {
      if (o.type === "LIMIT" && (o.status === "OPEN" || o.status === "PARTIALLY_FILLED"))
        liquidity += Math.round(Number(o.price) * 1000) * (Math.round(Number(o.shares) * 100) - Math.round(Number(o.filled_shares) * 100));
      rows.orders.push([o.id, o.market_id, o.outcome_id, o.user_id, o.side, o.type, o.price, o.shares, o.filled_shares, o.status, o.created_at, o.updated_at]);
    });
    generateExternalBooks(ctx, m, (b) => {
      // venue levels: 2-decimal prices and shares, so ×1000 and ×100 are exact
      for (const l of [...b.bids, ...b.asks]) liquidity += Math.round(Number(l.price) * 1000) * Math.round(Number(l.shares) * 100);
      rows.external_books.push([b.outcome_id, new Json(b.bids), new Json(b.asks), b.updated_at]);
    });
    const volume =
      generateTrades(ctx, m, (t) => rows.trades.push([t.id, t.market_id, t.outcome_id, t.price, t.shares, t.maker_user_id, t.taker_user_id, t.executed_at])) +
      (heavy?.market === m ? heavy.volume : 0);
    m.total_volume = volumeString(volume);
    rows.markets.push(marketRow(m, comments, liquidity));
  }
  return rows;
}

// COPY text format: backslash, tab, newline and carriage return are escaped; \N is NULL.
const copyText = (v: string) =>
  /[\\\t\n\r]/.test(v) ? v.replace(/[\\\t\n\r]/g, (c) => (c === "\\" ? "\\\\" : c === "\t" ? "\\t" : c === "\n" ? "\\n" : "\\r")) : v;
const copyValue = (v: Value) =>
  v === null ? "\\N" : typeof v === "string" ? copyText(v) : Array.isArray(v) ? copyText(pgArray(v)) : copyText(JSON.stringify(v.value));

function* tradeRows(trades: Iterable<TradeRow>): Generator<Row> {
  for (const t of trades) yield [t.id, t.market_id, t.outcome_id, t.price, t.shares, t.maker_user_id, t.taker_user_id, t.executed_at];
}

/** Joins rows into ~256 kB text chunks so the stream moves few, large buffers. */
function* copyChunks(rows: Iterable<Row>, count: () => void): Generator<string> {
  let chunk = "";
  for (const row of rows) {
    let line = "";
    for (let c = 0; c < row.length; c++) {
      const v = row[c];
      // Most values are uuids, numbers and timestamps: only free text and arrays need escaping.
      line += (c ? "\t" : "") + (v === null ? "\\N" : typeof v === "string" && !/[\\\t\n\r]/.test(v) ? v : copyValue(v));
    }
    chunk += line + "\n";
    count();
    if (chunk.length > 262_144) {
      yield chunk;
      chunk = "";
    }
  }
  if (chunk) yield chunk;
}

export async function writeTable(tx: Sql, table: SeedTable, rows: Iterable<Row>, copy: boolean, cols = COLUMNS[table]): Promise<number> {
  let n = 0;
  if (copy) {
    const writable = await tx`COPY ${tx(table)} (${tx(cols)}) FROM STDIN`.writable();
    await pipeline(Readable.from(copyChunks(rows, () => n++)), writable);
    return n;
  }
  // Batched multi-row INSERTs, kept under PostgreSQL's 65,535 bind parameters.
  const size = Math.floor(60_000 / cols.length);
  let batch: Record<string, postgres.ParameterOrJSON<never>>[] = [];
  const flush = async () => {
    if (batch.length) await tx`INSERT INTO ${tx(table)} ${tx(batch, cols)}`;
    batch = [];
  };
  for (const row of rows) {
    const obj: Record<string, postgres.ParameterOrJSON<never>> = {};
    for (let c = 0; c < cols.length; c++) {
      const v = row[c];
      obj[cols[c]] = (v instanceof Json ? v.value : v) as postgres.ParameterOrJSON<never>;
    }
    batch.push(obj);
    n++;
    if (batch.length >= size) await flush();
  }
  await flush();
  return n;
}

/**
 * Runs `load` with the foreign keys, unique constraints and indexes of `tables` dropped, then
 * re-creates them from the catalog's own definitions: building an index once and validating a
 * foreign key with one join is far cheaper than maintaining both row by row during a bulk COPY.
 * Runs inside the caller's transaction, so a failure leaves the schema untouched.
 */
export async function withoutIndexes<T>(
  tx: Sql,
  tables: readonly string[],
  load: () => Promise<T>,
  log: (m: string) => void,
  /** Keys and indexes (by name) that stay: those the load's own triggers look rows up by. */
  keep: readonly string[] = [],
  /** Log each rebuild that takes longer than this (ms), to see where a large load's time goes. */
  slowMs = Number.POSITIVE_INFINITY,
): Promise<T> {
  const rels = tables.map((t) => `public.${t}`);
  // Constraints that something outside `tables` depends on (e.g. the winning-outcome key) stay.
  const constraints = await tx<{ kind: string; name: string; drop: string; create: string }[]>`
    SELECT c.contype AS kind, c.conname AS name,
           format('ALTER TABLE %s DROP CONSTRAINT %I', c.conrelid::regclass, c.conname) AS drop,
           format('ALTER TABLE %s ADD CONSTRAINT %I %s', c.conrelid::regclass, c.conname, pg_get_constraintdef(c.oid)) AS create
      FROM pg_constraint c
     WHERE c.conrelid = ANY(${rels}::regclass[]) AND c.contype IN ('f', 'p', 'u')
       AND NOT (c.contype IN ('p', 'u') AND EXISTS (
             SELECT 1 FROM pg_constraint f
              WHERE f.contype = 'f' AND f.conindid = c.conindid AND f.conrelid <> ALL(${rels}::regclass[])))`;
  const indexes = await tx<{ drop: string; create: string }[]>`
    SELECT format('DROP INDEX %s', i.indexrelid::regclass) AS drop, pg_get_indexdef(i.indexrelid) AS create
      FROM pg_index i
     WHERE i.indrelid = ANY(${rels}::regclass[])
       AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid AND c.conrelid = i.indrelid AND c.contype IN ('p', 'u', 'x'))`;
  const fks = constraints.filter((c) => c.kind === "f");
  const keys = constraints.filter((c) => c.kind !== "f" && !keep.includes(c.name));
  for (const c of [...fks, ...keys, ...indexes]) await tx.unsafe(c.drop);
  const result = await load();
  const t0 = Date.now();
  await tx`SET LOCAL maintenance_work_mem = '512MB'`;
  for (const c of [...keys, ...indexes, ...fks]) {
    const t1 = Date.now();
    await tx.unsafe(c.create);
    if (Date.now() - t1 > slowMs) log(`    ${c.create.slice(0, 100)}: ${((Date.now() - t1) / 1000).toFixed(1)} s`);
  }
  log(`  ${keys.length + indexes.length} indexes and ${fks.length} foreign keys rebuilt in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return result;
}

/**
 * Brings comments_count and total_liquidity in line with the rows through refresh_market_derived()
 * (migration 0004), the one definition every write path uses. Returns how many markets it had to
 * correct, which, since the writer computed them, should be none.
 */
export async function checkDerived(tx: Sql): Promise<number> {
  const [{ changed }] = await tx<{ changed: number }[]>`SELECT refresh_market_derived(NULL) AS changed`;
  return changed;
}

/**
 * Top traders, reply counts (migration 0005) and candles (migration 0009) are kept by row triggers;
 * a bulk load turns them off and rebuilds them once from the loaded rows, set-based (in `load`'s
 * transaction, so a failure leaves the triggers on).
 */
export async function rebuildRowDerived(tx: Sql, log: (m: string) => void): Promise<void> {
  const t0 = Date.now();
  await tx`SELECT rebuild_row_derived()`;
  log(`  top traders, reply counts and candles rebuilt in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

/** The tables a seed writes, directly or through triggers. */
export const SEEDED_TABLES = [...SEED_TABLES, "market_counts", "market_traders", "candles", "market_search"];

/** Empties every data table (schema and migrations stay). */
export async function resetDatabase(sql: Sql): Promise<void> {
  await sql`TRUNCATE external_books, trades, orders, comments, outcomes, market_search, markets, users`;
}

/** Markets generated, and written table by table, per chunk: bounded memory, each market generated once. */
const CHUNK = 500;

export async function seedDatabase(sql: Sql, opts: SeedDatabaseOptions = {}): Promise<SeedSummary> {
  const started = Date.now();
  const ctx = seedContext(opts);
  const log = opts.log ?? (() => {});
  const copy = opts.copy ?? true;
  log(
    `seeding ${ctx.markets} markets, ${ctx.users} users, ~${ctx.tradesPerOutcome} trades per outcome (seed ${ctx.seed}, ${copy ? "COPY" : "batched INSERT"})`,
  );
  const counts = Object.fromEntries(SEED_TABLES.map((t) => [t, 0])) as Record<SeedTable, number>;
  let rows = 0;
  const secs = (t0: number) => `${((Date.now() - t0) / 1000).toFixed(1)} s`;

  await sql.begin(async (tx_) => {
    const tx = tx_ as unknown as Sql;
    await liftBounds(tx); // seeding 100k markets runs for minutes
    if (opts.reset) await resetDatabase(tx);
    let heavyLeft = opts.heavyTrades ?? 0;
    const load = async () => {
      const tLoad = Date.now();
      const users = (function* () {
        for (let i = 0; i < ctx.users; i++) {
          const u = generateUser(ctx, i);
          yield [u.id, u.username, u.profile_image_url, u.created_at] as Row;
        }
      })();
      rows += counts.users = await writeTable(tx, "users", users, copy);
      for (let from = 0; from < ctx.markets; from += CHUNK) {
        const markets: MarketRow[] = [];
        for (let i = from; i < Math.min(ctx.markets, from + CHUNK); i++) markets.push(generateMarket(ctx, i));
        const target = heavyLeft ? markets.find(isHeavyTarget) : undefined;
        const heavy = target && { market: target, volume: heavyVolume(ctx, target, heavyLeft) };
        const chunk = chunkRows(ctx, markets, heavy);
        for (const table of SEED_TABLES) {
          if (table === "users") continue;
          const n = await writeTable(tx, table, chunk[table], copy);
          counts[table] += n;
          rows += n;
        }
        if (heavy) {
          const tHeavy = Date.now();
          const n = await writeTable(tx, "trades", tradeRows(heavyTrades(ctx, heavy.market, heavyLeft)), copy);
          counts.trades += n;
          rows += n;
          heavyLeft = 0;
          log(`  heavy: ${n.toLocaleString("en-US")} trades on ${heavy.market.slug} (outcome ${heavy.market.outcomes[0].id}) in ${secs(tHeavy)}`);
        }
        opts.onProgress?.({ done: from + markets.length, total: ctx.markets, rows });
      }
      if (heavyLeft) throw new Error("--heavy-trades: no ACTIVE native market with an hour of trading among the seeded markets");
      log(`  wrote ${rows.toLocaleString("en-US")} rows in ${secs(tLoad)}`);
    };
    const t0 = Date.now();
    await tx`SELECT set_row_derived_triggers(false)`;
    const loadAll = async () => {
      await load();
      await rebuildRowDerived(tx, log);
    };
    // market_traders and candles are rebuilt in full too: their keys are cheaper built once than row by row.
    if (copy) await withoutIndexes(tx, [...BULK_TABLES, "market_traders", "candles"], loadAll, log);
    else await loadAll();
    await tx`SELECT set_row_derived_triggers(true)`;
    log(`  load complete in ${secs(t0)}`);
    const t1 = Date.now();
    const fixed = await checkDerived(tx);
    log(`  derived columns checked in ${secs(t1)}${fixed ? ` (${fixed} markets corrected)` : ""}`);
  });
  const t2 = Date.now();
  await vacuumAnalyze(sql, SEEDED_TABLES);
  log(`  vacuum (analyze) in ${secs(t2)}`);
  const ms = Date.now() - started;
  log(`seeded ${SEED_TABLES.map((t) => `${t}=${counts[t]}`).join(" ")} in ${(ms / 1000).toFixed(1)} s`);
  return { ...counts, ms };
}
