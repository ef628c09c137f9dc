import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { offHeapBytes, ResponseCache, type Loaded } from "./response-cache";

class Outage extends Error {
  code = "ECONNREFUSED";
}

function setup(opts: { maxBytes?: number; staleIfErrorMs?: number; unheardTtlMs?: number } = {}) {
  let now = 1_000_000;
  const cache = new ResponseCache({
    maxBytes: opts.maxBytes ?? 1_000_000,
    staleIfErrorMs: opts.staleIfErrorMs ?? 60_000,
    unheardTtlMs: opts.unheardTtlMs,
    canServeStale: (err) => err instanceof Outage,
    now: () => now,
  });
  cache.setLive(true);
  let version = 0;
  let loads = 0;
  const load = async (): Promise<Loaded<{ v: number }>> => {
    loads++;
    const v = version;
    await new Promise((r) => setTimeout(r, 5));
    return { value: { v } };
  };
  return {
    cache,
    load,
    loads: () => loads,
    write: () => version++,
    advance: (ms: number) => (now += ms),
  };
}

/** A load that resolves only when told to, to hold one in flight across an invalidation. */
function gate<T>(value: T) {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, load: async (): Promise<Loaded<T>> => (await opened, { value }) };
}

/** V8's full collection, reached without starting node with --expose-gc. */
function collectGarbage() {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

/**
 * The process's ArrayBuffer bytes after a full collection, once they stop moving: V8 frees the backing
 * stores of dead buffers on a helper thread after the collection returns, so a reading taken at once may
 * still count them (a CI run read 620 KB of them, then saw them go during the read it measured).
 */
async function settledArrayBuffers(): Promise<number> {
  collectGarbage();
  let last = process.memoryUsage().arrayBuffers;
  for (let same = 0, tries = 0; same < 3 && tries < 100; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 2));
    const now = process.memoryUsage().arrayBuffers;
    same = now === last ? same + 1 : 0;
    last = now;
  }
  return last;
}

