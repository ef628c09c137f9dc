// The cluster of `npm run cluster` under test: PostgreSQL primary + streaming replica, two app
// instances, HAProxy in front. Every request goes through HAProxy; writes go straight to the primary,
// as the simulator's or an importer's would. The tests run in order and share one cluster.
import fs from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { io, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bookChecksum } from "@/lib/markets/book-checksum";
import type { OrderBook } from "@/lib/markets/schemas";
import type { Signal } from "@/lib/realtime/channels";
import { sleep } from "@/lib/dev/tools";
import { join, waitFor } from "../realtime-helpers";
import { holdLock, lockWaiters } from "../support/locks";
import { addOrder, addTrades, makeMarket, type TestMarket } from "../support/markets";
import { openStream } from "../support/sse";
import { freePort } from "@/lib/dev/tools";
import { startCluster, type Cluster } from "../../scripts/cluster/topology";

const dir = path.join(process.cwd(), ".data", `cluster-test-${process.pid}`);
let cluster: Cluster;
let primary: postgres.Sql;
let replica: postgres.Sql;

beforeAll(async () => {
  const port = process.env.TEST_PORT ? Number(process.env.TEST_PORT) : await freePort();
  // Fewer markets than the demo: these tests write their own and only need a list to compare.
  cluster = await startCluster({ dir, port, seed: { markets: 60, tradesPerOutcome: 40 }, log: (m) => console.log(`[cluster] ${m}`) });
  primary = postgres(cluster.primaryUrl, { max: 2, onnotice: () => {} });
  replica = postgres(cluster.replicaUrl, { max: 1, onnotice: () => {} });
}, 600_000);

afterAll(async () => {
  await primary?.end();
  await replica?.end({ timeout: 0 });
  await cluster?.stop();
  // KEEP_CLUSTER_DIR=1 keeps the logs of a failed run (app*.log, primary.log, replica.log) to read.
  if (!process.env.KEEP_CLUSTER_DIR) fs.rmSync(dir, { recursive: true, force: true });
}, 120_000);

/** GET through HAProxy; `server` pins the request to one instance with HAProxy's SRV cookie. */
async function get(pathAndQuery: string, server?: string) {
  const res = await fetch(`${cluster.baseURL}${pathAndQuery}`, { headers: server ? { cookie: `SRV=${server}` } : {} });
  return { status: res.status, servedBy: res.headers.get("x-served-by"), body: res.ok ? await res.json() : await res.text() };
}

const bookPath = (m: TestMarket) => `/v1/markets/slug/${m.slug}/orderbook?outcomeId=${m.outcomes[0]}`;
const bidPrices = (book: { bids: { price: string }[] }) => book.bids.map((b) => b.price);

/** A socket.io client through HAProxy, pinned to `server` by its SRV cookie when given. */
async function connect(opts: { server?: string; transport?: "websocket" | "polling" } = {}) {
  const socket = io(cluster.baseURL, {
    path: "/socket.io",
    transports: [opts.transport ?? "websocket"],
    forceNew: true,
    reconnectionDelay: 200,
    reconnectionDelayMax: 1000,
    withCredentials: true, // keeps HAProxy's cookie (engine.io-client's cookie jar under Node)
    extraHeaders: opts.server ? { cookie: `SRV=${opts.server}` } : {},
  });
  await new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error("no socket.io connection through HAProxy")), 15_000);
    socket.once("connect", () => (clearTimeout(t), resolve()));
  });
  return socket;
}

function signals(socket: Socket) {
  const got: Signal[] = [];
  socket.on("orderbook", (s: Signal) => got.push(s));
  return got;
}

/** Client queries that a replica served: backends whose last statement read a table of the app (not the probes). */
async function replicaServedReads() {
  const [{ n }] = await replica<{ n: number }[]>`
    SELECT count(*)::int AS n FROM pg_stat_activity
     WHERE datname = 'markets' AND pid <> pg_backend_pid()
       AND query ILIKE ANY (ARRAY['%from markets%', '%from market_counts%', '%from trades%', '%from outcomes%'])`;
  return n;
}

