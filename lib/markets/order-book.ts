// The native order book of one outcome (docs/import.md "Native order book"): resting shares summed per
// price, crossing levels netted, dust (≤ 0.05 shares) dropped. Pure, so it is unit-tested on its own.
import type { BookLevel } from "./schemas";
import { fromUnits, toUnits } from "./decimal";

export interface RestingOrder {
  side: "BUY" | "SELL";
  /** Limit price, a decimal string on the 0..1 scale (≤ 3 decimals). */
  price: string;
  /** shares − filled_shares, a decimal string (≤ 2 decimals). */
  remaining: string;
}

interface Level {
  price: bigint; // thousandths
  shares: bigint; // hundredths
}

const PRICE_SCALE = 3;
const SHARE_SCALE = 2;
const DUST = toUnits("0.05", SHARE_SCALE);

function aggregate(orders: RestingOrder[], side: RestingOrder["side"]): Level[] {
  // Summed by the price as written first (many orders share a price; a batch of books parses thousands).
  const byPrice = new Map<string, bigint>();
  for (const o of orders) {
    if (o.side !== side) continue;
    const shares = toUnits(o.remaining, SHARE_SCALE);
    if (shares <= 0n) continue;
    byPrice.set(o.price, (byPrice.get(o.price) ?? 0n) + shares);
  }
  const levels = new Map<bigint, bigint>();
  for (const [written, shares] of byPrice) {
    const price = toUnits(written, PRICE_SCALE);
    levels.set(price, (levels.get(price) ?? 0n) + shares);
  }
  return [...levels].map(([price, shares]) => ({ price, shares }));
}

const print = (l: Level): BookLevel => ({ price: fromUnits(l.price, PRICE_SCALE), shares: fromUnits(l.shares, SHARE_SCALE) });

export function buildNativeBook(orders: RestingOrder[]): { bids: BookLevel[]; asks: BookLevel[] } {
  const bids = aggregate(orders, "BUY").sort((a, b) => (a.price > b.price ? -1 : a.price < b.price ? 1 : 0));
  const asks = aggregate(orders, "SELL").sort((a, b) => (a.price < b.price ? -1 : a.price > b.price ? 1 : 0));
  // Net crossing levels: what would remain after the crossing orders matched.
  let b = 0;
  let a = 0;
  while (b < bids.length && a < asks.length && bids[b].price >= asks[a].price) {
    const matched = bids[b].shares < asks[a].shares ? bids[b].shares : asks[a].shares;
    bids[b].shares -= matched;
    asks[a].shares -= matched;
    if (bids[b].shares === 0n) b++;
    if (asks[a].shares === 0n) a++;
  }
  const keep = (l: Level) => l.shares > DUST;
  return { bids: bids.slice(b).filter(keep).map(print), asks: asks.slice(a).filter(keep).map(print) };
}

/** A mirrored venue's book passed through: sorted, printed with 3 and 2 decimals, no netting, no dust rule. */
export function formatExternalBook(bids: { price: string; shares: string }[], asks: { price: string; shares: string }[]) {
  const levels = (ls: { price: string; shares: string }[]) =>
    ls.map((l) => ({ price: toUnits(String(l.price), PRICE_SCALE), shares: toUnits(String(l.shares), SHARE_SCALE) }));
  return {
    bids: levels(bids)
      .sort((x, y) => (x.price > y.price ? -1 : x.price < y.price ? 1 : 0))
      .map(print),
    asks: levels(asks)
      .sort((x, y) => (x.price < y.price ? -1 : x.price > y.price ? 1 : 0))
      .map(print),
  };
}
