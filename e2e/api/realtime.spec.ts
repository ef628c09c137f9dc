// Push channels against the real server and its PostgreSQL: the join/leave protocol of
// docs/api.md "Push channels", signals driven by database writes, coalescing, LISTEN recovery and two instances.
import fs from "node:fs";
import path from "node:path";
import type { Socket } from "socket.io-client";
import postgres from "postgres";
import { expect, test, testRun } from "../fixtures";
import { createDatabase, startInstance, type Instance } from "../support/instance";
import { addOrder, addTrades, makeMarket } from "../support/markets";
import { sleep } from "@/lib/dev/tools";
import { COALESCE_MS, collect, connectClient, emitAck, join, only, waitFor } from "../realtime-helpers";

/** The markets these tests write to: live ones, as a client would watch. */
const LIVE = { prefix: "rt", status: "ACTIVE" } as const;
const sockets: Socket[] = [];
const client = async (baseURL = testRun().baseURL) => {
  const s = await connectClient(baseURL);
  sockets.push(s);
  return s;
};
test.afterEach(() => {
  for (const s of sockets.splice(0)) s.disconnect();
});

test.describe("push channels – protocol", () => {
  test("join – acks ok for both channels of a known market, and leave acks ok", async ({ sql }) => {
    const m = await makeMarket(sql, LIVE);
    const s = await client();
    expect(await join(s, `market:${m.slug}:price`)).toEqual({ ok: true });
    expect(await join(s, `market:${m.slug}:orderbook`)).toEqual({ ok: true });
    expect(await join(s, `market:${m.slug}:orderbook`)).toEqual({ ok: true }); // joining twice is harmless
    expect(await emitAck(s, "leave", { channel: `market:${m.slug}:price` })).toEqual({ ok: true });
  });

  test("leave – a socket that left a channel gets no more of its signals", async ({ sql }) => {
    const [m, sentinel] = [await makeMarket(sql, LIVE), await makeMarket(sql, LIVE)];
    const [stays, leaves] = [await client(), await client()];
    const [gotStays, gotLeaves] = [collect(stays), collect(leaves)];
    for (const s of [stays, leaves]) expect(await join(s, `market:${m.slug}:orderbook`)).toEqual({ ok: true });
    expect(await join(leaves, `market:${sentinel.slug}:orderbook`)).toEqual({ ok: true });
    expect(await emitAck(leaves, "leave", { channel: `market:${m.slug}:orderbook` })).toEqual({ ok: true });
    await addOrder(sql, m);
    await waitFor(() => gotStays.length > 0, 10_000, "the signal to the socket that stayed");
    // Sentinel: a later write on a channel it kept. One socket's signals arrive in order, so a signal of
    // the channel it left (already sent to the room, as the other socket got it) would come before this one.
    await addOrder(sql, sentinel);
    await waitFor(() => gotLeaves.length > 0, 10_000, "the sentinel's signal");
    expect(gotLeaves.map((g) => g.slug)).toEqual([sentinel.slug]);
  });

  const malformed: Array<[string, unknown]> = [
    ["a string instead of an object", "market:x:price"],
    ["null", null],
    ["a number", 42],
    ["an array", ["market:x:price"]],
    ["an object without channel", { room: "market:x:price" }],
    ["a non-string channel", { channel: 7 }],
    ["an empty channel", { channel: "" }],
    ["an unknown kind", { channel: "market:some-market:volume" }],
    ["an upper-case slug", { channel: "market:Some-Market:price" }],
    ["a slug with an underscore", { channel: "market:some_market:price" }],
    ["a missing prefix", { channel: "some-market:price" }],
    ["a slug over 200 characters", { channel: `market:${"a".repeat(201)}:price` }],
    ["a huge channel string", { channel: "x".repeat(10_000) }],
  ];
  for (const [name, payload] of malformed) {
    test(`join – rejects ${name} as a malformed channel`, async () => {
      const s = await client();
      expect(await emitAck(s, "join", payload)).toEqual({ ok: false, error: "Malformed channel" });
    });
  }

  test("join – without a payload still acks, and a join without a callback does not break the socket", async ({ sql }) => {
    const m = await makeMarket(sql, LIVE);
    const s = await client();
    expect(await s.timeout(5_000).emitWithAck("join")).toEqual({ ok: false, error: "Malformed channel" });
    s.emit("join", { channel: `market:${m.slug}:price` }); // no ack callback
    s.emit("join", "garbage");
    expect(await join(s, `market:${m.slug}:orderbook`)).toEqual({ ok: true });
    expect(s.connected).toBe(true);
  });

  test("join – rejects a well-formed channel of an unknown market", async () => {
    const s = await client();
    expect(await join(s, "market:no-such-market-anywhere:price")).toEqual({
      ok: false,
      error: "Unknown market: no-such-market-anywhere",
    });
  });

  test("leave – rejects a malformed channel", async () => {
    const s = await client();
    expect(await emitAck(s, "leave", { channel: "nope" })).toEqual({ ok: false, error: "Malformed channel" });
  });

  test("join – refuses the 101st channel of one socket", async ({ sql }) => {
    const markets = [];
    for (let i = 0; i < 51; i++) markets.push(await makeMarket(sql, { ...LIVE, prefix: "cap" }));
    const s = await client();
    const channels = markets.flatMap((m) => [`market:${m.slug}:price`, `market:${m.slug}:orderbook`]);
    const acks = [];
    for (const ch of channels.slice(0, 100)) acks.push(await join(s, ch));
    expect(acks.every((a) => a.ok)).toBe(true);
    const over = await join(s, channels[100]);
    expect(over.ok).toBe(false);
    expect(over.ok === false && over.error).toMatch(/at most 100/);
    // Re-joining one it already holds is still fine, and leaving makes room.
    expect(await join(s, channels[0])).toEqual({ ok: true });
    expect(await emitAck(s, "leave", { channel: channels[0] })).toEqual({ ok: true });
    expect(await join(s, channels[100])).toEqual({ ok: true });
  });

  test("join – a flood of bad joins from one socket does not delay another client's signals", async ({ sql }) => {
    const m = await makeMarket(sql, LIVE);
    const good = await client();
    const got = collect(good);
    expect(await join(good, `market:${m.slug}:orderbook`)).toEqual({ ok: true });

    const flooder = await client();
    const N = 3000;
    let acked = 0;
    for (let i = 0; i < N; i++) {
      const payload = i % 3 === 0 ? { channel: `market:unknown-${i}:price` } : i % 3 === 1 ? "junk" : { channel: 5 };
      flooder.emit("join", payload, () => acked++);
    }
    const before = Date.now();
    await addOrder(sql, m);
    await waitFor(() => got.length > 0, 5_000, "the good client's signal during the flood");
    expect(got[0]).toMatchObject({ channel: `market:${m.slug}:orderbook`, slug: m.slug });
    expect(got[0].receivedAt - before).toBeLessThan(2_000);
    // Every bad join is answered (most with "too many requests"), and the server keeps serving.
    await waitFor(() => acked === N, 20_000, "acks of every flooded join");
    expect(await join(good, `market:${m.slug}:price`)).toEqual({ ok: true });
  });
});