describe("cluster – through HAProxy", () => {
  it("list, market, book and history are correct, and both instances serve them", async () => {
    const [{ total }] = await primary<{ total: number }[]>`SELECT count(*)::int AS total FROM markets WHERE status = 'ACTIVE'`;
    // Each instance loaded the list items before its port opened, though its change stream is heard only
    // once the replica has replayed the primary's position (lib/markets/reads/lists/item-warm-up.ts waits for that).
    for (const name of ["app1", "app2"]) {
      const log = fs.readFileSync(path.join(dir, `${name}.log`), "utf8");
      expect(log, name).toContain(`warmed up: list items of ${total} of ${total} ACTIVE markets`);
    }
    const top = await primary<{ slug: string }[]>`SELECT slug FROM markets WHERE status = 'ACTIVE' ORDER BY created_at DESC, id DESC LIMIT 5`;
    const served = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const list = await get("/v1/markets?limit=5");
      expect(list.status).toBe(200);
      expect(list.body.total).toBe(total);
      expect(list.body.markets.map((m: { slug: string }) => m.slug)).toEqual(top.map((t) => t.slug));
      served.add(list.servedBy!);
    }
    expect([...served].sort()).toEqual(["app1", "app2"]);

    const m = await makeMarket(primary, { prefix: "cl", status: "ACTIVE" });
    await addOrder(primary, m, { price: "0.410" });
    await addTrades(primary, m, [{ price: "0.420" }]);
    // The replica replays within milliseconds here (no delay yet): poll until both instances see it.
    for (const server of ["app1", "app2"]) {
      await expect.poll(async () => (await get(`/v1/markets/slug/${m.slug}`, server)).status, { timeout: 10_000 }).toBe(200);
      const market = await get(`/v1/markets/slug/${m.slug}`, server);
      expect(market.servedBy).toBe(server);
      expect(market.body).toMatchObject({ id: m.id, slug: m.slug });
      expect(market.body.outcomes.map((o: { id: string }) => o.id)).toEqual(m.outcomes);
      await expect.poll(async () => bidPrices((await get(bookPath(m), server)).body), { timeout: 10_000 }).toEqual(["0.410"]);
      const history = await get(`/v1/markets/slug/${m.slug}/prices-history?outcomeId=${m.outcomes[0]}`, server);
      expect(history.body.history.map((h: { p: number }) => h.p)).toEqual([0.42]);
    }
    expect(await replicaServedReads()).toBeGreaterThan(0);
  });

  it("Socket.IO's polling fallback keeps its session: the SRV cookie pins it to one instance", async () => {
    const socket = await connect({ transport: "polling" });
    try {
      const m = await makeMarket(primary, { prefix: "cl", status: "ACTIVE" });
      await expect.poll(async () => (await join(socket, `market:${m.slug}:orderbook`)).ok, { timeout: 10_000 }).toBe(true);
      const got = signals(socket);
      await addOrder(primary, m, { price: "0.300" });
      await waitFor(() => got.length > 0, 10_000, "a signal over long-polling");
      expect(socket.connected).toBe(true);
    } finally {
      socket.close();
    }
  });

  it("a client that keeps no cookies, with socket.io-client's default transports, connects through HAProxy and gets signals", async () => {
    // Long-polling first, then the upgrade: every request names its session (?sid=app1.…), which routes it.
    // Several clients, so that round robin would have split some session's requests across the instances.
    const m = await makeMarket(primary, { prefix: "cl", status: "ACTIVE" });
    const clients = Array.from({ length: 6 }, () => io(cluster.baseURL, { path: "/socket.io", forceNew: true, reconnection: false, withCredentials: false }));
    try {
      const errors: string[] = [];
      for (const c of clients) c.on("connect_error", (e) => errors.push(e.message));
      await waitFor(() => clients.every((c) => c.connected) || errors.length > 0, 15_000, "six cookie-less connections");
      expect(errors).toEqual([]);
      const sessions = clients.map((c) => c.io.engine.id);
      expect(new Set(sessions.map((id) => id.split(".")[0]))).toEqual(new Set(["app1", "app2"]));
      for (const c of clients) expect(await join(c, `market:${m.slug}:orderbook`)).toEqual({ ok: true });
      const got = clients.map((c) => signals(c));
      await addOrder(primary, m, { price: "0.330" });
      await waitFor(() => got.every((g) => g.length > 0), 10_000, "a signal on every cookie-less client");
      await waitFor(() => clients.every((c) => c.io.engine.transport.name === "websocket"), 10_000, "the upgrade to WebSocket");
      expect(clients.map((c) => c.io.engine.id)).toEqual(sessions); // the same session, upgraded on its own instance
    } finally {
      for (const c of clients) c.close();
    }
  });

  it("a socket on app1 receives the signal of a write, and app2 serves the refetch with that write", async () => {
    const m = await makeMarket(primary, { prefix: "cl", status: "ACTIVE" });
    const socket = await connect({ server: "app1" });
    try {
      await expect.poll(async () => (await join(socket, `market:${m.slug}:orderbook`)).ok, { timeout: 10_000 }).toBe(true);
      const got = signals(socket);
      await addOrder(primary, m, { price: "0.510" });
      await waitFor(() => got.length > 0, 10_000, "the signal on app1");
      const book = await get(bookPath(m), "app2");
      expect(book.servedBy).toBe("app2");
      expect(bidPrices(book.body)).toEqual(["0.510"]);
    } finally {
      socket.close();
    }
  });
});

