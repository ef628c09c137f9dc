import { describe, expect, it } from "vitest";
import { SKIP } from "./emitter";
import { createTapeCarrier, type TapePage } from "./tape";

/** A market's tape: trades "t1" … "tN", cursor of a trade = its name. */
function tape(n: number) {
  const trades = Array.from({ length: n }, (_, i) => `t${i + 1}`);
  const calls: Array<[string, string | null, number]> = [];
  const read = async (slug: string, after: string | null, limit: number): Promise<TapePage> => {
    calls.push([slug, after, limit]);
    const from = after === null ? Math.max(0, trades.length - limit) : trades.indexOf(after) + 1;
    const newer = trades.slice(from, from + limit);
    return {
      trades: [...newer].reverse(),
      next_cursor: from + limit < trades.length ? (newer.at(-1) ?? null) : null,
      newest_cursor: newer.at(-1) ?? null,
    };
  };
  return { trades, calls, read };
}

const change = { kind: "trades" as const, slug: "m", outcomeId: null };

describe("tape carrier", () => {
  it("the first signal of a channel carries the newest trades, with after null", async () => {
    const t = tape(5);
    const c = createTapeCarrier(t.read, 3);
    expect(await c.carry("market:m:trades", change)).toEqual({ trades: ["t5", "t4", "t3"], after: null, cursor: "t5", more: false });
  });

  it("later signals carry exactly the trades after the previous signal's cursor", async () => {
    const t = tape(2);
    const c = createTapeCarrier(t.read, 10);
    await c.carry("market:m:trades", change);
    t.trades.push("t3", "t4");
    expect(await c.carry("market:m:trades", change)).toEqual({ trades: ["t4", "t3"], after: "t2", cursor: "t4", more: false });
    t.trades.push("t5");
    expect(await c.carry("market:m:trades", change)).toMatchObject({ trades: ["t5"], after: "t4" });
  });

  it("more than the limit since the last signal: carries the oldest of them and says there are more", async () => {
    const t = tape(1);
    const c = createTapeCarrier(t.read, 2);
    await c.carry("market:m:trades", change);
    t.trades.push("t2", "t3", "t4");
    expect(await c.carry("market:m:trades", change)).toEqual({ trades: ["t3", "t2"], after: "t1", cursor: "t3", more: true });
    expect(await c.carry("market:m:trades", change)).toEqual({ trades: ["t4"], after: "t3", cursor: "t4", more: false });
  });

  it("nothing newer (carried already with an earlier change of the same commit): no signal at all", async () => {
    const t = tape(2);
    const c = createTapeCarrier(t.read, 10);
    await c.carry("market:m:trades", change);
    expect(await c.carry("market:m:trades", change)).toBe(SKIP);
  });

  it("trades corrected or deleted: the signal carries nothing, so watchers refetch", async () => {
    const t = tape(2);
    const c = createTapeCarrier(t.read, 10);
    expect(await c.carry("market:m:trades", { ...change, edit: true })).toBeNull();
    expect(t.calls).toEqual([]);
  });

  it("channels keep their own position, and a forgotten one starts from the head again", async () => {
    const t = tape(3);
    const c = createTapeCarrier(t.read, 10);
    await c.carry("market:m:trades", change);
    c.forget("market:m:trades");
    t.trades.push("t4");
    expect(await c.carry("market:m:trades", change)).toMatchObject({ after: null, trades: ["t4", "t3", "t2", "t1"] });
    expect(t.calls.map((x) => x[1])).toEqual([null, null]);
  });
});
