// Positions (docs/api.md "Positions", migration 0021): every announced change is numbered at its commit, in
// commit order, kept in change_log for the retention window, and carried by its NOTIFY as `p`; each market
// keeps the position of its last market-level change (market_positions, the markets feed), moved after the
// commit by market_positions_apply() (migration 0022), which the tests call where a server's applier would.
// In a database of its own: retention trims the whole log, and the ordering test counts every change there is.
import postgres from "postgres";
import { migrate } from "@/lib/db/migrate";
import { changeLogBounds, readChanges } from "@/lib/events/change-log";
import { startChangeLogSweeper, sweepChangeLog } from "@/lib/events/change-log-sweeper";
import { applyMarketPositions } from "@/lib/events/feed-applier";
import { expect, test } from "../fixtures";
import { createDatabase } from "../support/instance";
import { addOrder, addTrades, makeMarket, uniqueSlug } from "../support/markets";

type Sql = postgres.Sql;
let db: Awaited<ReturnType<typeof createDatabase>>;
let sql: Sql;

test.describe.configure({ mode: "serial", timeout: 120_000 });

test.beforeAll(async () => {
  db = await createDatabase("markets_test_positions");
  sql = postgres(db.url, { max: 4, onnotice: () => {} });
  await migrate(sql, () => {});
});