test.describe("push channels – signals from the database", () => {
  test("orderbook – an order insert signals the market's orderbook channel with the outcome", async ({ sql }) => {
    const m = await makeMarket(sql, LIVE);
    const s = await client();
    const got = collect(s);
    await join(s, `market:${m.slug}:orderbook`);
    await join(s, `market:${m.slug}:price`);
    const committed = Date.now();
    await addOrder(sql, m, { outcome: m.outcomes[1] });
    await waitFor(() => got.length > 0, 10_000, "orderbook signal");
    // Sentinels: a later change on each channel must be that channel's next signal (the book's second, the
    // prices' first), so the insert sent nothing more to either before them.
    const sentinelsAt = Date.now();
    await addOrder(sql, m, { outcome: m.outcomes[0] });
    await addTrades(sql, m, [{ outcome: m.outcomes[0] }]);
    const book = () => got.filter((g) => g.event === "orderbook");
    const prices = () => got.filter((g) => g.event === "price");
    await waitFor(() => book().length >= 2 && prices().length >= 1, 10_000, "the sentinels' signals");
    expect(book()[1]).toMatchObject({ seq: 2, outcomeId: m.outcomes[0] });
    expect(prices()[0].seq).toBe(1);
    expect(prices()[0].receivedAt).toBeGreaterThanOrEqual(sentinelsAt);
    expect(got[0]).toMatchObject({
      event: "orderbook",
      channel: `market:${m.slug}:orderbook`,
      slug: m.slug,
      outcomeId: m.outcomes[1],
      seq: 1,
    });
    expect(got[0].at).toBeGreaterThanOrEqual(committed - 1000);
    expect(got[0].at).toBeLessThanOrEqual(Date.now());
  });

  test("price – a trade insert signals the market's price channel", async ({ sql }) => {
    const m = await makeMarket(sql, LIVE);
    const s = await client();
    const got = collect(s);
    await join(s, `market:${m.slug}:price`);
    await addTrades(sql, m, [{ outcome: m.outcomes[0] }]);
    await waitFor(() => got.length > 0, 10_000, "price signal");
    expect(got[0]).toMatchObject({ event: "price", channel: `market:${m.slug}:price`, slug: m.slug, outcomeId: m.outcomes[0], seq: 1 });
  });

  test("prices-history – a trade announced by a signal is already in the default window", async ({ sql, request }) => {
    const m = await makeMarket(sql, LIVE);
    const s = await client();
    const got = collect(s);
    await join(s, `market:${m.slug}:price`);
    await addTrades(sql, m, [{ price: "0.620" }]);
    await waitFor(() => got.length > 0, 10_000, "price signal");
    // What a client does on the signal: refetch at once, within the same second as the trade.
    const res = await request.get(`/v1/markets/slug/${m.slug}/prices-history?outcomeId=${m.outcomes[0]}`);
    expect((await res.json()).history.map((p: { p: number }) => p.p)).toEqual([0.62]);
  });

  test("orderbook – a cancelled order and a changed venue book signal too; other markets stay quiet", async ({ sql }) => {
    const [m, other] = [await makeMarket(sql, LIVE), await makeMarket(sql, LIVE)];
    const s = await client();
    const got = collect(s);
    await join(s, `market:${m.slug}:orderbook`);
    await join(s, `market:${other.slug}:orderbook`);
    const orderId = await addOrder(sql, m);
    await waitFor(() => got.length === 1, 10_000, "signal of the insert");
    await sleep(COALESCE_MS * 2);
    await sql`UPDATE orders SET status = 'CANCELLED' WHERE id = ${orderId}`;
    await waitFor(() => got.length === 2, 10_000, "signal of the cancel");
    await sleep(COALESCE_MS * 2);
    await sql`UPDATE markets SET external_source = 'Polymarket' WHERE id = ${m.id}`;
    await sql`INSERT INTO external_books (outcome_id, bids, asks, updated_at)
              VALUES (${m.outcomes[0]}, '[{"price":"0.4","shares":"10"}]', '[]', now())`;
    await waitFor(() => got.length === 3, 10_000, "signal of the venue book");
    expect(got.map((g) => [g.slug, g.event, g.seq])).toEqual([
      [m.slug, "orderbook", 1],
      [m.slug, "orderbook", 2],
      [m.slug, "orderbook", 3],
    ]);
  });

  test("coalescing – 50 quick commits reach a client as a few signals, the last one after the last commit", async ({ sql }) => {
    const m = await makeMarket(sql, LIVE);
    const s = await client();
    const got = collect(s);
    await join(s, `market:${m.slug}:orderbook`);
    const started = Date.now();
    for (let i = 0; i < 50; i++) await addOrder(sql, m, { price: "0.300" }); // 50 transactions
    const lastCommit = Date.now();
    await waitFor(() => got.length > 0 && Date.now() - got.at(-1)!.receivedAt > COALESCE_MS * 3, 10_000, "quiet");
    const maxSignals = Math.ceil((lastCommit - started) / COALESCE_MS) + 2;
    expect(got.length).toBeLessThan(50);
    expect(got.length).toBeLessThanOrEqual(maxSignals);
    expect(got.at(-1)!.receivedAt).toBeGreaterThanOrEqual(lastCommit);
    expect(got.map((g) => g.seq)).toEqual(got.map((_, i) => i + 1)); // no gaps
    for (let i = 1; i < got.length; i++) expect(got[i].at - got[i - 1].at).toBeGreaterThanOrEqual(COALESCE_MS - 5);
  });

  test("bulk – one statement writing many rows of several outcomes sends one signal per channel", async ({ sql }) => {
    const m = await makeMarket(sql, { ...LIVE, outcomes: 3 });
    const s = await client();
    const got = collect(s);
    await join(s, `market:${m.slug}:orderbook`);
    await sql`
      INSERT INTO orders (id, market_id, outcome_id, user_id, side, type, price, shares, filled_shares, status, created_at)
      SELECT gen_random_uuid(), ${m.id}, (${m.outcomes}::uuid[])[1 + g % 3], ${m.users[0]}, 'BUY', 'LIMIT', 0.2, 1, 0, 'OPEN', now()
      FROM generate_series(1, 500) g`;
    await waitFor(() => got.length > 0, 10_000, "signal of the bulk insert");
    // Sentinel: one more write; every signal sent before it was made (`at`, this machine's clock) is the bulk insert's.
    const sentinelAt = Date.now();
    await addOrder(sql, m, { outcome: m.outcomes[0] });
    await waitFor(() => got.some((g) => g.at >= sentinelAt), 10_000, "a signal after the sentinel");
    const bulk = got.filter((g) => g.at < sentinelAt);
    // The first notification goes out at once (naming its outcome), the rest fold into one.
    expect(bulk.length).toBeLessThanOrEqual(2);
    if (bulk.length === 2) expect(bulk[1].outcomeId).toBeNull();
  });

  test("import – lib/import signals the channels of the markets it touches", async ({ sql }) => {
    const { importFile } = await import("../../lib/import/import");
    const m = await makeMarket(sql, LIVE);
    const s = await client();
    const got = collect(s);
    await join(s, `market:${m.slug}:orderbook`);
    await join(s, `market:${m.slug}:price`);
    const now = new Date().toISOString();
    await importFile(sql, {
      orders: [
        {
          id: crypto.randomUUID(),
          market_id: m.id,
          outcome_id: m.outcomes[0],
          user_id: m.users[0],
          side: "SELL",
          type: "LIMIT",
          price: "0.700",
          shares: "12.00",
          filled_shares: "0.00",
          status: "OPEN",
          created_at: now,
        },
      ],
      trades: [
        {
          id: crypto.randomUUID(),
          market_id: m.id,
          outcome_id: m.outcomes[0],
          price: "0.650",
          shares: "3",
          maker_user_id: m.users[0],
          taker_user_id: null,
          executed_at: now,
        },
      ],
    });
    await waitFor(() => only(got, "orderbook").length > 0 && only(got, "price").length > 0, 10_000, "both signals");
  });

  test("simulator – its ticks trade a market within the schema and signal both channels", async ({ sql }) => {
    const { simulateTick, simulatorUsers } = await import("../../lib/simulator/simulator");
    const m = await makeMarket(sql, { ...LIVE, outcomes: 3, probability: [50, 30, 20] });
    const s = await client();
    const got = collect(s);
    await join(s, `market:${m.slug}:orderbook`);
    await join(s, `market:${m.slug}:price`);
    const users = await simulatorUsers(sql);
    const results: string[] = [];
    for (let i = 0; i < 60; i++) results.push(await simulateTick(sql, m.id, users));
    expect(results).toContain("traded");
    await waitFor(() => only(got, "orderbook").length > 0 && only(got, "price").length > 0, 10_000, "both signals");

    const [{ sum }] = await sql`SELECT sum(probability)::text AS sum FROM outcomes WHERE market_id = ${m.id}`;
    expect(sum).toBe("100.00");
    const [vol] = await sql`
      SELECT (SELECT total_volume FROM markets WHERE id = ${m.id})::text AS stored,
             (SELECT coalesce(sum(price * shares), 0) FROM trades WHERE market_id = ${m.id})::numeric(30,6)::text AS traded`;
    expect(vol.stored).toBe(vol.traded);
    const crossed = await sql`
      SELECT outcome_id FROM orders WHERE market_id = ${m.id} AND type = 'LIMIT' AND status IN ('OPEN', 'PARTIALLY_FILLED')
      GROUP BY outcome_id HAVING max(price) FILTER (WHERE side = 'BUY') >= min(price) FILTER (WHERE side = 'SELL')`;
    expect(crossed).toEqual([]);
    const [liq] = await sql`
      SELECT (SELECT total_liquidity FROM markets WHERE id = ${m.id})::text AS stored,
             (SELECT coalesce(sum(price * (shares - filled_shares)), 0) FROM orders WHERE market_id = ${m.id}
                AND type = 'LIMIT' AND status IN ('OPEN', 'PARTIALLY_FILLED'))::numeric(30,6)::text AS resting`;
    expect(liq.stored).toBe(liq.resting);
  });
});

