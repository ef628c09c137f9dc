// The values migration 0005 keeps by triggers instead of aggregating per request: market_counts,
// market_traders and comments.reply_count. Each test writes, updates and deletes rows and compares
// the maintained values with the same aggregate computed from scratch. Its markets are LOCKED (no
// list shows them), so list totals of other specs are not disturbed.
import { randomUUID } from "node:crypto";
import postgres from "postgres";
import { expect, test, testRun } from "../fixtures";
import { addTrades, makeMarket, uniqueSlug } from "../support/markets";

type Sql = postgres.Sql | postgres.TransactionSql;
const ago = (ms: number) => new Date(Date.now() - ms);

/** market_counts rows that differ from a count of the markets, for every (status, category, sub_category). */
async function countDrift(sql: Sql) {
  return sql`
    SELECT coalesce(c.status, m.status)::text AS status, coalesce(c.category, m.category)::text AS category,
           coalesce(c.sub_category, m.sub_category) AS sub_category, coalesce(c.n, 0) AS stored, coalesce(m.n, 0)::int AS expected
      FROM (SELECT status, category, sub_category, sum(n)::int AS n FROM market_counts GROUP BY 1, 2, 3) c
      FULL JOIN (SELECT status, category, sub_category, count(*) AS n FROM markets GROUP BY 1, 2, 3) m
        ON (m.status, m.category, m.sub_category) = (c.status, c.category, c.sub_category)
     WHERE coalesce(c.n, 0) <> coalesce(m.n, 0)`;
}

/** A bare LOCKED market of category OTHER and sub-category `sub`: no outcomes, no users, one statement. */
function insertMarket(sql: Sql, slug: string, sub: string) {
  return sql`
    INSERT INTO markets (id, slug, question, description, category, sub_category, type, status, trading_starts_at,
      trading_ends_at, platform_fee, spread, image_url)
    VALUES (${randomUUID()}, ${slug}, 'Counted?', '', 'OTHER', ${sub}, 'BINARY', 'LOCKED', now(), now(), 0.02, 1, '/x.svg')`;
}

/** What market_counts holds for ('LOCKED', 'OTHER', sub): the sum of the key's slots (migration 0027). */
async function counted(sql: Sql, sub: string) {
  const [{ n }] = await sql<{ n: number }[]>`
    SELECT coalesce(sum(n), 0)::int AS n FROM market_counts WHERE status = 'LOCKED' AND category = 'OTHER' AND sub_category = ${sub}`;
  return n;
}

/**
 * Starts a transaction on `tx` whose slot differs from `held`: the slot a transaction adds to is its id
 * modulo 16 (the market counts, migration 0027; the export marks, 0034), and two in one slot would wait.
 */
async function beginInAnotherSlot(tx: postgres.ReservedSql, held: number) {
  for (;;) {
    await tx`BEGIN`;
    if ((await slotOf(tx)) !== held) return;
    await tx`ROLLBACK`;
  }
}

const slotOf = async (tx: postgres.ReservedSql) => (await tx<{ s: number }[]>`SELECT (txid_current() % 16)::int AS s`)[0].s;

/**
 * Two sessions of their own, each reserved (the worker's pool keeps its connections for the reads the test
 * makes meanwhile); `end` rolls back what either left open and closes them.
 */
async function twoWriters() {
  const writers = postgres(testRun().databaseUrl, { max: 2, onnotice: () => {} });
  const [first, second] = [await writers.reserve(), await writers.reserve()];
  const end = async () => {
    for (const tx of [first, second]) {
      await tx`ROLLBACK`.catch(() => {});
      tx.release();
    }
    await writers.end();
  };
  return { first, second, end };
}

/** market_traders rows (with trades) that differ from the top-traders aggregate getMarket used to run. */
async function traderDrift(sql: Sql, marketIds: string[]) {
  return sql`
    WITH fresh AS (
      SELECT x.market_id, x.user_id, sum(x.v) AS volume, count(*)::int AS trades FROM (
        SELECT id, market_id, maker_user_id AS user_id, price * shares AS v FROM trades WHERE market_id = ANY(${marketIds}::uuid[])
        UNION
        SELECT id, market_id, taker_user_id, price * shares FROM trades WHERE market_id = ANY(${marketIds}::uuid[])
      ) x WHERE x.user_id IS NOT NULL GROUP BY 1, 2),
    kept AS (SELECT market_id, user_id, volume, trades FROM market_traders WHERE market_id = ANY(${marketIds}::uuid[]) AND trades > 0)
    SELECT coalesce(f.market_id, k.market_id) AS market_id, coalesce(f.user_id, k.user_id) AS user_id,
           k.volume::text AS stored, f.volume::text AS expected
      FROM fresh f FULL JOIN kept k ON (k.market_id, k.user_id) = (f.market_id, f.user_id)
     WHERE (k.volume, k.trades) IS DISTINCT FROM (f.volume, f.trades)`;
}

