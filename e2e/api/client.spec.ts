// The TypeScript client (packages/client) against the real server, never mocks: every operation of the OpenAPI
// document in both shapes, typed errors, ETag revalidation, the paginator while markets are inserted, Retry-After,
// the cursor walker, and the live helper through a dropped socket and a database restart.
import { randomUUID } from "node:crypto";
import postgres from "postgres";
import { sleep } from "@/lib/dev/tools";
import { CAMEL_MEDIA_TYPE, camelMarketListResponseSchema, marketListResponseSchema } from "@/lib/markets/schemas";
import {
  CAMEL_MEDIA_TYPE as CLIENT_CAMEL,
  createMarketsClient,
  MarketsApiError,
  paginate,
  walkCursor,
  type MarketsClient,
} from "../../packages/client/src/index";
import * as generated from "../../packages/client/src/gen/primary/sdk.gen";
import { createLive, type BookInfo, type Live, type LiveHeartbeat, type LiveSignal } from "../../packages/client/src/live";
import type { Heartbeat, Signal } from "@/lib/realtime/channels";
import { expect, test, testRun } from "../fixtures";
import { startOwnCluster, type OwnCluster } from "../support/cluster";
import { startInstance, type Instance } from "../support/instance";
import { addOrder, addTrades, feedPosition, makeFullMarket, makeMarket, type TestMarket } from "../support/markets";

const api = () => createMarketsClient({ baseUrl: testRun().baseURL });

/** A fetch that records what went over the wire (the client's own fetch answers 304s from memory as 200s). */
function recordingFetch() {
  const wire: { url: string; status: number; ifNoneMatch: string | null; retryAfter: string | null; xCache: string | null }[] = [];
  const f: typeof fetch = async (input, init) => {
    const req = new Request(input, init);
    const res = await fetch(req);
    wire.push({
      url: req.url,
      status: res.status,
      ifNoneMatch: req.headers.get("if-none-match"),
      retryAfter: res.headers.get("retry-after"),
      xCache: res.headers.get("x-cache"),
    });
    return res;
  };
  return { fetch: f, wire };
}

type Operation = keyof MarketsClient["withResponse"];

test("the client's camelCase media type is the server's; its push payload types take the server's", () => {
  expect(CLIENT_CAMEL).toBe(CAMEL_MEDIA_TYPE);
  // The package cannot import the app, so it restates the payloads: the type check fails when they part.
  const fits = (s: Signal, h: Heartbeat): [LiveSignal, LiveHeartbeat] => [s, h];
  const [signal, heartbeat] = fits(
    { channel: "market:x:orderbook", slug: "x", outcomeId: null, at: 0, seq: 1 },
    { channel: "market:x:orderbook", seq: 0, at: 0, interval: 5000 },
  );
  expect([signal.seq, heartbeat.interval]).toEqual([1, 5000]);
});

