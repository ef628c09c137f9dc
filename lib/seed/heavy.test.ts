import { describe, expect, it } from "vitest";
import { UUID_RE } from "../markets/schemas";
import { generateMarket, generateTrades, seedContext, type TradeRow } from "./generate";
import { heavyTrades, heavyVolume, isHeavyTarget } from "./heavy";

const NOW = Date.UTC(2026, 5, 1, 12, 0, 0);
const ctx = seedContext({ seed: 7, markets: 50, tradesPerOutcome: 20, now: NOW });
const target = Array.from({ length: ctx.markets }, (_, i) => generateMarket(ctx, i)).find(isHeavyTarget)!;
const COUNT = 20_000;
const rows = [...heavyTrades(ctx, target, COUNT)];

describe("heavy trades (--heavy-trades)", () => {
  it("picks an ACTIVE native market", () => {
    expect(target).toBeDefined();
    expect(target.status).toBe("ACTIVE");
    expect(target.external_source).toBeNull();
  });

  it("are deterministic, on the first outcome, with unique ids that no regular trade has", () => {
    expect([...heavyTrades(ctx, target, COUNT)]).toEqual(rows);
    expect(new Set(rows.map((t) => t.outcome_id))).toEqual(new Set([target.outcomes[0].id]));
    const ids = new Set(rows.map((t) => t.id));
    expect(ids.size).toBe(COUNT);
    for (const id of ids) expect(id).toMatch(UUID_RE);
    const regular: TradeRow[] = [];
    generateTrades(ctx, target, (t) => regular.push(t));
    for (const t of regular) expect(ids.has(t.id)).toBe(false);
  });

  it("lie inside the market's trading, before its last regular trade (whose price is the probability), in time order", () => {
    const regular: TradeRow[] = [];
    generateTrades(ctx, target, (t) => regular.push(t));
    const last = Math.max(...regular.map((t) => Date.parse(t.executed_at)));
    const times = rows.map((t) => Date.parse(t.executed_at));
    expect(Math.min(...times)).toBeGreaterThanOrEqual(target.tradeFrom);
    expect(Math.max(...times)).toBeLessThan(last);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it("prices 0..1 with three decimals, shares with two, both parties set and distinct; heavyVolume is their Σ price × shares", () => {
    let volume = 0;
    for (const t of rows) {
      expect(t.price).toMatch(/^0\.\d{3}$/);
      expect(t.shares).toMatch(/^\d+\.\d{2}$/);
      expect(t.maker_user_id).not.toBeNull();
      expect(t.maker_user_id).not.toBe(t.taker_user_id);
      volume += Math.round(Number(t.price) * 1000) * Math.round(Number(t.shares) * 100);
    }
    expect(heavyVolume(ctx, target, COUNT)).toBe(volume);
  });
});
