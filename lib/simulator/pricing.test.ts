import { describe, expect, it } from "vitest";
import { nextProbabilities, orderSizeCents, passivePrice, priceString, sharesString } from "./pricing";

const seq = (...values: number[]) => {
  let i = 0;
  return () => values[i++ % values.length];
};

describe("nextProbabilities", () => {
  it.each([
    [
      "binary – YES trades at 0.620",
      [
        { id: "y", probability: 5000 },
        { id: "n", probability: 5000 },
      ],
      "y",
      620,
      { y: 6200, n: 3800 },
    ],
    [
      "binary – NO trades at 0.001",
      [
        { id: "y", probability: 5000 },
        { id: "n", probability: 5000 },
      ],
      "n",
      1,
      { y: 9990, n: 10 },
    ],
    [
      "multi – others keep their proportions",
      [
        { id: "a", probability: 5000 },
        { id: "b", probability: 3000 },
        { id: "c", probability: 2000 },
      ],
      "a",
      600,
      { a: 6000, b: 2400, c: 1600 },
    ],
    [
      "multi – others at zero share the rest equally",
      [
        { id: "a", probability: 10000 },
        { id: "b", probability: 0 },
        { id: "c", probability: 0 },
      ],
      "a",
      400,
      { a: 4000, b: 3000, c: 3000 },
    ],
    [
      "multi – rounding remainder keeps the sum at 100",
      [
        { id: "a", probability: 0 },
        { id: "b", probability: 1 },
        { id: "c", probability: 1 },
        { id: "d", probability: 1 },
      ],
      "a",
      500,
      { a: 5000, b: 1667, c: 1667, d: 1666 },
    ],
  ])("probabilities – %s", (_name, outcomes, traded, price, expected) => {
    const next = nextProbabilities(outcomes, traded, price);
    expect(Object.fromEntries(next)).toEqual(expected);
    expect([...next.values()].reduce((a, b) => a + b, 0)).toBe(10_000);
    for (const v of next.values()) expect(v).toBeGreaterThanOrEqual(0);
  });
});

describe("passivePrice", () => {
  it.each([
    ["BUY under the mid", "BUY", 500, { bid: 480, ask: 520 }, 0, 499],
    ["BUY under the best ask when the ask is below the mid", "BUY", 500, { bid: 400, ask: 450 }, 0, 449],
    ["SELL over the mid", "SELL", 500, { bid: 480, ask: 520 }, 0, 501],
    ["SELL over the best bid when the bid is above the mid", "SELL", 500, { bid: 560, ask: 600 }, 0, 561],
    ["BUY stays at 0.001 or above", "BUY", 3, { bid: null, ask: null }, 0.99, 1],
    ["SELL stays at 0.999 or below", "SELL", 997, { bid: null, ask: null }, 0.99, 999],
  ] as const)("passive price – %s", (_n, side, mid, best, r, expected) => {
    expect(passivePrice(side, mid, best, seq(r))).toBe(expected);
  });

  it.each([
    ["BUY when the best ask is 0.001", "BUY", 500, { bid: null, ask: 1 }],
    ["SELL when the best bid is 0.999", "SELL", 500, { bid: 999, ask: null }],
  ] as const)("passive price – none for a %s", (_n, side, mid, best) => {
    expect(passivePrice(side, mid, best, seq(0.5))).toBeNull();
  });

  it("passive price – never crosses the book for any draw", () => {
    for (let i = 0; i < 1000; i++) {
      const bid = 1 + Math.floor(Math.random() * 997);
      const ask = bid + 1 + Math.floor(Math.random() * (999 - bid));
      const mid = 1 + Math.floor(Math.random() * 999);
      const buy = passivePrice("BUY", mid, { bid, ask }, Math.random);
      const sell = passivePrice("SELL", mid, { bid, ask }, Math.random);
      if (buy !== null) expect(buy).toBeLessThan(ask);
      if (sell !== null) expect(sell).toBeGreaterThan(bid);
    }
  });
});

describe("formatting", () => {
  it.each([
    [0, "0.001"],
    [1, "0.001"],
    [555, "0.555"],
    [999, "0.999"],
    [1200, "0.999"],
  ])("price – %d thousandths print as %s", (m, s) => {
    expect(priceString(m)).toBe(s);
  });
  it("shares – print with two decimals", () => expect(sharesString(12345)).toBe("123.45"));
  it("order size – between 5.00 and 500.00 shares", () => {
    for (const r of [0, 0.5, 0.9999]) {
      const c = orderSizeCents(() => r);
      expect(c).toBeGreaterThanOrEqual(500);
      expect(c).toBeLessThanOrEqual(50_000);
    }
  });
});