test.afterAll(async () => {
  await sql?.end();
  await db?.drop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const MARKET_KINDS = ["list", "price", "detail", "market"];

/** A resting bid that changes one level of the outcome's book (bids 0.100–0.399: never crossed). */
const bid = (outcome: string) => ({ outcome, side: "BUY" as const, price: (0.1 + Math.floor(Math.random() * 300) / 1000).toFixed(3) });

/** More markets in one statement than it names (5,000, migration 0032): one announcement that names none. */
const UNNAMED = 5_001;

/** `n` markets in one statement (UNNAMED by default: their announcement names none); their ids. */
async function bulkMarkets(prefix: string, n = UNNAMED): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    INSERT INTO markets (id, slug, question, description, category, sub_category, type, status, trading_starts_at, trading_ends_at, platform_fee, spread, image_url)
    SELECT gen_random_uuid(), ${prefix} || '-' || g, 'Bulk ' || g || '?', '', 'OTHER', 'Tests', 'BINARY', 'LOCKED',
           now() - interval '1 day', now() + interval '30 days', 0.02, 1, '/market-images/other-1.svg'
      FROM generate_series(1, ${n}::int) g
    RETURNING id`;
  return rows.map((r) => r.id);
}

async function head(): Promise<number> {
  const [{ p }] = await sql<{ p: number }[]>`SELECT coalesce(max(position), 0)::float8 AS p FROM change_log`;
  return p;
}

/** Collects the NOTIFY payloads of this database until `close`. */
async function listen() {
  const heard: Array<Record<string, unknown>> = [];
  const listener = postgres(db.url, { max: 1, onnotice: () => {} });
  await listener.listen("market_events", (payload) => heard.push(JSON.parse(payload)));
  return { heard, close: () => listener.end() };
}

test("positions – concurrent writers commit in position order: a reader never finds a change behind the position it reached, every committed change is logged once, NOTIFYs arrive in position order", async () => {
  const WRITERS = 8;
  const TRANSACTIONS = 60; // per writer
  const markets = await Promise.all(Array.from({ length: 8 }, () => makeMarket(sql, { prefix: "pos-order" })));
  const outcomes = markets.flatMap((m) => m.outcomes.map((o) => ({ m, o })));
  const start = await head();
  const { heard, close } = await listen();

  // The reader: polls past the last position it saw, and after each poll counts what the log holds up to it.
  const reader = postgres(db.url, { max: 1, onnotice: () => {} });
  const seen: number[] = [];
  const behind: string[] = [];
  let writing = true;
  const reading = (async () => {
    let last = start;
    let missed = 0;
    for (;;) {
      const done = !writing;
      const rows = await reader<{ p: number }[]>`SELECT position::float8 AS p FROM change_log WHERE position > ${last} ORDER BY position`;
      for (const { p } of rows) {
        if (p <= last) behind.push(`${p} after ${last}`);
        seen.push(p);
        last = p;
      }
      const [{ n }] = await reader<{ n: number }[]>`SELECT count(*)::int AS n FROM change_log WHERE position > ${start} AND position <= ${last}`;
      if (n - seen.length > missed) behind.push(`${n - seen.length - missed} change(s) committed at or below ${last} after the reader passed it`);
      missed = Math.max(missed, n - seen.length);
      if (done) break;
      await sleep(Math.random() * 3);
    }
  })();

  // The writers: each transaction changes one outcome's book and its probability, sleeping between its
  // statements and before its commit so that commits interleave; one in ten rolls back.
  const pool = postgres(db.url, { max: WRITERS, onnotice: () => {} });
  const committed = new Map<string, number>(outcomes.map(({ o }) => [o, 0]));
  let rolledBack = 0;
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      for (let i = 0; i < TRANSACTIONS; i++) {
        const { m, o } = outcomes[Math.floor(Math.random() * outcomes.length)];
        const rollback = Math.random() < 0.1;
        try {
          await pool.begin(async (tx) => {
            await addOrder(tx, m, bid(o));
            await sleep(Math.random() * 6);
            await tx`UPDATE outcomes SET probability = CASE WHEN probability >= 90 THEN 10 ELSE probability + 1 END WHERE id = ${o}`;
            await sleep(Math.random() * 6);
            if (rollback) throw new Error("rolled back");
          });
          committed.set(o, committed.get(o)! + 1);
        } catch (err) {
          if ((err as Error).message !== "rolled back") throw err;
          rolledBack++;
        }
      }
    }),
  );
  writing = false;
  await reading;
  await pool.end();
  await reader.end();

  expect(behind, "changes that appeared behind the reader").toEqual([]);
  const logged = await sql<{ position: number; event: { k: string; o?: string; v?: number } }[]>`
    SELECT position::float8 AS position, event FROM change_log WHERE position > ${start} ORDER BY position`;
  expect(seen).toEqual(logged.map((r) => r.position));
  expect(rolledBack).toBeGreaterThan(0);

  // Every committed transaction is in the log once: its book version (each one moved it by one) and its price.
  for (const [o, n] of committed) {
    const books = logged.filter((r) => r.event.k === "orderbook" && r.event.o === o);
    expect(
      books.map((r) => r.event.v),
      `book versions of ${o}, in position order`,
    ).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    expect(logged.filter((r) => r.event.k === "price" && r.event.o === o)).toHaveLength(n);
  }
  const [{ pending }] = await sql<{ pending: number }[]>`SELECT count(*)::int AS pending FROM change_pending`;
  expect(pending).toBe(0);

  // The NOTIFYs carry the same positions, in increasing order.
  const last = logged.at(-1)!.position;
  await expect.poll(() => heard.some((e) => e.p === last), { timeout: 10_000 }).toBe(true);
  await close();
  expect(heard.map((e) => e.p)).toEqual(logged.map((r) => r.position));
});

test("retention – drops changes older than the window in batches, the horizon moves to the last dropped, newer ones stay; concurrent trims neither fail nor move it back", async () => {
  const m = await makeMarket(sql, { prefix: "pos-trim" });
  const changes = async (n: number) => {
    for (let i = 0; i < n; i++) await addOrder(sql, m, bid(m.yes));
  };
  // (applied first: retention keeps what the feed's table has not taken)
  const age = async (upTo: number) => {
    await applyMarketPositions(sql);
    await sql`UPDATE change_log SET at = now() - interval '2 hours' WHERE position <= ${upTo}`;
  };

  await changes(30);
  const old = await head();
  await age(old);
  await changes(10);
  const [{ n: expired }] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM change_log WHERE position <= ${old}`;
  const kept = (await sql<{ p: number }[]>`SELECT position::float8 AS p FROM change_log WHERE position > ${old} ORDER BY position`).map((r) => r.p);
  expect(kept).toHaveLength(10);

  expect(await sweepChangeLog(sql, 1, 7)).toBe(expired);
  expect(await changeLogBounds(sql)).toEqual({ horizon: old, head: kept.at(-1) });
  expect((await sql<{ p: number }[]>`SELECT position::float8 AS p FROM change_log ORDER BY position`).map((r) => r.p)).toEqual(kept);
  expect(await sweepChangeLog(sql, 1, 7), "nothing left to drop").toBe(0);

  // A reader resuming from before the horizon is told so; from the horizon on it gets every change kept.
  expect(await readChanges(sql, old - 1, 100)).toBeNull();
  const read = await readChanges(sql, old, 100);
  expect(read?.map((c) => c.position)).toEqual(kept);
  expect(read?.[0].event).toMatchObject({ kind: "orderbook", slug: m.slug, marketId: m.id, outcomeId: m.yes, position: kept[0] });
  expect(read?.[0].event.version).toBeGreaterThan(0);
  expect((await readChanges(sql, kept[3], 2))?.map((c) => c.position)).toEqual(kept.slice(4, 6));

  // Six trims at once, in batches of 10, over 200 expired changes, while the horizon is watched.
  await changes(200);
  const old2 = await head();
  await age(old2);
  const [{ n: expired2 }] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM change_log WHERE position <= ${old2}`;
  const trimmers = postgres(db.url, { max: 6, onnotice: () => {} });
  const horizons: number[] = [];
  let trimming = true;
  const watching = (async () => {
    while (trimming) horizons.push((await changeLogBounds(sql)).horizon);
  })();
  const dropped = await Promise.all(Array.from({ length: 6 }, () => sweepChangeLog(trimmers, 1, 10)));
  trimming = false;
  await watching;
  await trimmers.end();
  expect(dropped.reduce((a, b) => a + b, 0)).toBe(expired2);
  expect((await changeLogBounds(sql)).horizon).toBe(old2);
  expect(horizons, "the horizon never moves back").toEqual([...horizons].sort((a, b) => a - b));
  const [{ left }] = await sql<{ left: number }[]>`SELECT count(*)::int AS left FROM change_log WHERE position <= ${old2}`;
  expect(left).toBe(0);

  // The sweeper of every instance does the same on its own.
  await changes(5);
  const old3 = await head();
  await age(old3);
  const stop = startChangeLogSweeper(sql, { intervalMs: 100, retentionHours: 1, log: () => {} });
  try {
    await expect.poll(async () => (await changeLogBounds(sql)).horizon, { timeout: 10_000 }).toBe(old3);
  } finally {
    await stop();
  }
});

test("positions – a rolled-back transaction (or savepoint) leaves nothing in change_log and change_pending; with positions off a session records nothing and still announces, without p", async () => {
  const m = await makeMarket(sql, { prefix: "pos-rollback" });
  const marketPosition = async () => {
    await applyMarketPositions(sql);
    return (await sql<{ p: number }[]>`SELECT position::float8 AS p FROM market_positions WHERE market_id = ${m.id}`)[0]?.p;
  };
  const before = { head: await head(), market: await marketPosition() };
  const pendingCount = async (tx: postgres.TransactionSql | Sql) => (await tx<{ n: number }[]>`SELECT count(*)::int AS n FROM change_pending`)[0].n;

  await expect(
    sql.begin(async (tx) => {
      await addOrder(tx, m, bid(m.yes));
      await tx`UPDATE markets SET question = 'Rolled back?' WHERE id = ${m.id}`;
      expect(await pendingCount(tx), "changes wait in change_pending until the commit").toBeGreaterThan(0);
      throw new Error("roll back");
    }),
  ).rejects.toThrow("roll back");
  expect(await pendingCount(sql)).toBe(0);
  expect(await head()).toBe(before.head);
  expect(await marketPosition()).toBe(before.market);

  // A savepoint rolled back takes its changes back, and the flush its first change queued: the next change queues it again.
  await sql.begin(async (tx) => {
    await tx
      .savepoint(async (sp) => {
        await addOrder(sp, m, bid(m.yes));
        throw new Error("undone");
      })
      .catch(() => {});
    await tx`UPDATE outcomes SET probability = 57 WHERE id = ${m.no}`;
  });
  const kept = await sql<{ k: string; o: string | null }[]>`
    SELECT event->>'k' AS k, event->>'o' AS o FROM change_log WHERE position > ${before.head} ORDER BY position`;
  expect(kept).toEqual([
    { k: "price", o: m.no },
    { k: "detail", o: null },
  ]);
  expect(await pendingCount(sql)).toBe(0);
  // A flush asked for before the commit (SET CONSTRAINTS … IMMEDIATE) numbers what came before; what comes after is numbered at commit.
  const beforeImmediate = await head();
  await sql.begin(async (tx) => {
    await addOrder(tx, m, bid(m.yes));
    await tx`SET CONSTRAINTS change_pending_flush IMMEDIATE`;
    await tx`SET CONSTRAINTS change_pending_flush DEFERRED`;
    await addOrder(tx, m, bid(m.no));
  });
  const flushedTwice = await sql<{ o: string }[]>`SELECT event->>'o' AS o FROM change_log WHERE position > ${beforeImmediate} ORDER BY position`;
  expect(flushedTwice.map((r) => r.o)).toEqual([m.yes, m.no]);
  expect(await pendingCount(sql)).toBe(0);

  const { heard, close } = await listen();
  const reference = { head: await head(), market: await marketPosition() };
  const session = await sql.reserve();
  try {
    await session`SET markets.positions = off`;
    await addOrder(session, m, bid(m.no));
    await session`UPDATE markets SET question = 'Unnumbered?' WHERE id = ${m.id}`;
  } finally {
    await session`RESET markets.positions`;
    session.release();
  }
  await expect.poll(() => heard.filter((e) => e.m === m.id).map((e) => e.k)).toEqual(expect.arrayContaining(["orderbook", "price"]));
  for (const e of heard.filter((e) => e.m === m.id)) expect(e, "announced without a position").not.toHaveProperty("p");
  await close();
  expect(await pendingCount(sql)).toBe(0);
  expect(await head()).toBe(reference.head);
  expect(await marketPosition()).toBe(reference.market);
});

test("market positions – a market created, changed, renamed or deleted has the position of its last market-level change (a tombstone stays); a statement adding more markets than it names numbers all of them", async () => {
  const positionOf = async (id: string) => {
    await applyMarketPositions(sql);
    return (await sql<{ position: number; slug: string }[]>`SELECT position::float8 AS position, slug FROM market_positions WHERE market_id = ${id}`)[0];
  };
  const lastChangeOf = async (id: string) =>
    (
      await sql<{ p: number }[]>`
        SELECT max(position)::float8 AS p FROM change_log WHERE event->>'m' = ${id} AND event->>'k' = ANY(${MARKET_KINDS}::text[])`
    )[0].p;

  const m = await makeMarket(sql, { prefix: "pos-market" });
  const created = await positionOf(m.id);
  expect(created).toEqual({ position: await lastChangeOf(m.id), slug: m.slug });

  // A book change is not a market-level change: the feed does not move for it.
  await addOrder(sql, m, bid(m.yes));
  expect(await positionOf(m.id)).toEqual(created);

  await sql`UPDATE markets SET question = 'Changed?' WHERE id = ${m.id}`;
  const changed = await positionOf(m.id);
  expect(changed.position).toBeGreaterThan(created.position);
  expect(changed.position).toBe(await lastChangeOf(m.id));

  await sql`UPDATE outcomes SET probability = 55 WHERE id = ${m.yes}`;
  const priced = await positionOf(m.id);
  expect(priced.position).toBeGreaterThan(changed.position);
  expect(priced.position).toBe(await lastChangeOf(m.id));

  // A rename is announced under both slugs; the feed keeps the new one.
  const renamed = uniqueSlug("pos-renamed");
  await sql`UPDATE markets SET slug = ${renamed} WHERE id = ${m.id}`;
  expect(await positionOf(m.id)).toEqual({ position: await lastChangeOf(m.id), slug: renamed });

  await sql`DELETE FROM markets WHERE id = ${m.id}`;
  const deleted = await positionOf(m.id);
  expect(deleted, "the tombstone of a deleted market").toEqual({ position: await lastChangeOf(m.id), slug: renamed });
  expect(deleted.position).toBeGreaterThan(priced.position);
  expect(await sql`SELECT 1 FROM markets WHERE id = ${m.id}`).toHaveLength(0);

  // A users change flushes every cache (a `flush` change), but the tombstone stays: only a truncated markets table empties the feed.
  await sql`UPDATE users SET profile_image_url = profile_image_url WHERE id = ${m.users[0]}`;
  expect(await positionOf(m.id)).toEqual(deleted);

  // More markets in one statement than it names: the announcement names none, every one gets a position.
  const before = (await changeLogBounds(sql)).head;
  const prefix = uniqueSlug("pos-bulk");
  const ids = await bulkMarkets(prefix);
  const logged = await head();
  await applyMarketPositions(sql);
  const rows = await sql<{ position: number }[]>`
    SELECT position::float8 AS position FROM market_positions WHERE market_id = ANY(${ids}::uuid[])`;
  expect(rows).toHaveLength(UNNAMED);
  const positions = rows.map((r) => r.position);
  expect(new Set(positions).size).toBe(UNNAMED);
  // Numbered above every change logged before the pass that met them.
  for (const p of positions) expect(p > before && p > logged, `${p} above ${logged}`).toBe(true);
});

test("change log – a statement adding 5,000 markets names each: one change per market, and each market has the position of its own", async () => {
  const before = await head();
  const { heard, close } = await listen();
  const ids = await bulkMarkets(uniqueSlug("pos-named"), 5_000);
  const changes = await sql<{ position: number; m: string | null }[]>`
    SELECT position::float8 AS position, event->>'m' AS m FROM change_log WHERE position > ${before} AND event->>'k' = 'list'`;
  expect(changes.map((c) => c.m).sort()).toEqual([...ids].sort());
  await expect.poll(() => heard.filter((e) => e.k === "list").length, { timeout: 30_000 }).toBe(5_000);
  expect(heard.filter((e) => e.k === "list" && !e.m)).toEqual([]);
  await close();
  await applyMarketPositions(sql);
  const positions = await sql<{ id: string; position: number }[]>`
    SELECT market_id::text AS id, position::float8 AS position FROM market_positions WHERE market_id = ANY(${ids}::uuid[])`;
  expect(Object.fromEntries(positions.map((p) => [p.id, p.position]))).toEqual(Object.fromEntries(changes.map((c) => [c.m, c.position])));
});

test("change log – a change read back carries what its NOTIFY leaves out: the ids of the new trades, at most 101", async () => {
  const m = await makeMarket(sql, { prefix: "pos-trades" });
  const { heard, close } = await listen();
  const before = await head();
  const two = await addTrades(sql, m, [{}, {}]);
  const many = await addTrades(
    sql,
    m,
    Array.from({ length: 150 }, () => ({ outcome: m.no })),
  );
  const changes = (await readChanges(sql, before, 100)) ?? [];
  const trades = changes.filter((c) => c.event.kind === "trade");
  expect(trades.map((c) => c.event.outcomeId)).toEqual([m.yes, m.no]);
  expect([...(trades[0].event.tradeIds ?? [])].sort()).toEqual([...two].sort());
  expect(trades[1].event.tradeIds).toHaveLength(101);
  for (const id of trades[1].event.tradeIds ?? []) expect(many).toContain(id);
  await expect.poll(() => heard.filter((e) => e.k === "trade").length).toBe(2);
  for (const e of heard) expect(e).not.toHaveProperty("i");
  await close();
});

test("market positions – a truncated markets table empties the feed (the `flush` change tells every client to reset)", async () => {
  const m = await makeMarket(sql, { prefix: "pos-truncate" });
  await applyMarketPositions(sql);
  // changed after the last pass: the truncate must not bring it back as a tombstone
  await sql`UPDATE markets SET question = 'Truncated?' WHERE id = ${m.id}`;
  const [{ n }] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM market_positions`;
  expect(n).toBeGreaterThan(0);
  const before = await head();
  await sql`TRUNCATE markets CASCADE`;
  await applyMarketPositions(sql);
  expect(await sql`SELECT 1 FROM market_positions`).toHaveLength(0);
  const flushes = await sql`SELECT 1 FROM change_log WHERE position > ${before} AND event->>'k' = 'flush'`;
  expect(flushes).toHaveLength(1);
});

