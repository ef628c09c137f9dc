// The ingest writer (docs/ingest.md): checks a batch of parsed lines against the database and the lines
// before them, then writes what passes in one transaction, a few set-based statements per batch, so the
// statement-level triggers (books, versions, the book log, candles, top traders, announce()) run once per
// batch and commit once. A line either lands whole or not at all: a batch the database rejects is split in
// halves until the line it rejects stands alone, and that line alone is reported.
import postgres from "postgres";
import type { Sql } from "../db/client";
import { scaled } from "../markets/import-schemas";
import { MARKET_FILE_TYPES, OUTCOME_FILE_TYPES } from "../markets/rows";
import type { IngestEvent, IngestMarket, IngestOrder, IngestTrade, IngestUser } from "./schemas";

/** A parsed line of the stream: its number (1-based), its event and when it was read (ms). */
export interface Line {
  n: number;
  event: IngestEvent;
  readAt: number;
  /** A user line's copy in a lane other than its first (lib/ingest/run.ts): written, not counted. */
  copy?: true;
}

export interface Rejection {
  line: number;
  error: string;
}

export interface BatchOutcome {
  rejected: Rejection[];
  /** Lines written (accepted, whether or not they changed anything: a duplicate is accepted and changes nothing). */
  accepted: number;
  orders: number;
  trades: number;
  markets: number;
  users: number;
  /** Markets whose totals the batch's transactions revisited (the work of a batch grows with them, docs/ingest.md "What a batch costs"). */
  touched: number;
  /** Transactions committed (more than one when the database rejected a line and the batch was split). */
  commits: number;
}

/** deadlock_detected and serialization_failure: the transaction was rolled back whole and may run again. */
const RETRYABLE = new Set(["40P01", "40001"]);
const ATTEMPTS = 3;

/**
 * An instant as microseconds since 1970, exact for ISO strings with up to 6 decimals (Date keeps ms only):
 * the order of two states of one order within a batch must agree with the database's comparison.
 */
export function micros(iso: string): number {
  const frac = /\.(\d+)/.exec(iso)?.[1] ?? "";
  return Date.parse(iso) * 1000 + Number(frac.slice(3, 6).padEnd(3, "0"));
}

interface StoredOrder {
  market_id: string;
  outcome_id: string;
  user_id: string;
  side: string;
  type: string;
  price: string;
  shares: string;
  created_at: Date;
}

/** The fields an order keeps from its first state on: a later state may change only its fills and status. */
function orderMismatch(o: IngestOrder, s: StoredOrder): string | null {
  for (const k of ["market_id", "outcome_id", "user_id", "side", "type"] as const)
    if (o[k] !== s[k]) return `order.${k}: differs from the order as first written (${s[k]})`;
  if (scaled(o.price, 3) !== scaled(s.price, 3)) return `order.price: differs from the order as first written (${s.price})`;
  if (scaled(o.shares, 2) !== scaled(s.shares, 2)) return `order.shares: differs from the order as first written (${s.shares})`;
  if (Date.parse(o.created_at) !== s.created_at.getTime()) return `order.created_at: differs from the order as first written (${s.created_at.toISOString()})`;
  return null;
}

const storedOf = (o: IngestOrder): StoredOrder => ({ ...o, created_at: new Date(o.created_at) });

const MARKET_COLS: Record<string, string> = { ...MARKET_FILE_TYPES, created_at: "timestamptz", updated_at: "timestamptz" };
// total_volume is the venue's at creation; from then on the stream's trades add to it (docs/ingest.md#market).
const MARKET_UPDATED = Object.keys(MARKET_COLS).filter((c) => c !== "id" && c !== "total_volume" && c !== "created_at");
const MARKET_UPSERT = `
INSERT INTO markets AS t (${Object.keys(MARKET_COLS).join(", ")})
SELECT ${Object.keys(MARKET_COLS).join(", ")} FROM jsonb_to_recordset($1::text::jsonb) AS x(${Object.entries(MARKET_COLS)
  .map(([c, t]) => `${c} ${t}`)
  .join(", ")})
ON CONFLICT (id) DO UPDATE SET ${MARKET_UPDATED.map((c) => `${c} = EXCLUDED.${c}`).join(", ")}
 WHERE t.updated_at < EXCLUDED.updated_at
RETURNING id`;

