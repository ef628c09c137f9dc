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

  const WEEK = 604_800;
  const NOW = 1_000_000;
  it.each<[string, { startTs?: number; endTs?: number }, number, { startTs: number; endTs: number }]>([
    ["neither given: the last 7 days ending now", {}, NOW, { startTs: 395_200, endTs: NOW }],
    ["both given: exactly those", { startTs: 5, endTs: 10 }, NOW, { startTs: 5, endTs: 10 }],
    ["only endTs: startTs is still now − 7 days, not endTs − 7 days", { endTs: 700_000 }, NOW, { startTs: 395_200, endTs: 700_000 }],
    ["only endTs, older than now − 7 days: an empty window (start after end)", { endTs: 300_000 }, NOW, { startTs: 395_200, endTs: 300_000 }],
    ["only startTs: up to now", { startTs: 42 }, NOW, { startTs: 42, endTs: NOW }],
    ["now within 7 days of the epoch: the default start is 0", {}, 1_000, { startTs: 0, endTs: 1_000 }],
  ])("window – %s", (_, q, nowS, expected) => {
    expect(historyWindow(q, nowS, WEEK)).toEqual(expected);
  });
});
