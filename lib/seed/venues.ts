// The `venues` seed profile (docs/development.md#data-sets): the catalogue of two venues, most markets
// closed, trade counts per market heavy-tailed. Pure and deterministic like the rest of the seed: the
// counts are a function of (seed, markets), the trades of a market a function of its plan rows, which
// lib/seed/venue-trades.ts turns into rows.
import type { MarketStatus } from "../markets/schemas";
import { type MarketRow, type SeedContext, type SeedOptions, marketStatus, seedContext } from "./generate";
import { hash32, labelHash, Rng } from "./prng";

export const VENUE_MARKETS = 360_000;

/** About 50,000 of 360,000 ACTIVE; the rest closed: resolved, cancelled, or LOCKED (trading over, not yet resolved). */
export const VENUE_STATUS_WEIGHTS: readonly (readonly [MarketStatus, number])[] = [
  ["ACTIVE", 139],
  ["RESOLVED", 640],
  ["CANCELLED", 61],
  ["LOCKED", 160],
];

/** 85 % mirrored from the two venues (about half each), 15 % native. */
export const VENUE_MIRRORED_SHARE = 0.85;

export function venueContext(o: Partial<SeedOptions> = {}): SeedContext {
  return seedContext({ ...o, markets: o.markets ?? VENUE_MARKETS, statusWeights: VENUE_STATUS_WEIGHTS, mirroredShare: VENUE_MIRRORED_SHARE });
}

// ------------------------------------------------------------------------------ trade counts

/**
 * Trades per market by rank (0 = the busiest), as a quantile function of u = (rank + 1) / markets:
 * a log-normal body (median BODY_MEDIAN, σ BODY_SIGMA) under a Zipf tail ZIPF_K / u, which puts
 * the market of rank r at ZIPF_K · markets / (r + 1). At 360,000 markets: median ~22, top three
 * ≥ 1,000,000, ~43M in all (docs/performance.md#venues-data-set says why the tail stops there).
 */
const BODY_MEDIAN = 22;
const BODY_SIGMA = 1.3;
const ZIPF_K = 3_000_000 / VENUE_MARKETS;
/** A market's trades never exceed this (its tape stays a benchmarkable size). */
export const VENUE_MAX_TRADES = 4_000_000;

