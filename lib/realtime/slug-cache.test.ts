import { describe, expect, it } from "vitest";
import { createSlugCache } from "./slug-cache";

/** A lookup that counts its calls, over a set of existing slugs. */
function counting(existing: Set<string>) {
  const calls: string[] = [];
  return { calls, lookup: async (slug: string) => (calls.push(slug), existing.has(slug)) };
}

describe("slug cache – a join flood does not reach the database per join", () => {
  it("1,000 concurrent and 1,000 later joins of an unknown slug ask once", async () => {
    const db = counting(new Set());
    const cache = createSlugCache({ lookup: db.lookup });
    const answers = await Promise.all(Array.from({ length: 1000 }, () => cache.exists("no-such-market")));
    for (let i = 0; i < 1000; i++) answers.push(await cache.exists("no-such-market"));
    expect(answers.every((a) => a === false)).toBe(true);
    expect(db.calls).toEqual(["no-such-market"]);
  });

  it("a miss expires after missMs, a hit stays for hitMs", async () => {
    let t = 0;
    const existing = new Set(["known"]);
    const db = counting(existing);
    const cache = createSlugCache({ lookup: db.lookup, missMs: 5_000, hitMs: 60_000, now: () => t });
    expect(await cache.exists("later")).toBe(false);
    expect(await cache.exists("known")).toBe(true);
    existing.add("later");
    t = 4_999;
    expect(await cache.exists("later")).toBe(false);
    t = 5_001;
    expect(await cache.exists("later")).toBe(true);
    t = 59_000;
    expect(await cache.exists("known")).toBe(true);
    expect(db.calls).toEqual(["later", "known", "later"]);
  });

  it("forgetMisses makes a newly created market joinable at once", async () => {
    const existing = new Set<string>();
    const cache = createSlugCache({ lookup: counting(existing).lookup });
    expect(await cache.exists("new")).toBe(false);
    existing.add("new");
    cache.forgetMisses();
    expect(await cache.exists("new")).toBe(true);
  });

  it("is bounded: many distinct unknown slugs keep at most max entries", async () => {
    const db = counting(new Set());
    const cache = createSlugCache({ lookup: db.lookup, max: 100 });
    for (let i = 0; i < 1000; i++) await cache.exists(`s${i}`);
    await cache.exists("s999"); // recent: still cached
    await cache.exists("s0"); // long evicted: asked again
    expect(db.calls.length).toBe(1001);
    expect(db.calls.at(-1)).toBe("s0");
  });

  it("a failed lookup is not cached", async () => {
    let fail = true;
    const cache = createSlugCache({ lookup: async () => (fail ? Promise.reject(new Error("down")) : true) });
    await expect(cache.exists("x")).rejects.toThrow("down");
    fail = false;
    expect(await cache.exists("x")).toBe(true);
  });
});
