import { describe, expect, it } from "vitest";
import type { MarketEvent } from "@/lib/events/market-events";
import { type ChangeSource, createStreamHub } from "./hub";
import type { ResolvedEvent } from "./resolve";
import type { StreamEvent } from "./stream-events";

const SLUG = "a-market";
const BOOK = `market:${SLUG}:orderbook`;
const change = (position: number, kind: MarketEvent["kind"] = "orderbook"): MarketEvent => ({
  kind,
  slug: SLUG,
  marketId: "m",
  outcomeId: "o",
  position,
  atUs: position * 1000,
});

/** A change_log of the given positions (all before `head`), with a horizon. */
function logOf(positions: number[], horizon = 0): ChangeSource & { reads: number } {
  const src = {
    reads: 0,
    readChanges: async (after: number, limit: number) => {
      src.reads++;
      return positions
        .filter((p) => p > after)
        .slice(0, limit)
        .map((p) => change(p));
    },
    bounds: async () => ({ horizon, head: Math.max(horizon, ...positions, 0) }),
  };
  return src;
}

/** Reads data after a delay that shrinks with the position: later events would be ready first. */
const slowResolve = (e: StreamEvent): Promise<ResolvedEvent> =>
  new Promise((r) =>
    setTimeout(() => r({ event: e, data: () => ({ position: e.position, channel: e.channel }), frame: () => `${e.position}\n` }), Math.max(0, 30 - e.position)),
  );

function sink() {
  const got: Array<[number, string]> = [];
  const resets: string[] = [];
  let live = false;
  return {
    got,
    resets,
    isLive: () => live,
    sink: {
      send: (events: ResolvedEvent[]) => {
        for (const e of events) got.push([e.event.position, e.event.channel]);
      },
      reset: (r: { reason: string }) => resets.push(r.reason),
      live: () => void (live = true),
    },
  };
}

const until = async (ok: () => boolean) => {
  for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(ok()).toBe(true);
};

describe("stream hub", () => {
  it("sends live events in position order, whichever one's data is read first", async () => {
    const hub = createStreamHub({ source: logOf([]), resolve: slowResolve });
    await hub.start();
    const s = sink();
    hub.subscribe([BOOK], undefined, s.sink);
    for (let p = 1; p <= 20; p++) hub.input(change(p));
    await until(() => s.got.length === 20);
    expect(s.got.map(([p]) => p)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it("a resume from a kept position gets what it missed, then what arrives meanwhile, none twice, in order", async () => {
    const hub = createStreamHub({ source: logOf([]), resolve: slowResolve });
    await hub.start();
    for (let p = 1; p <= 10; p++) hub.input(change(p));
    const s = sink();
    hub.subscribe([BOOK], 4, s.sink);
    for (let p = 11; p <= 15; p++) hub.input(change(p)); // while the replay is being read
    await until(() => s.got.length === 11);
    expect(s.got.map(([p]) => p)).toEqual([5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    expect(s.isLive()).toBe(true);
  });

  it("a resume from before what is kept reads change_log; older than the horizon or past the head is a reset", async () => {
    const source = logOf([3, 5, 8, 9], 2);
    const hub = createStreamHub({ source, resolve: slowResolve });
    await hub.start(); // starts at the head, 9
    hub.input(change(10));
    const s = sink();
    hub.subscribe([BOOK], 4, s.sink);
    await until(() => s.got.length === 4);
    expect(s.got.map(([p]) => p)).toEqual([5, 8, 9, 10]);
    expect(source.reads).toBeGreaterThan(0);

    const old = sink();
    hub.subscribe([BOOK], 1, old.sink);
    await until(() => old.resets.length === 1);
    expect(old.resets).toEqual(["retention"]);
    const ahead = sink();
    hub.subscribe([BOOK], 99, ahead.sink);
    await until(() => ahead.resets.length === 1);
    expect(ahead.resets).toEqual(["unknown"]);
    hub.input(change(11));
    await until(() => old.got.length === 1 && ahead.got.length === 1);
  });

  it("after the LISTEN connection was lost, catches up from change_log and then sends what was heard, in order", async () => {
    const positions = [1, 2];
    const source = logOf(positions);
    const hub = createStreamHub({ source, resolve: slowResolve });
    await hub.start(); // head 2
    const s = sink();
    hub.subscribe([BOOK], undefined, s.sink);
    positions.push(3, 4, 5); // committed while nobody heard
    const caught = hub.catchUp();
    hub.input(change(6)); // heard while reading
    hub.input(change(5)); // and one read as well
    await caught;
    await until(() => s.got.length === 4);
    expect(s.got.map(([p]) => p)).toEqual([3, 4, 5, 6]);
  });

  it("a flush resets every stream; a bulk of new markets resets the markets channel's", async () => {
    const hub = createStreamHub({ source: logOf([]), resolve: slowResolve });
    await hub.start();
    const book = sink();
    const markets = sink();
    hub.subscribe([BOOK], undefined, book.sink);
    hub.subscribe(["markets"], undefined, markets.sink);
    hub.input({ kind: "list", slug: null, marketId: null, outcomeId: null, position: 1 });
    hub.input({ kind: "flush", slug: null, marketId: null, outcomeId: null, position: 2 });
    await until(() => book.resets.length === 1 && markets.resets.length === 2);
    expect(book.resets).toEqual(["flush"]);
    expect(markets.resets).toEqual(["bulk", "flush"]);
  });
});