test("market positions – moved after the commits, by passes that run beside the writers: a mirror paging the feed meanwhile never misses a change (nothing appears below a position it passed) and ends equal to it", async () => {
  const markets = await Promise.all(Array.from({ length: 12 }, () => makeMarket(sql, { prefix: "pos-apply" })));
  await applyMarketPositions(sql);
  const since0 = (await head()) + 0;
  const mirror = new Map<string, number>();
  let since = since0;
  let writing = true;
  const page = async () => {
    const rows = await sql<{ position: number; id: string }[]>`
      SELECT position::float8 AS position, market_id::text AS id FROM market_positions WHERE position > ${since} ORDER BY position LIMIT 7`;
    for (const r of rows) {
      expect(r.position).toBeGreaterThan(since);
      mirror.set(r.id, r.position);
    }
    if (rows.length) since = rows[rows.length - 1].position;
  };
  const writers = Array.from({ length: 4 }, async (_, w) => {
    for (let i = 0; i < 40; i++) {
      const m = markets[(w * 7 + i) % markets.length];
      await sql.begin(async (tx) => {
        await tx`UPDATE markets SET question = ${`Applied ${w}-${i}?`} WHERE id = ${m.id}`;
        await tx`SELECT pg_sleep(${Math.random() * 0.004})`;
      });
    }
  });
  // a statement that adds markets without naming them, in the middle of it
  const bulk = sql`
    INSERT INTO markets (id, slug, question, description, category, sub_category, type, status, trading_starts_at, trading_ends_at, platform_fee, spread, image_url)
    SELECT gen_random_uuid(), ${uniqueSlug("pos-apply-bulk")} || '-' || g, 'Bulk ' || g || '?', '', 'OTHER', 'Tests', 'BINARY', 'LOCKED',
           now() - interval '1 day', now() + interval '30 days', 0.02, 1, '/market-images/other-1.svg'
      FROM generate_series(1, ${UNNAMED}::int) g`;
  const appliers = Array.from({ length: 2 }, async () => {
    while (writing) {
      await applyMarketPositions(sql, 5);
      await sleep(3);
    }
  });
  const reader = (async () => {
    while (writing) {
      await page();
      await sleep(2);
    }
  })();
  await Promise.all([...writers, bulk]);
  writing = false;
  await Promise.all([...appliers, reader]);
  await applyMarketPositions(sql);
  for (let before = -1; before !== since; ) {
    before = since;
    await page();
  }
  const truth = await sql<{ position: number; id: string }[]>`
    SELECT position::float8 AS position, market_id::text AS id FROM market_positions WHERE position > ${since0}`;
  expect(truth.length).toBeGreaterThanOrEqual(12 + UNNAMED);
  expect(Object.fromEntries(mirror)).toEqual(Object.fromEntries(truth.map((r) => [r.id, r.position])));
  for (const m of markets)
    expect(mirror.get(m.id), m.slug).toBe(
      (
        await sql<{ p: number }[]>`SELECT max(position)::float8 AS p FROM change_log WHERE event->>'m' = ${m.id} AND event->>'k' = ANY(${MARKET_KINDS}::text[])`
      )[0].p,
    );
});

