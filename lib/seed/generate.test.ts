import { describe, expect, it } from "vitest";
import { crossCheck, noExistingRows, parseImportFile } from "../import/import";
import { CATEGORIES, MARKET_STATUSES, UUID_RE } from "../markets/schemas";
import {
  type CommentRow,
  type MarketRow,
  type OrderRow,
  type TradeRow,
  generateComments,
  generateExternalBooks,
  generateMarket,
  generateOrders,
  generateTrades,
  generateUser,
  seedContext,
  withVolume,
} from "./generate";
import { seededUuid } from "./prng";

const NOW = Date.UTC(2026, 5, 1, 12, 0, 0);
const ctx = seedContext({ seed: 7, markets: 400, tradesPerOutcome: 40, now: NOW });
const markets = Array.from({ length: ctx.markets }, (_, i) => withVolume(ctx, generateMarket(ctx, i)));

const collect = <T>(f: (emit: (row: T) => void) => void) => {
  const rows: T[] = [];
  f((r) => rows.push(r));
  return rows;
};
const tradesOf = (m: MarketRow) => collect<TradeRow>((e) => generateTrades(ctx, m, e));
const ordersOf = (m: MarketRow) => collect<OrderRow>((e) => generateOrders(ctx, m, e));

describe("seed generator – determinism", () => {
  it("same seed and now give the same rows", () => {
    const again = seedContext({ seed: 7, markets: 400, tradesPerOutcome: 40, now: NOW });
    for (const i of [0, 17, 399]) {
      const a = generateMarket(ctx, i);
      const b = generateMarket(again, i);
      expect(b).toEqual(a);
      expect(collect((e) => generateTrades(again, b, e))).toEqual(tradesOf(a));
      expect(collect((e) => generateOrders(again, b, e))).toEqual(ordersOf(a));
      expect(collect<CommentRow>((e) => generateComments(again, b, e))).toEqual(collect<CommentRow>((e) => generateComments(ctx, a, e)));
    }
  });

  it("another seed gives other ids and questions", () => {
    const other = seedContext({ seed: 8, markets: 400, tradesPerOutcome: 40, now: NOW });
    expect(generateMarket(other, 0).id).not.toBe(markets[0].id);
    expect(markets.slice(0, 20).map((m) => m.question)).not.toEqual(Array.from({ length: 20 }, (_, i) => generateMarket(other, i).question));
  });

  it("ids are uuids and unique", () => {
    const ids = markets.flatMap((m) => [m.id, ...m.outcomes.map((o) => o.id)]);
    expect(ids.every((id) => UUID_RE.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(markets.map((m) => m.slug)).size).toBe(markets.length);
    expect(seededUuid(1, 2 ** 28 - 1, 2 ** 22 - 1)).toMatch(UUID_RE);
  });

  it("no two markets of the default dataset ask the same question", () => {
    const questions = markets.map((m) => m.question);
    expect(new Set(questions).size).toBe(questions.length);
  });

  it("a market is the same whichever order the writer asks for it in", () => {
    const fresh = seedContext({ seed: 7, markets: 400, tradesPerOutcome: 40, now: NOW });
    for (const i of [399, 250, 3]) expect(generateMarket(fresh, i)).toEqual(markets[i] && generateMarket(ctx, i));
  });

  it("usernames stay unique across many users", () => {
    const big = seedContext({ seed: 3, markets: 100_000, now: NOW });
    const names = Array.from({ length: big.users }, (_, i) => generateUser(big, i).username);
    expect(big.users).toBe(20_000);
    expect(new Set(names).size).toBe(names.length);
  });
});

describe("seed generator – a believable dataset", () => {
  it("covers every category and status, with ~10% mirrored markets", () => {
    expect(new Set(markets.map((m) => m.category))).toEqual(new Set(CATEGORIES));
    expect(new Set(markets.map((m) => m.status))).toEqual(new Set(MARKET_STATUSES));
    const active = markets.filter((m) => m.status === "ACTIVE").length;
    expect(active / markets.length).toBeGreaterThan(0.5);
    const mirrored = markets.filter((m) => m.external_source !== null).length;
    expect(mirrored / markets.length).toBeGreaterThan(0.05);
    expect(mirrored / markets.length).toBeLessThan(0.15);
  });

  it("probabilities sum to 100 and follow the last trade (NO mirrors YES)", () => {
    for (const m of markets) {
      const sum = m.outcomes.reduce((s, o) => s + Math.round(Number(o.probability) * 100), 0);
      expect(sum, m.slug).toBe(10000);
      if (m.status !== "ACTIVE" && m.status !== "LOCKED") continue;
      const trades = tradesOf(m);
      for (const o of m.outcomes) {
        const last = trades.filter((t) => t.outcome_id === o.id).at(-1)!;
        expect(Number(last.price) * 100).toBeCloseTo(Number(o.probability), 6);
      }
      if (m.type === "BINARY") {
        const yes = trades.filter((t) => t.outcome_id === m.outcomes[0].id);
        const no = trades.filter((t) => t.outcome_id === m.outcomes[1].id);
        expect(no.map((t) => (1 - Number(t.price)).toFixed(3))).toEqual(yes.map((t) => t.price));
      }
    }
  });

  it("total_volume is the sum of price × shares of the market's trades", () => {
    for (const m of markets.slice(0, 60)) {
      const sum = tradesOf(m).reduce((s, t) => s + Math.round(Number(t.price) * 1000) * Math.round(Number(t.shares) * 100), 0);
      expect(Number(m.total_volume)).toBeCloseTo(sum / 1e5, 5);
    }
  });

  it("settled markets follow their payout", () => {
    for (const m of markets) {
      if (m.status === "RESOLVED") {
        const winner = m.outcomes.find((o) => o.id === m.winning_outcome_id)!;
        expect(winner.probability).toBe("100.00");
        expect(winner.payout_wei).toBe("1000000000000000000");
        expect(m.outcomes.filter((o) => o !== winner).every((o) => o.probability === "0.00" && o.payout_wei === "0")).toBe(true);
        expect(m.resolved_at && m.settled_at).toBeTruthy();
      } else if (m.status === "CANCELLED") {
        expect(m.resolved_at).toBeNull();
        expect(m.settled_at).not.toBeNull();
        expect(m.outcomes.reduce((s, o) => s + BigInt(o.payout_wei!), 0n)).toBe(10n ** 18n);
      } else {
        expect(m.winning_outcome_id).toBeNull();
      }
      if (m.status === "PENDING") {
        expect(Date.parse(m.trading_starts_at)).toBeGreaterThan(NOW);
        expect(tradesOf(m)).toEqual([]);
      }
    }
  });

  it("resting limit orders bid below and ask above the current price; mirrored markets have none", () => {
    for (const m of markets.filter((x) => x.status === "ACTIVE").slice(0, 80)) {
      const orders = ordersOf(m);
      if (m.external_source) {
        expect(orders).toEqual([]);
        continue;
      }
      for (const o of orders.filter((x) => x.type === "LIMIT" && (x.status === "OPEN" || x.status === "PARTIALLY_FILLED"))) {
        const price = Number(m.outcomes.find((x) => x.id === o.outcome_id)!.probability) / 100;
        if (o.side === "BUY") expect(Number(o.price)).toBeLessThan(price);
        else expect(Number(o.price)).toBeGreaterThan(price);
      }
    }
  });

  it("a share of the trades of active markets falls in the last 24 hours", () => {
    const trades = markets
      .filter((m) => m.status === "ACTIVE")
      .slice(0, 50)
      .flatMap(tradesOf);
    const recent = trades.filter((t) => Date.parse(t.executed_at) >= NOW - 86_400_000).length;
    expect(recent / trades.length).toBeGreaterThan(0.05);
    expect(trades.every((t) => Date.parse(t.executed_at) <= NOW && Date.parse(t.executed_at) >= NOW - 91 * 86_400_000)).toBe(true);
  });

  it("the dataset is a valid import file (docs/import.md)", () => {
    const sample = markets.slice(0, 70);
    const users = Array.from({ length: ctx.users }, (_, i) => {
      const { created_at: _c, ...u } = generateUser(ctx, i);
      return u;
    });
    const file = {
      users,
      markets: sample.map(({ index: _i, tradeFrom: _f, tradeTo: _t, hot: _h, outcomes, ...m }, k) => ({
        ...m,
        outcomes: outcomes.map(({ lastPrice: _l, market_id: _m, ...o }) => o),
        // comments carry no market_id or updated_at in the file
        comments: collect<CommentRow>((e) => generateComments(ctx, sample[k], e)).map(({ market_id: _m, updated_at: _u, ...c }) => c),
      })),
      orders: sample.flatMap(ordersOf).map(({ updated_at: _u, ...o }) => o),
      trades: sample.flatMap(tradesOf),
      external_books: sample.flatMap((m) => collect((e) => generateExternalBooks(ctx, m, e))),
    };
    const r = parseImportFile(JSON.parse(JSON.stringify(file)));
    if (!r.ok) throw new Error(r.error);
    expect(crossCheck(r.file, noExistingRows())).toBeNull();
    expect(file.external_books.length).toBeGreaterThan(0);
  });
});
