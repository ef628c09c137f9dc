// The in-memory orders against a brute-force sort of the same rows: every status, category, sort and
// direction, after single changes (edited in place), bulk changes (sorted again), removals and additions.
// The loader stands in for the table here; e2e/api/list-index.spec.ts checks the same against PostgreSQL.
import { describe, expect, it } from "vitest";
import type { MarketEvent } from "@/lib/events/market-events";
import { fixedWidth, type IndexRow, keptStatuses, ListIndex, type ListSlice } from "./list-index";
import type { MarketListQuery } from "./schemas";
import { FOLD_TEST, foldingOf, searchNeedle } from "./search-fold";

type Row = IndexRow;

let seed = 42;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
const hex = (n: number) => Array.from({ length: n }, () => pick("0123456789abcdef".split(""))).join("");
const uuid = () => `${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}`;
const STATUSES = ["ACTIVE", "RESOLVED"];
const CATEGORIES = ["CRYPTO", "SPORTS", "OTHER"];
// Few distinct values, so ties (broken by id) are common; magnitudes that a double would confuse.
const decimal = () => pick(["0.000000", "1.500000", "12.000001", "12.000000", "99999999999999999.999999", "100000000000000000.000000"]);
const row = (id = uuid()): Row => ({
  id,
  slug: `m-${id.slice(0, 8)}`,
  status: pick(STATUSES),
  category: pick(CATEGORIES),
  volume: decimal(),
  liquidity: decimal(),
  created: pick([1_700_000_000_000_000, 1_700_000_000_000_001, 1_600_000_000_000_000]),
  ends: pick([1_800_000_000_000_000, 1_800_000_000_000_001]),
  question: text(),
  description: text(),
});

/** Words in every case, with the characters whose lower case is or holds ASCII (U+0130, U+212A) and others that are not. */
const WORDS = ["Will", "BTC", "btc", "bTc", "Café", "CAFÉ", "İstanbul", "\u212Aelvin", "kelvin", "50%", "a_b", "x\\y", "Ωmega", "😀", "Ünïcödé", "\t", "I"];
const text = () => Array.from({ length: 1 + Math.floor(random() * 5) }, () => pick(WORDS)).join(pick([" ", "", "\n"]));

/** A database whose lower() is JavaScript's (full Unicode mapping: İ lowers to i and U+0307, as under ICU). */
const jsLower = (s: string) => s.toLowerCase();
const jsFolding = () => Promise.resolve(foldingOf(jsLower(FOLD_TEST.ASCII), FOLD_TEST.CANDIDATES.map(jsLower)));
/** What `question ILIKE '%q%' OR description ILIKE '%q%'` answers on that database (NULs stripped from q, as the SQL path does). */
const ilike = (r: Row, q: string) => {
  const needle = jsLower(q.replaceAll("\u0000", ""));
  return jsLower(r.question).includes(needle) || jsLower(r.description).includes(needle);
};

/** Markets per status, as the database counts them. */
const countsOf = (rows: Iterable<Row>) => {
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
  return Promise.resolve(counts);
};

/** An index over `table`: its loader answers as the SQL does (rows of the statuses asked only), within `budget` bytes. */
function harness(rows: Row[], budget = Number.POSITIVE_INFINITY) {
  const table = new Map(rows.map((r) => [r.id, r]));
  let reads = 0;
  const index = new ListIndex(
    async (ids, statuses) => {
      reads++;
      const found = ids ? ids.flatMap((id) => (table.has(id) ? [table.get(id)!] : [])) : [...table.values()];
      return found.filter((r) => statuses.includes(r.status));
    },
    jsFolding,
    () => countsOf(table.values()),
    () => budget,
  );
  index.subscriber.listening?.(false);
  const changed = (id: string, kind: MarketEvent["kind"] = "price") => index.event({ kind, marketId: id, slug: null, outcomeId: null });
  return { table, index, changed, reads: () => reads };
}

const KEYS = {
  VOLUME: (r: Row) => fixedWidth(r.volume),
  LIQUIDITY: (r: Row) => fixedWidth(r.liquidity),
  CREATED: (r: Row) => r.created,
  ENDING: (r: Row) => r.ends,
};