const OUTCOME_COLS = OUTCOME_FILE_TYPES;
const OUTCOME_UPDATED = Object.keys(OUTCOME_COLS).filter((c) => c !== "id" && c !== "market_id");
const OUTCOME_UPSERT = `
INSERT INTO outcomes AS t (${Object.keys(OUTCOME_COLS)
  .map((c) => `"${c}"`)
  .join(", ")}, created_at, updated_at)
SELECT ${Object.keys(OUTCOME_COLS)
  .map((c) => `x."${c}"`)
  .join(", ")}, coalesce(x.created_at, now()), coalesce(x.updated_at, now())
  FROM jsonb_to_recordset($1::text::jsonb) AS x(${Object.entries(OUTCOME_COLS)
    .map(([c, t]) => `"${c}" ${t}`)
    .join(", ")}, created_at timestamptz, updated_at timestamptz)
ON CONFLICT (id) DO UPDATE SET ${OUTCOME_UPDATED.map((c) => `"${c}" = EXCLUDED."${c}"`).join(", ")}, updated_at = EXCLUDED.updated_at
 WHERE (${OUTCOME_UPDATED.map((c) => `t."${c}"`).join(", ")}) IS DISTINCT FROM (${OUTCOME_UPDATED.map((c) => `EXCLUDED."${c}"`).join(", ")})`;

/** Keeps, per key, the row with the latest `at`; of equal ones the first (a duplicate changes nothing). */
function newest<T>(rows: T[], key: (r: T) => string, at: (r: T) => number): T[] {
  const best = new Map<string, { row: T; at: number }>();
  for (const row of rows) {
    const k = key(row);
    const t = at(row);
    const b = best.get(k);
    if (!b || t > b.at) best.set(k, { row, at: t });
  }
  return [...best.values()].map((b) => b.row);
}

export class IngestWriter {
  /** What is known to exist (read from the database, or written by this writer): never forgotten, never stale for the stream's own rows. */
  private users = new Set<string>();
  private outcomes = new Map<string, string>(); // outcome → market
  private markets = new Set<string>();

  constructor(private sql: Sql) {}

  /** Writes a batch: returns the rejected lines (with line numbers) and what landed. */
  async write(lines: Line[]): Promise<BatchOutcome> {
    const out: BatchOutcome = { rejected: [], accepted: 0, orders: 0, trades: 0, markets: 0, users: 0, touched: 0, commits: 0 };
    await this.writeSplitting(lines, out);
    out.rejected.sort((a, b) => a.line - b.line);
    return out;
  }

  private async writeSplitting(lines: Line[], out: BatchOutcome): Promise<void> {
    if (!lines.length) return;
    const { valid, rejected } = await this.check(lines);
    out.rejected.push(...rejected);
    if (!valid.length) return;
    try {
      const r = await this.commit(valid);
      out.accepted += valid.length;
      out.orders += r.orders;
      out.trades += r.trades;
      out.markets += r.markets;
      out.users += r.users;
      out.touched += r.touched;
      out.commits++;
    } catch (err) {
      // Only the database's refusals are a line's fault; anything else (a lost connection, a bug) stops the ingest.
      if (!(err instanceof postgres.PostgresError) || err.code.startsWith("08")) throw err;
      if (valid.length === 1) {
        const e = err as { message?: string; detail?: string };
        out.rejected.push({
          line: valid[0].n,
          error: `${valid[0].event.kind}: rejected by the database: ${e.message ?? String(err)}${e.detail ? ` (${e.detail})` : ""}`,
        });
        return;
      }
      const half = Math.ceil(valid.length / 2);
      await this.writeSplitting(valid.slice(0, half), out);
      await this.writeSplitting(valid.slice(half), out);
    }
  }

  // ------------------------------------------------------------------------------ checking

