// The ingest path against a real embedded PostgreSQL (a throwaway database per case, every trigger on):
// after a stream with bad lines, duplicates and out-of-order events, books, versions, the book log,
// candles, top traders and market totals equal a rebuild from the final rows (docs/ingest.md#rules-of-order).
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmbeddedDatabase, startEmbeddedPostgres } from "../db/embedded";
import { migrate } from "../db/migrate";
import { canDieWithParent } from "../os/prefixes";
import { VenueStream } from "./generator";
import { Ingest } from "./run";
import { parseLine } from "./schemas";
import type { Rejection } from "./writer";

const CLUSTER = path.join(process.cwd(), ".data", "ingest-test-pg");
let cluster: EmbeddedDatabase;
let port: number;
const dbs: string[] = [];

beforeAll(async () => {
  cluster = await startEmbeddedPostgres({ dir: CLUSTER, database: "postgres", log: () => {} });
  port = Number(new URL(cluster.url).port);
}, 120_000);

afterAll(async () => {
  const admin = postgres(cluster.url, { max: 1, onnotice: () => {} });
  for (const db of dbs) await admin.unsafe(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
  await admin.end();
  await cluster.stop();
}, 60_000);

/** A fresh migrated database: its URL and a pool on it. */
async function freshDatabase() {
  const name = `ingest_test_${process.pid}_${dbs.length}`;
  dbs.push(name);
  const admin = postgres(cluster.url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = `postgres://postgres:postgres@127.0.0.1:${port}/${name}`;
  const sql = postgres(url, { max: 4, onnotice: () => {} });
  await migrate(sql);
  return { url, sql };
}

const START = Date.parse("2026-11-28T12:00:00Z");

/** A generated venue: 50 traders, `markets` markets, then `events` events, as lines. */
function venueLines(events: number, markets = 20, seed = 7, start = START): string[] {
  const v = new VenueStream({ seed, rate: 200, ratio: 10, start });
  const lines = [...v.preamble(markets)];
  for (let i = 0; i < events; i++) lines.push(v.next());
  return lines;
}

/** Every derived structure compared with a rebuild from the rows; [] when all agree. */
async function mismatches(sql: postgres.Sql): Promise<string[]> {
  const out: string[] = [];
  const count = async (what: string, q: Promise<{ n: number }[]>) => {
    const [r] = await q;
    if (r.n) out.push(`${what}: ${r.n}`);
  };
  // book_depth: the resting LIMIT shares per (outcome, side, price), as book_resync() computes them.
  await count(
    "book_depth differs from the orders",
    sql`WITH want AS (SELECT outcome_id, side, price, sum(shares - filled_shares) AS shares FROM orders
                       WHERE type = 'LIMIT' AND status IN ('OPEN', 'PARTIALLY_FILLED') AND shares > filled_shares GROUP BY 1, 2, 3)
        SELECT count(*)::int AS n FROM (SELECT * FROM want EXCEPT SELECT * FROM book_depth UNION ALL (SELECT * FROM book_depth EXCEPT SELECT * FROM want)) x`,
  );
  // book_levels: the netted depth (book_netted) of every outcome.
  await count(
    "book_levels differs from the netted depth",
    sql`WITH want AS (SELECT oc.id AS outcome_id, n.side, n.price, n.shares FROM outcomes oc, book_netted(oc.id) n)
        SELECT count(*)::int AS n FROM (SELECT * FROM want EXCEPT SELECT outcome_id, side, price, shares FROM book_levels
                                        UNION ALL (SELECT outcome_id, side, price, shares FROM book_levels EXCEPT SELECT * FROM want)) x`,
  );
  // The book log: versions 1..head without a gap, and the book rebuilt from it at its last version is the served one.
  await count(
    "book log versions with a gap",
    sql`SELECT count(*)::int AS n FROM book_heads h
         WHERE h.version <> (SELECT count(*) FROM book_changes c WHERE c.outcome_id = h.outcome_id)
            OR h.version <> coalesce((SELECT max(version) FROM book_changes c WHERE c.outcome_id = h.outcome_id), 0)`,
  );
  await count(
    "book log replays to another book",
    sql`SELECT count(*)::int AS n FROM book_heads h CROSS JOIN LATERAL book_text_at(h.outcome_id, 'infinity') r
         WHERE h.version > 0 AND (r.version <> h.version OR r.levels <> book_levels_text(h.outcome_id))`,
  );
  await count(
    "book heads whose notional differs from their depth",
    sql`SELECT count(*)::int AS n FROM book_heads h
         WHERE h.notional <> coalesce((SELECT sum(d.price * d.shares) FROM book_depth d WHERE d.outcome_id = h.outcome_id), 0)`,
  );
  await count(
    "orders without a book head",
    sql`SELECT count(DISTINCT outcome_id)::int AS n FROM book_depth WHERE outcome_id NOT IN (SELECT outcome_id FROM book_heads)`,
  );
  // Candles and top traders: their rebuild functions, in a transaction rolled back.
  await sql
    .begin(async (tx) => {
      await tx`CREATE TEMP TABLE c0 ON COMMIT DROP AS SELECT * FROM candles`;
      await tx`CREATE TEMP TABLE t0 ON COMMIT DROP AS SELECT * FROM market_traders`;
      await tx`SELECT rebuild_row_derived()`;
      const [c] = await tx<
        { n: number }[]
      >`SELECT count(*)::int AS n FROM (SELECT * FROM candles EXCEPT SELECT * FROM c0 UNION ALL (SELECT * FROM c0 EXCEPT SELECT * FROM candles)) x`;
      if (c.n) out.push(`candles differ from rebuild_candles(): ${c.n}`);
      const [t] = await tx<{ n: number }[]>`
        SELECT count(*)::int AS n FROM (SELECT * FROM market_traders EXCEPT SELECT * FROM t0 UNION ALL (SELECT * FROM t0 EXCEPT SELECT * FROM market_traders)) x`;
      if (t.n) out.push(`market_traders differ from rebuild_row_derived(): ${t.n}`);
      const [d] = await tx<{ n: number }[]>`SELECT refresh_market_derived(NULL) AS n`;
      if (d.n) out.push(`markets whose total_liquidity or comments_count refresh_market_derived() changes: ${d.n}`);
      throw new Error("rollback");
    })
    .catch((err) => {
      if ((err as Error).message !== "rollback") throw err;
    });
  // The search text (migration 0026): each market's question and description, and no other row.
  await count(
    "market_search differs from the markets' text",
    sql`SELECT count(*)::int AS n FROM (
          (SELECT id, question, description FROM markets EXCEPT SELECT market_id, question, description FROM market_search)
          UNION ALL (SELECT market_id, question, description FROM market_search EXCEPT SELECT id, question, description FROM markets)) x`,
  );
  // Market totals: the stream's markets start at 0, so their volume is that of their trades.
  await count(
    "total_volume differs from the trades",
    sql`SELECT count(*)::int AS n FROM markets m
         WHERE m.slug LIKE 'venue-%' AND m.total_volume <> coalesce((SELECT sum(price * shares) FROM trades t WHERE t.market_id = m.id), 0)`,
  );
  // The 24-hour volume: the trades after the watermark − 24 h (migration 0003's rule, kept by the trades' trigger).
  await count(
    "volume_24h differs from the trades after the watermark",
    sql`SELECT count(*)::int AS n FROM markets m, trending_watermark w
         WHERE m.slug LIKE 'venue-%'
           AND m.volume_24h <> coalesce((SELECT sum(price * shares) FROM trades t
                                          WHERE t.market_id = m.id AND t.executed_at > w.swept_at - interval '24 hours'), 0)`,
  );
  return out;
}

/** The final state of each order of clean lines: its newest state (updated_at), the first of equal ones. */
function expectedOrders(lines: string[]) {
  const orders = new Map<string, { status: string; filled_shares: string; at: string }>();
  for (const l of lines) {
    const p = parseLine(l);
    if (!p.ok || p.event.kind !== "order") continue;
    const o = p.event.row;
    const prev = orders.get(o.id);
    if (!prev || o.updated_at > prev.at) orders.set(o.id, { status: o.status, filled_shares: Number(o.filled_shares).toFixed(2), at: o.updated_at });
  }
  return orders;
}

async function ingestAll(sql: postgres.Sql, lines: string[], batchSize: number, lanes = 1) {
  const rejected: Rejection[] = [];
  const ingest = new Ingest(sql, { batchSize, batchWaitMs: 5, lanes, onRejected: (r) => rejected.push(r) });
  async function* source() {
    yield* lines;
  }
  const stats = await ingest.consume(source());
  return { stats, rejected: rejected.sort((a, b) => a.line - b.line) };
}

describe("ingest – a stream against a real database", () => {
  it.each([1, 3])(
    "bad lines, duplicates and out-of-order events, in batches of %i lane(s), leave every derived structure equal to a rebuild",
    async (lanes) => {
      const { sql } = await freshDatabase();
      const clean = venueLines(3000);
      const preamble = 50 + 20;
      // Out of order: after the preamble, windows of 25 lines reversed; and every 7th line comes again 40 lines later.
      const shuffled = clean.slice(0, preamble);
      const rest = clean.slice(preamble);
      for (let i = 0; i < rest.length; i += 25) shuffled.push(...rest.slice(i, i + 25).reverse());
      const withDupes: string[] = [];
      const again = new Map<number, string[]>();
      for (const [i, l] of shuffled.entries()) {
        withDupes.push(l, ...(again.get(i) ?? []));
        if (i >= preamble && i % 7 === 0) again.set(i + 40, [...(again.get(i + 40) ?? []), l]);
      }
      // Bad lines at known places (1-based numbers in the final stream).
      const firstOrder = JSON.parse(clean.find((l) => l.startsWith('{"order"'))!).order;
      const bad: [number, string, string][] = [
        [5, "{not json", "(root): not JSON"],
        [200, JSON.stringify({ order: { ...firstOrder, price: "0.5555" } }), "order.price: expected a decimal string 0.001..0.999 with at most 3 decimals"],
        [
          900,
          JSON.stringify({ order: { ...firstOrder, price: firstOrder.price === "0.500" ? "0.501" : "0.500", updated_at: "2026-11-29T00:00:00Z" } }),
          "order.price: differs from the order as first written",
        ],
        [
          1500,
          JSON.stringify({
            trade: {
              id: "6f1c2a57-0000-4000-8000-000000000001",
              market_id: firstOrder.market_id,
              outcome_id: "6f1c2a57-0000-4000-8000-000000000002",
              price: "0.5",
              shares: "1",
              maker_user_id: null,
              taker_user_id: null,
              executed_at: "2026-11-28T12:00:00Z",
            },
          }),
          "trade.outcome_id: unknown outcome",
        ],
        [2500, JSON.stringify({ comment: {} }), "comment: unknown event kind"],
      ];
      const lines = [...withDupes];
      for (const [n, text] of bad) lines.splice(n - 1, 0, text);

      const { stats, rejected } = await ingestAll(sql, lines, 150, lanes);
      expect(rejected.map((r) => r.line)).toEqual(bad.map(([n]) => n));
      for (const [k, [, , message]] of bad.entries()) expect(rejected[k].error).toContain(message);
      expect(stats.batches).toBeGreaterThan(10);
      // Every line counted once, a user line too though each lane writes it.
      expect(stats.accepted).toBe(lines.length - bad.length);
      expect(Object.values(stats.kinds).reduce((a, b) => a + b, 0)).toBe(stats.accepted);

      // The orders are each one's newest state, whatever order and how often they came.
      const want = expectedOrders(clean);
      const got = await sql<{ id: string; status: string; filled_shares: string }[]>`SELECT id, status, filled_shares::text FROM orders`;
      expect(got.length).toBe(want.size);
      for (const o of got)
        expect({ id: o.id, status: o.status, filled: o.filled_shares }).toEqual({
          id: o.id,
          status: want.get(o.id)!.status,
          filled: want.get(o.id)!.filled_shares,
        });
      const trades = new Set(clean.filter((l) => l.startsWith('{"trade"')).map((l) => JSON.parse(l).trade.id));
      const [{ n }] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM trades`;
      expect(n).toBe(trades.size);
      expect(trades.size).toBeGreaterThan(100);

      expect(await mismatches(sql)).toEqual([]);

      // The announcements of the writes were made (migration 0021): books and trades of the stream's markets.
      const kinds = await sql<{ k: string }[]>`SELECT DISTINCT event->>'k' AS k FROM change_log`;
      expect(kinds.map((r) => r.k)).toEqual(expect.arrayContaining(["orderbook", "trade"]));

      // The same stream again changes nothing.
      const [before] = await sql<
        { v: string; p: string }[]
      >`SELECT (SELECT sum(version) FROM book_heads)::text AS v, (SELECT max(position) FROM change_log)::text AS p`;
      const second = await ingestAll(sql, lines, 400, lanes);
      expect(second.stats).toMatchObject({ orders: 0, trades: 0, markets: 0, users: 0 });
      const [after] = await sql<
        { v: string; p: string }[]
      >`SELECT (SELECT sum(version) FROM book_heads)::text AS v, (SELECT max(position) FROM change_log)::text AS p`;
      expect(after).toEqual(before);

      // book_resync (the books rebuilt after a TRUNCATE of the orders) sets every head's notional from the depth again.
      await sql`UPDATE book_heads SET notional = notional + 1`;
      await sql`SELECT book_resync()`;
      expect(await mismatches(sql)).toEqual([]);
      await sql.end();
    },
    180_000,
  );

  it("a stream across the 24-hour line: each market's volume_24h counts its trades after the watermark − 24 h and no other (2 lanes)", async () => {
    const { sql } = await freshDatabase();
    const [{ ms }] = await sql<{ ms: number }[]>`SELECT (extract(epoch FROM swept_at) * 1000)::float8 AS ms FROM trending_watermark`;
    // 3,000 events at 200 a second: 15 s of trades, the line 8 s in.
    const cut = Math.floor(ms) - 86_400_000;
    const lines = venueLines(3000, 20, 11, cut - 8000);
    const { rejected } = await ingestAll(sql, lines, 150, 2);
    expect(rejected).toEqual([]);
    const [t] = await sql<{ before: number; after: number; v24: string; v: string }[]>`
      SELECT count(*) FILTER (WHERE t.executed_at <= w.swept_at - interval '24 hours')::int AS before,
             count(*) FILTER (WHERE t.executed_at > w.swept_at - interval '24 hours')::int AS after,
             (SELECT sum(volume_24h) FROM markets WHERE slug LIKE 'venue-%')::text AS v24,
             (SELECT sum(total_volume) FROM markets WHERE slug LIKE 'venue-%')::text AS v
        FROM trades t, trending_watermark w`;
    expect(t.before).toBeGreaterThan(50);
    expect(t.after).toBeGreaterThan(50);
    expect(Number(t.v24)).toBeGreaterThan(0);
    expect(Number(t.v24)).toBeLessThan(Number(t.v));
    expect(await mismatches(sql)).toEqual([]);
    // A trade written outside the ingest, by the same trigger.
    const [one] = await sql<{ id: string; market_id: string; outcome_id: string }[]>`SELECT id, market_id, outcome_id FROM trades LIMIT 1`;
    await sql`INSERT INTO trades (id, market_id, outcome_id, price, shares, executed_at)
              VALUES (gen_random_uuid(), ${one.market_id}, ${one.outcome_id}, 0.5, 10, now())`;
    // (total_volume is the writer's to keep, not a trigger's: this trade's 0.5 × 10 added by hand.)
    await sql`UPDATE markets SET total_volume = total_volume + 5 WHERE id = ${one.market_id}`;
    expect(await mismatches(sql)).toEqual([]);
    await sql.end();
  }, 120_000);

  it("one statement per line: a book's 250 versions, a snapshot every 200, and a crossed book and back, replay to the served book", async () => {
    const { sql } = await freshDatabase();
    const lines = venueLines(0, 1, 17);
    const market = JSON.parse(lines[lines.length - 1]).market;
    const user = JSON.parse(lines[0]).user.id;
    const at = (k: number) => new Date(START + k * 1000).toISOString();
    const order = (k: number, side: string, price: string, status = "OPEN", filled = "0") =>
      JSON.stringify({
        order: {
          id: `5b000000-0000-4000-8000-${String(k).padStart(12, "0")}`,
          market_id: market.id,
          outcome_id: market.outcomes[0].id,
          user_id: user,
          side,
          type: "LIMIT",
          price,
          shares: "10.00",
          filled_shares: filled,
          status,
          created_at: at(k),
          updated_at: status === "OPEN" ? at(k) : at(k + 1000),
        },
      });
    for (let k = 1; k <= 250; k++) lines.push(order(k, k % 2 ? "BUY" : "SELL", k % 2 ? `0.${300 + (k % 50)}` : `0.${600 + (k % 50)}`));
    // A bid above the best ask crosses the book (netted, recorded whole); its cancel uncrosses it.
    lines.push(
      order(1000, "BUY", "0.700"),
      JSON.stringify({ order: { ...JSON.parse(order(1000, "BUY", "0.700")).order, status: "CANCELLED", updated_at: at(3000) } }),
    );
    const { rejected } = await ingestAll(sql, lines, 1);
    expect(rejected).toEqual([]);
    const [head] = await sql<{ version: number; snapshot_version: number; crossed: boolean }[]>`
      SELECT version::int, snapshot_version::int, crossed FROM book_heads WHERE outcome_id = ${market.outcomes[0].id}`;
    expect(head.version).toBe(252);
    expect(head.snapshot_version).toBe(201);
    expect(head.crossed).toBe(false);
    const snaps = await sql<{ version: number }[]>`SELECT version::int FROM book_snapshots WHERE outcome_id = ${market.outcomes[0].id} ORDER BY 1`;
    expect(snaps.map((r) => r.version)).toEqual([1, 201]);
    expect(await mismatches(sql)).toEqual([]);
    await sql.end();
  }, 120_000);

  it("a line the database rejects is reported alone; the rest of its batch lands, and none of that line", async () => {
    const { sql } = await freshDatabase();
    const lines = venueLines(300, 5, 11);
    // A new market whose slug another market already has: valid on its own, refused by the unique index.
    const market = JSON.parse(lines[50 + 1]).market;
    const clash = {
      ...market,
      id: "7a000000-0000-4000-8000-000000000001",
      outcomes: market.outcomes.map((o: { id: string }, k: number) => ({ ...o, id: `7a000000-0000-4000-8000-00000000010${k}` })),
    };
    lines.splice(120, 0, JSON.stringify({ market: clash }));
    const { rejected, stats } = await ingestAll(sql, lines, 1000);
    expect(rejected).toHaveLength(1);
    expect(rejected[0].line).toBe(121);
    expect(rejected[0].error).toMatch(/^market: rejected by the database: .*markets_slug_key/);
    expect(stats.accepted).toBe(lines.length - 1);
    const [{ n }] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM outcomes WHERE id::text LIKE '7a000000-%'`;
    expect(n).toBe(0);
    expect(await mismatches(sql)).toEqual([]);

    // The comparison itself sees a structure that left its rows (written here past the triggers' way).
    await sql`UPDATE book_depth SET shares = shares + 1 WHERE (outcome_id, side, price) = (SELECT outcome_id, side, price FROM book_depth LIMIT 1)`;
    await sql`UPDATE candles SET volume = volume + 1 WHERE (outcome_id, width, bucket) = (SELECT outcome_id, width, bucket FROM candles LIMIT 1)`;
    await sql`UPDATE market_traders SET trades = trades + 1 WHERE (market_id, user_id) = (SELECT market_id, user_id FROM market_traders LIMIT 1)`;
    await sql`UPDATE markets SET total_volume = total_volume + 1 WHERE id = ${market.id}`;
    await sql`UPDATE market_search SET question = question || '?' WHERE market_id = ${market.id}`;
    expect(await mismatches(sql)).toEqual([
      "book_depth differs from the orders: 2",
      "book_levels differs from the netted depth: 2",
      "book heads whose notional differs from their depth: 1",
      "candles differ from rebuild_candles(): 2",
      "market_traders differ from rebuild_row_derived(): 2",
      "market_search differs from the markets' text: 2",
      "total_volume differs from the trades: 1",
    ]);
    await sql.end();
  }, 120_000);

  it("an ingest killed mid-stream leaves whole batches only; run again from the start, it ends as one uninterrupted run", async () => {
    const { url, sql } = await freshDatabase();
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "ingest-")), "stream.ndjson");
    const lines = venueLines(20_000, 30, 5);
    fs.writeFileSync(file, `${lines.join("\n")}\n`);
    const child = runIngest(url, [file, "--batch", "200", "--quiet"]);
    // Killed (SIGKILL: no flush, no goodbye) once some batches are in.
    for (let i = 0; i < 400; i++) {
      const [{ n }] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM orders`;
      if (n > 2000) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    child.kill("SIGKILL");
    await new Promise((r) => child.once("exit", r));
    const [{ n: partial }] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM orders`;
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(expectedOrders(lines).size);
    expect(await mismatches(sql)).toEqual([]);

    const again = runIngest(url, [file, "--quiet"]);
    const [code] = await new Promise<[number | null]>((r) => again.once("exit", (c) => r([c])));
    expect(code).toBe(0);
    const want = expectedOrders(lines);
    const [{ n }] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM orders`;
    expect(n).toBe(want.size);
    expect(await mismatches(sql)).toEqual([]);
    await sql.end();
  }, 180_000);

  it("an update of markets announces, per market, price for what lists show, detail for its totals, market under both slugs", async () => {
    const { sql } = await freshDatabase();
    await ingestAll(sql, venueLines(0, 3, 5), 100);
    const [a, b] = await sql<{ id: string; slug: string }[]>`SELECT id, slug FROM markets ORDER BY id LIMIT 2`;
    /** The announcements of `update` (kind, and the slug of 'market' ones), in order. */
    const heard = async (update: () => Promise<unknown>) => {
      const [{ p }] = await sql<{ p: string }[]>`SELECT coalesce(max(position), 0)::text AS p FROM change_log`;
      await update();
      const rows = await sql<{ k: string; s: string; m: string }[]>`
        SELECT event->>'k' AS k, event->>'s' AS s, event->>'m' AS m FROM change_log WHERE position > ${p} ORDER BY position`;
      return rows.map((r) => `${r.m === a.id ? "a" : "b"} ${r.k}${r.k === "market" ? ` ${r.s}` : ""}`);
    };
    expect(await heard(() => sql`UPDATE markets SET total_liquidity = total_liquidity + 1 WHERE id = ${a.id}`)).toEqual(["a detail"]);
    expect(await heard(() => sql`UPDATE markets SET volume_24h = volume_24h + 1 WHERE id = ${a.id}`)).toEqual([]);
    expect(await heard(() => sql`UPDATE markets SET total_volume = total_volume + 1 WHERE id = ${a.id}`)).toEqual(["a price"]);
    expect(await heard(() => sql`UPDATE markets SET total_volume = total_volume + 1, comments_count = comments_count + 1 WHERE id = ${a.id}`)).toEqual([
      "a price",
      "a detail",
    ]);
    // Nothing changed but the values' spelling: nothing to say.
    expect(await heard(() => sql`UPDATE markets SET total_volume = total_volume::numeric(30,9), tags = tags WHERE id = ${a.id}`)).toEqual([]);
    expect(await heard(() => sql`UPDATE markets SET slug = ${`${a.slug}-x`} WHERE id = ${a.id}`)).toEqual([
      "a price",
      `a market ${a.slug}-x`,
      `a market ${a.slug}`,
    ]);
    // Two markets in one statement: each its own, in order per market.
    const both = await heard(
      () => sql`UPDATE markets SET question = question || ' again', total_liquidity = total_liquidity + 2 WHERE id IN (${a.id}, ${b.id})`,
    );
    expect(both.filter((e) => e.startsWith("a"))).toEqual(["a price", "a detail"]);
    expect(both.filter((e) => e.startsWith("b"))).toEqual(["b price", "b detail"]);
    await sql.end();
  }, 60_000);

  it("a market's search text follows its question and description, and a change of its totals leaves the text's row unwritten", async () => {
    const { sql } = await freshDatabase();
    await ingestAll(sql, venueLines(300, 5, 17), 200);
    const [a] = await sql<{ id: string }[]>`SELECT id FROM markets ORDER BY id LIMIT 1`;
    const rowOf = async () => (await sql<{ xmin: string; question: string }[]>`SELECT xmin::text, question FROM market_search WHERE market_id = ${a.id}`)[0];
    const before = await rowOf();
    await sql`UPDATE markets SET total_volume = total_volume + 1, total_liquidity = total_liquidity + 1 WHERE id = ${a.id}`;
    await sql`UPDATE markets SET total_volume = total_volume - 1, total_liquidity = total_liquidity - 1 WHERE id = ${a.id}`;
    // The same text written again (an upsert sets every column): nothing to do either.
    await sql`UPDATE markets SET question = question, description = description WHERE id = ${a.id}`;
    expect(await rowOf()).toEqual(before);
    await sql`UPDATE markets SET question = 'Will the renamed market find its searchers?' WHERE id = ${a.id}`;
    expect((await rowOf()).question).toBe("Will the renamed market find its searchers?");
    expect(await mismatches(sql)).toEqual([]);
    await sql.end();
  }, 60_000);

  it("--follow picks up lines appended to the file", async () => {
    const { url, sql } = await freshDatabase();
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "ingest-")), "follow.ndjson");
    const lines = venueLines(400, 5, 13);
    fs.writeFileSync(file, `${lines.slice(0, 200).join("\n")}\n`);
    const child = runIngest(url, [file, "--follow", "--quiet"]);
    const orders = async () => (await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM orders`)[0].n;
    const until = async (pred: () => Promise<boolean>) => {
      for (let i = 0; i < 600 && !(await pred()); i++) await new Promise((r) => setTimeout(r, 50));
      return pred();
    };
    expect(await until(async () => (await orders()) > 0)).toBe(true);
    const first = await orders();
    // The rest arrives in two appends, the first ending in the middle of a line.
    const tail = `${lines.slice(200).join("\n")}\n`;
    fs.appendFileSync(file, tail.slice(0, 1000));
    await new Promise((r) => setTimeout(r, 300));
    fs.appendFileSync(file, tail.slice(1000));
    const want = expectedOrders(lines).size;
    expect(await until(async () => (await orders()) === want)).toBe(true);
    expect(want).toBeGreaterThan(first);
    child.kill("SIGINT");
    const [code, stderr] = await new Promise<[number | null, string]>((r) => child.once("exit", (c) => r([c, (child as ChildProcess & { err: string }).err])));
    expect(code).toBe(0);
    expect(stderr).not.toMatch(/^line \d+:/m);
    expect(await mismatches(sql)).toEqual([]);
    await sql.end();
  }, 120_000);
});