describe("response cache", () => {
  it("answers a repeated read from memory and loads again after an invalidation of its tag", async () => {
    const t = setup();
    expect((await t.cache.get("a", ["x"], t.load)).status).toBe("MISS");
    const hit = await t.cache.get("a", ["x"], t.load);
    expect(hit).toMatchObject({ status: "HIT", value: { v: 0 } });
    t.write();
    t.cache.invalidate(["x"]);
    expect(await t.cache.get("a", ["x"], t.load)).toMatchObject({ status: "MISS", value: { v: 1 } });
    expect(t.loads()).toBe(2);
  });

  it("an invalidation of another tag leaves the entry fresh", async () => {
    const t = setup();
    await t.cache.get("a", ["x"], t.load);
    t.cache.invalidate(["y"]);
    expect((await t.cache.get("a", ["x"], t.load)).status).toBe("HIT");
  });

  it("concurrent misses of one key make one load (single flight)", async () => {
    const t = setup();
    const all = await Promise.all(Array.from({ length: 50 }, () => t.cache.get("a", ["x"], t.load)));
    expect(t.loads()).toBe(1);
    expect(new Set(all.map((r) => r.value)).size).toBe(1);
  });

  it("a request after an invalidation never joins, nor later reads, a load that began before it", async () => {
    const t = setup();
    const before = gate({ v: "old" });
    const early = t.cache.get("a", ["x"], before.load);
    t.cache.invalidate(["x"]); // the change is announced while the old load is in flight
    const late = t.cache.get("a", ["x"], async () => ({ value: { v: "new" } }));
    before.open();
    expect((await early).value).toEqual({ v: "old" }); // asked before the announcement
    expect((await late).value).toEqual({ v: "new" });
    expect((await t.cache.get("a", ["x"], t.load)).value).toEqual({ v: "new" }); // memory holds the new one
  });

  it("invalidateAll detaches every load in flight and makes every entry stale", async () => {
    const t = setup();
    await t.cache.get("a", ["x"], t.load);
    const before = gate({ v: "old" });
    const early = t.cache.get("b", ["y"], before.load);
    t.cache.invalidateAll();
    before.open();
    await early;
    expect((await t.cache.get("a", ["x"], t.load)).status).toBe("MISS");
    expect((await t.cache.get("b", ["y"], t.load)).status).toBe("MISS");
  });

  it("while not live every read loads, and going live again starts from nothing", async () => {
    const t = setup();
    await t.cache.get("a", ["x"], t.load);
    t.cache.setLive(false);
    expect((await t.cache.get("a", ["x"], t.load)).status).toBe("BYPASS");
    t.cache.setLive(true);
    expect((await t.cache.get("a", ["x"], t.load)).status).toBe("MISS");
  });

  it("while not live with unheardTtlMs, an answer loaded meanwhile is kept that long from its load's start, then refreshed behind readers, and none outlives the loss", async () => {
    const t = setup({ unheardTtlMs: 1000 });
    await t.cache.get("a", ["x"], t.load);
    t.write();
    t.cache.setLive(false);
    // What was kept before the loss is not served: a change may have gone unheard.
    const first = await t.cache.get("a", ["x"], t.load);
    expect(first).toMatchObject({ status: "MISS", value: { v: 1 } });
    expect(first.expiresAt).toBe(1_000_000 + 1000);
    // Concurrent reads share one load; a read within the second is answered from memory.
    const loads = t.loads();
    const [b1, b2] = await Promise.all([t.cache.get("b", ["y"], t.load), t.cache.get("b", ["y"], t.load)]);
    expect(t.loads()).toBe(loads + 1);
    expect(b1.value).toEqual(b2.value);
    t.advance(999);
    expect((await t.cache.get("a", ["x"], t.load)).status).toBe("HIT");
    t.write();
    t.advance(1);
    // Expired within the last TTL: served once more while one load refreshes it.
    const before = t.loads();
    expect(await t.cache.get("a", ["x"], t.load)).toMatchObject({ status: "HIT", value: { v: 1 } });
    expect(await t.cache.get("a", ["x"], t.load)).toMatchObject({ status: "HIT", value: { v: 1 } });
    await new Promise((r) => setTimeout(r, 20));
    expect(t.loads()).toBe(before + 1);
    expect(await t.cache.get("a", ["x"], t.load)).toMatchObject({ status: "HIT", value: { v: 2 } });
    // Past twice the TTL, a reader waits for the load.
    t.write();
    t.advance(2000);
    expect(await t.cache.get("a", ["x"], t.load)).toMatchObject({ status: "MISS", value: { v: 3 } });
    // Heard again: everything kept meanwhile is dropped, and a load begun while unheard is not kept.
    const during = gate({ v: -1 });
    const inFlight = t.cache.get("c", ["z"], during.load);
    t.cache.setLive(true);
    during.open();
    await inFlight;
    expect((await t.cache.get("a", ["x"], t.load)).status).toBe("MISS");
    expect((await t.cache.get("c", ["z"], t.load)).value).toEqual({ v: 3 });
    expect((await t.cache.get("a", ["x"], t.load)).expiresAt).toBe(Infinity);
  });

  it("an answer with an expiry is reloaded once it has passed", async () => {
    const t = setup();
    const timed = async () => ({ value: { at: t.loads() }, expiresAt: 1_000_000 + 500 });
    await t.cache.get("a", [], timed);
    t.advance(400);
    expect((await t.cache.get("a", [], timed)).status).toBe("HIT");
    t.advance(200);
    expect((await t.cache.get("a", [], timed)).status).toBe("MISS");
  });

  it("serves an invalidated entry while loads fail for an outage, for staleIfErrorMs only", async () => {
    const t = setup({ staleIfErrorMs: 10_000 });
    await t.cache.get("a", ["x"], t.load);
    t.cache.invalidate(["x"]);
    const down = async (): Promise<Loaded<{ v: number }>> => {
      throw new Outage("down");
    };
    t.advance(9_000);
    expect(await t.cache.get("a", ["x"], down)).toMatchObject({ status: "STALE", value: { v: 0 }, ageS: 9 });
    t.advance(2_000);
    await expect(t.cache.get("a", ["x"], down)).rejects.toThrow("down");
  });

  it("never serves stale for a failure that is not an outage", async () => {
    const t = setup();
    await t.cache.get("a", ["x"], t.load);
    t.cache.invalidate(["x"]);
    await expect(t.cache.get("a", ["x"], async () => Promise.reject(new Error("bug")))).rejects.toThrow("bug");
  });

  it("a load's tags may grow while it runs: an invalidation of a tag added meanwhile keeps it from being stored", async () => {
    const t = setup();
    const tags: string[] = ["page"];
    const render = gate({ v: "rendered" });
    const early = t.cache.get("p", tags, async () => {
      tags.push("x"); // the render reads an entry tagged x
      return render.load();
    });
    await Promise.resolve();
    t.cache.invalidate(["x"]);
    render.open();
    expect((await early).value).toEqual({ v: "rendered" }); // its waiters still get it
    expect((await t.cache.get("p", [], async () => ({ value: { v: "again" } }))).status).toBe("MISS");
    // A render that nothing interrupts is stored under every tag it learnt.
    const grown: string[] = [];
    await t.cache.get("q", grown, async () => (grown.push("y"), { value: 1 }));
    t.cache.invalidate(["y"]);
    expect((await t.cache.get("q", [], async () => ({ value: 2 }))).value).toBe(2);
  });

  it("a noStore answer reaches the load's waiters and is not kept", async () => {
    const t = setup();
    const once = gate({ v: "private" });
    let loads = 0;
    const load = async () => (loads++, { ...(await once.load()), noStore: true });
    const both = Promise.all([t.cache.get("a", ["x"], load), t.cache.get("a", ["x"], load)]);
    once.open();
    expect((await both).map((r) => r.value)).toEqual([{ v: "private" }, { v: "private" }]);
    expect(loads).toBe(1);
    expect((await t.cache.get("a", ["x"], async () => ({ value: { v: "next" } }))).status).toBe("MISS");
  });

  it("expire drops an entry that still holds the value a reader found outdated, and no newer one", async () => {
    const t = setup();
    await t.cache.get("a", ["x"], t.load); // kept as its text
    const first = (await t.cache.get("a", ["x"], t.load)).value; // the object parsed from it, handed out while asked
    expect((await t.cache.get("a", ["x"], t.load)).value).toBe(first);
    t.cache.expire("a", { ...first }); // an equal object is not the value held
    expect((await t.cache.get("a", ["x"], t.load)).status).toBe("HIT");
    t.cache.expire("a", first);
    const second = await t.cache.get("a", ["x"], t.load);
    expect(second.status).toBe("MISS");
    expect(second.value).not.toBe(first);
    t.cache.expire("a", first); // the old value again: the new entry stays
    expect((await t.cache.get("a", ["x"], t.load)).status).toBe("HIT");
    // A value kept as it is (with stated bytes: a rendered page).
    const page = { body: "<html>" };
    await t.cache.get("p", [], async () => ({ value: page, bytes: 100 }));
    expect((await t.cache.get("p", [], t.load)).value).toBe(page);
    t.cache.expire("p", page);
    expect((await t.cache.get("p", [], t.load)).status).toBe("MISS");
  });

  it("reports the expiry of what it answers, and weighs a value by its stated bytes", async () => {
    const t = setup({ maxBytes: 4_000 });
    expect((await t.cache.get("a", [], async () => ({ value: 1, expiresAt: 1_000_500 }))).expiresAt).toBe(1_000_500);
    expect((await t.cache.get("a", [], t.load)).expiresAt).toBe(1_000_500);
    expect((await t.cache.get("b", [], async () => ({ value: 2 }))).expiresAt).toBe(Infinity);
    await t.cache.get("big", [], async () => ({ value: "small JSON", bytes: 2_500 }));
    expect(t.cache.size.bytes).toBeGreaterThanOrEqual(2_700);
    await t.cache.get("huge", [], async () => ({ value: "small JSON", bytes: 4_000 }));
    expect((await t.cache.get("huge", [], async () => ({ value: "again" }))).status).toBe("MISS"); // over the whole budget
  });

  it("keeps within its byte budget by evicting the least recently used", async () => {
    const t = setup({ maxBytes: 3_000 });
    const big = (n: number) => async () => ({ value: { n, pad: "x".repeat(700) } });
    for (let i = 0; i < 10; i++) await t.cache.get(`k${i}`, ["x"], big(i));
    expect(t.cache.size.bytes).toBeLessThanOrEqual(3_000);
    expect((await t.cache.get("k9", ["x"], big(9))).status).toBe("HIT");
    expect((await t.cache.get("k0", ["x"], big(0))).status).toBe("MISS");
  });

  it("lets its entries use the hot tier's share while that holds nothing, and gives it back as answers asked again are kept parsed", async () => {
    const t = setup({ maxBytes: 12_000 });
    // Each weighs its text (406 bytes) and 800 more: nine fit in 12,000, eight beside a hot tier of 1,500 (an eighth).
    const answer = (n: number) => async () => ({ value: { n, pad: "x".repeat(390) } });
    for (let i = 0; i < 9; i++) await t.cache.get(`k${i}`, ["x"], answer(i));
    expect(t.cache.size).toMatchObject({ entries: 9, parsedEntries: 0 });
    // Asked again: each hit is kept parsed (1.25 times its text and 200), and the least recently used entry makes room.
    for (const k of ["k7", "k8"]) expect((await t.cache.get(k, ["x"], answer(-1))).status).toBe("HIT");
    expect(t.cache.size).toMatchObject({ entries: 8, parsedEntries: 2 });
    expect(t.cache.size.bytes).toBeLessThanOrEqual(12_000);
    expect((await t.cache.get("k1", ["x"], answer(-1))).status).toBe("HIT");
    expect((await t.cache.get("k0", ["x"], answer(0))).status).toBe("MISS");
    expect((await t.cache.get("k8", ["x"], answer(-1))).value).toEqual({ n: 8, pad: "x".repeat(390) });
  });

  it("keeps an object answer as its JSON text: a hit parses it once, then hands out that object while it is asked", async () => {
    const t = setup();
    const loaded = { id: "m1", outcomes: [{ price: 0.25, name: "Yes" }], closed: null };
    const miss = await t.cache.get("m", ["market:m1"], async () => ({ value: loaded }));
    expect(miss.value).toBe(loaded); // the load's waiters get what it loaded, frozen, with the Json its text was made from
    expect(Object.isFrozen(loaded.outcomes[0])).toBe(true);
    expect(miss.json?.value).toBe(loaded);
    const first = await t.cache.get("m", ["market:m1"], t.load);
    expect(first.status).toBe("HIT");
    expect(first.value).not.toBe(loaded); // parsed from the text, not the object kept alive
    expect(first.value).toEqual(loaded);
    expect(first.json?.text.toString()).toBe(JSON.stringify(loaded)); // its text, as kept
    expect(first.json?.value).toBe(first.value);
    expect(Object.isFrozen(first.value)).toBe(true); // so the text stays what it shows
    expect(Object.keys(first.value as object)).toEqual(["id", "outcomes", "closed"]);
    expect(JSON.stringify(first.value)).toBe(JSON.stringify(loaded));
    expect((await t.cache.get("m", ["market:m1"], t.load)).value).toBe(first.value); // the hot tier: parsed once
    expect(t.cache.size).toMatchObject({ entries: 1, parsedEntries: 1 });
    expect(t.cache.size.parsedBytes).toBeGreaterThan(JSON.stringify(loaded).length);

    // A new load of the key replaces both: the hot object of the old entry is never handed out again.
    t.cache.invalidate(["market:m1"]);
    const next = { ...loaded, closed: "2026-11-26T00:00:00.000Z" };
    expect((await t.cache.get("m", ["market:m1"], async () => ({ value: next }))).status).toBe("MISS");
    const again = await t.cache.get("m", ["market:m1"], t.load);
    expect(again.status).toBe("HIT");
    expect(again.value).not.toBe(first.value);
    expect(again.value).toEqual(next);
  });

  it("keeps the text as UTF-8 bytes outside V8's heap, each text in memory of its own, and gives back any Unicode exactly", async () => {
    const t = setup({ maxBytes: 64_000_000 });
    const big = { id: "m1", question: "Zürich, 東京 and 🚀? ".repeat(40_000) };
    const text = JSON.stringify(big);
    // Both readings after a full collection has settled: buffers earlier tests left behind, freed during
    // the read, would otherwise hide its own.
    const before = await settledArrayBuffers();
    await t.cache.get("big", ["market:m1"], async () => ({ value: big }));
    // Off the heap: in ArrayBuffers (a string would not be counted there, and would add nothing here).
    // At least nine tenths of its UTF-8 length, as a few KB of the test runner's own buffers may die between the readings.
    expect((await settledArrayBuffers()) - before).toBeGreaterThanOrEqual(0.9 * Buffer.byteLength(text));
    expect(t.cache.size.bytes).toBe(Buffer.byteLength(text) + 800); // its bytes and what an entry takes beside them
    const hit = await t.cache.get("big", ["market:m1"], t.load);
    expect(hit.status).toBe("HIT");
    expect(hit.value).toEqual(big);
    expect(hit.json?.text.toString()).toBe(text);
  });

  it("keeps an answer that is bytes as it is: the same Buffer on every hit, weighed by its length, never decoded", async () => {
    const t = setup({ maxBytes: 64_000_000 });
    const text = JSON.stringify({ id: "m1", question: "Zürich, 東京 and 🚀? ".repeat(1_000) });
    const item = offHeapBytes(text);
    expect(item.toString("utf8")).toBe(text);
    expect(item.buffer.byteLength).toBe(item.length); // memory of its own, not a slice of Node's pool
    await t.cache.get("item", ["market:m1"], async () => ({ value: item }));
    expect(t.cache.size.bytes).toBe(item.length + 800); // its length, not JSON.stringify of a Buffer
    const hit = await t.cache.get("item", ["market:m1"], async () => ({ value: Buffer.from("not this") }));
    expect(hit.status).toBe("HIT");
    expect(hit.value).toBe(item);
    expect(t.cache.size.parsedEntries).toBe(0);
    t.cache.expire("item", item);
    expect((await t.cache.get("item", ["market:m1"], async () => ({ value: offHeapBytes("{}") }))).status).toBe("MISS");
    t.cache.invalidate(["market:m1"]);
    const stale = await t.cache.get("item", ["market:m1"], async () => Promise.reject(new Outage("down")));
    expect(stale.status).toBe("STALE");
    expect((stale.value as Buffer).toString()).toBe("{}");
  });

  it("serves a stale answer kept as text as the object it was", async () => {
    const t = setup();
    await t.cache.get("m", ["x"], async () => ({ value: { v: "before" } }));
    t.cache.invalidate(["x"]);
    const stale = await t.cache.get("m", ["x"], async () => Promise.reject(new Outage("down")));
    expect(stale).toMatchObject({ status: "STALE", value: { v: "before" } });
  });

  it("keeps the hot tier within its share of the budget", async () => {
    const t = setup({ maxBytes: 16_000 });
    const value = (n: number) => async () => ({ value: { n, pad: "x".repeat(500) } });
    for (let i = 0; i < 10; i++) await t.cache.get(`k${i}`, [], value(i));
    for (let i = 0; i < 10; i++) expect((await t.cache.get(`k${i}`, [], value(i))).status).toBe("HIT");
    expect(t.cache.size.entries).toBe(10);
    expect(t.cache.size.parsedEntries).toBeLessThanOrEqual(2); // 2,000 bytes of 16,000, ~845 each
    expect(t.cache.size.bytes).toBeLessThanOrEqual(16_000);
    // An entry the budget evicts takes its parsed object along.
    for (let i = 10; i < 40; i++) await t.cache.get(`k${i}`, [], value(i));
    expect((await t.cache.get("k9", [], value(9))).status).toBe("MISS");
    expect(t.cache.size.parsedEntries).toBe(0);
  });

  it("checks, when told to, that an answer kept as text is JSON data", async () => {
    const strict = new ResponseCache({ maxBytes: 1_000_000, staleIfErrorMs: 0, canServeStale: () => false, checkJson: true });
    strict.setLive(true);
    const at = new Date("2026-11-26T00:00:00Z");
    await expect(strict.get("d", [], async () => ({ value: { at } }))).rejects.toThrow(/not JSON data/);
    await expect(strict.get("m", [], async () => ({ value: { ids: new Map([["a", 1]]) } }))).rejects.toThrow(/not JSON data/);
    // Arrays of another class (postgres.js results) and properties left undefined are JSON data as far as reading goes.
    class Rows extends Array<{ id: string; note?: string }> {}
    const rows = Rows.from([{ id: "a", note: undefined }]);
    expect((await strict.get("r", [], async () => ({ value: rows }))).value).toBe(rows);
    const hit = (await strict.get("r", [], async () => ({ value: [] }))).value as { id: string }[];
    expect(hit).toEqual([{ id: "a" }]);
    // What a hit parses is frozen there: a reader that changed it would make its text lie.
    expect(() => {
      hit[0].id = "b";
    }).toThrow(TypeError);
  });
});