describe("cluster – streams resume from a position on the other instance", () => {
  it("a stream cut for 30 s and resumed on app2 with Last-Event-ID gets exactly the events it missed, in order, none twice; so does a socket joining with since", async () => {
    const m = await makeMarket(primary, { prefix: "cl-resume", status: "ACTIVE" });
    // The stream names a market the instances know: they read the replica, which may not have replayed it yet.
    await expect.poll(async () => (await replica`SELECT 1 FROM markets WHERE id = ${m.id}`).length, { timeout: 10_000 }).toBe(1);
    const channels = [`market:${m.slug}:orderbook`, `market:${m.slug}:trades`, `market:${m.slug}:price`];
    const url = `${cluster.baseURL}/v1/stream?channels=${encodeURIComponent(channels.join(","))}`;
    const pinned = async (server: string, extra: Record<string, string> = {}) => {
      const stream = await openStream(url, { cookie: `SRV=${server}`, ...extra });
      expect(stream.status, `the stream on ${server}`).toBe(200);
      return stream;
    };
    const all = await pinned("app1"); // never cut: what the resumed one must end up with
    const first = await pinned("app1");
    const streams = [all, first];
    try {
      await Promise.all(streams.map((s) => s.waitFor((ev) => ev.length > 0, 10_000, "the opening heartbeat")));
      await addOrder(primary, m, { price: "0.410" });
      await first.waitFor((ev) => ev.some((e) => e.event === "orderbook"), 10_000, "the first book event");
      first.close();
      const lastId = first.lastId() as string;
      // 30 s away: a write a second, books, trades and probabilities.
      for (let i = 0; i < 30; i++) {
        if (i % 3 === 0) await addOrder(primary, m, { price: `0.4${i % 10}0`, outcome: i % 2 ? m.no : m.yes });
        else if (i % 3 === 1) await addTrades(primary, m, [{ price: "0.450", outcome: i % 2 ? m.no : m.yes }]);
        else await primary`UPDATE outcomes SET probability = ${40 + i} WHERE id = ${m.yes}`;
        await sleep(1000);
      }
      const socket = await connect({ server: "app2" });
      const replayed: Array<Record<string, unknown>> = [];
      socket.on("orderbook", (sig: Record<string, unknown>) => replayed.push(sig));
      const again = await pinned("app2", { "Last-Event-ID": lastId });
      streams.push(again);
      const ack = await socket.timeout(10_000).emitWithAck("join", { channel: channels[0], since: Number(lastId) });
      expect(ack).toMatchObject({ ok: true });
      await addOrder(primary, m, { price: "0.499" }); // one after the return
      await all.waitFor(
        (ev) => ev.some((e) => e.event === "orderbook" && e.data.book && JSON.stringify(e.data.book).includes("0.499")),
        15_000,
        "the last book",
      );
      const expected = all.changes().filter((e) => Number(e.id) > Number(lastId));
      await again.waitFor((ev) => ev.filter((e) => e.event !== "heartbeat").length >= expected.length, 15_000, "every missed event");
      await sleep(500);
      const brief = (e: { id?: string; event: string; data: Record<string, unknown> }) => `${e.id} ${e.event} ${e.data.channel}`;
      expect(again.changes().map(brief)).toEqual(expected.map(brief));
      expect(again.changes().map((e) => e.data)).toEqual(expected.map((e) => e.data));
      expect(again.headers.get("x-served-by")).toBe("app2");
      // The socket: the missed book events of its channel, as the stream sends them, by position.
      const books = expected.filter((e) => e.event === "orderbook");
      const seen = new Map<number, Record<string, unknown>>();
      for (const { replay, seq, ...sig } of replayed) if (typeof sig.position === "number" && !seen.has(sig.position)) seen.set(sig.position, sig);
      for (const b of books.slice(0, -1)) expect(seen.get(Number(b.id)), `book event at ${b.id}`).toEqual(b.data);
      socket.close();
    } finally {
      for (const s of streams) s.close();
    }
  }, 120_000);
});

