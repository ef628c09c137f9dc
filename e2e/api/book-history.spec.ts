// Book versions, checksums and past books (docs/api.md "Book versions", "Book checksum", "Past books",
// "Keeping a book"). A simulated session of placements, fills, partial fills and cancels on one outcome,
// with the orders table recorded after each statement: the past book at random moments must equal the
// book netted from the orders as they stood then, and replaying the changes must pass through each.
import fs from "node:fs";
import path from "node:path";
import type postgres from "postgres";
import type { Socket } from "socket.io-client";
import { expect, test, testRun } from "../fixtures";
import { connectClient, join, waitFor } from "../realtime-helpers";
import { startInstance, type Instance } from "../support/instance";
import { addOrder, makeMarket, type TestMarket } from "../support/markets";
import { bookChecksum } from "@/lib/markets/book-checksum";
import { prng } from "@/lib/dev/tools";
import { applyChange, type BookSides } from "@/lib/markets/book-log";
import { buildNativeBook, type RestingOrder } from "@/lib/markets/order-book";
import { bookChangesSchema, orderBookSchema, type OrderBook } from "@/lib/markets/schemas";
import type { Heartbeat, Signal } from "@/lib/realtime/channels";

type Sql = postgres.Sql;

/** The outcome's resting orders and the database clock, read together after a statement committed. */
async function record(sql: Sql, outcomeId: string) {
  const [{ at }] = await sql<{ at: string }[]>`SELECT extract(epoch FROM clock_timestamp())::numeric(20,6)::text AS at`;
  const orders = await sql<{ side: "BUY" | "SELL"; price: string; remaining: string }[]>`
    SELECT side, price::text, (shares - filled_shares)::text AS remaining FROM orders
     WHERE outcome_id = ${outcomeId} AND type = 'LIMIT' AND status IN ('OPEN', 'PARTIALLY_FILLED')`;
  return { at, book: buildNativeBook(orders as RestingOrder[]) };
}

/**
 * One writer's session on the first outcome: placements (some crossing, some dust), partial and full fills,
 * cancels, a multi-row statement now and then; after each statement, the orders as they stood and when.
 */
async function session(sql: Sql, m: TestMarket, steps: number, seed: number) {
  const rnd = prng(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];
  const price = (side: "BUY" | "SELL") => (side === "BUY" ? 0.4 + rnd() * 0.12 : 0.48 + rnd() * 0.12).toFixed(3);
  const shares = () => (rnd() < 0.15 ? "0.04" : (1 + Math.floor(rnd() * 4000) / 100).toFixed(2));
  const states: { at: string; book: ReturnType<typeof buildNativeBook>; until?: string }[] = [await record(sql, m.yes)];
  for (let i = 0; i < steps; i++) {
    // The clock before the statement: until then the book is the last recorded one.
    const [{ until }] = await sql<{ until: string }[]>`SELECT extract(epoch FROM clock_timestamp())::numeric(20,6)::text AS until`;
    states[states.length - 1].until = until;
    const open = await sql<{ id: string; shares: string; filled: string }[]>`
      SELECT id, shares::text, filled_shares::text AS filled FROM orders
       WHERE outcome_id = ${m.yes} AND status IN ('OPEN', 'PARTIALLY_FILLED') ORDER BY created_at, id`;
    const r = rnd();
    if (open.length < 4 || r < 0.4) {
      const side = pick(["BUY", "SELL"] as const);
      await addOrder(sql, m, { side, price: price(side), shares: shares() });
    } else if (r < 0.5) {
      // Several orders in one statement: one version.
      const rows = [0, 1, 2].map(() => {
        const side = pick(["BUY", "SELL"] as const);
        return { side, price: price(side), shares: shares() };
      });
      await sql`INSERT INTO orders ${sql(
        rows.map((o) => ({
          id: crypto.randomUUID(),
          market_id: m.id,
          outcome_id: m.yes,
          user_id: m.users[0],
          side: o.side,
          type: "LIMIT",
          price: o.price,
          shares: o.shares,
          filled_shares: "0",
          status: "OPEN",
          created_at: new Date(),
        })),
      )}`;
    } else if (r < 0.7) {
      const o = pick(open);
      const left = Number(o.shares) - Number(o.filled);
      const fill = Math.max(0.01, Math.floor(left * rnd() * 100) / 100).toFixed(2);
      await sql`UPDATE orders SET filled_shares = filled_shares + ${fill}::numeric,
                  status = CASE WHEN filled_shares + ${fill}::numeric >= shares THEN 'FILLED' ELSE 'PARTIALLY_FILLED' END::order_status
                 WHERE id = ${o.id}`;
    } else if (r < 0.8) {
      await sql`UPDATE orders SET filled_shares = shares, status = 'FILLED' WHERE id = ${pick(open).id}`;
    } else if (r < 0.95) {
      await sql`UPDATE orders SET status = 'CANCELLED' WHERE id = ${pick(open).id} AND status = 'OPEN'`;
    } else {
      await sql`DELETE FROM orders WHERE id = ${pick(open).id}`;
    }
    states.push(await record(sql, m.yes));
    if (rnd() < 0.3) await new Promise((r) => setTimeout(r, 2 + rnd() * 8));
  }
  return states;
}

