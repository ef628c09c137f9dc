import { describe, expect, it } from "vitest";
import { buildNativeBook, formatExternalBook, type RestingOrder } from "./order-book";

const buy = (price: string, remaining: string): RestingOrder => ({ side: "BUY", price, remaining });
const sell = (price: string, remaining: string): RestingOrder => ({ side: "SELL", price, remaining });

describe("order book", () => {
  it.each([
    {
      rule: "sums resting shares per price level and orders bids high→low, asks low→high",
      orders: [buy("0.40", "10"), buy("0.45", "5"), buy("0.40", "2.5"), sell("0.60", "3"), sell("0.55", "4")],
      bids: [
        ["0.450", "5.00"],
        ["0.400", "12.50"],
      ],
      asks: [
        ["0.550", "4.00"],
        ["0.600", "3.00"],
      ],
    },
    {
      rule: "nets crossing levels: both sides lose the smaller size, an emptied level disappears",
      orders: [buy("0.60", "10"), buy("0.50", "4"), sell("0.55", "6"), sell("0.58", "7"), sell("0.70", "1")],
      // 0.60×10 vs 0.55×6 → bid 4 left; 0.60×4 vs 0.58×7 → ask 3 left; 0.50 < 0.58 stops.
      bids: [["0.500", "4.00"]],
      asks: [
        ["0.580", "3.00"],
        ["0.700", "1.00"],
      ],
    },
    {
      rule: "nets a bid equal to the ask (bid >= ask crosses)",
      orders: [buy("0.50", "3"), sell("0.50", "3")],
      bids: [],
      asks: [],
    },
    {
      rule: "nets crossing levels before dropping dust",
      // 0.52 bid 1.03 vs 0.51 ask 1.00 → bid 0.03 left (dust, dropped); the 0.51 ask is gone.
      orders: [buy("0.52", "1.03"), sell("0.51", "1.00"), buy("0.40", "0.04"), sell("0.60", "0.05"), sell("0.61", "0.06")],
      bids: [],
      asks: [["0.610", "0.06"]],
    },
    {
      rule: "drops levels of 0.05 shares or less, even when they are the sum of several orders",
      orders: [buy("0.30", "0.02"), buy("0.30", "0.03"), buy("0.29", "0.02"), buy("0.29", "0.04")],
      bids: [["0.290", "0.06"]],
      asks: [],
    },
    {
      rule: "ignores fully filled remainders",
      orders: [buy("0.30", "0.00"), sell("0.70", "0")],
      bids: [],
      asks: [],
    },
    { rule: "an empty book stays empty", orders: [], bids: [], asks: [] },
  ])("$rule", ({ orders, bids, asks }) => {
    const book = buildNativeBook(orders);
    expect(book.bids.map((l) => [l.price, l.shares])).toEqual(bids);
    expect(book.asks.map((l) => [l.price, l.shares])).toEqual(asks);
  });

  it("keeps exact decimals where floats would drift (0.1 + 0.2 shares)", () => {
    const book = buildNativeBook([sell("0.333", "0.1"), sell("0.333", "0.2")]);
    expect(book.asks).toEqual([{ price: "0.333", shares: "0.30" }]);
  });

  it("passes a venue book through sorted and reformatted, without netting or the dust rule", () => {
    const book = formatExternalBook(
      [
        { price: "0.4", shares: "1" },
        { price: "0.61", shares: "0.01" },
      ],
      [
        { price: "0.6", shares: "2.5" },
        { price: "0.55", shares: "10" },
      ],
    );
    expect(book.bids).toEqual([
      { price: "0.610", shares: "0.01" },
      { price: "0.400", shares: "1.00" },
    ]);
    expect(book.asks).toEqual([
      { price: "0.550", shares: "10.00" },
      { price: "0.600", shares: "2.50" },
    ]);
  });
});