describe("cluster – a push never outruns the data (replica held back by recovery_min_apply_delay)", () => {
  beforeAll(() => cluster.replica.setApplyDelay(2000));
  afterAll(() => cluster.replica.setApplyDelay(0));

  it.each(["app1", "app2"])("a client on %s that refetches after each signal gets the new order, though the replica has not replayed it", async (server) => {
    const m = await makeMarket(primary, { prefix: "lag", status: "ACTIVE" });
    // The market itself reaches the replica first, so that what differs is only the new orders.
    await expect.poll(async () => (await replica`SELECT 1 FROM markets WHERE id = ${m.id}`).length, { timeout: 10_000 }).toBe(1);
    const socket = await connect({ server });
    try {
      expect((await join(socket, `market:${m.slug}:orderbook`)).ok).toBe(true);
      const got = signals(socket);
      for (let i = 1; i <= 3; i++) {
        const price = `0.${600 + i}`;
        await addOrder(primary, m, { price });
        await waitFor(() => got.length >= i, 10_000, `signal ${i}`);
        // Any instance, round robin: each heard the NOTIFY too.
        const book = await get(bookPath(m));
        expect(book.status).toBe(200);
        expect(bidPrices(book.body), `refetch ${i} served by ${book.servedBy}`).toContain(price);
        // The replica really is behind: read it directly.
        const [row] = await replica`SELECT count(*)::int AS n FROM orders WHERE market_id = ${m.id} AND price = ${price}`;
        expect(row.n, "the replica should still lack the order (the test would prove nothing)").toBe(0);
      }
    } finally {
      socket.close();
    }
  });
});

