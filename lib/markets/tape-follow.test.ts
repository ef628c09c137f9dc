import { describe, expect, it } from "vitest";
import type { Trade, TradeTape } from "@/lib/markets/schemas";
import { caughtUp, followSignal, heldTape, signalStep, withNewer, withOlder } from "./tape-follow";

/** A market's tape: trades t1 … tN, alternating outcomes A and B; a trade's cursor is its id. */
function market(n: number) {
  const trades: Trade[] = Array.from({ length: n }, (_, i) => trade(`t${i + 1}`, i % 2 ? "B" : "A"));
  const reads: string[] = [];
  const readAfter = async (after: string, limit = 3): Promise<TradeTape> => {
    reads.push(after);
    const from = trades.findIndex((t) => t.id === after) + 1;
    const newer = trades.slice(from, from + limit);
    return {
      trades: [...newer].reverse(),
      next_cursor: from + limit < trades.length ? (newer.at(-1)?.id ?? null) : null,
      newest_cursor: newer.at(-1)?.id ?? null,
    };
  };
  /** The newest `k` trades (of `outcome`) as a first page. */
  const first = (k: number, outcome?: string) => {
    const of = trades.filter((t) => !outcome || t.outcome_id === outcome);
    const page = of.slice(-k).reverse();
    return heldTape({ trades: page, newest_cursor: page[0]?.id ?? null, next_cursor: of.length > k ? (page.at(-1)?.id ?? null) : null });
  };
  const add = (k: number) => {
    const start = trades.length;
    for (let i = 0; i < k; i++) trades.push(trade(`t${start + i + 1}`, (start + i) % 2 ? "B" : "A"));
    return trades.slice(start).reverse();
  };
  return { trades, reads, readAfter, first, add };
}

function trade(id: string, outcome: string): Trade {
  return { id, outcome_id: outcome, price: "0.500", shares: "1.00", notional: "0.50", executed_at: "2026-01-01T00:00:00Z", maker: null, taker: null };
}

const ids = (ts: Trade[]) => ts.map((t) => t.id);

describe("Activity tape – following trades signals", () => {
  it("appends a signal's trades when its after is the held position, without a read", async () => {
    const m = market(4);
    const held = m.first(4);
    const added = m.add(2);
    const next = await followSignal(held, { trades: added, after: "t4", cursor: "t6", more: false }, null, m.readAfter);
    expect(next !== "reload" && ids(next.trades)).toEqual(["t6", "t5", "t4", "t3", "t2", "t1"]);
    expect(next !== "reload" && next.newest).toBe("t6");
    expect(m.reads).toEqual([]);
  });

  it("catches up with after=<held position> until next_cursor is null when the signal does not continue the tape", async () => {
    const m = market(4);
    const held = m.first(4);
    m.add(7); // t5 … t11, a missed signal in between
    const latest = m.trades.slice(-1);
    const next = await followSignal(held, { trades: latest, after: "t10", cursor: "t11" }, null, m.readAfter);
    expect(next !== "reload" && ids(next.trades)).toEqual(["t11", "t10", "t9", "t8", "t7", "t6", "t5", "t4", "t3", "t2", "t1"]);
    expect(m.reads).toEqual(["t4", "t7", "t10"]); // pages of 3, each from the previous page's newest
    expect(next !== "reload" && next.newest).toBe("t11");
  });

  it("a signal without trades (a correction) and a resync catch up too", async () => {
    const m = market(2);
    const held = m.first(2);
    expect(signalStep(held, {})).toEqual({ kind: "catch-up" });
    m.add(1);
    const next = await followSignal(held, {}, null, m.readAfter);
    expect(next !== "reload" && ids(next.trades)).toEqual(["t3", "t2", "t1"]);
  });

  it("appends, then continues from the signal's cursor when it says more", async () => {
    const m = market(1);
    const held = m.first(1);
    const added = m.add(5); // t2 … t6; the signal carried only t2 … t3
    const next = await followSignal(held, { trades: added.slice(-2), after: "t1", cursor: "t3", more: true }, null, m.readAfter);
    expect(next !== "reload" && ids(next.trades)).toEqual(["t6", "t5", "t4", "t3", "t2", "t1"]);
    expect(m.reads).toEqual(["t3"]);
  });

  it("an outcome's tape keeps only its outcome's trades, and follows the market's positions", async () => {
    const m = market(4); // A: t1 t3; B: t2 t4
    const held = m.first(5, "A");
    expect(held.newest).toBe("t3");
    const added = m.add(3); // t5 A, t6 B, t7 A
    // The channel's position (t4) is not the outcome tape's (t3): catch up on the market's tape, keep A's.
    const next = await followSignal(held, { trades: added, after: "t4", cursor: "t7" }, "A", m.readAfter);
    expect(next !== "reload" && ids(next.trades)).toEqual(["t7", "t5", "t3", "t1"]);
    expect(next !== "reload" && next.newest).toBe("t7"); // the market's position now: the next signal appends
    const more = m.add(2); // t8 B, t9 A
    const after = next !== "reload" ? await followSignal(next, { trades: more, after: "t7", cursor: "t9" }, "A", m.readAfter) : "reload";
    expect(after !== "reload" && ids(after.trades)).toEqual(["t9", "t7", "t5", "t3", "t1"]);
    expect(m.reads).toEqual(["t3", "t6"]); // the catch-up's two pages; the second signal needed none
  });

  it("never lists a trade twice (a catch-up that overlaps a signal)", () => {
    const m = market(3);
    const held = m.first(3);
    expect(ids(withNewer(held, [trade("t4", "B"), trade("t3", "A")], "t4", null).trades)).toEqual(["t4", "t3", "t2", "t1"]);
  });

  it("an empty tape reads its first page again on a signal", async () => {
    const m = market(0);
    expect(await followSignal(m.first(3), { trades: [], after: null, cursor: "t1" }, null, m.readAfter)).toBe("reload");
  });

  it("older pages go under the tape and move its before-cursor", async () => {
    const m = market(6);
    const held = m.first(3);
    expect(held.older).toBe("t4");
    const older = withOlder(held, { trades: [trade("t3", "A"), trade("t2", "B"), trade("t1", "A")], next_cursor: null, newest_cursor: "t3" });
    expect(ids(older.trades)).toEqual(["t6", "t5", "t4", "t3", "t2", "t1"]);
    expect(older.older).toBeNull();
  });

  it("a catch-up with nothing new leaves the tape as it was", async () => {
    const m = market(3);
    const held = m.first(3);
    expect(await caughtUp(held, null, m.readAfter)).toEqual(held);
  });
});
