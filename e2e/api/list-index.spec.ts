// Lists from the in-memory orders (lib/markets/list-index.ts) and shared items (lib/markets/reads/lists/):
// a market's item is one cache entry shown by many cached pages. Once an instance has heard of a change
// to the market (its push signal went out), every page that holds it shows the change, on both
// instances, also when the change moves the market in an order, and under a burst of changes while
// readers keep loads in flight.
import type { Socket } from "socket.io-client";
import { expect, test, testRun } from "../fixtures";
import { collect, connectClient, join, waitFor, type Received } from "../realtime-helpers";
import { startInstance, type Instance } from "../support/instance";
import { makeMarket, type TestMarket } from "../support/markets";

test.describe.configure({ mode: "serial", timeout: 240_000 });

let other: Instance;
const bases = () => [testRun().baseURL, other.baseURL];

test.beforeAll(async () => {
  test.setTimeout(200_000);
  other = await startInstance({ DATABASE_URL: testRun().databaseUrl, LOG_REQUESTS: "0", RATE_LIMIT: "off" });
});
test.afterAll(async ({ sql }) => {
  await other?.stop();
  // Out of every list again: their keys lead all orders, and other specs take "the top active market" as one with trades.
  await sql`UPDATE markets SET status = 'LOCKED' WHERE slug LIKE 'list-index-%'`;
});

interface Item {
  id: string;
  question: string;
  total_volume: number;
}

async function page(url: string) {
  const res = await fetch(url);
  expect(res.status, url).toBe(200);
  return { cache: res.headers.get("x-cache"), body: (await res.json()) as { markets: Item[]; total: number } };
}

const SORTS = ["VOLUME", "LIQUIDITY", "CREATED", "ENDING"] as const;

/**
 * Every descending list on both instances where the test's markets lead (their keys are beyond any
 * other market's): with and without the category, two page sizes, offsets 0 and 1: 64 cached pages.
 */
const pageUrls = () =>
  bases().flatMap((b) =>
    SORTS.flatMap((sortBy) =>
      ["&category=SCIENCE", ""].flatMap((category) =>
        [
          [5, 0],
          [10, 0],
          [5, 1],
          [10, 1],
        ].map(([limit, offset]) => ({
          url: `${b}/v1/markets?status=ACTIVE${category}&sortBy=${sortBy}&sortOrder=DESC&limit=${limit}&offset=${offset}`,
          sortBy,
          offset,
        })),
      ),
    ),
  );

/** Three markets that lead every descending order, in the order a, b, c (keys in a far future, volumes beyond any). */
async function leaders(sql: Parameters<typeof makeMarket>[0], tag: string): Promise<TestMarket[]> {
  const out: TestMarket[] = [];
  for (const [i, rank] of [3, 2, 1].entries()) {
    out.push(
      await makeMarket(sql, {
        prefix: `list-index-${tag}-${i}`,
        status: "ACTIVE",
        category: "SCIENCE",
        totalVolume: `9${rank}00000000000000000.000000`,
        createdAt: new Date(Date.UTC(2190 + rank, 0, 1)),
        startsAt: new Date(Date.UTC(2190, 0, 1)),
        endsAt: new Date(Date.UTC(2290 + rank, 0, 1)),
        columns: { total_liquidity: `9${rank}00000000000000000.000000` },
      }),
    );
  }
  return out;
}

/** The price channel of each market on both instances: every change below sends one signal there. */
async function watch(markets: TestMarket[]) {
  const sockets: Socket[] = [];
  const got: Received[][] = [];
  for (const base of bases()) {
    const s = await connectClient(base);
    for (const m of markets) expect(await join(s, `market:${m.slug}:price`)).toEqual({ ok: true });
    sockets.push(s);
    got.push(collect(s));
  }
  return {
    /** Runs `change`, then waits until both instances signalled after it. */
    heard: async (change: () => Promise<unknown>, what: string) => {
      const before = got.map((g) => g.length);
      await change();
      await waitFor(() => got.every((g, n) => g.length > before[n]), 15_000, `the signal of ${what} on both instances`);
    },
    close: () => {
      for (const s of sockets) s.close();
    },
  };
}

