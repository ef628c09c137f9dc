import { describe, expect, it } from "vitest";
import { Breaker } from "../db/breaker";
import { createChangeStream } from "./change-stream";
import type { ListenerOptions } from "./listener";

/** A stream over a fake LISTEN connection: `notify`, `listen` and `lose` play the database. */
function streamWithFakeListener(gate?: (fn: () => void) => void, breaker?: Breaker) {
  let opts!: ListenerOptions;
  const stream = createChangeStream({
    databaseUrl: "postgres://unused",
    heartbeatMs: 1000,
    log: () => {},
    gate: gate ?? ((fn) => fn()),
    breaker,
    listen: (o) => {
      opts = o;
      return { ready: Promise.resolve(), retryNow: () => {}, close: async () => {} };
    },
  });
  return { stream, notify: (p: string) => opts.onNotify(p), listen: (r: boolean) => opts.onListen(r), lose: () => opts.onLost?.() };
}

describe("change stream", () => {
  it("parses once and hands the same event to every subscriber, in the order they subscribed", async () => {
    const { stream, notify } = streamWithFakeListener();
    const seen: string[] = [];
    const events: unknown[] = [];
    stream.subscribe({ event: (e) => (seen.push("cache"), events.push(e)) });
    stream.subscribe({ event: (e) => (seen.push("sockets"), events.push(e)) });
    await stream.start();
    notify('{"k":"price","s":"m","o":null}');
    expect(seen).toEqual(["cache", "sockets"]);
    expect(events[0]).toBe(events[1]);
    expect(events[0]).toEqual({ kind: "price", slug: "m", marketId: null, outcomeId: null });
  });

  it("drops pings and foreign payloads before any subscriber sees them", async () => {
    const { stream, notify } = streamWithFakeListener();
    const events: unknown[] = [];
    stream.subscribe({ event: (e) => events.push(e) });
    await stream.start();
    notify('{"k":"ping","n":"other-instance"}');
    notify("hello");
    expect(events).toEqual([]);
  });

  it("holds events and resumes behind the commit gate, but tells of a lost connection at once", async () => {
    const held: Array<() => void> = [];
    const { stream, notify, listen, lose } = streamWithFakeListener((fn) => held.push(fn));
    const seen: string[] = [];
    stream.subscribe({ event: (e) => seen.push(e.kind), listening: (r) => seen.push(`listening ${r}`), lost: () => seen.push("lost") });
    await stream.start();
    notify('{"k":"orderbook","s":"m","o":null}');
    lose();
    listen(true);
    expect(seen).toEqual(["lost"]);
    for (const fn of held) fn();
    expect(seen).toEqual(["lost", "orderbook", "listening true"]);
  });

  it("hearing the primary closes the 503 breaker before any subscriber runs: a LISTEN that works, a change heard", async () => {
    // A probe that never succeeds: only what the stream hears can close it.
    const b = new Breaker({ retryMs: 60_000, probe: () => Promise.reject(new Error("down")) });
    const { stream, notify, listen } = streamWithFakeListener(undefined, b);
    const seen: string[] = [];
    stream.subscribe({ event: (e) => seen.push(`${e.kind} open=${b.isOpen}`), listening: (r) => seen.push(`listening ${r} open=${b.isOpen}`) });
    await stream.start();
    b.trip(new Error("refused"));
    listen(true);
    b.trip(new Error("refused"));
    notify('{"k":"orderbook","s":"m","o":null}');
    expect(seen).toEqual(["listening true open=false", "orderbook open=false"]);
    expect(b.isOpen).toBe(false);
    b.close();
  });

  it("a subscriber that throws does not keep the others from the event", async () => {
    const { stream, notify } = streamWithFakeListener();
    const seen: string[] = [];
    stream.subscribe({
      event: () => {
        throw new Error("boom");
      },
    });
    stream.subscribe({ event: (e) => seen.push(e.kind) });
    const off = stream.subscribe({ event: () => seen.push("gone") });
    off();
    await stream.start();
    notify('{"k":"list"}');
    expect(seen).toEqual(["list"]);
  });
});