describe("cluster – book versions with the replica held back", () => {
  beforeAll(() => cluster.replica.setApplyDelay(2000));
  afterAll(() => cluster.replica.setApplyDelay(0));

  it("book versions agree across both instances and the lagging replica; a header never disagrees with its body", async () => {
    const m = await makeMarket(primary, { prefix: "ver", status: "ACTIVE" });
    await expect.poll(async () => (await replica`SELECT 1 FROM markets WHERE id = ${m.id}`).length, { timeout: 10_000 }).toBe(1);
    const sockets = [await connect({ server: "app1" }), await connect({ server: "app2" })];
    const headOf = async (db: postgres.Sql) =>
      Number((await db<{ v: number }[]>`SELECT coalesce((SELECT version FROM book_heads WHERE outcome_id = ${m.outcomes[0]}), 0)::float8 AS v`)[0].v);
    try {
      const got = sockets.map(signals);
      for (const s of sockets) expect((await join(s, `market:${m.slug}:orderbook`)).ok).toBe(true);
      let last = 0;
      for (let i = 1; i <= 3; i++) {
        await addOrder(primary, m, { price: `0.${500 + i}` });
        const version = await headOf(primary);
        expect(version).toBeGreaterThan(last); // only grows
        last = version;
        // Both instances signal the same version with the book it names.
        for (const g of got) await waitFor(() => g.some((x) => x.version === version), 10_000, `signal of version ${version}`);
        const carried = got.map((g) => g.find((x) => x.version === version)!);
        expect(carried[0].book).toEqual(carried[1].book);
        expect(carried[0].checksum).toBe(bookChecksum(carried[0].book as OrderBook));
        // Either instance answers that version, with the book and checksum that go with it, though the replica lags.
        for (const server of ["app1", "app2"]) {
          const res = await fetch(`${cluster.baseURL}${bookPath(m)}`, { headers: { cookie: `SRV=${server}` } });
          const body = (await res.json()) as OrderBook;
          expect(Number(res.headers.get("book-version")), server).toBe(version);
          expect(body).toEqual(carried[0].book);
          expect(Number(res.headers.get("book-checksum"))).toBe(bookChecksum(body));
        }
        // The replica itself is behind: an older version, whatever it answers is older.
        expect(await headOf(replica), "the replica should still be behind (the test would prove nothing)").toBeLessThan(version);
      }
      // Once it replays, the replica holds the same version and the same served book.
      await expect.poll(() => headOf(replica), { timeout: 15_000 }).toBe(last);
      const [{ text }] = await replica<{ text: string }[]>`SELECT book_levels_text(${m.outcomes[0]}) AS text`;
      const book = got[0].find((x) => x.version === last)!.book as OrderBook;
      expect(text).toBe([...book.bids.map((l) => `b ${l.price} ${l.shares}`), ...book.asks.map((l) => `a ${l.price} ${l.shares}`)].join(","));
    } finally {
      for (const s of sockets) s.close();
    }
  });
});