  /** Reads what the database holds of the ids the lines reference and the writer does not know yet. */
  private async lookup(lines: Line[]) {
    const users = new Set<string>();
    const outcomes = new Set<string>();
    const markets = new Set<string>();
    const orders: string[] = [];
    const user = (id: string | null | undefined) => id && !this.users.has(id) && users.add(id);
    const outcome = (id: string | null) => id && !this.outcomes.has(id) && outcomes.add(id);
    const market = (id: string) => !this.markets.has(id) && markets.add(id);
    for (const { event: e } of lines) {
      if (e.kind === "market") {
        user(e.row.creator_id);
        outcome(e.row.winning_outcome_id);
        for (const o of e.row.outcomes) outcome(o.id);
      } else if (e.kind === "order") {
        market(e.row.market_id), outcome(e.row.outcome_id), user(e.row.user_id);
        orders.push(e.row.id);
      } else if (e.kind === "trade") {
        market(e.row.market_id), outcome(e.row.outcome_id), user(e.row.maker_user_id), user(e.row.taker_user_id);
      }
    }
    const sql = this.sql;
    const [u, o, m, s] = await Promise.all([
      users.size ? sql<{ id: string }[]>`SELECT id FROM users WHERE id = ANY(${[...users]}::uuid[])` : [],
      outcomes.size ? sql<{ id: string; market_id: string }[]>`SELECT id, market_id FROM outcomes WHERE id = ANY(${[...outcomes]}::uuid[])` : [],
      markets.size ? sql<{ id: string }[]>`SELECT id FROM markets WHERE id = ANY(${[...markets]}::uuid[])` : [],
      orders.length
        ? sql<(StoredOrder & { id: string })[]>`
            SELECT id, market_id, outcome_id, user_id, side, type, price::text, shares::text, created_at
              FROM orders WHERE id = ANY(${orders}::uuid[])`
        : [],
    ]);
    for (const r of u) this.users.add(r.id);
    for (const r of o) this.outcomes.set(r.id, r.market_id), this.markets.add(r.market_id);
    for (const r of m) this.markets.add(r.id);
    return new Map(s.map((r) => [r.id, r as StoredOrder]));
  }

  /**
   * The cross-line rules, in line order: references resolve to the database or an earlier line, an outcome
   * stays with its market, an order keeps its first state's fields.
   */
  private async check(lines: Line[]) {
    const stored = await this.lookup(lines);
    const users = new Set<string>();
    const outcomes = new Map<string, string>();
    const markets = new Set<string>();
    const valid: Line[] = [];
    const rejected: Rejection[] = [];
    const userKnown = (id: string) => this.users.has(id) || users.has(id);
    const marketOf = (outcome: string) => this.outcomes.get(outcome) ?? outcomes.get(outcome);
    const marketKnown = (id: string) => this.markets.has(id) || markets.has(id);
    const fill = (kind: string, r: { market_id: string; outcome_id: string }) => {
      if (!marketKnown(r.market_id)) return `${kind}.market_id: unknown market ${r.market_id}`;
      const om = marketOf(r.outcome_id);
      if (!om) return `${kind}.outcome_id: unknown outcome ${r.outcome_id}`;
      if (om !== r.market_id) return `${kind}.outcome_id: outcome does not belong to market ${r.market_id}`;
      return null;
    };
    for (const line of lines) {
      const e = line.event;
      let error: string | null = null;
      if (e.kind === "user") users.add(e.row.id);
      else if (e.kind === "market") {
        const m = e.row;
        if (m.creator_id && !userKnown(m.creator_id)) error = `market.creator_id: unknown user ${m.creator_id}`;
        const indexes = new Set<number>();
        for (const [k, o] of m.outcomes.entries()) {
          if (error) break;
          const om = marketOf(o.id);
          if (o.market_id !== undefined && o.market_id !== m.id) error = `market.outcomes[${k}].market_id: must be the id of its market (${m.id})`;
          else if (om && om !== m.id) error = `market.outcomes[${k}].id: outcome belongs to market ${om}`;
          else if (indexes.has(o.index)) error = `market.outcomes[${k}].index: duplicate index ${o.index} within the market`;
          indexes.add(o.index);
        }
        if (!error && m.winning_outcome_id && !m.outcomes.some((o) => o.id === m.winning_outcome_id) && marketOf(m.winning_outcome_id) !== m.id)
          error = "market.winning_outcome_id: not an outcome of this market";
        if (!error) {
          markets.add(m.id);
          for (const o of m.outcomes) outcomes.set(o.id, m.id);
        }
      } else if (e.kind === "order") {
        const o = e.row;
        error = fill("order", o) ?? (userKnown(o.user_id) ? null : `order.user_id: unknown user ${o.user_id}`);
        const first = stored.get(o.id);
        if (!error && first) error = orderMismatch(o, first);
        if (!error && !first) stored.set(o.id, storedOf(o));
      } else {
        const t = e.row;
        error = fill("trade", t);
        if (!error && t.maker_user_id && !userKnown(t.maker_user_id)) error = `trade.maker_user_id: unknown user ${t.maker_user_id}`;
        if (!error && t.taker_user_id && !userKnown(t.taker_user_id)) error = `trade.taker_user_id: unknown user ${t.taker_user_id}`;
      }
      if (error) rejected.push({ line: line.n, error });
      else valid.push(line);
    }
    return { valid, rejected };
  }

