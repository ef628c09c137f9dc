// Retention of the book log (docs/deploy.md "The book log", docs/api.md "Past books"): dropping expired
// days that hold a book's history must leave every book within retention rebuildable, identical to what
// was served before the drop. One outcome gets 720 versions from real order statements (the triggers write
// the log), then its log rows are moved back onto past UTC days:
//
//   today-9: versions 1..150 (snapshot 1)      today-8: 151..330 (snapshot 201)     today-7: nothing
//   today-6: 331..520 (snapshot 401)           today-5: 521..720 (snapshot 601)
//
// book_log_maintain(6) (what the sweeper runs) must drop today-9..today-7 and carry the book as of the end
// of today-7 (version 330) forward to the start of today-6: without that, no snapshot precedes versions
// 331..400 and those moments would answer 404.
import type { APIRequestContext } from "@playwright/test";
import type postgres from "postgres";
import { expect, test } from "../fixtures";
import { addOrder, makeMarket, type TestMarket } from "../support/markets";
import { bookChecksum } from "@/lib/markets/book-checksum";
import { prng } from "@/lib/dev/tools";
import { applyChange, type BookSides } from "@/lib/markets/book-log";
import { bookChangesSchema, type OrderBook } from "@/lib/markets/schemas";

type Sql = postgres.Sql;

const DAY = 86_400_000_000n; // µs
const HOUR = 3_600_000_000n;
/** Unix µs → unix seconds with six decimals (the API's ts). */
const unix = (us: bigint) => `${us / 1_000_000n}.${(us % 1_000_000n).toString().padStart(6, "0")}`;
/** Unix µs → ISO 8601 with microseconds (what PostgreSQL reads exactly and the log prints). */
const iso = (us: bigint) => `${new Date(Number(us / 1000n)).toISOString().slice(0, 19)}.${(us % 1_000_000n).toString().padStart(6, "0")}Z`;

/** Versions per day, as days before today (UTC); an empty range is a day without changes. */
const PLAN: { daysAgo: number; first: number; last: number }[] = [
  { daysAgo: 9, first: 1, last: 150 },
  { daysAgo: 8, first: 151, last: 330 },
  { daysAgo: 7, first: 331, last: 330 },
  { daysAgo: 6, first: 331, last: 520 },
  { daysAgo: 5, first: 521, last: 720 },
];
const VERSIONS = 720;
const KEEP_DAYS = 6; // days before today - 6 go: today-9, -8, -7

/**
 * VERSIONS single-order statements on one outcome, each changing exactly one level (bids 0.300-0.449, asks
 * 0.551-0.700, whole shares: never crossed, never dust), so statement i makes version i. Returns the book
 * after each version, kept in JS from the statements alone.
 */
async function writeHistory(sql: Sql, m: TestMarket): Promise<BookSides[]> {
  const rnd = prng(2222);
  const depth = { BUY: new Map<number, number>(), SELL: new Map<number, number>() };
  const open: { id: string; side: "BUY" | "SELL"; price: number; shares: number }[] = [];
  const books: BookSides[] = [{ bids: [], asks: [] }];
  const level = ([p, s]: [number, number]) => ({ price: (p / 1000).toFixed(3), shares: s.toFixed(2) });
  await sql.begin(async (tx) => {
    for (let v = 1; v <= VERSIONS; v++) {
      if (open.length < 6 || rnd() < 0.6) {
        const side = rnd() < 0.5 ? "BUY" : "SELL";
        const price = side === "BUY" ? 300 + Math.floor(rnd() * 150) : 551 + Math.floor(rnd() * 150);
        const shares = 1 + Math.floor(rnd() * 50);
        const id = await addOrder(tx as unknown as Sql, m, { side, price: (price / 1000).toFixed(3), shares: shares.toFixed(2) });
        open.push({ id, side, price, shares });
        depth[side].set(price, (depth[side].get(price) ?? 0) + shares);
      } else {
        const [o] = open.splice(Math.floor(rnd() * open.length), 1);
        await tx`UPDATE orders SET status = 'CANCELLED' WHERE id = ${o.id}`;
        const left = depth[o.side].get(o.price)! - o.shares;
        if (left === 0) depth[o.side].delete(o.price);
        else depth[o.side].set(o.price, left);
      }
      books.push({
        bids: [...depth.BUY].sort((x, y) => y[0] - x[0]).map(level),
        asks: [...depth.SELL].sort((x, y) => x[0] - y[0]).map(level),
      });
    }
  });
  return books;
}