test("list index – one market's change reaches every cached page that shows it, on both instances, moved where it now sorts", async ({ sql }) => {
  const [a, b, c] = await leaders(sql, "shared");
  const urls = pageUrls();
  // Cache every page (asked until memory answers: other specs' writes drop lists meanwhile).
  for (const { url } of urls) {
    await expect
      .poll(async () => {
        await page(url);
        return (await page(url)).cache;
      })
      .toBe("HIT");
  }
  for (const { url, offset } of urls) expect((await page(url)).body.markets.slice(0, 3 - offset).map((m) => m.id)).toEqual([a.id, b.id, c.id].slice(offset));

  const { heard, close } = await watch([a, b, c]);
  try {
    // A field every page shows: b's question.
    await heard(() => sql`UPDATE markets SET question = 'Renamed by the list-index test?' WHERE id = ${b.id}`, "b's rename");
    for (const { url } of urls) {
      const shown = (await page(url)).body.markets.find((m) => m.id === b.id);
      expect(shown?.question, url).toBe("Renamed by the list-index test?");
    }
    // A sort key: c's volume passes a's, so c now leads the volume lists and stays last of three in the others.
    await heard(() => sql`UPDATE markets SET total_volume = '99900000000000000000.000000' WHERE id = ${c.id}`, "c's volume");
    for (const { url, sortBy, offset } of urls) {
      const { markets } = (await page(url)).body;
      const order = sortBy === "VOLUME" ? [c.id, a.id, b.id] : [a.id, b.id, c.id];
      expect(
        markets.slice(0, 3 - offset).map((m) => m.id),
        url,
      ).toEqual(order.slice(offset));
      if (order.indexOf(c.id) >= offset) expect(markets.find((m) => m.id === c.id)?.total_volume, url).toBe(99900000000000000000);
    }
    // Out of the lists (LOCKED is never listed) and back.
    await heard(() => sql`UPDATE markets SET status = 'LOCKED' WHERE id = ${a.id}`, "a locked");
    for (const { url } of urls)
      expect(
        (await page(url)).body.markets.map((m) => m.id),
        url,
      ).not.toContain(a.id);
    await heard(() => sql`UPDATE markets SET status = 'ACTIVE' WHERE id = ${a.id}`, "a active again");
    for (const { url, offset } of urls)
      if (offset === 0)
        expect(
          (await page(url)).body.markets.map((m) => m.id),
          url,
        ).toContain(a.id);
  } finally {
    close();
  }
});

test("list index – a burst of changes to a shared item under concurrent readers: after each signal every page shows it, on both instances", async ({ sql }) => {
  const [a] = await leaders(sql, "burst");
  const urls = pageUrls().filter((u) => u.offset === 0);
  // A reader on every fourth page (8 in all, both instances): enough loads in flight without starving the writes' signals.
  let running = true;
  const seen: number[][] = [];
  // Sequential readers on every page keep loads in flight across the writes; each notes the revision it saw.
  const readers = urls
    .filter((_, i) => i % 4 === 0)
    .map(async ({ url }) => {
      const mine: number[] = [];
      seen.push(mine);
      while (running) {
        const res = await fetch(url).catch(() => null);
        if (res?.status !== 200) continue;
        const item = ((await res.json()) as { markets: Item[] }).markets.find((m) => m.id === a.id);
        const rev = Number(/rev (\d+)/.exec(item?.question ?? "")?.[1] ?? 0);
        mine.push(rev);
      }
    });
  const { heard, close } = await watch([a]);
  try {
    for (let i = 1; i <= 12; i++) {
      await heard(() => sql`UPDATE markets SET question = ${`Burst rev ${i}?`} WHERE id = ${a.id}`, `revision ${i}`);
      for (const { url } of urls) {
        const shown = (await page(url)).body.markets.find((m) => m.id === a.id);
        expect(shown?.question, `${url} after revision ${i}`).toBe(`Burst rev ${i}?`);
      }
    }
  } finally {
    close();
    running = false;
    await Promise.all(readers);
  }
  // No reader saw a revision older than one it had already seen.
  for (const seq of seen) for (let k = 1; k < seq.length; k++) expect(seq[k]).toBeGreaterThanOrEqual(seq[k - 1]);
  expect(seen.flat().length).toBeGreaterThan(50);
});

