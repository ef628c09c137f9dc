import { describe, expect, it } from "vitest";
import { buildLadder } from "./ladder";

const lv = (price: string, shares: string) => ({ price, shares });

describe("order-book ladder", () => {
  it("ladder – puts the best ask last, just above the spread, and accumulates depth from the best price out", () => {
    const l = buildLadder({ bids: [lv("0.540", "10.00"), lv("0.530", "5.50")], asks: [lv("0.560", "3.00"), lv("0.570", "7.00"), lv("0.600", "1.00")] });
    expect(l.asks.map((r) => r.price)).toEqual([0.6, 0.57, 0.56]);
    expect(l.asks.map((r) => r.cumulative)).toEqual([11, 10, 3]);
    expect(l.bids.map((r) => r.cumulative)).toEqual([10, 15.5]);
    expect(l.spread).toBe(0.02);
    expect(l.midpoint).toBe(0.55);
    expect(l.maxCumulative).toBe(15.5);
  });

  it("ladder – has no spread or midpoint when a side is empty", () => {
    const l = buildLadder({ bids: [], asks: [lv("0.100", "1.00")] });
    expect(l.spread).toBeUndefined();
    expect(l.midpoint).toBeUndefined();
    expect(l.bids).toEqual([]);
  });

  it("ladder – shows the levels nearest the spread and counts the rest", () => {
    const asks = Array.from({ length: 15 }, (_, i) => lv((0.5 + i / 100).toFixed(3), "1.00"));
    const l = buildLadder({ bids: [], asks }, 12);
    expect(l.asks).toHaveLength(12);
    expect(l.asks.at(-1)?.price).toBe(0.5);
    expect(l.hiddenAsks).toBe(3);
  });
});
