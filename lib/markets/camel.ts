// The camelCase variant (docs/api.md "The camelCase variant"): one mapping from the primary
// shape, applied after the same queries. Keys camelCased, quantities as decimal strings, probability 0..1.
import { fromUnits, toUnits } from "./decimal";
import {
  camelCase,
  type CamelCandle,
  type CamelCandles,
  type Candle,
  type Candles,
  type CamelCase,
  type CamelComment,
  type CamelMarketDetail,
  type CamelMarketListItem,
  type CamelMarketListResponse,
  type CamelOrderBook,
  type CamelOutcome,
  type CamelTradeTape,
  type Comment,
  type MarketDetail,
  type MarketListItem,
  type MarketListResponse,
  type CamelMarketChanges,
  type MarketChanges,
  type OrderBook,
  type Outcome,
  type PriceHistory,
  type TradeTape,
} from "./schemas";

type CamelKeys<T> = { [K in keyof T as K extends string ? CamelCase<K> : K]: T[K] };

/** Renames the top-level keys only; nested objects are mapped by their own functions. */
function camelKeys<T extends object>(o: T): CamelKeys<T> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) out[camelCase(k)] = v;
  return out as CamelKeys<T>;
}

/** A JSON number as a plain decimal string (never exponent notation). */
export function decimalString(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`not a finite number: ${n}`);
  const s = String(n);
  if (!/e/i.test(s)) return s;
  // Beyond 1e21 or below 1e-7: print the exact digits of the double, trimmed of trailing zeros.
  const fixed = Math.abs(n) >= 1 ? BigInt(Math.round(n)).toString() : n.toFixed(20);
  return fixed.includes(".") ? fixed.replace(/\.?0+$/, "") : fixed;
}

/** Percent 0..100 (two decimals) → a 0..1 string with four decimals, exactly: 63.45 → "0.6345". */
export function unitProbability(percent: number): string {
  return fromUnits(toUnits(String(percent), 2), 4);
}

export function camelOutcome(o: Outcome): CamelOutcome {
  return { ...camelKeys(o), probability: unitProbability(o.probability) };
}

function camelMarketBase<M extends MarketListItem | MarketDetail>(m: M) {
  return {
    ...camelKeys(m),
    winningOutcome: m.winning_outcome && camelOutcome(m.winning_outcome),
    platformFee: decimalString(m.platform_fee),
    spread: decimalString(m.spread),
    totalVolume: decimalString(m.total_volume),
    outcomes: m.outcomes.map(camelOutcome),
  };
}

export function camelMarketListItem(m: MarketListItem): CamelMarketListItem {
  return camelMarketBase(m);
}

export function camelMarketList(list: MarketListResponse): CamelMarketListResponse {
  return { ...list, markets: list.markets.map(camelMarketListItem) };
}

export function camelComment(c: Comment): CamelComment {
  return { ...camelKeys(c), user: camelKeys(c.user) };
}

export function camelMarketDetail(m: MarketDetail): CamelMarketDetail {
  const { creator, ...rest } = camelMarketBase(m);
  return {
    ...rest,
    totalLiquidity: decimalString(m.total_liquidity),
    topTraders: m.top_traders.map((t) => ({ ...camelKeys(t), volume: decimalString(t.volume) })),
    comments: m.comments.map(camelComment),
    ...(creator ? { creator: camelKeys(creator) } : {}),
  };
}

export function camelOrderBook(b: OrderBook): CamelOrderBook {
  return camelKeys(b);
}

/** Unchanged in the variant. */
export function camelPriceHistory(h: PriceHistory): PriceHistory {
  return h;
}

// ---------------------------------------------------------------- trade tape and batches

export function camelTradeTape(t: TradeTape): CamelTradeTape {
  return { trades: t.trades.map((trade) => camelKeys(trade)), nextCursor: t.next_cursor, newestCursor: t.newest_cursor };
}

// ---------------------------------------------------------------- candles

/** Prices as three-decimal strings (the numbers are exact three-decimal values, so toFixed only pads). */
export function camelCandle(c: Candle): CamelCandle {
  return { ...c, open: c.open.toFixed(3), high: c.high.toFixed(3), low: c.low.toFixed(3), close: c.close.toFixed(3) };
}

export function camelCandles(c: Candles): CamelCandles {
  return { ...camelKeys(c), candles: c.candles.map(camelCandle) };
}

/** A page of book changes in the variant: only the envelope's key changes (changes carry no snake_case keys). */
export function camelBookChanges(p: { changes: unknown[]; next_version: number | null }) {
  return { changes: p.changes, nextVersion: p.next_version };
}

// ---------------------------------------------------------------- markets feed

/** A page of the markets feed: each market as the list's variant shows it (the envelope has no snake_case keys). */
export function camelMarketChanges(p: MarketChanges): CamelMarketChanges {
  return { ...p, changes: p.changes.map((c) => ({ ...c, market: c.market && camelMarketListItem(c.market) })) };
}