test("list index – pages from memory match PostgreSQL's ORDER BY for every sort, direction and category", async ({ sql }) => {
  // The test's own status/category slice is shared with other specs: compare within one quiet moment,
  // retrying when a concurrent write lands between the two reads.
  const combos = ["SCIENCE", "OTHER", undefined].flatMap((category) =>
    SORTS.flatMap((sortBy) => (["ASC", "DESC"] as const).map((sortOrder) => ({ category, sortBy, sortOrder }))),
  );
  const column = { VOLUME: "total_volume", LIQUIDITY: "total_liquidity", CREATED: "created_at", ENDING: "trading_ends_at" } as const;
  for (const { category, sortBy, sortOrder } of combos) {
    for (const offset of [0, 3, 17]) {
      const url = `${testRun().baseURL}/v1/markets?status=ACTIVE${category ? `&category=${category}` : ""}&sortBy=${sortBy}&sortOrder=${sortOrder}&limit=7&offset=${offset}`;
      await expect
        .poll(
          async () => {
            const got = (await page(url)).body;
            const dir = sql.unsafe(sortOrder);
            const rows = await sql<{ id: string }[]>`
            SELECT id FROM markets WHERE status = 'ACTIVE' ${category ? sql`AND category = ${category}` : sql``}
             ORDER BY ${sql(column[sortBy])} ${dir}, id ${dir} LIMIT 7 OFFSET ${offset}`;
            const [{ n }] = await sql<
              { n: number }[]
            >`SELECT count(*)::int AS n FROM markets WHERE status = 'ACTIVE' ${category ? sql`AND category = ${category}` : sql``}`;
            return JSON.stringify({ ids: got.markets.map((m) => m.id), total: got.total }) === JSON.stringify({ ids: rows.map((r) => r.id), total: n });
          },
          { message: url, timeout: 10_000 },
        )
        .toBe(true);
    }
  }
});

/** How many searches this instance's list index answered (GET /api/stats). */
const searchesAnswered = async (base: string) => ((await (await fetch(`${base}/api/stats`)).json()) as { listIndex: { searches: number } }).listIndex.searches;