describe.runIf(process.platform === "linux" && process.getuid?.() === 0)(
  'npm run ingest yields the CPU to reads (docs/ingest.md "Priority"; renicing the backends needs root here)',
  () => {
    const stat = (pid: number) => fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    /** The nice of `pid` (the 19th field of /proc/<pid>/stat) and its autogroup's. */
    const niceOf = (pid: number) => ({
      nice: Number(stat(pid)[16]),
      autogroup: Number(/nice (-?\d+)/.exec(fs.readFileSync(`/proc/${pid}/autogroup`, "utf8"))?.[1]),
    });
    const sessionOf = (pid: number) => Number(stat(pid)[3]);
    /** The processes whose parent is `pid` and that run scripts/ingest.ts (not tsx's esbuild). */
    const ingestChildren = (pid: number) =>
      fs
        .readdirSync("/proc")
        .filter((d) => /^\d+$/.test(d))
        .map(Number)
        .filter((p) => {
          try {
            return Number(stat(p)[1]) === pid && fs.readFileSync(`/proc/${p}/cmdline`, "utf8").includes("scripts/ingest.ts");
          } catch {
            return false; // gone meanwhile
          }
        });
    const alive = (pid: number) => {
      try {
        return stat(pid)[0] !== "Z";
      } catch {
        return false;
      }
    };

    /** The ingest following a file of venue lines, its backends connected; stopped by `stop`. */
    async function followed(args: string[]) {
      const { url, sql } = await freshDatabase();
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "ingest-")), "priority.ndjson");
      fs.writeFileSync(file, `${venueLines(200, 5, 17).join("\n")}\n`);
      const child = runIngest(url, [file, "--follow", "--quiet", "--lanes", "2", ...args]);
      const exited = new Promise<{ code: number | null; signal: string | null }>((r) => child.once("exit", (code, signal) => r({ code, signal })));
      const sessions = async () =>
        (await sql<{ pid: number }[]>`SELECT pid FROM pg_stat_activity WHERE application_name = 'markets-ingest' AND datname = current_database()`).map(
          (r) => r.pid,
        );
      await expect.poll(async () => (await sessions()).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
      return { sql, child, exited, sessions };
    }

    // The copy in a session of its own needs setpriv (util-linux); without it the ingest stays where it was started.
    it.runIf(canDieWithParent())(
      "--priority low (the default): it runs in a session of its own, it, its session and its database sessions' backends at nice 19; Ctrl-C reaches it",
      async () => {
        const { sql, child, exited, sessions } = await followed([]);
        try {
          // The process started (here by the test, as by a shell) stays in its caller's session at its priority,
          // and waits for its copy, which leads a session of its own.
          const [copy] = ingestChildren(child.pid!);
          expect(copy).toBeGreaterThan(0);
          expect(sessionOf(copy)).toBe(copy);
          expect(sessionOf(child.pid!)).toBe(sessionOf(process.pid));
          expect(niceOf(child.pid!)).toEqual(niceOf(process.pid));
          // A session is lowered by the pass after it connected (every 5 s).
          const priorities = async () => [...new Set([copy, ...(await sessions())].map((pid) => JSON.stringify(niceOf(pid))))];
          await expect.poll(priorities, { timeout: 15_000, interval: 250 }).toEqual([JSON.stringify({ nice: 19, autogroup: 19 })]);
          // Told once the pass lowered them; the copy's stderr reaches ours through the process started.
          await expect
            .poll(() => child.err, { timeout: 10_000 })
            .toMatch(/priority: this process \(in a session of its own\) and \d+ database session\(s\) at nice 19: reads on this machine go first/);
          // Another session of the database keeps its priority.
          const [{ pid: other }] = await sql<{ pid: number }[]>`SELECT pid FROM pg_stat_activity WHERE pid = pg_backend_pid()`;
          expect(niceOf(other)).toEqual({ nice: 0, autogroup: 0 });
          // Ctrl-C, as a terminal sends it, to the process started: the copy stops cleanly, and the exit code is its.
          child.kill("SIGINT");
          expect(await exited).toEqual({ code: 0, signal: null });
          expect(child.err).toMatch(/ingest: done: /);
          expect(alive(copy)).toBe(false);
        } finally {
          child.kill("SIGKILL");
          await sql.end();
        }
      },
      90_000,
    );

    it.runIf(canDieWithParent())(
      "--priority low: the process started killed outright, its copy dies with it",
      async () => {
        const { sql, child, exited, sessions } = await followed([]);
        try {
          const [copy] = ingestChildren(child.pid!);
          expect(alive(copy)).toBe(true);
          child.kill("SIGKILL");
          await exited;
          await expect.poll(() => alive(copy), { timeout: 10_000 }).toBe(false);
          await expect.poll(async () => (await sessions()).length, { timeout: 10_000 }).toBe(0);
        } finally {
          await sql.end();
        }
      },
      90_000,
    );

    it("--priority normal: no copy; the process and its database sessions' backends keep their priority", async () => {
      const { sql, child, exited, sessions } = await followed(["--priority", "normal"]);
      try {
        expect(ingestChildren(child.pid!)).toEqual([]);
        // The pass would have lowered them within 5 s.
        await new Promise((r) => setTimeout(r, 6_000));
        // As the test's own process and another session of the database have them (whatever priority CI runs at).
        expect(niceOf(child.pid!)).toEqual(niceOf(process.pid));
        const [{ pid: other }] = await sql<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
        const theirs = niceOf(other);
        const backends = (await sessions()).filter(alive);
        expect(backends.length).toBeGreaterThanOrEqual(2);
        for (const pid of backends) expect({ pid, ...niceOf(pid) }).toEqual({ pid, ...theirs });
        child.kill("SIGINT");
        expect(await exited).toEqual({ code: 0, signal: null });
      } finally {
        child.kill("SIGKILL");
        await sql.end();
      }
    }, 90_000);
  },
);

describe("npm run ingest's --priority", () => {
  it("another value than low or normal ends it with the usage message and exit code 2, before it starts anything", async () => {
    const child = runIngest("postgres://nobody@127.0.0.1:1/none", ["--priority", "high"]);
    const code = await new Promise((r) => child.once("exit", r));
    expect(code).toBe(2);
    expect(child.err).toMatch(/^--priority high: expected low \(the default: reads on this machine go first\) or normal$/m);
  }, 30_000);
});

/** `npm run ingest` as a process of its own on the database at `url`; its stderr collects on `.err`. */
function runIngest(url: string, args: string[]) {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/ingest.ts", ...args], {
    env: { ...process.env, DATABASE_URL: url },
    stdio: ["ignore", "ignore", "pipe"],
  }) as ChildProcess & { err: string };
  child.err = "";
  child.stderr?.on("data", (d) => (child.err += String(d)));
  return child;
}
