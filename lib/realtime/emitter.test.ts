import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ChannelKind } from "@/lib/events/channel-kinds";
import type { Signal } from "./channels";
import { createSignalEmitter, SKIP, type Change, type EmitterOptions } from "./emitter";

/** The orderbook carrier server.ts installs: the book of the one outcome a signal names. */
const books = (bookFor: (slug: string, outcomeId: string) => Promise<unknown>) => ({
  orderbook: (_channel: string, c: Change) => (c.outcomeId ? bookFor(c.slug, c.outcomeId).then((book) => ({ book })) : null),
});

const CH = "market:m:orderbook";
const OUT_A = "aaaaaaaa-0000-4000-8000-000000000001";
const OUT_B = "aaaaaaaa-0000-4000-8000-000000000002";

describe("signal emitter", () => {
  let sent: Array<{ channel: string; kind: ChannelKind; signal: Signal }>;
  let watching: Map<string, number>;
  const make = (over: Partial<EmitterOptions> = {}) =>
    createSignalEmitter({
      coalesceMs: 100,
      watchers: (c) => watching.get(c) ?? 0,
      send: (channel, kind, signal) => sent.push({ channel, kind, signal }),
      ...over,
    });
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000 });
    sent = [];
    watching = new Map([[CH, 2]]);
  });
  afterEach(() => vi.useRealTimers());

  it("sends nothing and reads nothing for a channel nobody watches", async () => {
    const bookFor = vi.fn(async () => ({}));
    const e = make({ carry: books(bookFor) });
    e.push("market:other:orderbook", { kind: "orderbook", slug: "other", outcomeId: OUT_A });
    await vi.runAllTimersAsync();
    expect(sent).toEqual([]);
    expect(bookFor).not.toHaveBeenCalled();
  });

  it("counts seq per channel, and starts again at 1 once the room emptied", () => {
    const e = make();
    const price = "market:m:price";
    watching.set(price, 1);
    e.push(price, { kind: "price", slug: "m", outcomeId: null });
    vi.advanceTimersByTime(100);
    e.push(price, { kind: "price", slug: "m", outcomeId: null });
    vi.advanceTimersByTime(200);
    e.forget(price);
    e.push(price, { kind: "price", slug: "m", outcomeId: null });
    expect(sent.map((s) => s.signal.seq)).toEqual([1, 2, 1]);
    expect(sent[0]).toMatchObject({ channel: price, kind: "price", signal: { channel: price, slug: "m", outcomeId: null, at: 1_000 } });
  });

  it("coalesces a burst into the first and the last, naming the outcome only when all concern it", () => {
    const e = make();
    e.push(CH, { kind: "orderbook", slug: "m", outcomeId: OUT_A });
    e.push(CH, { kind: "orderbook", slug: "m", outcomeId: OUT_A });
    e.push(CH, { kind: "orderbook", slug: "m", outcomeId: OUT_B });
    vi.advanceTimersByTime(100); // the trailing signal folds A, A and B: it names no outcome
    e.push(CH, { kind: "orderbook", slug: "m", outcomeId: OUT_B });
    vi.advanceTimersByTime(100);
    expect(sent.map((s) => [s.signal.outcomeId, s.signal.at])).toEqual([
      [OUT_A, 1_000],
      [null, 1_100],
      [OUT_B, 1_200],
    ]);
  });

  it("an orderbook signal of one outcome carries its book, read once however many watch", async () => {
    const bookFor = vi.fn(async (_slug: string, outcomeId: string) => ({ outcome_id: outcomeId, bids: [], asks: [] }));
    const e = make({ carry: books(bookFor) });
    watching.set(CH, 1000);
    e.push(CH, { kind: "orderbook", slug: "m", outcomeId: OUT_A });
    await vi.advanceTimersByTimeAsync(0);
    expect(bookFor).toHaveBeenCalledTimes(1);
    expect(sent).toHaveLength(1);
    expect(sent[0].signal.book).toEqual({ outcome_id: OUT_A, bids: [], asks: [] });
  });

  it("a book that cannot be read leaves the signal without one (watchers refetch), and order is kept", async () => {
    let calls = 0;
    const bookFor = vi.fn(async () => {
      if (++calls === 1) throw new Error("database away");
      return { ok: 1 };
    });
    const e = make({ carry: books(bookFor) });
    e.push(CH, { kind: "orderbook", slug: "m", outcomeId: OUT_A });
    vi.advanceTimersByTime(50);
    e.push(CH, { kind: "orderbook", slug: "m", outcomeId: OUT_B });
    await vi.advanceTimersByTimeAsync(100);
    expect(sent.map((s) => [s.signal.seq, s.signal.outcomeId, "book" in s.signal])).toEqual([
      [1, OUT_A, false],
      [2, OUT_B, true],
    ]);
  });

  it("a carrier that answers SKIP keeps the signal from going out, and its seq is not spent", async () => {
    let skip = true;
    const e = make({ carry: { trades: async () => (skip ? SKIP : { trades: [1] }) } });
    const ch = "market:m:trades";
    watching.set(ch, 1);
    e.push(ch, { kind: "trades", slug: "m", outcomeId: null });
    await vi.advanceTimersByTimeAsync(200);
    skip = false;
    e.push(ch, { kind: "trades", slug: "m", outcomeId: null });
    await vi.advanceTimersByTimeAsync(200);
    expect(sent.map((s) => [s.signal.seq, s.signal.trades])).toEqual([[1, [1]]]);
  });

  it("a price signal never carries a book", async () => {
    const bookFor = vi.fn(async () => ({}));
    const e = make({ carry: books(bookFor) });
    watching.set("market:m:price", 1);
    e.push("market:m:price", { kind: "price", slug: "m", outcomeId: OUT_A });
    await vi.advanceTimersByTimeAsync(0);
    expect(bookFor).not.toHaveBeenCalled();
    expect(sent[0].signal).not.toHaveProperty("book");
  });

  describe("heartbeats", () => {
    const beats = () => sent.filter((s) => (s.kind as string) === "heartbeat").map((s) => s.signal);
    const withBeats = (heartbeatMs: number) =>
      make({
        heartbeatMs,
        channels: () => [...watching.keys()].filter((c) => (watching.get(c) ?? 0) > 0),
        sendHeartbeat: (channel, hb) => sent.push({ channel, kind: "heartbeat" as ChannelKind, signal: { ...hb, slug: "m", outcomeId: null } }),
      });

    it("a quiet joined channel hears at least once per interval, with its last seq and the interval", () => {
      const e = withBeats(1_000);
      vi.advanceTimersByTime(10_000);
      const at = beats().map((b) => b.at);
      expect(at.length).toBeGreaterThanOrEqual(10);
      for (let i = 1; i < at.length; i++) expect(at[i] - at[i - 1]).toBeLessThanOrEqual(1_000);
      expect(beats()[0]).toMatchObject({ channel: CH, seq: 0, interval: 1_000 });
      e.close();
    });

    it("carries the seq of the last signal, so a client that missed that signal knows", () => {
      const e = withBeats(1_000);
      e.push(CH, { kind: "orderbook", slug: "m", outcomeId: OUT_A });
      vi.advanceTimersByTime(2_000);
      expect(beats().at(-1)).toMatchObject({ channel: CH, seq: 1 });
      e.close();
    });

    it("a channel that had a signal within the interval gets no heartbeat on top; none once nobody watches", () => {
      const e = withBeats(1_000);
      for (let t = 0; t < 5_000; t += 100) {
        e.push(CH, { kind: "orderbook", slug: "m", outcomeId: OUT_A });
        vi.advanceTimersByTime(100);
      }
      expect(beats()).toEqual([]);
      watching.set(CH, 0);
      vi.advanceTimersByTime(5_000);
      expect(beats()).toEqual([]);
      e.close();
    });

    it("a book channel's heartbeat carries what heartbeatExtra reads (its versions), after the signals being read", async () => {
      let version = 4;
      let release = () => {};
      const bookFor = () => new Promise<unknown>((resolve) => (release = () => resolve({ v: version })));
      const e = make({
        heartbeatMs: 1_000,
        carry: books(bookFor),
        channels: () => [CH],
        sendHeartbeat: (channel, hb) => sent.push({ channel, kind: "heartbeat" as ChannelKind, signal: { ...hb, slug: "m", outcomeId: null } }),
        heartbeatExtra: (channel) => (channel === CH ? Promise.resolve({ versions: { [OUT_A]: version } }) : null),
      });
      await vi.advanceTimersByTimeAsync(1_000);
      expect(beats().at(-1)).toMatchObject({ channel: CH, seq: 0, versions: { [OUT_A]: 4 } });
      // A signal whose book is still being read: the heartbeat due meanwhile waits for it and carries its seq.
      version = 5;
      e.push(CH, { kind: "orderbook", slug: "m", outcomeId: OUT_A });
      await vi.advanceTimersByTimeAsync(2_000);
      release();
      await vi.advanceTimersByTimeAsync(0);
      const order = sent.map((x) => ((x.kind as string) === "heartbeat" ? `hb${x.signal.seq}` : `sig${x.signal.seq}`));
      expect(order.indexOf("sig1")).toBeLessThan(order.indexOf("hb1"));
      expect(beats().at(-1)).toMatchObject({ seq: 1, versions: { [OUT_A]: 5 } });
      e.close();
    });

    it("a heartbeat whose extra fails goes without it", async () => {
      const e = make({
        heartbeatMs: 1_000,
        channels: () => [CH],
        sendHeartbeat: (channel, hb) => sent.push({ channel, kind: "heartbeat" as ChannelKind, signal: { ...hb, slug: "m", outcomeId: null } }),
        heartbeatExtra: () => Promise.reject(new Error("database away")),
      });
      await vi.advanceTimersByTimeAsync(1_000);
      expect(beats().at(-1)).toMatchObject({ channel: CH, seq: 0 });
      expect(beats().at(-1)).not.toHaveProperty("versions");
      e.close();
    });

    it("stops with close", () => {
      const e = withBeats(1_000);
      e.close();
      vi.advanceTimersByTime(5_000);
      expect(beats()).toEqual([]);
    });
  });
});