/** What PostgreSQL's ORDER BY key dir, id dir LIMIT/OFFSET returns. */
function expected(table: Map<string, Row>, q: MarketListQuery) {
  const key = KEYS[q.sortBy as keyof typeof KEYS];
  const all = [...table.values()]
    .filter((r) => r.status === q.status && (!q.category || r.category === q.category) && (!q.q || ilike(r, q.q)))
    .sort((a, b) => {
      const x = key(a);
      const y = key(b);
      const c = x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
      return q.sortOrder === "ASC" ? c : -c;
    });
  return { ids: all.slice(q.offset, q.offset + q.limit).map((r) => r.id), total: all.length };
}

/** Every list of a kept status as the ORDER BY answers it; every list of another status null (SQL answers it). */
async function expectAllSlicesMatch(index: ListIndex, table: Map<string, Row>, kept: readonly string[] = STATUSES, statuses: readonly string[] = STATUSES) {
  for (const status of statuses)
    for (const category of [undefined, ...CATEGORIES])
      for (const sortBy of ["VOLUME", "LIQUIDITY", "CREATED", "ENDING"] as const)
        for (const sortOrder of ["ASC", "DESC"] as const)
          for (const offset of [0, 7, 40, 1000]) {
            const q = { status, category, sortBy, sortOrder, limit: 9, offset } as MarketListQuery;
            const got = await index.slice(q);
            if (!kept.includes(status)) {
              expect(got, JSON.stringify(q)).toBeNull();
              continue;
            }
            expect(got, JSON.stringify(q)).not.toBeNull();
            expect({ ids: got!.markets.map((m) => m.id), total: got!.total }, JSON.stringify(q)).toEqual(expected(table, q));
          }
}

async function built(index: ListIndex) {
  const q = { status: "ACTIVE", sortBy: "VOLUME", sortOrder: "DESC", limit: 1, offset: 0 } as MarketListQuery;
  await expect.poll(() => index.slice(q)).not.toBeNull();
}

