// Price history of one outcome (docs/import.md "Price history"): trades bucketed by fidelity minutes,
// one point per non-empty bucket carrying the price of its latest trade. Pure and unit-tested.
import type { PricePoint } from "./schemas";

export interface TradePoint {
  id: string;
  /** Unix seconds (may be fractional). */
  executedAt: number;
  /** Price on the 0..1 scale. */
  price: number;
}

/** Trades in any order → points in ascending t. Within a bucket the latest trade wins (ties by id). */
export function bucketTrades(trades: TradePoint[], fidelityMinutes: number): PricePoint[] {
  const width = fidelityMinutes * 60;
  const buckets = new Map<number, TradePoint>();
  for (const trade of trades) {
    const t = Math.floor(trade.executedAt / width) * width;
    const current = buckets.get(t);
    if (!current || trade.executedAt > current.executedAt || (trade.executedAt === current.executedAt && trade.id > current.id)) {
      buckets.set(t, trade);
    }
  }
  return [...buckets].sort(([a], [b]) => a - b).map(([t, trade]) => ({ t, p: trade.price }));
}

/**
 * The window of a request (spec 4.6): startTs defaults to now − 7 days, endTs to now (unix seconds).
 * The default start follows now, not endTs: an endTs older than now − 7 days without a startTs gives
 * startTs > endTs, an empty window. Reaching further back takes an explicit startTs.
 */
export function historyWindow(q: { startTs?: number; endTs?: number }, nowS: number, defaultWindowS: number) {
  const endTs = q.endTs ?? nowS;
  const startTs = q.startTs ?? Math.max(0, nowS - defaultWindowS);
  return { startTs, endTs };
}