/** Comments whose reply_count differs from a count of their replies. */
async function replyDrift(sql: Sql, marketIds: string[]) {
  return sql`
    SELECT c.id, c.reply_count AS stored, (SELECT count(*)::int FROM comments r WHERE r.parent_id = c.id) AS expected
      FROM comments c
     WHERE c.market_id = ANY(${marketIds}::uuid[])
       AND c.reply_count <> (SELECT count(*) FROM comments r WHERE r.parent_id = c.id)`;
}

async function addComment(sql: Sql, marketId: string, userId: string, parentId: string | null = null, id = randomUUID()) {
  await sql`INSERT INTO comments (id, market_id, user_id, content, parent_id, created_at) VALUES (${id}, ${marketId}, ${userId}, 'A comment', ${parentId}, now())`;
  return id;
}

test.describe("maintained values (migration 0005)", () => {
  test("market_counts follows inserts, moves between status, category and sub-category, and deletes", async ({ sql }) => {
    const sub = uniqueSlug("counts");
    const count = () => counted(sql, sub);
    const a = await makeMarket(sql, { subCategory: sub });
    const b = await makeMarket(sql, { subCategory: sub });
    expect(await count()).toBe(2);
    await sql`UPDATE markets SET category = 'SCIENCE' WHERE id = ${a.id}`;
    await sql`UPDATE markets SET status = 'PENDING' WHERE id = ${b.id}`;
    expect(await count()).toBe(0);
    await sql`UPDATE markets SET sub_category = ${`${sub}-x`}, category = 'OTHER', status = 'LOCKED' WHERE id IN ${sql([a.id, b.id])}`;
    // An update that changes nothing counted leaves the counters alone.
    await sql`UPDATE markets SET total_volume = total_volume + 1, views = views + 1 WHERE id = ${a.id}`;
    expect(await counted(sql, `${sub}-x`)).toBe(2);
    await sql`DELETE FROM markets WHERE id = ${a.id}`;
    expect(await countDrift(sql)).toEqual([]);
    await sql`DELETE FROM markets WHERE id = ${b.id}`;
    expect(await countDrift(sql)).toEqual([]);
  });

  test("a rolled-back write leaves market_counts as it was", async ({ sql }) => {
    const sub = uniqueSlug("counts");
    const rolledBack = await sql
      .begin(async (tx) => {
        await insertMarket(tx, sub, sub);
        expect(await counted(tx, sub)).toBe(1);
        throw new Error("roll back");
      })
      .catch((e: Error) => e.message);
    expect(rolledBack).toBe("roll back");
    expect(await sql`SELECT n FROM market_counts WHERE sub_category = ${sub}`).toEqual([]);
    expect(await countDrift(sql)).toEqual([]);
  });

  test("two uncommitted writers adding markets of one key do not wait for each other (migration 0027)", async ({ sql }) => {
    const sub = uniqueSlug("counts");
    const slugs = [`${sub}-a`, `${sub}-b`];
    const count = () => counted(sql, sub);
    const { first, second, end } = await twoWriters();
    try {
      await first`BEGIN`;
      await insertMarket(first, slugs[0], sub);
      // A second transaction in another slot: one whose id agrees modulo 16 would wait, as every writer did before.
      await beginInAnotherSlot(second, await slotOf(first));
      await second`SET LOCAL lock_timeout = '3s'`;
      await insertMarket(second, slugs[1], sub);
      await second`COMMIT`;
      expect(await count()).toBe(1);
      await first`COMMIT`;
      expect(await count()).toBe(2);
      expect(await countDrift(sql)).toEqual([]);
    } finally {
      await end();
      await sql`DELETE FROM markets WHERE slug = ANY(${slugs})`;
    }
    expect(await count()).toBe(0);
  });

  test("two uncommitted writers of a closed day's trades do not wait for each other; each raises its mark by one (migration 0034)", async ({ sql }) => {
    // Two markets, as two ingest lanes write: their candles and top traders are rows of their own.
    const [m, n] = [await makeMarket(sql, { users: 2 }), await makeMarket(sql, { users: 2 })];
    // A closed day inside the seeded trades' 90 days that no other spec writes (they write today and
    // yesterday): its mark moves only with this test's trades.
    const today = new Date(new Date().toISOString().slice(0, 10));
    const day = new Date(today.getTime() - (10 + Math.floor(Math.random() * 60)) * 86400e3);
    const dayText = day.toISOString().slice(0, 10);
    const mark = async () => (await sql<{ n: number }[]>`SELECT coalesce(sum(mark), 0)::int AS n FROM export_marks WHERE day = ${dayText}::date`)[0].n;
    const before = await mark();
    const { first, second, end } = await twoWriters();
    try {
      await first`BEGIN`;
      await addTrades(first, m, [{ at: day }]);
      await beginInAnotherSlot(second, await slotOf(first));
      // Before the slots, this insert waited for the first transaction's commit on the day's one row.
      await second`SET LOCAL lock_timeout = '3s'`;
      await addTrades(second, n, [{ at: day }]);
      await second`COMMIT`;
      expect(await mark()).toBe(before + 1);
      await first`COMMIT`;
      expect(await mark()).toBe(before + 2);
      // A statement of several trades of the day raises it by one, like any statement that writes the day.
      await addTrades(sql, m, [{ at: day }, { at: day }]);
      expect(await mark()).toBe(before + 3);
      // Today's trades leave it alone.
      await addTrades(sql, m, [{}]);
      expect(await mark()).toBe(before + 3);
    } finally {
      await end();
      await sql`DELETE FROM markets WHERE id = ANY(${[m.id, n.id]}::uuid[])`;
    }
  });

  test("market_traders follows trade inserts, updates and deletes; a self-trade counts once", async ({ sql }) => {
    const m = await makeMarket(sql, { users: 4 });
    const [u0, u1, u2, u3] = m.users;
    const ids = Array.from({ length: 6 }, () => randomUUID());
    await addTrades(sql, m, [
      { id: ids[0], at: ago(1000), price: "0.400", shares: "10", maker: u0, taker: u1 },
      { id: ids[1], at: ago(2000), price: "0.250", shares: "8", maker: u2, taker: u2 }, // self-trade
      { id: ids[2], at: ago(3000), price: "0.000", shares: "5", maker: u3, taker: null }, // zero volume still counts as a trader
      { id: ids[3], at: ago(4000), price: "0.123", shares: "3.333333", maker: null, taker: u1 },
    ]);
    expect(await traderDrift(sql, [m.id])).toEqual([]);
    await addTrades(sql, m, [
      { id: ids[4], at: ago(500), price: "0.900", shares: "1", maker: u1, taker: u0 },
      { id: ids[5], at: ago(600), price: "0.500", shares: "2", maker: u3, taker: u2 },
    ]);
    await sql`UPDATE trades SET shares = 20 WHERE id = ${ids[0]}`;
    await sql`UPDATE trades SET taker_user_id = ${u3} WHERE id = ${ids[1]}`; // no longer a self-trade
    await sql`UPDATE trades SET maker_user_id = ${u0}, taker_user_id = ${u0} WHERE id = ${ids[5]}`; // becomes one
    expect(await traderDrift(sql, [m.id])).toEqual([]);
    await sql`DELETE FROM trades WHERE id IN ${sql([ids[2], ids[4]])}`;
    expect(await traderDrift(sql, [m.id])).toEqual([]);
    // u3's only remaining trade is ids[1]: deleting it leaves no trader row that counts.
    await sql`DELETE FROM trades WHERE id = ${ids[1]}`;
    expect(await traderDrift(sql, [m.id])).toEqual([]);
    expect(await sql`SELECT 1 FROM market_traders WHERE market_id = ${m.id} AND user_id = ${u3} AND trades > 0`).toEqual([]);
  });

  test("GET /v1/markets/slug/{slug} serves top_traders from market_traders, equal to the from-scratch order and values", async ({ request, sql }) => {
    const m = await makeMarket(sql, { users: 14 });
    // Ties on volume among several users, so username must break them exactly as before.
    await addTrades(
      sql,
      m,
      m.users.map((u, i) => ({ at: ago(1000 + i), price: "0.500", shares: String(2 + (i % 3)), maker: u, taker: m.users[(i + 5) % 14] })),
    );
    const expected = await sql`
      SELECT u.username, round(sum(x.v), 6)::float8 AS volume FROM (
        SELECT id, maker_user_id AS user_id, price * shares AS v FROM trades WHERE market_id = ${m.id}
        UNION
        SELECT id, taker_user_id, price * shares FROM trades WHERE market_id = ${m.id}
      ) x JOIN users u ON u.id = x.user_id
      GROUP BY u.id ORDER BY sum(x.v) DESC, u.username LIMIT 10`;
    const res = await request.get(`/v1/markets/slug/${m.slug}`);
    expect(res.status()).toBe(200);
    const body = await res.json();
    expect(body.top_traders.map((t: { username: string; volume: number }) => ({ username: t.username, volume: t.volume }))).toEqual(expected);
  });

  test("deleting a market removes its trader rows, and its trades' deletes do not fail", async ({ sql }) => {
    const m = await makeMarket(sql);
    await addTrades(sql, m, [{ at: ago(1000), price: "0.300", shares: "4" }]);
    expect((await sql`SELECT count(*)::int AS n FROM market_traders WHERE market_id = ${m.id}`)[0].n).toBe(2);
    await sql`DELETE FROM markets WHERE id = ${m.id}`;
    expect(await sql`SELECT 1 FROM market_traders WHERE market_id = ${m.id}`).toEqual([]);
  });

  test("reply_count follows replies inserted, moved and deleted, also a reply written before its parent", async ({ request, sql }) => {
    const m = await makeMarket(sql);
    const [u0, u1] = m.users;
    const p1 = await addComment(sql, m.id, u0);
    const p2 = await addComment(sql, m.id, u1);
    const r1 = await addComment(sql, m.id, u1, p1);
    const r2 = await addComment(sql, m.id, u0, p1);
    await addComment(sql, m.id, u0, r1); // a reply to a reply
    expect(await replyDrift(sql, [m.id])).toEqual([]);
    await sql`UPDATE comments SET parent_id = ${p2} WHERE id = ${r2}`;
    await sql`UPDATE comments SET content = 'edited', likes_count = 3 WHERE id = ${r1}`;
    expect(await replyDrift(sql, [m.id])).toEqual([]);
    await sql`DELETE FROM comments WHERE parent_id = ${r1}`;
    await sql`DELETE FROM comments WHERE id = ${r2}`;
    expect(await replyDrift(sql, [m.id])).toEqual([]);
    // The parent key is deferred: a reply may come first, in its own statement, and its parent after.
    const late = randomUUID();
    await sql.begin(async (tx) => {
      await addComment(tx as unknown as Sql, m.id, u1, late);
      await addComment(tx as unknown as Sql, m.id, u0, late);
      await addComment(tx as unknown as Sql, m.id, u0, null, late);
    });
    expect(await replyDrift(sql, [m.id])).toEqual([]);
    expect((await sql`SELECT reply_count FROM comments WHERE id = ${late}`)[0].reply_count).toBe(2);
    // A parent and its replies in one statement.
    const [p3, r3] = [randomUUID(), randomUUID()];
    await sql`INSERT INTO comments (id, market_id, user_id, content, parent_id, created_at) VALUES
      (${r3}, ${m.id}, ${u0}, 'reply', ${p3}, now()), (${p3}, ${m.id}, ${u1}, 'parent', NULL, now())`;
    expect(await replyDrift(sql, [m.id])).toEqual([]);
    const res = await request.get(`/v1/markets/${m.id}`);
    const served = new Map((await res.json()).comments.map((c: { id: string; reply_count: number }) => [c.id, c.reply_count]));
    expect(served.get(late)).toBe(2);
    expect(served.get(p3)).toBe(1);
    expect(served.get(p1)).toBe(1);
  });

  test("every market's maintained values match their rows (demo data, imports, other tests)", async ({ sql }) => {
    expect(await countDrift(sql)).toEqual([]);
    const ids = (await sql`SELECT id FROM markets`).map((r) => r.id as string);
    expect(await traderDrift(sql, ids)).toEqual([]);
    expect(await replyDrift(sql, ids)).toEqual([]);
    // Each book's notional (migration 0035), from which the ingest reads a market's total_liquidity.
    expect(
      await sql`SELECT h.outcome_id, h.notional::text FROM book_heads h
                 WHERE h.notional <> coalesce((SELECT sum(d.price * d.shares) FROM book_depth d WHERE d.outcome_id = h.outcome_id), 0)`,
    ).toEqual([]);
  });
});
