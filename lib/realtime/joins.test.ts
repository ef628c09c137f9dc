import { describe, expect, it, vi } from "vitest";
import type { Ack } from "./channels";
import { createJoinProtocol, type JoiningSocket } from "./joins";

function fakeSocket() {
  const handlers = new Map<string, (...args: unknown[]) => void>();
  const socket: JoiningSocket & { call: (event: string, payload: unknown) => Promise<Ack> } = {
    rooms: new Set(["own-id"]),
    join: (room) => socket.rooms.add(room),
    leave: (room) => socket.rooms.delete(room),
    on: (event, fn) => handlers.set(event, fn),
    call: (event, payload) => new Promise((resolve) => handlers.get(event)?.(payload, resolve)),
  };
  return socket;
}

const known = new Set(["btc-100k", "rain"]);
const marketExists = vi.fn(async (slug: string) => known.has(slug));

describe("join protocol", () => {
  it("joins a known market's channel and leaves it", async () => {
    const p = createJoinProtocol({ marketExists });
    const s = fakeSocket();
    p.attach(s);
    expect(await s.call("join", { channel: "market:btc-100k:orderbook" })).toEqual({ ok: true });
    expect(s.rooms.has("market:btc-100k:orderbook")).toBe(true);
    expect(await s.call("leave", { channel: "market:btc-100k:orderbook" })).toEqual({ ok: true });
    expect(s.rooms.has("market:btc-100k:orderbook")).toBe(false);
  });

  it.each([
    [{ channel: "market:btc-100k:volume" }],
    [{ channel: "btc-100k" }],
    [{ channel: 42 }],
    [{}],
    ["market:btc-100k:price"],
    [undefined],
    [{ channel: `market:${"a".repeat(300)}:price` }],
  ])("answers %j with Malformed channel", async (payload) => {
    const p = createJoinProtocol({ marketExists });
    expect(await p.join(fakeSocket(), payload)).toEqual({ ok: false, error: "Malformed channel" });
    expect(await p.leave(fakeSocket(), payload)).toEqual({ ok: false, error: "Malformed channel" });
  });

  it("refuses a market that does not exist, naming it", async () => {
    const p = createJoinProtocol({ marketExists });
    expect(await p.join(fakeSocket(), { channel: "market:nope:price" })).toEqual({ ok: false, error: "Unknown market: nope" });
  });

  it("refuses a channel past the per-socket limit; a channel already joined still acks ok", async () => {
    const p = createJoinProtocol({ marketExists, maxChannels: 2 });
    const s = fakeSocket();
    expect(await p.join(s, { channel: "market:btc-100k:price" })).toEqual({ ok: true });
    expect(await p.join(s, { channel: "market:btc-100k:orderbook" })).toEqual({ ok: true });
    expect(await p.join(s, { channel: "market:rain:price" })).toEqual({ ok: false, error: "Too many channels: a socket may join at most 2" });
    expect(await p.join(s, { channel: "market:btc-100k:price" })).toEqual({ ok: true });
  });

  it("rate limits a socket's requests past its burst, and every request still acks", async () => {
    const p = createJoinProtocol({ marketExists, burst: 3, ratePerS: 0.001 });
    const s = fakeSocket();
    p.attach(s);
    const acks = await Promise.all(Array.from({ length: 5 }, () => s.call("join", { channel: "market:rain:price" })));
    expect(acks.filter((a) => a.ok)).toHaveLength(3);
    expect(acks.filter((a) => !a.ok)).toEqual([
      { ok: false, error: "Too many requests: slow down" },
      { ok: false, error: "Too many requests: slow down" },
    ]);
  });

  it("answers one request at a time per socket, in order, and a failed look-up acks an internal error", async () => {
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const p = createJoinProtocol({
      marketExists: async (slug) => {
        order.push(`ask ${slug}`);
        if (slug === "slow") await gate;
        if (slug === "broken") throw new Error("boom");
        return true;
      },
    });
    const s = fakeSocket();
    p.attach(s);
    const first = s.call("join", { channel: "market:slow:price" });
    const second = s.call("join", { channel: "market:broken:price" });
    await new Promise((r) => setTimeout(r, 10));
    expect(order).toEqual(["ask slow"]); // the second waits for the first
    release();
    expect(await first).toEqual({ ok: true });
    expect(await second).toEqual({ ok: false, error: "Internal error" });
  });

  it("a client without an ack callback is served and nothing throws", async () => {
    const p = createJoinProtocol({ marketExists });
    const s = fakeSocket();
    const handlers: Array<(...a: unknown[]) => void> = [];
    s.on = (_e, fn) => handlers.push(fn);
    p.attach(s);
    expect(() => handlers[0]({ channel: "market:rain:price" })).not.toThrow();
    await new Promise((r) => setTimeout(r, 10));
    expect(s.rooms.has("market:rain:price")).toBe(true);
  });
});