test("list index – searches from memory answer what PostgreSQL's ILIKE answers, K and İ, wildcards and line breaks included", async ({ sql }) => {
  const tag = `srch${Date.now().toString(36)}`;
  const texts = [
    [`${tag} İstanbul talks?`, "Plain description."],
    [`${tag} 5 \u212Aelvin?`, "About kelvin and KELVIN."],
    [`${tag} Café?`, "50% of a_b with x\\y"],
    [`${tag} ÜBER?`, "Ωmega 😀 tab\there"],
    [`${tag.toUpperCase()} SHOUT?`, "line\nbreak"],
  ];
  for (const [question, description] of texts)
    await makeMarket(sql, { prefix: "list-index-search", status: "ACTIVE", category: "SCIENCE", question, description });
  const searches = [tag, `${tag} i`, "istanbul", "kelvin", "elvin", "caf", "50%", "a_b", "\\", "x\\y", "shout", "e\nb", "\t", "_", "%", "über", "\u212A"];
  const column = { VOLUME: "total_volume", CREATED: "created_at" } as const;
  const before = await searchesAnswered(testRun().baseURL);
  for (const q of searches)
    for (const category of ["SCIENCE", undefined])
      for (const [sortBy, sortOrder, limit, offset] of [
        ["CREATED", "DESC", 100, 0],
        ["VOLUME", "ASC", 5, 2],
      ] as const) {
        const url = `${testRun().baseURL}/v1/markets?status=ACTIVE${category ? `&category=${category}` : ""}&q=${encodeURIComponent(q)}&sortBy=${sortBy}&sortOrder=${sortOrder}&limit=${limit}&offset=${offset}`;
        const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        const where = sql`status = 'ACTIVE' ${category ? sql`AND category = ${category}` : sql``} AND (question ILIKE ${pattern} OR description ILIKE ${pattern})`;
        // Other specs write meanwhile: compared within one quiet moment.
        await expect
          .poll(
            async () => {
              const got = (await page(url)).body;
              const dir = sql.unsafe(sortOrder);
              const rows = await sql<
                { id: string }[]
              >`SELECT id FROM markets WHERE ${where} ORDER BY ${sql(column[sortBy])} ${dir}, id ${dir} LIMIT ${limit} OFFSET ${offset}`;
              const [{ n }] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM markets WHERE ${where}`;
              return JSON.stringify({ ids: got.markets.map((m) => m.id), total: got.total }) === JSON.stringify({ ids: rows.map((r) => r.id), total: n });
            },
            { message: `${url} (q ${JSON.stringify(q)})`, timeout: 10_000 },
          )
          .toBe(true);
      }
  // Memory answered them, all but the two of other than ASCII (those went to SQL).
  expect(await searchesAnswered(testRun().baseURL)).toBeGreaterThanOrEqual(before + (searches.length - 2) * 4);
});

test("list index – a market renamed into and out of a search is in its pages on both instances once each has signalled, through a burst", async ({ sql }) => {
  const tag = `seek${Date.now().toString(36)}`;
  const [m] = await leaders(sql, "search");
  const url = (base: string, q: string) => `${base}/v1/markets?status=ACTIVE&q=${encodeURIComponent(q)}&sortBy=VOLUME&sortOrder=DESC&limit=5`;
  const ids = async (base: string, q: string) => (await page(url(base, q))).body.markets.map((x) => x.id);
  // Both searches asked on both instances first: their scans are kept for the next request.
  for (const base of bases()) for (const q of [`${tag} even`, `${tag} odd`]) expect(await ids(base, q)).toEqual([]);
  const { heard, close } = await watch([m]);
  try {
    for (let i = 1; i <= 8; i++) {
      const word = i % 2 ? "odd" : "even";
      // In the description, upper case: the search is case-insensitive there too.
      await heard(() => sql`UPDATE markets SET description = ${`Now ${tag.toUpperCase()} ${word.toUpperCase()} (${i}).`} WHERE id = ${m.id}`, `rename ${i}`);
      for (const base of bases()) {
        expect(await ids(base, `${tag} ${word}`), `${base} after rename ${i}`).toEqual([m.id]);
        expect(await ids(base, `${tag} ${i % 2 ? "even" : "odd"}`), `${base} after rename ${i}`).toEqual([]);
      }
    }
  } finally {
    close();
  }
});

test("list index – a search's matches follow their volumes through a burst of trades, on both instances once each has signalled", async ({ sql }) => {
  const tag = `vols${Date.now().toString(36)}`;
  const markets: TestMarket[] = [];
  for (const [i, volume] of ["300.000000", "200.000000", "100.000000"].entries())
    markets.push(
      await makeMarket(sql, { prefix: `list-index-vols-${i}`, status: "ACTIVE", category: "SCIENCE", question: `${tag} market ${i}?`, totalVolume: volume }),
    );
  const url = (base: string, sortOrder: string) => `${base}/v1/markets?status=ACTIVE&q=${tag}&sortBy=VOLUME&sortOrder=${sortOrder}&limit=3&offset=0`;
  const byVolume = async (dir: "ASC" | "DESC") =>
    (await sql<{ id: string }[]>`SELECT id FROM markets WHERE question LIKE ${`${tag} %`} ORDER BY total_volume ${sql.unsafe(dir)}, id ${sql.unsafe(dir)}`).map(
      (r) => r.id,
    );
  for (const base of bases()) expect((await page(url(base, "DESC"))).body.markets.map((m) => m.id)).toEqual(markets.map((m) => m.id));
  const { heard, close } = await watch(markets);
  try {
    // Each step trades one market past the others (the writer adds the trade's volume, as the simulator does).
    for (let i = 0; i < 9; i++) {
      const m = markets[(i * 2) % 3];
      await heard(() => sql`UPDATE markets SET total_volume = total_volume + ${400 + i} WHERE id = ${m.id}`, `trade ${i}`);
      for (const base of bases())
        for (const dir of ["DESC", "ASC"] as const) {
          const { body } = await page(url(base, dir));
          expect({ ids: body.markets.map((x) => x.id), total: body.total }, `${base} ${dir} after trade ${i}`).toEqual({ ids: await byVolume(dir), total: 3 });
        }
    }
  } finally {
    close();
  }
});