test("every operation of the document, in both shapes, answers what the server sends for that URL", async ({ sql }) => {
  const m = await makeFullMarket(sql);
  const outcomeId = m.outcomes[0];
  const outcomeIds = m.outcomes.join(",");
  const position = await feedPosition(sql, m.id);
  // One entry per generated operation: the type says so (a new endpoint is a compile error here until it is
  // covered), and so does the check against the generated module below.
  const calls: { [K in Operation]: Parameters<MarketsClient["withResponse"][K]>[0] } = {
    listMarkets: { query: { q: m.token, status: "ACTIVE" } },
    listMarketChanges: { query: { since: Number(position) - 1, limit: 1 } },
    getMarket: { path: { id: m.id } },
    getMarketBySlug: { path: { slug: m.slug } },
    getOrderBook: { path: { id: m.id }, query: { outcomeId } },
    getOrderBookBySlug: { path: { slug: m.slug }, query: { outcomeId } },
    getOrderBookAt: { path: { id: m.id }, query: { outcomeId, ts: Math.floor(Date.now() / 1000) } },
    getOrderBookAtBySlug: { path: { slug: m.slug }, query: { outcomeId, ts: Math.floor(Date.now() / 1000) } },
    listOrderBookChanges: { path: { id: m.id }, query: { outcomeId, fromVersion: 1 } },
    listOrderBookChangesBySlug: { path: { slug: m.slug }, query: { outcomeId, fromVersion: 1 } },
    getPriceHistory: { path: { id: m.id }, query: { outcomeId, fidelity: 5 } },
    getPriceHistoryBySlug: { path: { slug: m.slug }, query: { outcomeId, fidelity: 5 } },
    listTrades: { path: { id: m.id }, query: { limit: 2 } },
    listTradesBySlug: { path: { slug: m.slug }, query: { outcomeId } },
    getOrderBooks: { query: { outcomeIds } },
    getPriceHistories: { query: { outcomeIds, fidelity: 5 } },
    getCandles: { path: { id: m.id }, query: { outcomeId, interval: "1h" } },
    getCandlesBySlug: { path: { slug: m.slug }, query: { outcomeId, interval: "1h" } },
    getCandlesBatch: { query: { outcomeIds, interval: "1h" } },
    listExports: { query: { dataset: "trades" } },
  };
  expect(Object.keys(calls).sort()).toEqual(Object.keys(generated).sort());
  const client = api();
  for (const [name, options] of Object.entries(calls) as [Operation, never][]) {
    const { data, response } = await client.withResponse[name](options);
    expect(response.status, name).toBe(200);
    const raw = await fetch(response.url);
    // The feed's head is the newest change of any market or book: other specs write between the two reads.
    const same = (body: Record<string, unknown>) => (name === "listMarketChanges" ? { ...body, head: expect.any(Number) } : body);
    expect(data, `${name}: primary shape`).toEqual(same(await raw.json()));
    const camel = await client.camel[name](options);
    const rawCamel = await fetch(response.url, { headers: { Accept: CAMEL_MEDIA_TYPE } });
    expect(rawCamel.headers.get("content-type"), name).toContain(CAMEL_MEDIA_TYPE);
    expect(camel, `${name}: camelCase shape`).toEqual(same(await rawCamel.json()));
  }
  // The types follow the shapes: the list in each, checked against the server's own schemas.
  const list = await client.listMarkets({ query: { q: m.token } });
  expect(marketListResponseSchema.parse(list).markets[0].sub_category).toBe("Bitcoin");
  const camelList = await client.camel.listMarkets({ query: { q: m.token } });
  expect(camelMarketListResponseSchema.parse(camelList).markets[0].subCategory).toBe("Bitcoin");
});

test("errors – MarketsApiError with the status and the NestJS-style body, the same in both shapes", async () => {
  const client = api();
  const id = randomUUID();
  for (const read of [() => client.getMarket({ path: { id } }), () => client.camel.getMarket({ path: { id } })]) {
    const err = await read().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MarketsApiError);
    expect((err as MarketsApiError).status).toBe(404);
    expect((err as MarketsApiError).body).toEqual({ statusCode: 404, message: `Market not found: ${id}`, error: "Not Found" });
  }
  const bad = (await client.listMarkets({ query: { limit: 101 } }).catch((e: unknown) => e)) as MarketsApiError;
  expect(bad).toBeInstanceOf(MarketsApiError);
  expect(bad.status).toBe(400);
  expect(bad.body.error).toBe("Bad Request");
  expect(Array.isArray(bad.body.message)).toBe(true);
  expect(bad.message).toContain("limit");
});

