// Pure arithmetic of the market simulator, in integer units so that every value it writes fits the
// schema exactly: prices in thousandths (0.001..0.999), shares and probabilities in hundredths.

export const PRICE_MIN = 1; // 0.001
export const PRICE_MAX = 999; // 0.999

export type Rng = () => number;

export const clampPrice = (milli: number) => Math.min(PRICE_MAX, Math.max(PRICE_MIN, Math.round(milli)));
export const priceString = (milli: number) => (clampPrice(milli) / 1000).toFixed(3);
export const sharesString = (cents: number) => (cents / 100).toFixed(2);
export const toCents = (s: string) => Math.round(Number(s) * 100);
export const toMilli = (s: string) => Math.round(Number(s) * 1000);

/**
 * Price of a resting order that does not cross the book: a BUY between 1 and 30 ticks under
 * min(mid, best ask), a SELL as far over max(mid, best bid). Null when no such price exists.
 */
export function passivePrice(side: "BUY" | "SELL", midMilli: number, best: { bid: number | null; ask: number | null }, rng: Rng): number | null {
  const ticks = 1 + Math.floor(rng() * 30);
  if (side === "BUY") {
    const ceiling = Math.min(midMilli, best.ask === null ? PRICE_MAX + 1 : best.ask) - 1;
    const p = Math.max(PRICE_MIN, ceiling - ticks + 1);
    return p <= ceiling && p >= PRICE_MIN ? p : null;
  }
  const floor = Math.max(midMilli, best.bid === null ? PRICE_MIN - 1 : best.bid) + 1;
  const p = Math.min(PRICE_MAX, floor + ticks - 1);
  return p >= floor && p <= PRICE_MAX ? p : null;
}

/** Order sizes: mostly small, now and then large (5.00 .. ~500.00 shares). */
export const orderSizeCents = (rng: Rng) => Math.round(500 + rng() ** 3 * 49_500);

/**
 * Outcome probabilities after a trade of `tradedId` at `priceMilli`, in hundredths of a percent,
 * summing to exactly 10000. Binary: the traded side is price×100, the other side the rest. Multi:
 * the traded outcome is price×100 and the others share the rest in their previous proportions.
 */
export function nextProbabilities(outcomes: { id: string; probability: number }[], tradedId: string, priceMilli: number): Map<string, number> {
  const traded = clampPrice(priceMilli) * 10; // 0.001 → 0.10 % = 10 hundredths
  const others = outcomes.filter((o) => o.id !== tradedId);
  const rest = 10_000 - traded;
  const out = new Map<string, number>([[tradedId, traded]]);
  if (!others.length) return out;
  const weights = others.map((o) => Math.max(0, o.probability));
  const total = weights.reduce((a, b) => a + b, 0);
  const shares = weights.map((w) => (total > 0 ? (w / total) * rest : rest / others.length));
  const rounded = shares.map(Math.floor);
  // Hand the rounding remainder to the largest fractional parts so the sum is exact.
  let left = rest - rounded.reduce((a, b) => a + b, 0);
  const order = shares.map((s, i) => [s - Math.floor(s), i] as const).sort((a, b) => b[0] - a[0]);
  for (let k = 0; left > 0; k = (k + 1) % order.length, left--) rounded[order[k][1]]++;
  for (const [i, o] of others.entries()) out.set(o.id, rounded[i]);
  return out;
}