const sides = (b: { bids: unknown; asks: unknown }) => ({ bids: b.bids, asks: b.asks });

/** "2026-01-01T12:00:00.123456Z" → "1767268800.123456" (exact). */
const unixOf = (iso: string) => `${Date.parse(`${iso.slice(0, 19)}Z`) / 1000}.${iso.slice(20, 26)}`;
const micros = (unix: string) => BigInt(unix.replace(".", ""));

/** A moment between two recorded instants, as unix seconds with six decimals. */
function between(lo: string, hi: string, f: number): string {
  const [a, b] = [lo, hi].map((s) => BigInt(s.replace(".", "")));
  const x = a + ((b - a) * BigInt(Math.floor(f * 1_000_000))) / 1_000_000n;
  const s = x.toString();
  return `${s.slice(0, -6)}.${s.slice(-6)}`;
}

test.describe("past books (GET …/orderbook/at and …/orderbook/changes)", () => {
  test("the book rebuilt for a random moment T equals the book netted from the orders as they stood at T", async ({ request, sql }) => {
    test.setTimeout(120_000);
    const m = await makeMarket(sql);
    const states = await session(sql, m, 80, 22);
    const rnd = prng(7);
    const last = states.length - 1;
    for (let n = 0; n < 40; n++) {
      const i = Math.floor(rnd() * last); // T between state i's record and the next statement
      const ts = rnd() < 0.3 ? states[i].at : between(states[i].at, states[i].until!, rnd());
      for (const url of [
        `/v1/markets/${m.id}/orderbook/at?outcomeId=${m.yes}&ts=${ts}`,
        `/v1/markets/slug/${m.slug}/orderbook/at?outcomeId=${m.yes}&ts=${ts}`,
      ]) {
        const res = await request.get(url);
        expect(res.status(), `${url} ${res.status() === 200 ? "" : await res.text()}`).toBe(200);
        const body = orderBookSchema.strict().parse(await res.json());
        expect(sides(body), `T=${ts} (after statement ${i})`).toEqual(states[i].book);
        expect(body.outcome_id).toBe(m.yes);
        // Before the latest version: final, kept for a year.
        expect(res.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
        expect(Number(res.headers()["book-checksum"])).toBe(bookChecksum(body));
        expect(Number(res.headers()["book-version"])).toBeGreaterThanOrEqual(0);
      }
    }
    // Now: the live book, which may still change (the short policy), with the live book's version.
    const live = await request.get(`/v1/markets/${m.id}/orderbook?outcomeId=${m.yes}`);
    const now = await request.get(`/v1/markets/${m.id}/orderbook/at?outcomeId=${m.yes}&ts=${Date.now() / 1000 + 5}`);
    expect(await now.json()).toEqual(await live.json());
    expect(now.headers()["book-version"]).toBe(live.headers()["book-version"]);
    expect(now.headers()["cache-control"]).toMatch(/max-age=1,/);
    expect(sides(await live.json())).toEqual(states[last].book);
  });

  test("replaying the changes from a past book passes through every recorded state and ends at the live book", async ({ request, sql }) => {
    test.setTimeout(120_000);
    const m = await makeMarket(sql);
    // Before anything was written: the empty book, version 0, without a version time.
    const t0 = (await record(sql, m.yes)).at;
    const states = await session(sql, m, 60, 5);
    const empty = await request.get(`/v1/markets/${m.id}/orderbook/at?outcomeId=${m.yes}&ts=${t0}`);
    expect(empty.status()).toBe(200);
    expect(sides(await empty.json())).toEqual({ bids: [], asks: [] });
    expect(empty.headers()["book-version"]).toBe("0");
    expect(empty.headers()["book-version-time"]).toBeUndefined();

    // Every change, seven a page, from version 1.
    const changes: { version: number; at: string; replace: boolean; bids: OrderBook["bids"]; asks: OrderBook["asks"] }[] = [];
    let from: number | null = 1;
    while (from !== null) {
      const res = await request.get(`/v1/markets/slug/${m.slug}/orderbook/changes?outcomeId=${m.yes}&fromVersion=${from}&limit=7`);
      expect(res.status()).toBe(200);
      const page = bookChangesSchema.strict().parse(await res.json());
      changes.push(...page.changes);
      if (page.next_version !== null) expect(res.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
      from = page.next_version;
    }
    // Versions grow by one, their times never go back.
    expect(changes.map((c) => c.version)).toEqual(changes.map((_, i) => i + 1));
    for (let i = 1; i < changes.length; i++) expect(changes[i].at >= changes[i - 1].at).toBe(true);

    // Each recorded state is the book after the changes up to its instant.
    let book: BookSides = { bids: [], asks: [] };
    let k = 0;
    for (const s of states) {
      while (k < changes.length && micros(unixOf(changes[k].at)) <= micros(s.at)) book = applyChange(book, changes[k++]);
      expect(book, `state at ${s.at}`).toEqual(s.book);
    }
    const live = await request.get(`/v1/markets/${m.id}/orderbook?outcomeId=${m.yes}`);
    expect(sides(await live.json())).toEqual(book);
    expect(Number(live.headers()["book-version"])).toBe(changes.length);

    // By time: the changes of a window are the ones whose times fall in it.
    const [lo, hi] = [changes[10].at, changes[20].at].map(unixOf);
    const window = bookChangesSchema.parse(
      await (await request.get(`/v1/markets/${m.id}/orderbook/changes?outcomeId=${m.yes}&startTs=${lo}&endTs=${hi}&limit=1000`)).json(),
    );
    expect(window.changes.map((c) => c.version)).toEqual(changes.filter((c) => c.at >= changes[10].at && c.at <= changes[20].at).map((c) => c.version));
    expect(window.next_version).toBeNull();
  });

  test("strict parameters: unknown ones, bad ts, both or neither of fromVersion and startTs, limit out of range are 400s", async ({ request, sql }) => {
    const m = await makeMarket(sql);
    const base = `/v1/markets/${m.id}/orderbook`;
    for (const q of [
      `at?outcomeId=${m.yes}`,
      `at?outcomeId=${m.yes}&ts=abc`,
      `at?outcomeId=${m.yes}&ts=1.1234567`,
      `at?outcomeId=${m.yes}&ts=1&foo=1`,
      `at?outcomeId=${m.yes}&ts=1&ts=2`,
      `changes?outcomeId=${m.yes}`,
      `changes?outcomeId=${m.yes}&fromVersion=1&startTs=1`,
      `changes?outcomeId=${m.yes}&fromVersion=0`,
      `changes?outcomeId=${m.yes}&fromVersion=1&limit=1001`,
      `changes?outcomeId=${m.yes}&startTs=5&endTs=4`,
      `changes?outcomeId=${m.yes}&fromVersion=1&bar=2`,
    ]) {
      const res = await request.get(`${base}/${q}`);
      expect(res.status(), q).toBe(400);
      expect(res.headers()["cache-control"]).toBe("no-store");
    }
    // Before the log began: not recorded.
    const old = await request.get(`${base}/at?outcomeId=${m.yes}&ts=1000`);
    expect(old.status()).toBe(404);
    expect((await old.json()).message).toMatch(/not recorded/);
    expect((await request.get(`/v1/markets/${m.id}/orderbook/at?outcomeId=${crypto.randomUUID()}&ts=1`)).status()).toBe(404);
  });
});

test.describe("book versions, checksums and the heartbeat's versions", () => {
  let second: Instance | undefined;
  let sockets: Socket[] = [];
  test.afterEach(() => {
    for (const s of sockets) s.close();
    sockets = [];
  });
  test.afterAll(async () => {
    await second?.stop();
  });

  test("the checksum of the docs' example book is the documented number, in the header and the signal", async ({ request, sql, baseURL }) => {
    const m = await makeMarket(sql);
    const socket = await connectClient(baseURL!);
    sockets.push(socket);
    const signals: Signal[] = [];
    socket.on("orderbook", (s: Signal) => signals.push(s));
    expect(await join(socket, `market:${m.slug}:orderbook`)).toEqual({ ok: true });
    await sql`INSERT INTO orders ${sql(
      [
        ["BUY", "0.550", "120.00"],
        ["BUY", "0.540", "80.50"],
        ["SELL", "0.560", "45.00"],
        ["SELL", "0.580", "300.00"],
      ].map(([side, price, shares]) => ({
        id: crypto.randomUUID(),
        market_id: m.id,
        outcome_id: m.yes,
        user_id: m.users[0],
        side,
        type: "LIMIT",
        price,
        shares,
        filled_shares: "0",
        status: "OPEN",
        created_at: new Date(),
      })),
    )}`;
    // docs/api.md "Book checksum": "0.550:120.00|0.540:80.50#0.560:45.00|0.580:300.00" → 3724392881
    const res = await request.get(`/v1/markets/${m.id}/orderbook?outcomeId=${m.yes}`);
    expect(res.headers()["book-checksum"]).toBe("3724392881");
    expect(res.headers()["book-version"]).toBe("1");
    expect(res.headers()["access-control-expose-headers"]).toContain("Book-Checksum");
    await waitFor(() => signals.some((s) => s.version === 1), 10_000, "the signal of version 1");
    expect(signals.find((s) => s.version === 1)).toMatchObject({ checksum: 3724392881, book: await res.json() });
  });

  test("a REST book at version v plus the signals after v is the fresh REST book; versions grow; two instances agree", async ({ request, sql, baseURL }) => {
    test.setTimeout(240_000);
    const m = await makeMarket(sql);
    const rnd = prng(3);
    const url = `/v1/markets/slug/${m.slug}/orderbook?outcomeId=${m.yes}`;
    const clients = [baseURL!];
    if (fs.existsSync(path.join(process.env.NEXT_DIST_DIR || ".next", "BUILD_ID"))) {
      second = await startInstance({ DATABASE_URL: testRun().databaseUrl });
      clients.push(second.baseURL);
    }
    // Each client: join, take a REST snapshot, then apply signals with a higher version (docs/api.md "Keeping a book").
    const held = await Promise.all(
      clients.map(async (base) => {
        const socket = await connectClient(base);
        sockets.push(socket);
        const state = { base, version: -1, book: null as unknown, checksum: 0, versions: [] as number[], beats: [] as Heartbeat[] };
        const early: Signal[] = [];
        socket.on("orderbook", (s: Signal) => {
          if (s.outcomeId !== m.yes || s.version === undefined) return;
          if (state.version < 0) return void early.push(s);
          state.versions.push(s.version);
          if (s.version > state.version) Object.assign(state, { version: s.version, book: s.book, checksum: s.checksum });
        });
        socket.on("heartbeat", (h: Heartbeat) => state.beats.push(h));
        expect(await join(socket, `market:${m.slug}:orderbook`)).toEqual({ ok: true });
        const res = await fetch(`${base}${url}`);
        Object.assign(state, { version: Number(res.headers.get("book-version")), book: await res.json(), checksum: Number(res.headers.get("book-checksum")) });
        for (const s of early) if (s.version! > state.version) Object.assign(state, { version: s.version, book: s.book, checksum: s.checksum });
        return state;
      }),
    );
    for (let i = 0; i < 25; i++) {
      const side = rnd() < 0.5 ? "BUY" : "SELL";
      await addOrder(sql, m, { side, price: (side === "BUY" ? 0.3 + rnd() * 0.1 : 0.6 + rnd() * 0.1).toFixed(3), shares: "5.00" });
      if (rnd() < 0.3)
        await sql`UPDATE orders SET status = 'CANCELLED' WHERE id = (SELECT id FROM orders WHERE outcome_id = ${m.yes} AND status = 'OPEN' LIMIT 1)`;
      if (rnd() < 0.5) await new Promise((r) => setTimeout(r, 50));
    }
    const fresh = await request.get(url);
    const version = Number(fresh.headers()["book-version"]);
    const book = await fresh.json();
    for (const h of held) {
      await waitFor(() => h.version === version, 15_000, `${h.base} to reach version ${version}`);
      expect(h.book, h.base).toEqual(book);
      expect(h.checksum).toBe(Number(fresh.headers()["book-checksum"]));
      expect(bookChecksum(h.book as OrderBook)).toBe(h.checksum);
      // Signals carry versions that never go back (docs/api.md "Keeping a book"): coalescing may skip some, and two
      // signals whose books were read after the same commit carry the same one.
      for (let i = 1; i < h.versions.length; i++) expect(h.versions[i]).toBeGreaterThanOrEqual(h.versions[i - 1]);
      expect(h.versions.at(-1)).toBe(version);
    }
    // Every instance answers the same version for the same book.
    for (const base of clients) {
      const res = await fetch(`${base}${url}`);
      expect(res.headers.get("book-version")).toBe(String(version));
      expect(await res.json()).toEqual(book);
    }
    // Heartbeats carry the versions: nothing changed, so they say the version each client holds.
    for (const h of held) {
      const n = h.beats.length;
      await waitFor(() => h.beats.length > n, 12_000, `a heartbeat from ${h.base}`);
      expect(h.beats.at(-1)!.versions).toMatchObject({ [m.yes]: version, [m.no]: 0 });
    }
  });
});