describe("ListIndex", () => {
  it("fixedWidth orders numeric(30,6) text as numbers", () => {
    const values = ["0.000000", "9.999999", "10.000000", "123456789012345678.000001", "123456789012345678.000002"];
    const sorted = [...values].sort((a, b) => (fixedWidth(a) < fixedWidth(b) ? -1 : 1));
    expect(sorted).toEqual(values);
  });

  it("answers null until built, then every slice exactly as the ORDER BY would", async () => {
    const { index, table } = harness(Array.from({ length: 300 }, () => row()));
    const q = { status: "ACTIVE", sortBy: "VOLUME", sortOrder: "DESC", limit: 5, offset: 0 } as MarketListQuery;
    expect(await index.slice(q)).toBeNull(); // the first call starts the build
    await built(index);
    await expectAllSlicesMatch(index, table);
  });

  it("single changes move, add and remove markets in place; each slice reads the changed markets first", async () => {
    const { index, table, changed, reads } = harness(Array.from({ length: 300 }, () => row()));
    await built(index);
    for (let i = 0; i < 60; i++) {
      const ids = [...table.keys()];
      const id = pick(ids);
      const op = random();
      if (op < 0.2) table.delete(id);
      else if (op < 0.4) {
        const fresh = row();
        table.set(fresh.id, fresh);
        changed(fresh.id, "list");
        continue;
      } else table.set(id, { ...row(id), slug: table.get(id)!.slug });
      changed(id);
      const before = reads();
      await expectAllSlicesMatch(index, table);
      expect(reads()).toBe(before + 1); // one read of the changed market, then memory
    }
  }, 30_000); // 60 rounds of every slice of every order: ~4 s on a machine at rest

  it("a market that moves in its liquidity or volume orders leaves its created and ending orders untouched, in place or in a burst", async () => {
    const { index, table, changed } = harness(Array.from({ length: 600 }, () => row()));
    await built(index);
    const orders = (index as unknown as { orders: Map<string, { toArray(): { id: string }[] }> }).orders;
    const of = (sort: string) =>
      new Map([...orders].filter(([k]) => k.endsWith(`|${sort}`)).map(([k, list]) => [k, { list, ids: list.toArray().map((m) => m.id) }]));
    // 400 moves at once (one pass per order edited), then 5 (edits in place), then a category change.
    for (const n of [400, 5]) {
      const before = { CREATED: of("CREATED"), ENDING: of("ENDING") };
      for (const id of [...table.keys()].slice(0, n)) {
        const r = table.get(id)!;
        table.set(id, { ...r, liquidity: decimal(), volume: n === 5 ? decimal() : r.volume });
        changed(id);
      }
      await expectAllSlicesMatch(index, table);
      for (const was of Object.values(before))
        for (const [key, { list, ids }] of was) {
          expect(orders.get(key), `${key}: the same array`).toBe(list);
          expect(
            list.toArray().map((m) => m.id),
            `${key}: in the same order`,
          ).toEqual(ids);
        }
    }
    const [id] = table.keys();
    table.set(id, { ...table.get(id)!, category: CATEGORIES.find((c) => c !== table.get(id)!.category)! });
    changed(id);
    await expectAllSlicesMatch(index, table);
  }, 30_000);

  it("a burst of changes sorts again and matches", async () => {
    const { index, table, changed } = harness(Array.from({ length: 500 }, () => row()));
    await built(index);
    for (const id of [...table.keys()].slice(0, 400)) {
      table.set(id, { ...row(id), slug: table.get(id)!.slug });
      changed(id);
    }
    await expectAllSlicesMatch(index, table);
  });

  it("a change that names no market, or a lost stream, stops the slices until rebuilt", async () => {
    const { index, table } = harness(Array.from({ length: 50 }, () => row()));
    await built(index);
    const q = { status: "ACTIVE", sortBy: "CREATED", sortOrder: "ASC", limit: 5, offset: 0 } as MarketListQuery;
    const extra = row();
    table.set(extra.id, extra);
    index.event({ kind: "list", slug: null, marketId: null, outcomeId: null });
    expect(await index.slice(q)).toBeNull();
    await built(index);
    await expectAllSlicesMatch(index, table);
    index.subscriber.lost?.();
    expect(await index.slice(q)).toBeNull();
    await new Promise((r) => setTimeout(r, 20));
    expect(await index.slice(q)).toBeNull(); // not while the stream is away
    index.subscriber.listening?.(true);
    await built(index);
    await expectAllSlicesMatch(index, table);
  });

  it("a slice asked while another's read of the changed markets is under way waits for that read", async () => {
    const rows = Array.from({ length: 30 }, () => row());
    const table = new Map(rows.map((r) => [r.id, r]));
    const index = new ListIndex(
      async (ids) => {
        if (ids) await new Promise((r) => setTimeout(r, 30)); // the re-read of changed markets takes a while
        return ids ? ids.flatMap((id) => (table.has(id) ? [table.get(id)!] : [])) : [...table.values()];
      },
      jsFolding,
      () => countsOf(table.values()),
    );
    index.subscriber.listening?.(false);
    await built(index);
    const fresh = { ...row(), status: "ACTIVE", volume: "200000000000000000.000000", question: "Brand new BTC market" };
    table.set(fresh.id, fresh);
    index.event({ kind: "list", marketId: fresh.id, slug: null, outcomeId: null });
    const q = { status: "ACTIVE", sortBy: "VOLUME", sortOrder: "DESC", limit: 1, offset: 0 } as MarketListQuery;
    // The first starts the read; the second, a moment later, finds no market marked changed but must not answer before it.
    const first = index.slice(q);
    await new Promise((r) => setTimeout(r, 5));
    const [a, b, c] = await Promise.all([first, index.slice(q), index.slice({ ...q, q: "brand new" })]);
    for (const got of [a, b, c]) expect(got?.markets[0]?.id).toBe(fresh.id);
  });

  it("under a stream of changes that never pauses, a slice waits for the changes heard before it, not for those after", async () => {
    const rows = Array.from({ length: 50 }, () => ({ ...row(), status: "ACTIVE" }));
    const table = new Map(rows.map((r) => [r.id, r]));
    let rereads = 0;
    const index = new ListIndex(
      async (ids) => {
        if (!ids) return [...table.values()];
        rereads++;
        await new Promise((r) => setTimeout(r, 20)); // each re-read of the changed markets takes a while
        return ids.flatMap((id) => (table.has(id) ? [table.get(id)!] : []));
      },
      jsFolding,
      () => countsOf(table.values()),
    );
    index.subscriber.listening?.(false);
    await built(index);
    // A venue's stream: some market's volume changes every 2 ms, for as long as the test runs.
    let n = 0;
    const stream = setInterval(() => {
      const r = rows[n++ % rows.length];
      table.set(r.id, { ...r, volume: `${1000 + n}.000000` });
      index.event({ kind: "trade", marketId: r.id, slug: null, outcomeId: null });
    }, 2);
    try {
      await new Promise((r) => setTimeout(r, 30));
      const top = rows[7];
      table.set(top.id, { ...top, volume: "900000000000000000.000000" });
      index.event({ kind: "trade", marketId: top.id, slug: null, outcomeId: null });
      const before = rereads;
      const q = { status: "ACTIVE", sortBy: "VOLUME", sortOrder: "DESC", limit: 1, offset: 0 } as MarketListQuery;
      const got = await Promise.race([index.slice(q), new Promise<"waiting">((r) => setTimeout(() => r("waiting"), 2_000))]);
      expect(got).not.toBe("waiting");
      expect((got as ListSlice).markets[0].id).toBe(top.id);
      // The read under way when it was asked (which may have missed its change), then one that holds it.
      expect(rereads - before).toBeLessThanOrEqual(2);
    } finally {
      clearInterval(stream);
    }
  });

  it("a failed read of changed markets rejects the slice and keeps them dirty", async () => {
    const rows = Array.from({ length: 20 }, () => row());
    let fail = false;
    const table = new Map(rows.map((r) => [r.id, r]));
    const index = new ListIndex(
      async (ids) => {
        if (fail) throw new Error("database away");
        return ids ? ids.flatMap((id) => (table.has(id) ? [table.get(id)!] : [])) : [...table.values()];
      },
      jsFolding,
      () => countsOf(table.values()),
    );
    index.subscriber.listening?.(false);
    await built(index);
    const id = rows[0].id;
    table.set(id, { ...row(id), slug: rows[0].slug, status: "ACTIVE", volume: "100000000000000000.000000" });
    index.event({ kind: "trade", marketId: id, slug: null, outcomeId: null });
    fail = true;
    const q = { status: "ACTIVE", sortBy: "VOLUME", sortOrder: "DESC", limit: 1, offset: 0 } as MarketListQuery;
    await expect(index.slice(q)).rejects.toThrow("database away");
    fail = false;
    expect((await index.slice(q))?.markets[0].id).toBe(expected(table, q).ids[0]);
  });

  it("covers stored-key sorts without sub-category, searches of plain ASCII among them", () => {
    const { index } = harness([]);
    const base = { status: "ACTIVE", sortBy: "VOLUME", sortOrder: "DESC", limit: 20, offset: 0 } as MarketListQuery;
    expect(index.covers(base)).toBe(true);
    expect(index.covers({ ...base, sortBy: "TRENDING" })).toBe(false);
    expect(index.covers({ ...base, subCategory: "" })).toBe(false);
    expect(index.covers({ ...base, q: "btc 50%_\\" })).toBe(true);
    expect(index.covers({ ...base, q: "a\u0000b" })).toBe(true); // NULs are stripped, as SQL does
    for (const q of ["café", "İ", "\u212A", "\u0001", "\u0002", "😀"]) expect(index.covers({ ...base, q }), q).toBe(false);
    expect(searchNeedle("BtC\u0000")).toBe("btc");
  });

  const SEARCHES = [
    "btc",
    "BTC",
    "i",
    "I",
    "k",
    "kelvin",
    "KELVIN",
    "istanbul",
    "caf",
    "50%",
    "a_b",
    "_",
    "%",
    "\\",
    "x\\y",
    "l i",
    "l\nb",
    "\t",
    "zz",
    "\u0000",
    "c\u0000af",
  ];

  it("searches answer what ILIKE answers (K and İ fold to ASCII; other letters never match an ASCII needle), every page and total", async () => {
    const { index, table } = harness(Array.from({ length: 300 }, () => row()));
    await built(index);
    for (const q of SEARCHES)
      for (const status of STATUSES)
        for (const category of [undefined, ...CATEGORIES])
          for (const sortBy of ["VOLUME", "CREATED"] as const)
            for (const sortOrder of ["ASC", "DESC"] as const)
              for (const offset of [0, 5]) {
                const query = { status, category, q, sortBy, sortOrder, limit: 7, offset } as MarketListQuery;
                const got = await index.slice(query);
                expect(got, JSON.stringify(query)).not.toBeNull();
                expect({ ids: got!.markets.map((m) => m.id), total: got!.total }, JSON.stringify(query)).toEqual(expected(table, query));
              }
    expect(index.stats.searchScans).toBeLessThan(index.stats.searches); // later pages of a search reuse its scan
  });

  it("a search sees every change: renamed into and out of its matches, moved, removed", async () => {
    const { index, table, changed } = harness(Array.from({ length: 200 }, () => row()));
    await built(index);
    const query = (q: string) => ({ status: "ACTIVE", q, sortBy: "VOLUME", sortOrder: "DESC", limit: 50, offset: 0 }) as MarketListQuery;
    const check = async () => {
      for (const q of ["needle", "btc", "kelvin"])
        expect(await index.slice(query(q)).then((s) => ({ ids: s!.markets.map((m) => m.id), total: s!.total }))).toEqual(expected(table, query(q)));
    };
    await check();
    for (let i = 0; i < 40; i++) {
      const id = pick([...table.keys()]);
      const r = table.get(id)!;
      const op = random();
      if (op < 0.4) table.set(id, { ...r, status: "ACTIVE", question: pick(["A NEEDLE here", "no match", "\u212Aelvin"]) });
      else if (op < 0.6) table.set(id, { ...r, description: pick(["needle", "BTC", ""]) });
      else if (op < 0.8) table.set(id, { ...r, volume: decimal() });
      else table.delete(id);
      changed(id);
      await check();
    }
  });

  it("markets that only move (keys, category) keep the searches' matches, in place or sorted again; a text or status change scans again", async () => {
    const { index, table, changed } = harness(Array.from({ length: 300 }, () => row()));
    await built(index);
    const check = async () => {
      for (const q of ["btc", "kelvin", "b", "caf"])
        for (const category of [undefined, ...CATEGORIES])
          for (const sortBy of ["VOLUME", "LIQUIDITY", "ENDING"] as const)
            for (const sortOrder of ["ASC", "DESC"] as const) {
              const query = { status: "ACTIVE", category, q, sortBy, sortOrder, limit: 12, offset: 3 } as MarketListQuery;
              const got = await index.slice(query);
              expect({ ids: got!.markets.map((m) => m.id), total: got!.total }, JSON.stringify(query)).toEqual(expected(table, query));
            }
    };
    await check();
    const scans = index.stats.searchScans;
    const move = (id: string) => {
      const r = table.get(id)!;
      table.set(id, { ...r, volume: decimal(), liquidity: decimal(), ends: r.ends + 1, category: pick(CATEGORIES) });
      changed(id);
    };
    // One at a time (edited in place), then a burst above RESORT_AT (sorted again), matches among them.
    for (let i = 0; i < 30; i++) {
      move(pick([...table.values()].filter((r) => r.status === "ACTIVE" && ilike(r, "b")).map((r) => r.id)));
      await check();
    }
    for (const id of [...table.keys()].slice(0, 280)) move(id);
    await check();
    expect(index.stats.searchScans).toBe(scans);
    // A market renamed into a needle's matches, then one that changes status: the matches are read again.
    const renamed = [...table.values()].find((r) => r.status === "ACTIVE" && !ilike(r, "kelvin"))!;
    table.set(renamed.id, { ...renamed, question: "Kelvin now" });
    changed(renamed.id);
    await check();
    expect(index.stats.searchScans).toBeGreaterThan(scans);
    const resolved = [...table.values()].find((r) => r.status === "ACTIVE" && ilike(r, "btc") && r.id !== renamed.id)!;
    table.set(resolved.id, { ...resolved, status: "RESOLVED" });
    changed(resolved.id);
    await check();
    expect(expected(table, { status: "ACTIVE", q: "kelvin", sortBy: "VOLUME", sortOrder: "DESC", limit: 300, offset: 0 } as MarketListQuery).ids).toContain(
      renamed.id,
    );
  });

  it("a search typed on starts from the matches kept of its shorter needle, and a change in between is seen", async () => {
    const { index, table, changed } = harness(Array.from({ length: 300 }, () => row()));
    await built(index);
    const query = (q: string, sortBy: "VOLUME" | "ENDING" = "VOLUME") =>
      ({ status: "ACTIVE", q, sortBy, sortOrder: "DESC", limit: 100, offset: 0 }) as MarketListQuery;
    const same = async (q: MarketListQuery) =>
      expect(await index.slice(q).then((s) => ({ ids: s!.markets.map((m) => m.id), total: s!.total })), JSON.stringify(q)).toEqual(expected(table, q));
    for (const q of ["b", "bt", "btc", "btc ", "kel"]) await same(query(q));
    const id = [...table.values()].find((r) => r.status === "ACTIVE" && !ilike(r, "btc"))!.id;
    table.set(id, { ...table.get(id)!, question: "now BTC too", description: "" });
    changed(id);
    for (const q of ["btc", "b", "bt", "btc", "tc"]) for (const sortBy of ["VOLUME", "ENDING"] as const) await same(query(q, sortBy));
    expect(expected(table, query("btc")).ids).toContain(id);
  });

  it("a database that folds ASCII otherwise (Turkish I) leaves searches to SQL, the other lists still from memory", async () => {
    const turkish = (s: string) => s.replace(/I/g, "ı").toLowerCase();
    expect(foldingOf(turkish(FOLD_TEST.ASCII), FOLD_TEST.CANDIDATES.map(turkish))).toBeNull();
    const rows = Array.from({ length: 20 }, () => row());
    const index = new ListIndex(
      async (ids) => (ids ? rows.filter((r) => ids.includes(r.id)) : rows),
      async () => foldingOf(turkish(FOLD_TEST.ASCII), FOLD_TEST.CANDIDATES.map(turkish)),
      () => countsOf(rows),
    );
    index.subscriber.listening?.(false);
    await built(index);
    const q = { status: "ACTIVE", sortBy: "VOLUME", sortOrder: "DESC", limit: 5, offset: 0 } as MarketListQuery;
    expect(await index.slice({ ...q, q: "btc" })).toBeNull();
    expect(await index.slice(q)).not.toBeNull();
  });

  it("a folding keeps text ASCII: a placeholder for what no ASCII needle matches, a separator no match spans", () => {
    const folding = foldingOf(jsLower(FOLD_TEST.ASCII), FOLD_TEST.CANDIDATES.map(jsLower))!;
    expect(folding.text("İSTANBUL Café \u212A", "50% ÜBER")).toBe(
      `i${FOLD_TEST.OTHER}stanbul caf${FOLD_TEST.OTHER} k${FOLD_TEST.BETWEEN}50% ${FOLD_TEST.OTHER}ber`,
    );
    expect(folding.text("ab", "cd").includes("bc")).toBe(false);
  });
  it("a budget keeps ACTIVE always, then the other listed statuses smallest first while they fit; PENDING and LOCKED never", () => {
    const counts = new Map([
      ["ACTIVE", 50],
      ["RESOLVED", 230],
      ["CANCELLED", 22],
      ["LOCKED", 57],
      ["PENDING", 1],
    ]);
    const cases: [budget: number, kept: string[]][] = [
      [0, ["ACTIVE"]], // ACTIVE even past the budget
      [50, ["ACTIVE"]],
      [71, ["ACTIVE"]],
      [72, ["ACTIVE", "CANCELLED"]],
      [301, ["ACTIVE", "CANCELLED"]],
      [302, ["ACTIVE", "CANCELLED", "RESOLVED"]],
      [Number.POSITIVE_INFINITY, ["ACTIVE", "CANCELLED", "RESOLVED"]],
    ];
    for (const [budget, kept] of cases) expect(keptStatuses(counts, budget, 1), String(budget)).toEqual(kept);
    // A status with no markets costs nothing.
    expect(keptStatuses(new Map([["RESOLVED", 5]]), 4, 1)).toEqual(["ACTIVE", "CANCELLED"]);
    expect(keptStatuses(new Map([["RESOLVED", 5]]), 5, 1)).toEqual(["ACTIVE", "CANCELLED", "RESOLVED"]);
  });

  /** Markets of every status, a fifth of each (ids of their own: the generator's may repeat). */
  let made = 0;
  const mixed = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      ...row(`${hex(8)}-0000-4000-8000-${(made++).toString(16).padStart(12, "0")}`),
      status: ["ACTIVE", "RESOLVED", "CANCELLED", "LOCKED", "PENDING"][i % 5],
    }));
  const ALL = ["ACTIVE", "RESOLVED", "CANCELLED", "LOCKED", "PENDING"];

  it("a small budget keeps ACTIVE only: its lists and searches from memory, exact; every other status's slice is null (SQL answers it)", async () => {
    const { index, table } = harness(mixed(400), 0);
    await built(index);
    expect(index.size).toMatchObject({ kept: ["ACTIVE"], markets: 80, statuses: { ACTIVE: 80, RESOLVED: 80, CANCELLED: 80 } });
    const q = { status: "RESOLVED", sortBy: "VOLUME", sortOrder: "DESC", limit: 5, offset: 0 } as MarketListQuery;
    expect(index.covers(q)).toBe(false);
    expect(index.covers({ ...q, status: "ACTIVE" })).toBe(true);
    expect(index.staleSlice(q, 1000)).toBeNull();
    await expectAllSlicesMatch(index, table, ["ACTIVE"], ALL);
    for (const needle of ["btc", "kelvin", "i", "caf"]) {
      const search = { status: "ACTIVE", q: needle, sortBy: "CREATED", sortOrder: "ASC", limit: 100, offset: 0 } as MarketListQuery;
      const got = await index.slice(search);
      expect({ ids: got!.markets.map((m) => m.id), total: got!.total }, needle).toEqual(expected(table, search));
      expect(await index.slice({ ...search, status: "RESOLVED" })).toBeNull();
    }
  });

  it("within a small budget, a market moving ACTIVE→RESOLVED leaves the orders and one moving RESOLVED→ACTIVE arrives, searches included", async () => {
    const { index, table, changed } = harness(mixed(400), 0);
    await built(index);
    const search = (needle: string) => ({ status: "ACTIVE", q: needle, sortBy: "VOLUME", sortOrder: "DESC", limit: 200, offset: 0 }) as MarketListQuery;
    const same = async () => {
      for (const needle of ["btc", "kelvin"]) {
        const got = await index.slice(search(needle));
        expect({ ids: got!.markets.map((m) => m.id), total: got!.total }, needle).toEqual(expected(table, search(needle)));
      }
      await expectAllSlicesMatch(index, table, ["ACTIVE"], ALL);
    };
    await same();
    const leaving = [...table.values()].find((r) => r.status === "ACTIVE" && ilike(r, "btc"))!;
    table.set(leaving.id, { ...leaving, status: "RESOLVED" });
    changed(leaving.id);
    await same();
    expect(index.size.markets).toBe(79);
    const arriving = [...table.values()].find((r) => r.status === "RESOLVED" && r.id !== leaving.id)!;
    table.set(arriving.id, { ...arriving, status: "ACTIVE", question: "Back to BTC" });
    changed(arriving.id);
    await same();
    expect(index.size.markets).toBe(80);
    // A market of a status not kept changes and stays out: read, nothing moves, the searches' matches hold.
    const scans = index.stats.searchScans;
    for (const status of ["LOCKED", "RESOLVED"]) {
      const out = [...table.values()].find((r) => r.status === status)!;
      table.set(out.id, { ...out, volume: decimal(), question: "BTC kelvin" });
      changed(out.id);
    }
    await same();
    expect(index.stats.searchScans).toBe(scans);
    // Many at once (sorted again): a third of ACTIVE leaves, as many arrive.
    const active = [...table.values()].filter((r) => r.status === "ACTIVE");
    const resolved = [...table.values()].filter((r) => r.status === "RESOLVED");
    for (const r of active.slice(0, 30)) table.set(r.id, { ...r, status: "CANCELLED" });
    for (const r of resolved.slice(0, 300)) table.set(r.id, { ...r, status: "ACTIVE" });
    for (const r of [...active.slice(0, 30), ...resolved.slice(0, 300)]) changed(r.id);
    await same();
  });

  it("a rebuild weighs the statuses again: one grown past the budget goes to SQL, the others stay", async () => {
    // 20 of each status; the budget fits the 60 listed at the first build's estimate (~970 bytes a market), not 240.
    const { index, table } = harness(mixed(100), 60 * 1040);
    await built(index);
    expect(index.size.kept).toEqual(["ACTIVE", "CANCELLED", "RESOLVED"]);
    await expectAllSlicesMatch(index, table, ["ACTIVE", "CANCELLED", "RESOLVED"], ALL);
    for (const r of mixed(1000)) if (r.status === "RESOLVED") table.set(r.id, r);
    index.event({ kind: "list", slug: null, marketId: null, outcomeId: null }); // inserted in bulk: rebuilt
    await built(index);
    expect(index.size.kept).toEqual(["ACTIVE", "CANCELLED"]);
    await expectAllSlicesMatch(index, table, ["ACTIVE", "CANCELLED"], ALL);
  });
});
