// The paginator's rules over an in-memory list that changes between requests (the real server: e2e/api/client.spec.ts).
import { describe, expect, test } from "vitest";
import { paginate, walkCursor } from "./paginate";

type M = { id: string };
/** A list API over `rows`, calling `between(requestNumber)` before answering each request. */
function listOf(rows: M[], between: (n: number) => void = () => {}) {
  let n = 0;
  return {
    requests: () => n,
    listMarkets: async ({ query }: { query: { limit?: number; offset?: number } }) => {
      between(++n);
      const offset = query.offset ?? 0;
      return { markets: rows.slice(offset, offset + (query.limit ?? 20)), total: rows.length };
    },
  };
}
const ids = (n: number, prefix = "m") => Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}` }));
async function all<T>(it: AsyncIterable<T>) {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe("paginate", () => {
  test.each([1, 2, 5, 7, 100])("a list that does not change: every market once, in order, stopping at total (page %i)", async (pageSize) => {
    const rows = ids(23);
    const api = listOf(rows);
    expect((await all(paginate(api, {}, { pageSize }))).map((m) => m.id)).toEqual(rows.map((m) => m.id));
    expect(api.requests()).toBeLessThanOrEqual(Math.ceil(23 / Math.max(1, pageSize - Math.min(10, Math.floor(pageSize / 4)))) + 1);
  });

  test("markets inserted before the position every request: the ones there were come once each", async () => {
    const rows = ids(30);
    let k = 0;
    const api = listOf(rows, () => rows.unshift({ id: `new${k++}` }, { id: `new${k++}` }));
    const got = (await all(paginate(api, {}, { pageSize: 8 }))).map((m) => m.id);
    expect(new Set(got).size).toBe(got.length);
    for (const m of ids(30)) expect(got).toContain(m.id);
  });

  test("markets removed before the position (the rest slides back): none of the rest is skipped", async () => {
    const rows = ids(40);
    const api = listOf(rows, (n) => n > 1 && rows.splice(0, 1)); // one of the first (already seen) leaves per request
    const got = (await all(paginate(api, {}, { pageSize: 8 }))).map((m) => m.id);
    expect(new Set(got).size).toBe(got.length);
    for (const m of ids(40).slice(8)) expect(got).toContain(m.id); // every market not yet seen when one left
  });

  test("a list in upheaval still ends (anchors never found): each id at most once", async () => {
    let n = 0;
    const api = {
      // Every request sees a list of new markets.
      listMarkets: async ({ query }: { query: { limit?: number; offset?: number } }) => {
        const rows = ids(20, `r${++n}-`);
        return { markets: rows.slice(query.offset ?? 0, (query.offset ?? 0) + (query.limit ?? 20)), total: rows.length };
      },
    };
    const got = await all(paginate(api, {}, { pageSize: 5 }));
    expect(n).toBeLessThan(40);
    expect(new Set(got.map((m) => m.id)).size).toBe(got.length);
  });
});

test("walkCursor – follows the cursor until it is null; a key makes it skip repeats", async () => {
  const pages: Record<string, { items: number[]; next: string | null }> = {
    start: { items: [1, 2], next: "a" },
    a: { items: [2, 3], next: "b" },
    b: { items: [4], next: null },
  };
  const read = async (c: string | undefined) => pages[c ?? "start"];
  expect(await all(walkCursor(read, (p) => p))).toEqual([1, 2, 2, 3, 4]);
  expect(await all(walkCursor(read, (p) => p, { key: (x) => x }))).toEqual([1, 2, 3, 4]);
});