/** Standard normal quantile (Acklam's rational approximation, relative error < 1.2e-9). */
export function normalQuantile(p: number): number {
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const tail = (q: number) => (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  if (p < 0.02425) return tail(Math.sqrt(-2 * Math.log(p)));
  if (p > 1 - 0.02425) return -tail(Math.sqrt(-2 * Math.log(1 - p)));
  const q = p - 0.5;
  const r = q * q;
  return ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

/** Trades of the market of rank `rank` among `markets` (at least 2: one a side of a binary market). */
export function tradesAtRank(rank: number, markets: number): number {
  const u = (rank + 1) / markets;
  const body = Math.exp(Math.log(BODY_MEDIAN) + BODY_SIGMA * normalQuantile(1 - (rank + 0.5) / markets));
  return Math.min(VENUE_MAX_TRADES, Math.max(2, Math.round(Math.max(body, ZIPF_K / u))));
}

const countCache = new WeakMap<SeedContext, Int32Array>();

/**
 * The target trade count of every market, by market index. Ranks go to markets in the order of a
 * hash of their index, except that the busiest rank goes to the first ACTIVE market in that order,
 * so a market with millions of trades is live (its tape, candles and book are read while it trades).
 */
export function venueTradeCounts(ctx: SeedContext): Int32Array {
  const cached = countCache.get(ctx);
  if (cached) return cached;
  const n = ctx.markets;
  const salt = hash32(ctx.seed, labelHash("venue-rank"));
  const keys = new Uint32Array(n);
  for (let i = 0; i < n; i++) keys[i] = hash32(salt, i);
  const order = Array.from({ length: n }, (_, i) => i).sort((x, y) => keys[x] - keys[y] || x - y);
  const live = order.findIndex((i) => marketStatus(ctx, i) === "ACTIVE");
  if (live > 0) order.unshift(...order.splice(live, 1));
  const counts = new Int32Array(n);
  for (let rank = 0; rank < n; rank++) counts[order[rank]] = tradesAtRank(rank, n);
  countCache.set(ctx, counts);
  return counts;
}

/** Trades per outcome: the market's count shared evenly, at least one each (a market's real total is this × its outcomes). */
export const tradesPerOutcome = (count: number, outcomes: number) => Math.max(1, Math.round(count / outcomes));

/** More comments, deeper books where more trades are: one level or comment more per decade of trades above 100. */
export function venueDepth(trades: number): { comments: number; levels: number } {
  const decades = Math.max(0, Math.floor(Math.log10(Math.max(1, trades))) - 1);
  return { comments: Math.floor(Math.sqrt(trades) / 4), levels: Math.min(6, decades) };
}

export interface Percentiles {
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  max: number;
  total: number;
  /** Markets with at least 100,000 and at least 1,000,000 trades. */
  over100k: number;
  over1m: number;
}

/** Nearest-rank percentiles of trades per market. */
export function percentiles(values: ArrayLike<number>): Percentiles {
  const xs = Float64Array.from(values).sort();
  const at = (q: number) => (xs.length ? xs[Math.min(xs.length - 1, Math.max(0, Math.ceil(q * xs.length) - 1))] : 0);
  let total = 0;
  let over100k = 0;
  let over1m = 0;
  for (const x of xs) {
    total += x;
    if (x >= 100_000) over100k++;
    if (x >= 1_000_000) over1m++;
  }
  return { p50: at(0.5), p90: at(0.9), p99: at(0.99), p999: at(0.999), max: xs.length ? xs[xs.length - 1] : 0, total, over100k, over1m };
}

// ------------------------------------------------------------------------------ the trades' plans

/** One outcome's trades, as lib/seed/venue-trades.ts generates them. */
export interface TradePlan {
  marketId: string;
  outcomeId: string;
  /** 16 hex digits: the trade ids' first half (table salt, market index, uuid version). */
  idPrefix: string;
  /** The outcome's index in its market (in the ids' second half). */
  k: number;
  n: number;
  /** Trading window (unix ms): the last trade exactly at `to`, the others before it, in bursts. */
  from: number;
  to: number;
  /** Price path in thousandths: from `start` to exactly `end` (the outcome's last price; a binary market's NO side gives YES's). */
  start: number;
  end: number;
  /** A binary market's NO side: 1000 − the YES price of the same row, at the same time. */
  mirror: boolean;
  /** Native markets name maker and taker (user indexes); mirrored ones do not. */
  native: boolean;
  /** Hash keys: one per market (price and time, shared by a binary market's two sides), one per outcome (shares, traders). */
  keyM: number;
  keyO: number;
  /** Swing of the price path (thousandths), its number of cycles and phase. */
  amp: number;
  cycles: number;
  phase: number;
}

const hex = (n: number, w: number) => (n >>> 0).toString(16).padStart(w, "0");

/** The plan rows of a market, one per outcome; none without trades. */
export function tradePlans(ctx: SeedContext, m: MarketRow, count: number): TradePlan[] {
  if (m.status === "PENDING" || m.tradeTo <= m.tradeFrom || count <= 0) return [];
  const salt = hash32(ctx.seed, labelHash("venue-trade"));
  const idPrefix = `${hex(salt, 8)}${hex((m.index >>> 12) & 0xffff, 4)}4${hex(m.index & 0xfff, 3)}`;
  const r = new Rng(hash32(ctx.seed, labelHash("venue-trades"), m.index));
  const n = tradesPerOutcome(count, m.outcomes.length);
  const binary = m.type === "BINARY";
  const yesStart = r.int(250, 750);
  const keyM = r.u32();
  const amp = r.range(20, 120);
  const cycles = r.range(0.5, 6);
  const phase = r.range(0, 2 * Math.PI);
  return m.outcomes.map((o, k) => ({
    marketId: m.id,
    outcomeId: o.id,
    idPrefix,
    k,
    n,
    from: Math.floor(m.tradeFrom),
    to: Math.floor(m.tradeTo),
    // A binary market's two sides share the YES path; the SQL mirrors it for NO.
    start: binary ? yesStart : Math.round(1000 / m.outcomes.length),
    end: binary ? m.outcomes[0].lastPrice : o.lastPrice,
    mirror: binary && k === 1,
    native: m.external_source === null,
    keyM: binary ? keyM : r.u32(),
    keyO: r.u32(),
    amp: binary ? amp : r.range(20, 120),
    cycles: binary ? cycles : r.range(0.5, 6),
    phase: binary ? phase : r.range(0, 2 * Math.PI),
  }));
}