const children = async (sql: Sql, parent: string) =>
  (
    await sql<{ name: string }[]>`
      SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
       WHERE i.inhparent = ${parent}::regclass ORDER BY 1`
  ).map((r) => r.name);

/** One pass of the sweeper's statement (lib/markets/book-log-sweeper.ts sweepBookLog), retried on a lock wait given up. */
async function maintain(sql: Sql, keepDays: number) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await sql.begin(async (tx) => {
        const [r] = await tx<{ created: number; dropped: number; carried: number }[]>`
          SELECT created, dropped, carried FROM book_log_maintain(${keepDays})`;
        return r;
      });
    } catch (err) {
      if ((err as { code?: string }).code !== "55P03" || attempt >= 5) throw err;
    }
  }
}

/** What GET …/orderbook/at answered: everything a client sees of it. */
async function bookAt(request: APIRequestContext, url: string) {
  const res = await request.get(url);
  const h = res.headers();
  return {
    status: res.status(),
    body: await res.text(),
    version: h["book-version"],
    checksum: h["book-checksum"],
    versionTime: h["book-version-time"],
    cacheControl: h["cache-control"],
  };
}

test.describe("book log retention (book_log_maintain)", () => {
  test("dropping expired days that hold a book's history: kept moments rebuild identically, dropped ones are 404s", async ({ request, sql }) => {
    test.setTimeout(180_000);
    const m = await makeMarket(sql);
    const o = m.yes;
    const books = await writeHistory(sql, m);
    const [{ version: head }] = await sql<{ version: number }[]>`SELECT version::float8 AS version FROM book_heads WHERE outcome_id = ${o}`;
    expect(head).toBe(VERSIONS);

    // ---- Move the log onto past days: each version at a time of its day (01:00..23:00 UTC), in order.
    const [{ today }] = await sql<{ today: string }[]>`SELECT (now() AT TIME ZONE 'UTC')::date::text AS today`;
    const todayStart = BigInt(Date.parse(`${today}T00:00:00Z`)) * 1000n;
    const dayStart = (daysAgo: number) => todayStart - BigInt(daysAgo) * DAY;
    const dayDate = (daysAgo: number) => new Date(Number(dayStart(daysAgo) / 1000n)).toISOString().slice(0, 10);
    const dayName = (base: string, daysAgo: number) => `${base}_p${dayDate(daysAgo).replaceAll("-", "")}`;
    const timeOf: bigint[] = [];
    for (const d of PLAN) {
      const n = d.last - d.first + 1;
      if (n <= 0) continue;
      const step = (22n * HOUR) / BigInt(n);
      for (let v = d.first; v <= d.last; v++) timeOf[v] = dayStart(d.daysAgo) + HOUR + BigInt(v - d.first) * step + 7n;
    }
    for (const d of PLAN) await sql`SELECT book_log_create_day(${dayDate(d.daysAgo)}::date)`;
    const versions = Array.from({ length: VERSIONS }, (_, i) => i + 1);
    await sql.begin(async (tx) => {
      const moved = tx`SELECT * FROM unnest(${versions}::int[], ${versions.map((v) => iso(timeOf[v]))}::text[]) AS t (v, at)`;
      await tx`UPDATE book_changes c SET at = t.at::timestamptz FROM (${moved}) t WHERE c.outcome_id = ${o} AND c.version = t.v`;
      await tx`UPDATE book_snapshots s SET at = t.at::timestamptz, version_at = t.at::timestamptz FROM (${moved}) t
                WHERE s.outcome_id = ${o} AND s.version = t.v`;
      await tx`UPDATE book_heads SET changed_at = ${iso(timeOf[VERSIONS])}::text::timestamptz WHERE outcome_id = ${o}`;
    });
    /** The outcome's rows in each day's partition of a log table. */
    const perDay = async (base: string, days: number[]) =>
      Object.fromEntries(
        await Promise.all(
          days.map(async (d) => {
            const [{ n }] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM ${sql(dayName(base, d))} WHERE outcome_id = ${o}`;
            return [d, n];
          }),
        ),
      );
    // Every version in its day's partition; the triggers' snapshots where BOOK_SNAPSHOT_EVERY puts them.
    expect(await perDay("book_changes", [9, 8, 7, 6, 5])).toEqual({ 9: 150, 8: 180, 7: 0, 6: 190, 5: 200 });
    expect(await perDay("book_snapshots", [9, 8, 7, 6, 5])).toEqual({ 9: 1, 8: 1, 7: 0, 6: 1, 5: 1 });
    const snapshots = async () =>
      sql<{ version: number; at: string; version_at: string; levels: string }[]>`
        SELECT version::int, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at,
               to_char(version_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS version_at, levels
          FROM book_snapshots WHERE outcome_id = ${o} ORDER BY at, version`;
    expect((await snapshots()).map((s) => s.version)).toEqual([1, 201, 401, 601]);

    // ---- The moments asked, and the version in force at each (the last made at or before it).
    const cut = dayStart(KEEP_DAYS);
    const kept: bigint[] = [
      cut, // the first kept instant: the carried snapshot's own time
      cut + 1n,
      cut + HOUR / 2n, // after the cut, before the day's first change
      timeOf[331] - 1n,
      timeOf[331],
      (timeOf[350] + timeOf[351]) / 2n,
      timeOf[399],
      timeOf[400],
      timeOf[401] - 1n,
      timeOf[401],
      (timeOf[520] + dayStart(5)) / 2n,
      dayStart(5),
      timeOf[600],
      timeOf[601],
      timeOf[VERSIONS] - 1n,
      timeOf[VERSIONS], // the last version: the live book from here on
      timeOf[VERSIONS] + HOUR,
    ];
    const rnd = prng(7);
    for (let i = 0; i < 20; i++) kept.push(cut + BigInt(Math.floor(rnd() * Number(timeOf[VERSIONS] - cut))));
    const dropped: bigint[] = [timeOf[1], timeOf[100] + 3n, timeOf[200], timeOf[201], timeOf[330], dayStart(7) + 12n * HOUR, cut - 1n];
    const versionAt = (t: bigint) => versions.filter((v) => timeOf[v] <= t).at(-1)!;

    // ---- Before: every moment answers its book (the id routes; the slug routes are asked only after the
    // drop, so that their answers come from the database and not from the server's memory).
    const before = new Map<bigint, Awaited<ReturnType<typeof bookAt>>>();
    for (const t of [...kept, ...dropped]) {
      const a = await bookAt(request, `/v1/markets/${m.id}/orderbook/at?outcomeId=${o}&ts=${unix(t)}`);
      const v = versionAt(t);
      expect(a.status, `ts ${iso(t)}`).toBe(200);
      expect(a.version, `ts ${iso(t)}`).toBe(String(v));
      expect(a.versionTime).toBe(iso(timeOf[v]));
      const body = JSON.parse(a.body) as OrderBook;
      expect({ bids: body.bids, asks: body.asks }, `the book at ${iso(t)} (version ${v})`).toEqual(books[v]);
      expect(a.checksum).toBe(String(bookChecksum(body)));
      before.set(t, a);
    }
    const allChanges = bookChangesSchema.parse(
      await (await request.get(`/v1/markets/${m.id}/orderbook/changes?outcomeId=${o}&fromVersion=1&limit=1000`)).json(),
    );
    expect(allChanges.changes.map((c) => c.version)).toEqual(versions);

    // ---- The retention pass: today-9, -8 and -7 go (-7 holds no change, only what -8 carries into it).
    const pass = await maintain(sql, KEEP_DAYS);
    expect(pass.dropped).toBeGreaterThanOrEqual(3);
    expect(pass.carried).toBeGreaterThanOrEqual(1);
    for (const base of ["book_changes", "book_snapshots"]) {
      const parts = await children(sql, base);
      for (const d of [9, 8, 7]) expect(parts, `${dayName(base, d)} dropped`).not.toContain(dayName(base, d));
      for (const d of [6, 5]) expect(parts, `${dayName(base, d)} kept`).toContain(dayName(base, d));
      expect(parts.filter((p) => /_p\d{8}$/.test(p) && p.slice(-8) < dayName(base, KEEP_DAYS).slice(-8))).toEqual([]);
    }
    expect(await perDay("book_changes", [6, 5])).toEqual({ 6: 190, 5: 200 });
    // The book at the end of the dropped days, carried to the start of the first kept one.
    const carried = await snapshots();
    expect(carried.map((s) => s.version)).toEqual([330, 401, 601]);
    expect(carried[0]).toMatchObject({ at: iso(cut), version_at: iso(timeOf[330]) });

    // ---- After: every kept moment answers exactly what it answered before (status, body, version, checksum,
    // version time, caching); every dropped one is the documented 404.
    for (const t of kept) {
      const a = await bookAt(request, `/v1/markets/slug/${m.slug}/orderbook/at?outcomeId=${o}&ts=${unix(t)}`);
      expect(a, `the book at ${iso(t)} after the drop`).toEqual(before.get(t));
    }
    for (const t of dropped) {
      const res = await request.get(`/v1/markets/slug/${m.slug}/orderbook/at?outcomeId=${o}&ts=${unix(t)}`);
      expect(res.status(), `ts ${iso(t)} (dropped)`).toBe(404);
      expect((await res.json()).message).toBe(`The book of this outcome is not recorded at ${unix(t)}`);
    }

    // ---- Changes: from a dropped version, the documented 404 naming the oldest kept one; from there on, the
    // same changes as before, which replayed on the book at the cut pass through every kept version.
    for (const from of [1, 200, 330]) {
      const res = await request.get(`/v1/markets/slug/${m.slug}/orderbook/changes?outcomeId=${o}&fromVersion=${from}`);
      expect(res.status(), `fromVersion=${from}`).toBe(404);
      expect((await res.json()).message).toBe(`Changes of this book from version ${from} are not recorded (the oldest kept is 331)`);
    }
    const keptChanges = bookChangesSchema.parse(
      await (await request.get(`/v1/markets/slug/${m.slug}/orderbook/changes?outcomeId=${o}&fromVersion=331&limit=1000`)).json(),
    );
    expect(keptChanges).toEqual({ changes: allChanges.changes.slice(330), next_version: null });
    let book: BookSides = { bids: JSON.parse(before.get(cut)!.body).bids, asks: JSON.parse(before.get(cut)!.body).asks };
    for (const c of keptChanges.changes) {
      book = applyChange(book, c);
      expect(book, `after version ${c.version}`).toEqual(books[c.version]);
    }
    // By time, from a dropped moment: the first version made at or after it that is still kept.
    for (const t of [timeOf[5], dayStart(7) + HOUR, cut]) {
      const res = await request.get(`/v1/markets/slug/${m.slug}/orderbook/changes?outcomeId=${o}&startTs=${unix(t)}&limit=5`);
      expect(res.status()).toBe(200);
      const page = bookChangesSchema.parse(await res.json());
      expect(
        page.changes.map((c) => c.version),
        `startTs ${iso(t)}`,
      ).toEqual([331, 332, 333, 334, 335]);
      expect(page.next_version).toBe(336);
    }
  });
});