  // ------------------------------------------------------------------------------ writing

  private async commit(lines: Line[]) {
    const users: IngestUser[] = [];
    const markets: IngestMarket[] = [];
    const orders: IngestOrder[] = [];
    const trades: IngestTrade[] = [];
    for (const { event: e } of lines) {
      if (e.kind === "user") users.push(e.row);
      else if (e.kind === "market") markets.push(e.row);
      else if (e.kind === "order") orders.push(e.row);
      else trades.push(e.row);
    }
    for (let attempt = 1; ; attempt++) {
      try {
        const r = await this.sql.begin((tx) => writeRows(tx as unknown as Sql, users, markets, orders, trades));
        for (const u of users) this.users.add(u.id);
        for (const m of markets) if (r.marketIds.has(m.id)) for (const o of m.outcomes) this.outcomes.set(o.id, m.id), this.markets.add(m.id);
        return r;
      } catch (err) {
        const code = (err as { code?: unknown }).code;
        if (attempt >= ATTEMPTS || typeof code !== "string" || !RETRYABLE.has(code)) throw err;
      }
    }
  }
}

/**
 * The statements of one batch, in foreign-key order. Each kind is one statement over all its rows:
 *   users    created once; a later line for a known user changes nothing
 *   markets  newest updated_at wins (an older or equal state is ignored), with their outcomes
 *   orders   newest updated_at wins; the first state fixes all but filled_shares and status
 *   trades   keyed by id: the first wins; a new trade adds its notional to its market's total_volume
 * then the markets' total_liquidity, from book_depth (docs/ingest.md#rules-of-order).
 */