test("market positions – a pass that outlasts the pool's statement timeout still ends: the applier lifts it for its own statements", async () => {
  // A pool whose statements may run 200 ms, as the request pool's may run 3 s.
  const bounded = postgres(db.url, { max: 2, onnotice: () => {}, connection: { statement_timeout: 200 } });
  const holder = postgres(db.url, { max: 1, onnotice: () => {} });
  try {
    await applyMarketPositions(sql);
    // More markets in one statement than it names: a change that names none, so the pass takes the numbering lock...
    const prefix = uniqueSlug("pos-slow");
    const ids = await bulkMarkets(prefix);
    // ...which a committing writer holds here for 800 ms.
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const held = holder.begin(async (tx) => {
      await tx`SELECT pg_advisory_xact_lock(727275)`;
      locked();
      await sleep(800);
    });
    await isLocked;
    const started = Date.now();
    expect(await applyMarketPositions(bounded)).toBeGreaterThan(0);
    expect(Date.now() - started).toBeGreaterThan(500);
    await held;
    const [{ n }] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM market_positions WHERE market_id = ANY(${ids}::uuid[])`;
    expect(n).toBe(UNNAMED);
  } finally {
    await bounded.end();
    await holder.end();
  }
});

test("market positions – retention never drops a change the feed's table has not taken yet", async () => {
  const m = await makeMarket(sql, { prefix: "pos-unapplied" });
  await applyMarketPositions(sql);
  await sql`UPDATE markets SET question = 'Not applied yet?' WHERE id = ${m.id}`;
  const last = await head();
  await sql`UPDATE change_log SET at = now() - interval '2 hours'`;
  await sweepChangeLog(sql, 1);
  const [{ n }] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM change_log WHERE position = ${last}`;
  expect(n, "the unapplied change stays").toBe(1);
  await applyMarketPositions(sql);
  expect((await sql<{ p: number }[]>`SELECT position::float8 AS p FROM market_positions WHERE market_id = ${m.id}`)[0].p).toBe(last);
  await sweepChangeLog(sql, 1);
  expect((await changeLogBounds(sql)).horizon).toBe(last);
});
