import { describe, expect, it } from "vitest";
import { bucketTrades, historyWindow } from "./price-history";

const trade = (id: string, executedAt: number, price: number) => ({ id, executedAt, price });

describe("price history", () => {
  it("buckets by fidelity minutes at floor(t / width) * width, one point per non-empty bucket, ascending", () => {
    const points = bucketTrades([trade("c", 7260, 0.6), trade("a", 3600, 0.4), trade("b", 3659.9, 0.5)], 1);
    expect(points).toEqual([
      { t: 3600, p: 0.5 },
      { t: 7260, p: 0.6 },
    ]);
  });

  it("takes the price of the bucket's latest trade, ties broken by id", () => {
    const points = bucketTrades([trade("b", 100, 0.2), trade("a", 100, 0.1), trade("c", 50, 0.9)], 5);
    expect(points).toEqual([{ t: 0, p: 0.2 }]);
  });

  it("a larger fidelity gives fewer, more aggregated points", () => {
    const trades = Array.from({ length: 120 }, (_, i) => trade(String(i).padStart(3, "0"), i * 60, i / 200));
    expect(bucketTrades(trades, 1)).toHaveLength(120);
    expect(bucketTrades(trades, 15)).toHaveLength(8);
    expect(bucketTrades(trades, 60)).toEqual([
      { t: 0, p: 59 / 200 },
      { t: 3600, p: 119 / 200 },
    ]);
  });

  it("has no point for a bucket without trades", () => {
    expect(bucketTrades([trade("a", 0, 0.1), trade("b", 3 * 3600, 0.3)], 60).map((p) => p.t)).toEqual([0, 3 * 3600]);
  });

  it("defaults the window to the last 7 days ending now", () => {
    expect(historyWindow({}, 1_000_000, 604_800)).toEqual({ startTs: 395_200, endTs: 1_000_000 });
    expect(historyWindow({ startTs: 5, endTs: 10 }, 1_000_000, 604_800)).toEqual({ startTs: 5, endTs: 10 });
  });
});