test.describe("push channels – resilience", () => {
  test.describe(() => {
    // An instance of its own over a database of its own, which the test then closes to connections.
    let db: Awaited<ReturnType<typeof createDatabase>> | undefined;
    let instance: Instance | undefined;
    test.afterAll(async () => {
      await instance?.stop();
      await db?.drop();
    });

    test("LISTEN – while the database refuses connections the instance retries with backoff, not in a loop, then resumes", async () => {
      test.setTimeout(240_000);
      test.skip(process.env.TEST_DEV === "1", "Next refuses a second dev server in one directory; runs against the production build");
      db = await createDatabase("markets_test_outage");
      const { admin, name: database, url } = db;
      instance = await startInstance(
        { DATABASE_URL: url, LOG_REQUESTS: "0", REALTIME_HEARTBEAT_MS: "1000", REALTIME_RETRY_MAX_MS: "2000" },
        { timeoutMs: 170_000 },
      );
      const output = instance.output;

      const own = postgres(url, { max: 1, onnotice: () => {} });
      const m = await makeMarket(own, LIVE);
      await own.end();
      const s = await client(instance.baseURL);
      const got = collect(s);
      expect(await join(s, `market:${m.slug}:price`)).toEqual({ ok: true });
      expect(await join(s, `market:${m.slug}:orderbook`)).toEqual({ ok: true });

      // How much CPU this costs (postgres.js's own re-LISTEN loop spun a core here) is measured by
      // npm run bench:listen-outage: CPU time over fixed windows depends on the machine's load.
      const WINDOW_MS = 12_000;
      await admin.unsafe(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS false`);
      await admin`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ${database}`;
      const before = output().length;
      await sleep(WINDOW_MS);
      const attempts =
        output()
          .slice(before)
          .match(/reconnect attempt \d+/g) ?? [];
      // Backoff from 0.5 s doubling to the 2 s cap: about 8 attempts in 12 s.
      expect(attempts.length).toBeGreaterThanOrEqual(3);
      expect(attempts.length).toBeLessThanOrEqual(12);
      expect(s.connected).toBe(true);

      await admin.unsafe(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS true`);
      await waitFor(() => only(got, "price").length > 0 && only(got, "orderbook").length > 0, 15_000, "resync signals");
      expect(got.every((g) => g.outcomeId === null)).toBe(true);
      // The signals travel by socket, the log line by the child's stdout: either may reach the test first.
      await waitFor(() => /LISTEN resumed: signalled 2 channel\(s\)/.test(output()), 5_000, "the resume logged");
      const n = got.length;
      await sleep(COALESCE_MS * 2);
      const again = postgres(url, { max: 1, onnotice: () => {} });
      await addOrder(again, m);
      await again.end();
      await waitFor(() => got.length > n && got.at(-1)!.outcomeId === m.outcomes[0], 10_000, "a write's signal after LISTEN resumed");
    });
  });

  test.describe(() => {
    let second: Instance | undefined;
    test.afterAll(async () => {
      await second?.stop();
    });

    test("instances – two app instances on one database both deliver a write's signal", async ({ sql }) => {
      test.setTimeout(180_000);
      // A production instance beside the test server: two `next dev` cannot share one directory.
      test.skip(!fs.existsSync(path.join(process.env.NEXT_DIST_DIR || ".next", "BUILD_ID")), "needs a production build (npm test makes one)");
      second = await startInstance({ DATABASE_URL: testRun().databaseUrl });
      const baseURL = second.baseURL;

      const m = await makeMarket(sql, LIVE);
      const [a, b] = [await client(), await client(baseURL)];
      const [gotA, gotB] = [collect(a), collect(b)];
      for (const s of [a, b]) expect(await join(s, `market:${m.slug}:orderbook`)).toEqual({ ok: true });
      await addOrder(sql, m);
      await waitFor(() => gotA.length > 0 && gotB.length > 0, 10_000, "a signal on both instances");
      for (const got of [gotA, gotB]) expect(got[0]).toMatchObject({ slug: m.slug, outcomeId: m.outcomes[0], seq: 1 });
    });
  });
});
