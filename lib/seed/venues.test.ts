import { describe, expect, it } from "vitest";
import { UUID_RE } from "../markets/schemas";
import { generateMarket } from "./generate";
import { VENUE_MAX_TRADES, normalQuantile, percentiles, tradePlans, tradesAtRank, venueContext, venueDepth, venueTradeCounts } from "./venues";

const NOW = Date.UTC(2026, 5, 1, 12, 0, 0);
const MARKETS = 36_000;
const ctx = venueContext({ seed: 42, markets: MARKETS, now: NOW });
const counts = venueTradeCounts(ctx);

describe("venues profile – trade counts", () => {
  it("normalQuantile – matches the standard normal's known quantiles", () => {
    for (const [p, z] of [
      [0.5, 0],
      [0.975, 1.959964],
      [0.99, 2.326348],
      [0.001, -3.090232],
    ])
      expect(normalQuantile(p)).toBeCloseTo(z, 5);
  });

  it("are heavy-tailed: median in the tens, the top 0.1 % a hundred times the median, the busiest a thousand times the top 1 %", () => {
    const p = percentiles(counts);
    expect(p.p50).toBeGreaterThanOrEqual(10);
    expect(p.p50).toBeLessThan(100);
    expect(p.p999).toBeGreaterThanOrEqual(100 * p.p50);
    expect(p.max).toBeGreaterThanOrEqual(20 * p.p99);
    // About 120 a market: ~43M at 360,000 markets.
    expect(p.total / MARKETS).toBeGreaterThan(100);
    expect(p.total / MARKETS).toBeLessThan(140);
  });

  it("scale with the catalogue: at 360,000 markets a handful reach 1,000,000 and none passes the cap", () => {
    const top = Array.from({ length: 10 }, (_, r) => tradesAtRank(r, 360_000));
    expect(top.filter((n) => n >= 1_000_000).length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...top)).toBeLessThanOrEqual(VENUE_MAX_TRADES);
    expect(tradesAtRank(359, 360_000)).toBeGreaterThanOrEqual(8_000); // the top 0.1 %
    expect(tradesAtRank(180_000, 360_000)).toBeLessThan(100); // the median
  });

  it("are deterministic: the same seed gives the same counts, another seed another order", () => {
    const again = venueTradeCounts(venueContext({ seed: 42, markets: MARKETS, now: NOW }));
    expect(again).toEqual(counts);
    const other = venueTradeCounts(venueContext({ seed: 43, markets: MARKETS, now: NOW }));
    expect(other).not.toEqual(counts);
    expect(percentiles(other).p50).toBe(percentiles(counts).p50);
  });

  it("the busiest market is ACTIVE", () => {
    const busiest = counts.indexOf(Math.max(...counts));
    expect(generateMarket(ctx, busiest).status).toBe("ACTIVE");
  });

  it("busier markets get more comments and deeper books", () => {
    expect(venueDepth(20)).toEqual({ comments: 1, levels: 0 });
    expect(venueDepth(1_000_000).comments).toBeGreaterThan(venueDepth(10_000).comments);
    expect(venueDepth(1_000_000).levels).toBeGreaterThan(venueDepth(1_000).levels);
  });
});

describe("venues profile – catalogue", () => {
  const markets = Array.from({ length: 4000 }, (_, i) => generateMarket(ctx, i));
  const share = (f: (m: (typeof markets)[number]) => boolean) => markets.filter(f).length / markets.length;

  it("about 14 % ACTIVE, the rest resolved, cancelled or locked, none pending", () => {
    expect(share((m) => m.status === "ACTIVE")).toBeCloseTo(0.139, 1);
    expect(share((m) => m.status === "PENDING")).toBe(0);
    expect(share((m) => m.status === "RESOLVED")).toBeGreaterThan(0.55);
  });

  it("about 85 % mirrored from the two venues, about half each", () => {
    expect(share((m) => m.external_source !== null)).toBeCloseTo(0.85, 1);
    expect(share((m) => m.external_source === "Polymarket")).toBeCloseTo(0.425, 1);
    expect(share((m) => m.external_source === "Kalshi")).toBeCloseTo(0.425, 1);
  });

  it("trade plans: one per outcome, the count shared out, ids' first half a uuid's", () => {
    for (const m of markets.slice(0, 200)) {
      const plans = tradePlans(ctx, m, counts[m.index]);
      expect(plans.map((p) => p.outcomeId)).toEqual(m.outcomes.map((o) => o.id));
      for (const p of plans) {
        expect(p.n).toBeGreaterThanOrEqual(1);
        expect(p.from).toBeLessThan(p.to);
        expect(`${p.idPrefix.slice(0, 8)}-${p.idPrefix.slice(8, 12)}-${p.idPrefix.slice(12)}-8000-000000000000`).toMatch(UUID_RE);
      }
      if (m.type === "BINARY") expect(plans.map((p) => p.mirror)).toEqual([false, true]);
    }
  });
});