async function writeRows(tx: Sql, users: IngestUser[], markets: IngestMarket[], orders: IngestOrder[], trades: IngestTrade[]) {
  let nUsers = 0;
  let nOrders = 0;
  let nTrades = 0;
  const marketIds = new Set<string>();
  const touched = new Set<string>();
  if (users.length) {
    const u = [...new Map(users.map((x) => [x.id, x])).values()];
    const r = await tx`
      INSERT INTO users (id, username, profile_image_url)
      SELECT * FROM unnest(${u.map((x) => x.id)}::uuid[], ${u.map((x) => x.username)}::text[], ${u.map((x) => x.profile_image_url)}::text[])
      ON CONFLICT (id) DO NOTHING`;
    nUsers = r.count;
  }
  if (markets.length) {
    const latest = newest(
      markets,
      (m) => m.id,
      (m) => micros(m.updated_at),
    );
    const rows = latest.map(({ outcomes: _o, comments: _c, ...m }) => ({
      ...m,
      creator_id: m.creator_id ?? null,
      external_market_id: m.external_market_id ?? null,
      price_market: m.price_market ?? null,
      predict_market: m.predict_market ?? null,
    }));
    for (const r of await tx.unsafe<{ id: string }[]>(MARKET_UPSERT, [JSON.stringify(rows)])) marketIds.add(r.id);
    const outcomes = latest.filter((m) => marketIds.has(m.id)).flatMap((m) => m.outcomes.map((o) => ({ ...o, market_id: m.id })));
    if (outcomes.length) await tx.unsafe(OUTCOME_UPSERT, [JSON.stringify(outcomes)]);
    for (const id of marketIds) touched.add(id);
  }
  if (orders.length) {
    const o = newest(
      orders,
      (x) => x.id,
      (x) => micros(x.updated_at),
    );
    const col = <K extends keyof IngestOrder>(k: K) => o.map((x) => x[k]) as string[];
    // Enum arrays go as text[]: postgres.js serialises an array only for the types it knew when it connected,
    // and a fresh database gets them from the migrations after that.
    const r = await tx`
      INSERT INTO orders AS t (id, market_id, outcome_id, user_id, side, type, price, shares, filled_shares, status, created_at, updated_at)
      SELECT * FROM unnest(${col("id")}::uuid[], ${col("market_id")}::uuid[], ${col("outcome_id")}::uuid[], ${col("user_id")}::uuid[],
                           ${col("side")}::text[]::order_side[], ${col("type")}::text[]::order_type[], ${col("price")}::numeric[], ${col("shares")}::numeric[],
                           ${col("filled_shares")}::numeric[], ${col("status")}::text[]::order_status[], ${col("created_at")}::timestamptz[],
                           ${col("updated_at")}::timestamptz[])
      ON CONFLICT (id) DO UPDATE SET filled_shares = EXCLUDED.filled_shares, status = EXCLUDED.status, updated_at = EXCLUDED.updated_at
       WHERE t.updated_at < EXCLUDED.updated_at
      RETURNING market_id`;
    nOrders = r.count;
    for (const x of r) touched.add(x.market_id);
  }
  const volume = new Map<string, string>();
  if (trades.length) {
    const t = [...new Map(trades.map((x) => [x.id, x])).values()];
    const col = <K extends keyof IngestTrade>(k: K) => t.map((x) => x[k]) as (string | null)[];
    const r = await tx<{ market_id: string; v: string; n: number }[]>`
      WITH ins AS (
        INSERT INTO trades (id, market_id, outcome_id, price, shares, maker_user_id, taker_user_id, executed_at)
        SELECT * FROM unnest(${col("id")}::uuid[], ${col("market_id")}::uuid[], ${col("outcome_id")}::uuid[], ${col("price")}::numeric[],
                             ${col("shares")}::numeric[], ${col("maker_user_id")}::uuid[], ${col("taker_user_id")}::uuid[],
                             ${col("executed_at")}::timestamptz[])
        ON CONFLICT (id) DO NOTHING
        RETURNING market_id, price * shares AS v)
      SELECT market_id, sum(v)::text AS v, count(*)::int AS n FROM ins GROUP BY 1`;
    for (const x of r) volume.set(x.market_id, x.v), touched.add(x.market_id), (nTrades += x.n);
  }
  if (touched.size) {
    // One update of each touched market: the new trades' notional added to total_volume, and
    // refresh_market_derived's total_liquidity of a native market, Σ price × shares of its book_depth (which
    // the order triggers keep as exactly those resting shares per price), read as the sum of its books'
    // notional, which the same triggers keep with each book's head (migration 0035).
    // (Each update of a market writes all its indexes again: total_volume and total_liquidity are sort keys.)
    const ids = [...touched].sort();
    await tx`
      UPDATE markets m SET total_volume = m.total_volume + d.v,
                           total_liquidity = CASE WHEN m.external_source IS NULL THEN d.liq ELSE m.total_liquidity END
        FROM (SELECT t.id, t.v, coalesce((SELECT sum(h.notional) FROM outcomes oc JOIN book_heads h ON h.outcome_id = oc.id
                                           WHERE oc.market_id = t.id), 0) AS liq
                FROM unnest(${ids}::uuid[], ${ids.map((id) => volume.get(id) ?? "0")}::numeric[]) AS t (id, v)) d
       WHERE m.id = d.id
         AND (d.v <> 0 OR (m.external_source IS NULL AND m.total_liquidity IS DISTINCT FROM d.liq))`;
  }
  return { users: nUsers, markets: marketIds.size, orders: nOrders, trades: nTrades, touched: touched.size, marketIds };
}