test("ETag – a repeated read sends If-None-Match, gets 304 and answers the remembered body; per shape; off when asked", async ({ sql }) => {
  const m = await makeMarket(sql, { status: "ACTIVE" });
  const wire = recordingFetch();
  const client = createMarketsClient({ baseUrl: testRun().baseURL, fetch: wire.fetch });
  const first = await client.getMarket({ path: { id: m.id } });
  const second = await client.getMarket({ path: { id: m.id } });
  expect(second).toEqual(first);
  expect(wire.wire.map((w) => w.status)).toEqual([200, 304]);
  expect(wire.wire[0].ifNoneMatch).toBeNull();
  expect(wire.wire[1].ifNoneMatch).toMatch(/^W\/"/);
  expect(client.stats.revalidated).toBe(1);
  // The camelCase variant has its own validator: its first read is a 200, then a 304.
  const camel = await client.camel.getMarket({ path: { id: m.id } });
  expect(camel.id).toBe(m.id);
  expect(await client.camel.getMarket({ path: { id: m.id } })).toEqual(camel);
  expect(wire.wire.slice(2).map((w) => w.status)).toEqual([200, 304]);
  // A change: the validator no longer matches, the new body comes.
  await sql`UPDATE markets SET question = 'Changed by the client spec?' WHERE id = ${m.id}`;
  await expect.poll(async () => (await client.getMarket({ path: { id: m.id } })).question).toBe("Changed by the client spec?");

  const plain = recordingFetch();
  const noCache = createMarketsClient({ baseUrl: testRun().baseURL, fetch: plain.fetch, etag: false });
  await noCache.getMarket({ path: { id: m.id } });
  await noCache.getMarket({ path: { id: m.id } });
  expect(plain.wire.map((w) => [w.status, w.ifNoneMatch])).toEqual([
    [200, null],
    [200, null],
  ]);
});

/** `n` ACTIVE markets of one sub-category of their own, created a minute apart (the newest first). */
async function marketsOfOwnKind(sql: postgres.Sql, n: number, subCategory = `cl-${randomUUID().slice(0, 8)}`) {
  const base = Date.now() - 3600_000;
  const made: TestMarket[] = [];
  for (let i = 0; i < n; i++) {
    made.push(await makeMarket(sql, { status: "ACTIVE", subCategory, prefix: "cl", createdAt: new Date(base - i * 60_000), users: 1 }));
  }
  return { subCategory, made, base };
}

for (const sortOrder of ["DESC", "ASC"] as const) {
  test(`paginate – yields every market exactly once while markets are inserted on both sides of the walk (CREATED ${sortOrder})`, async ({ sql }) => {
    test.setTimeout(120_000);
    const { subCategory, made, base } = await marketsOfOwnKind(sql, 40);
    const client = api();
    const yielded: string[] = [];
    const inserted: TestMarket[] = [];
    let k = 0;
    for await (const market of paginate(client, { subCategory, sortBy: "CREATED", sortOrder }, { pageSize: 7 })) {
      yielded.push(market.id);
      if (yielded.length % 5 === 0) {
        // One newer than all (lands before the walk's position when newest first, after it when oldest first)
        // and one in the middle of the existing ones (before or after the position, as the walk goes on).
        k++;
        inserted.push(await makeMarket(sql, { status: "ACTIVE", subCategory, prefix: "cl", createdAt: new Date(base + k * 1000), users: 1 }));
        inserted.push(await makeMarket(sql, { status: "ACTIVE", subCategory, prefix: "cl", createdAt: new Date(base - 20 * 60_000 - k * 1000), users: 1 }));
      }
    }
    expect(new Set(yielded).size, "no market twice").toBe(yielded.length);
    for (const m of made) expect(yielded, `market ${m.slug} of before the walk`).toContain(m.id);
    expect(yielded.every((id) => made.some((m) => m.id === id) || inserted.some((m) => m.id === id))).toBe(true);
    expect(inserted.length).toBeGreaterThan(10);
  });
}

test("paginate – the camelCase list walks the same way; a finished walk stops at total", async ({ sql }) => {
  const { subCategory, made } = await marketsOfOwnKind(sql, 9);
  const wire = recordingFetch();
  const client = createMarketsClient({ baseUrl: testRun().baseURL, fetch: wire.fetch });
  const ids: string[] = [];
  for await (const m of paginate(client.camel, { subCategory }, { pageSize: 4 })) ids.push(m.id);
  expect(ids).toEqual(made.map((m) => m.id)); // CREATED DESC: the order they were made in
  expect(wire.wire).toHaveLength(3); // 4 + 4 + 1 (9 = total): no request past the end
});

test.describe("Retry-After", () => {
  let limited: Instance;
  test.beforeAll(async ({}, testInfo) => {
    test.skip(process.env.TEST_DEV === "1", "needs a production build of its own instance");
    testInfo.setTimeout(180_000);
    limited = await startInstance({ DATABASE_URL: testRun().databaseUrl, RATE_LIMIT: "on", RATE_LIMIT_RPS: "4", RATE_LIMIT_BURST: "3", LOG_REQUESTS: "0" });
  });
  test.afterAll(async () => limited?.stop());

  test("paginate – a 429 is waited out as Retry-After says and the walk yields every market once", async ({ sql }) => {
    test.setTimeout(90_000);
    const { subCategory, made } = await marketsOfOwnKind(sql, 16);
    const wire = recordingFetch();
    const client = createMarketsClient({ baseUrl: limited.baseURL, fetch: wire.fetch });
    const ids: string[] = [];
    for await (const m of paginate(client, { subCategory }, { pageSize: 2 })) ids.push(m.id);
    expect(ids).toEqual(made.map((m) => m.id));
    const refused = wire.wire.filter((w) => w.status === 429);
    expect(refused.length, "the burst of 3 ran out").toBeGreaterThan(0);
    expect(refused.every((w) => Number(w.retryAfter) >= 1)).toBe(true);
    expect(client.stats.retries).toBe(refused.length);
  });
});

test("walkCursor – the trade tape by before/next_cursor sees every trade once while trades arrive; after/newest_cursor catches up", async ({ sql }) => {
  const m = await makeMarket(sql, { status: "ACTIVE" });
  const t0 = Date.now() - 3600_000;
  const old = await addTrades(
    sql,
    m,
    Array.from({ length: 23 }, (_, i) => ({ at: new Date(t0 + Math.floor(i / 3) * 1000) })), // ties on executed_at
  );
  const client = api();
  const first = await client.listTradesBySlug({ path: { slug: m.slug }, query: { limit: 5 } });
  const walked: string[] = [];
  for await (const t of walkCursor(
    (before?: string) => client.listTradesBySlug({ path: { slug: m.slug }, query: { limit: 5, before } }),
    (page) => ({ items: page.trades, next: page.next_cursor }),
  )) {
    walked.push(t.id);
    if (walked.length % 5 === 0) await addTrades(sql, m, [{}]); // a new trade (now) while walking back
  }
  expect(new Set(walked).size).toBe(walked.length);
  // The first page is read at the start; every trade there was then comes once, newest first.
  expect(walked.slice(0, 5)).toEqual(first.trades.map((t) => t.id));
  expect([...walked].sort()).toEqual([...old].sort());

  const since: string[] = [];
  for await (const t of walkCursor(
    (after?: string) => client.listTradesBySlug({ path: { slug: m.slug }, query: { limit: 2, after: after ?? first.newest_cursor! } }),
    (page) => ({ items: page.trades, next: page.next_cursor }),
  )) {
    since.push(t.id);
  }
  expect(since).toHaveLength(4); // the trades added during the walk
  expect(since.every((id) => !old.includes(id))).toBe(true);
});

// ---------------------------------------------------------------- the live helper

/** Shares of the 0.400 bid: each test order adds one share there, so the sequence of books must only grow. */
const bidShares = (book: { bids: { price: string; shares: string }[] }) => Number(book.bids.find((l) => l.price === "0.400")?.shares ?? 0);

function watchBids(live: Live, m: TestMarket) {
  const seen: { shares: number; info: BookInfo }[] = [];
  const errors: unknown[] = [];
  const watch = live.watchBook({ slug: m.slug, outcomeId: m.yes }, (book, info) => seen.push({ shares: bidShares(book), info }), {
    onError: (e) => errors.push(e),
  });
  return { seen, errors, watch, last: () => seen.at(-1)?.shares };
}

const addBid = (sql: postgres.Sql, m: TestMarket) => addOrder(sql, m, { side: "BUY", price: "0.400", shares: "1" });

function expectNeverOlder(seen: { shares: number }[]) {
  const shares = seen.map((s) => s.shares);
  expect(shares, `books handed over: ${shares.join(" ")}`).toEqual([...shares].sort((a, b) => a - b));
}

test.describe("live helper", () => {
  const lives: Live[] = [];
  test.afterEach(() => {
    for (const l of lives.splice(0)) l.close();
  });

  test("watchBook – the first book, then every order's book from the signals, never an older one after a newer", async ({ sql }) => {
    const m = await makeMarket(sql, { status: "ACTIVE" });
    const live = createLive(api());
    lives.push(live);
    const w = watchBids(live, m);
    await w.watch.ready;
    expect(w.seen[0]).toMatchObject({ shares: 0, info: { source: "fetch" } });
    for (let i = 1; i <= 6; i++) {
      await addBid(sql, m);
      if (i % 2 === 0) await sleep(200); // some orders coalesce into one signal, some do not
    }
    await expect.poll(w.last).toBe(6);
    expect(w.seen.some((s) => s.info.source === "signal")).toBe(true);
    expectNeverOlder(w.seen);
    expect(w.watch.current()?.outcome_id).toBe(m.yes);
  });

  test("watchPrices and watchTrades – callbacks with the history and the tape after a trade", async ({ sql }) => {
    const m = await makeMarket(sql, { status: "ACTIVE" });
    const live = createLive(api());
    lives.push(live);
    const histories: number[] = [];
    const tapes: { ids: string[]; added: number; reset: boolean }[] = [];
    live.watchPrices({ slug: m.slug, outcomeId: m.yes, query: { fidelity: 1 } }, (h) => histories.push(h.history.length));
    const trades = live.watchTrades({ slug: m.slug, limit: 10 }, (tape, info) =>
      tapes.push({ ids: tape.map((t) => t.id), added: info.added.length, reset: info.reset }),
    );
    await trades.ready;
    await expect.poll(() => histories.length).toBeGreaterThan(0);
    expect(histories[0]).toBe(0);
    const [a] = await addTrades(sql, m, [{ price: "0.610" }]);
    await expect.poll(() => histories.at(-1)).toBe(1);
    await expect.poll(() => tapes.at(-1)?.ids).toEqual([a]);
    const [b, c] = await addTrades(sql, m, [{ price: "0.620" }, { price: "0.630" }]);
    await expect.poll(() => new Set(tapes.at(-1)?.ids)).toEqual(new Set([a, b, c]));
    // The later trades came with a signal that continued the chain: appended, not read again whole.
    expect(tapes.at(-1)).toMatchObject({ added: 2, reset: false });
  });

  test("a dropped socket – reconnects and resumes from its position: the missed books arrive replayed, without a read; never an older book", async ({
    sql,
  }) => {
    const m = await makeMarket(sql, { status: "ACTIVE" });
    const statuses: string[] = [];
    const wire = recordingFetch();
    const live = createLive(createMarketsClient({ baseUrl: testRun().baseURL, fetch: wire.fetch }), { onStatus: (s) => statuses.push(s) });
    lives.push(live);
    const w = watchBids(live, m);
    await w.watch.ready;
    await addBid(sql, m);
    await expect.poll(w.last).toBe(1);
    const before = w.seen.length;
    const reads = wire.wire.length;
    live.socket.io.engine.close(); // the transport drops, as a network failure would
    for (let i = 0; i < 3; i++) await addBid(sql, m); // while nobody listens
    await expect.poll(w.last, { timeout: 20_000 }).toBe(4);
    expect(statuses).toEqual(expect.arrayContaining(["reconnecting", "live"]));
    expect(w.seen.slice(before).map((s) => s.info.source)).toEqual(w.seen.slice(before).map(() => "signal")); // replayed, not read
    expect(wire.wire.slice(reads), "no REST read after the reconnect").toEqual([]);
    await addBid(sql, m); // and signals flow again
    await expect.poll(w.last).toBe(5);
    expectNeverOlder(w.seen);
  });
});

test.describe("live helper – the database restarting", () => {
  test.describe.configure({ mode: "serial" });
  let cluster: OwnCluster;
  let app: Instance;
  test.beforeAll(async ({}, testInfo) => {
    test.skip(process.env.TEST_DEV === "1", "needs a production build of its own instance");
    testInfo.setTimeout(240_000);
    cluster = await startOwnCluster({ markets: 5 });
    // The listener retries quickly, so the resync after the restart comes within the test.
    app = await startInstance({ DATABASE_URL: cluster.url, LOG_REQUESTS: "0", REALTIME_RETRY_MAX_MS: "1000", DB_RETRY_MS: "500" });
  });
  test.afterAll(async () => {
    await app?.stop();
    await cluster?.destroy();
  });

  test("the book watch resyncs after PostgreSQL restarts, and never hands over an older book (stale answers included)", async () => {
    test.setTimeout(120_000);
    const sql = postgres(cluster.url, { max: 1, onnotice: () => {} });
    try {
      const m = await makeMarket(sql, { status: "ACTIVE" });
      const wire = recordingFetch();
      const live = createLive(createMarketsClient({ baseUrl: app.baseURL, fetch: wire.fetch }), { retryMaxMs: 1000 });
      try {
        const w = watchBids(live, m);
        await w.watch.ready;
        for (let i = 0; i < 2; i++) await addBid(sql, m);
        await expect.poll(w.last).toBe(2);

        // A bid the watch misses, then the database goes away: the socket comes back and resumes from its
        // position; the missed book cannot be read now, so the replayed event comes without it and the watch
        // reads the book, which the server can only answer with a 503 or a stale copy (stale-if-error);
        // neither may replace the newer book held.
        live.socket.disconnect();
        await addBid(sql, m);
        await sleep(500);
        await cluster.crash();
        const fromOutage = wire.wire.length;
        live.socket.connect();
        await sleep(3000);
        expect(w.last()).toBe(2);
        const duringOutage = wire.wire.slice(fromOutage).filter((r) => r.url.includes("/orderbook"));
        expect(
          duringOutage.some((r) => r.status === 503 || r.xCache === "STALE"),
          `the watch read the book while the database was away: ${JSON.stringify(duringOutage)}`,
        ).toBe(true);
        await cluster.start();

        for (let i = 0; i < 3; i++) await addBid(sql, m);
        await expect.poll(w.last, { timeout: 30_000 }).toBe(6);
        expectNeverOlder(w.seen);
      } finally {
        live.close();
      }
    } finally {
      await sql.end();
    }
  });
});
