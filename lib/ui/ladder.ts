// The order-book ladder's rows: levels nearest the spread, cumulative depth from the best price
// outwards, spread and midpoint. Pure, so it is unit-tested on its own.
import type { OrderBook } from "@/lib/markets/schemas";

export interface LadderRow {
  price: number;
  shares: number;
  /** Shares from the best price up to and including this level. */
  cumulative: number;
}

export interface Ladder {
  /** Display order: worst shown ask on top, best ask last (just above the spread row). */
  asks: LadderRow[];
  /** Display order: best bid first (just below the spread row). */
  bids: LadderRow[];
  bestBid?: number;
  bestAsk?: number;
  spread?: number;
  midpoint?: number;
  maxCumulative: number;
  hiddenAsks: number;
  hiddenBids: number;
}

function accumulate(levels: { price: string; shares: string }[], limit: number): LadderRow[] {
  let cum = 0;
  return levels.slice(0, limit).map((l) => {
    const shares = Number(l.shares);
    cum += shares;
    return { price: Number(l.price), shares, cumulative: cum };
  });
}

/** Book sides as the API sends them: bids highest first, asks lowest first. */
export function buildLadder(book: Pick<OrderBook, "bids" | "asks">, limit = 12): Ladder {
  const bids = accumulate(book.bids, limit);
  const asksBestFirst = accumulate(book.asks, limit);
  const bestBid = bids[0]?.price;
  const bestAsk = asksBestFirst[0]?.price;
  const both = bestBid !== undefined && bestAsk !== undefined;
  return {
    asks: [...asksBestFirst].reverse(),
    bids,
    bestBid,
    bestAsk,
    // Rounded to the thousandth the prices carry, so 0.560 − 0.550 prints as 1.0¢, not 0.99999¢.
    spread: both ? Math.round((bestAsk - bestBid) * 1000) / 1000 : undefined,
    midpoint: both ? Math.round(((bestAsk + bestBid) / 2) * 10000) / 10000 : undefined,
    maxCumulative: Math.max(bids.at(-1)?.cumulative ?? 0, asksBestFirst.at(-1)?.cumulative ?? 0),
    hiddenAsks: Math.max(0, book.asks.length - limit),
    hiddenBids: Math.max(0, book.bids.length - limit),
  };
}