describe("cluster – failures", () => {
  it("the replica stopped: reads continue from the primary, then return to the replica when it is back", async () => {
    const m = await makeMarket(primary, { prefix: "cl", status: "ACTIVE" });
    await cluster.replica.stop();
    try {
      const failures: number[] = [];
      // A new TRENDING page each time (a list sorted by a stored key is a slice of an order held in
      // memory, lib/markets/list-index.ts): an answer held in memory would need no database at all.
      for (let i = 0; i < 20; i++) {
        const res = await get(`/v1/markets?limit=3&sortBy=TRENDING&offset=${100 + i}`);
        if (res.status !== 200) failures.push(res.status);
        await sleep(50);
      }
      expect(failures).toEqual([]);
      await addOrder(primary, m, { price: "0.700" });
      for (const server of ["app1", "app2"]) expect(bidPrices((await get(bookPath(m), server)).body)).toEqual(["0.700"]);
    } finally {
      await cluster.replica.start();
    }
    // Within a probe interval the instances read from the replica again (reads that miss the cache).
    let offset = 200;
    await expect
      .poll(
        async () => {
          offset++;
          const path = `/v1/markets?limit=3&sortBy=TRENDING&offset=${offset}`;
          await Promise.all([get(path, "app1"), get(path, "app2")]);
          return replicaServedReads();
        },
        { timeout: 15_000, interval: 500 },
      )
      .toBeGreaterThanOrEqual(2);
  });

  it("a replica ends the session under a read: the read answers from the primary, and the breaker stays closed", async () => {
    const app2 = cluster.instances[1];
    // The read must wait on the replica. While app2 has not yet seen the replica up again (the test before
    // stopped it), or while the replica is `behind` (it did not replay a commit app2 announced within
    // DATABASE_REPLICA_WAIT_MS), app2 reads the primary, where the lock holds the read too: /readyz is waited
    // for first, and an attempt whose read went to the primary all the same proves nothing and is made again.
    let endedOnReplica = 0;
    for (let attempt = 1; attempt <= 3 && !endedOnReplica; attempt++) {
      const m = await makeMarket(primary, { prefix: "cl", status: "ACTIVE" });
      await expect.poll(async () => (await replica`SELECT 1 FROM markets WHERE id = ${m.id}`).length, { timeout: 10_000 }).toBe(1);
      await expect
        .poll(async () => (await (await fetch(`${app2.baseURL}/readyz`)).json()).replicas, { timeout: 10_000 })
        .toEqual({ up: 1, behind: 0, total: 1 });
      const logBefore = fs.readFileSync(path.join(dir, "app2.log"), "utf8").length;
      // Hold a read on the replica: a lock taken on the primary is replayed there (market detail reads comments).
      const lock = await holdLock(primary, "comments");
      try {
        await expect
          .poll(async () => (await replica`SELECT 1 FROM pg_locks WHERE relation = 'comments'::regclass AND mode = 'AccessExclusiveLock'`).length, {
            timeout: 10_000,
            interval: 20,
          })
          .toBe(1);
        const read = get(`/v1/markets/slug/${m.slug}`, "app2");
        // app2's session on the replica, waiting for the replayed lock (well within the 1 s lock timeout), ended.
        const waiting = await lockWaiters(replica, 5000);
        if (!waiting.length) {
          await lock.release();
          const res = await read;
          console.log(`[cluster] attempt ${attempt}: the read went to the primary (${res.status}); again`);
          continue;
        }
        expect(waiting.length).toBe(1);
        await replica`SELECT pg_terminate_backend(${waiting[0]})`;
        endedOnReplica++;
        await sleep(50);
        await lock.release();
        const res = await read;
        expect(res.status, String(res.body)).toBe(200);
        expect(res.servedBy).toBe("app2");
        expect(res.body).toMatchObject({ id: m.id, slug: m.slug });
      } finally {
        await lock.release();
      }
      expect(fs.readFileSync(path.join(dir, "app2.log"), "utf8").slice(logBefore)).not.toContain("database unavailable");
    }
    expect(endedOnReplica, "no attempt's read waited on the replica").toBe(1);
  });

  it("app1 killed: its clients reconnect through HAProxy to app2, rejoin and refetch, and miss nothing", async () => {
    const m = await makeMarket(primary, { prefix: "cl", status: "ACTIVE" });
    const channel = `market:${m.slug}:orderbook`;
    const socket = await connect({ server: "app1" });
    // The client of the README: on every (re)connect it joins again and refetches.
    const seen: { connection: number; seq: number }[] = [];
    let connection = 0;
    let book: string[] = [];
    const failed: string[] = [];
    const refetch = async () => {
      const res = await get(bookPath(m), "app2");
      if (res.status === 200) book = bidPrices(res.body);
      else failed.push(`${res.status} from ${res.servedBy}: ${String(res.body).slice(0, 200)}`);
    };
    socket.on("orderbook", (s: Signal) => {
      seen.push({ connection, seq: s.seq });
      void refetch();
    });
    socket.io.on("reconnect", async () => {
      connection++;
      await join(socket, channel);
      await refetch();
    });
    try {
      expect((await join(socket, channel)).ok).toBe(true);
      await addOrder(primary, m, { price: "0.200" });
      await waitFor(() => seen.length === 1, 10_000, "the first signal");

      await cluster.instances[0].kill();
      await addOrder(primary, m, { price: "0.210" }); // committed while the client has no socket
      await waitFor(() => connection === 1 && socket.connected, 30_000, "the reconnect through HAProxy");
      await waitFor(() => book.includes("0.210") || failed.length > 0, 10_000, "the refetch after the reconnect");
      expect(failed).toEqual([]);

      await addOrder(primary, m, { price: "0.220" });
      await waitFor(() => book.includes("0.220"), 10_000, "the signal from app2");
      expect(book).toEqual(["0.220", "0.210", "0.200"]);
      // seq counts per instance: 1 on app1, then from 1 again on app2, never a jump within one.
      expect(seen[0]).toEqual({ connection: 0, seq: 1 });
      const onApp2 = seen.filter((s) => s.connection === 1).map((s) => s.seq);
      expect(onApp2.length).toBeGreaterThan(0);
      expect(onApp2).toEqual(onApp2.map((_, i) => i + 1));
    } finally {
      socket.close();
      await cluster.instances[0].start();
    }
  });
});
