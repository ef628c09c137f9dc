// npm run bench:book-log [-- --changes 1000000 --runs 300 --ops 2000]
// The record of past books (migration 0011) at scale, in its own database (bench_book_log) on
// DATABASE_URL's server or the embedded cluster in EMBEDDED_PG_DIR:
//   1. one outcome gets `changes` recorded versions, written set-based (COPY) into the tables the triggers
//      write, as they write them: a simulated book whose every version changes one or two levels, its
//      whole book every 200 versions, spread over the last 10 days;
//   2. the book at random moments (GET …/orderbook/at's query function) and pages of 1,000 changes from
//      random versions (…/orderbook/changes's) are timed, p50 and p99 in ms, and a few checked against the
//      simulation;
//   3. the write cost: single-statement order inserts, fills and cancels per second with the record on
//      and off (SET markets.book_log), runs interleaved, and with the book triggers off altogether;
//   4. the storage of the log tables per 1,000,000 changes.
// Targets (docs/performance.md, 2 cores): book at T p99 ≤ 30 ms; a page of 1,000 changes p99 ≤ 30 ms; writes with
// the record on ≥ 0.7× off. Prints only; never asserts.
import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { setDatabaseUrl } from "../lib/config";
import { closeDb } from "../lib/db/client";
import { resolveDatabase } from "../lib/db/embedded";
import { prng } from "../lib/dev/tools";
import { migrate } from "../lib/db/migrate";
import { BOOK_SNAPSHOT_EVERY, getBookAt, getBookChanges } from "../lib/markets/sql/book-log";

const { values: args } = parseArgs({
  options: { changes: { type: "string" }, runs: { type: "string" }, ops: { type: "string" }, keep: { type: "boolean" } },
});
const CHANGES = Number(args.changes ?? 1_000_000);
const RUNS = Number(args.runs ?? 300);
const OPS = Number(args.ops ?? 2000);
const DB = "bench_book_log";

const database = await resolveDatabase({ log: (m) => console.error(m) });
const adminUrl = new URL(database.url);
adminUrl.pathname = "/postgres";
const admin = postgres(adminUrl.toString(), { max: 1, onnotice: () => {} });
await admin.unsafe(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
await admin.unsafe(`CREATE DATABASE ${DB}`);
await admin.end();
const url = new URL(database.url);
url.pathname = `/${DB}`;
setDatabaseUrl(url.toString()); // the query functions read this database
const sql = postgres(url.toString(), { max: 4, onnotice: () => {} });

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const row = (name: string, p50: number, p99: number, note = "") =>
  console.log(`${name.padEnd(52)} ${p50.toFixed(2).padStart(8)} ${p99.toFixed(2).padStart(8)}  ${note}`);

async function makeMarket() {
  const market = randomUUID();
  const outcomes = [randomUUID(), randomUUID()];
  const user = randomUUID();
  await sql`INSERT INTO users (id, username) VALUES (${user}, ${`bench-${user.slice(0, 8)}`})`;
  await sql`INSERT INTO markets (id, slug, question, description, category, sub_category, type, status, trading_starts_at, trading_ends_at, platform_fee, spread, image_url)
            VALUES (${market}, ${`bench-${market.slice(0, 8)}`}, 'Bench?', '', 'OTHER', '', 'BINARY', 'ACTIVE', now() - interval '30 days', now() + interval '30 days', 0.02, 1, 'https://example.com/x.png')`;
  await sql`INSERT INTO outcomes (id, market_id, name, side, index, probability) VALUES
            (${outcomes[0]}, ${market}, 'Yes', 'YES', 0, 50), (${outcomes[1]}, ${market}, 'No', 'NO', 1, 50)`;
  return { market, outcomes, user };
}

// ------------------------------------------------------------------ 1. one outcome with CHANGES versions

/** The simulated book: price (thousandths) → shares (hundredths), per side, and its stored text. */
type Side = Map<number, number>;
const fmt = (side: "b" | "a", p: number, s: number) => `${side} ${(p / 1000).toFixed(3)} ${(s / 100).toFixed(2)}`;
const text = (bids: Side, asks: Side) =>
  [...[...bids].sort((x, y) => y[0] - x[0]).map(([p, s]) => fmt("b", p, s)), ...[...asks].sort((x, y) => x[0] - y[0]).map(([p, s]) => fmt("a", p, s))].join(
    ",",
  );

async function recordChanges(outcome: string) {
  const t0 = Date.now();
  const rnd = prng(22);
  const end = Date.now() - 60_000;
  const start = end - 10 * 24 * 3600 * 1000;
  const step = (end - start) / CHANGES;
  const days = new Set<string>();
  for (let t = start; t <= end + 86_400_000; t += 86_400_000) days.add(new Date(t).toISOString().slice(0, 10));
  for (const d of days) await sql`SELECT book_log_create_day(${d}::date)`;
  const bids: Side = new Map();
  const asks: Side = new Map();
  // Kept for the checks: the book at a few versions.
  const checks = new Map<number, string>();
  const checkAt = new Set(Array.from({ length: 20 }, () => 1 + Math.floor(rnd() * CHANGES)));
  const changes = await sql`COPY book_changes (outcome_id, version, at, replace, levels) FROM STDIN`.writable();
  const snaps: string[] = [];
  const atOf = (v: number) => new Date(start + v * step).toISOString();
  let buf = "";
  for (let v = 1; v <= CHANGES; v++) {
    const changed: string[] = [];
    for (let k = rnd() < 0.3 ? 2 : 1; k > 0; k--) {
      const buy = rnd() < 0.5;
      const side = buy ? bids : asks;
      const p = buy ? 400 + Math.floor(rnd() * 95) : 505 + Math.floor(rnd() * 95);
      const s = side.has(p) && rnd() < 0.35 ? 0 : 6 + Math.floor(rnd() * 500_000);
      if (s === 0) side.delete(p);
      else side.set(p, s);
      changed.push(fmt(buy ? "b" : "a", p, s));
    }
    buf += `${outcome}\t${v}\t${atOf(v)}\tf\t${changed.join(",")}\n`;
    if (v === 1 || v % BOOK_SNAPSHOT_EVERY === 0) snaps.push(`${outcome}\t${v}\t${atOf(v)}\t${atOf(v)}\t${text(bids, asks)}\n`);
    if (checkAt.has(v)) checks.set(v, text(bids, asks));
    if (buf.length > 1 << 20) {
      if (!changes.write(buf)) await new Promise((r) => changes.once("drain", r));
      buf = "";
    }
  }
  await new Promise<void>((resolve, reject) => changes.end(buf, (err?: Error | null) => (err ? reject(err) : resolve())));
  const snapshots = await sql`COPY book_snapshots (outcome_id, version, at, version_at, levels) FROM STDIN`.writable();
  await new Promise<void>((resolve, reject) => snapshots.end(snaps.join(""), (err?: Error | null) => (err ? reject(err) : resolve())));
  // The current book and its head, as the triggers leave them.
  await sql`INSERT INTO book_heads (outcome_id, version, changed_at, logged_version, snapshot_version)
            VALUES (${outcome}, ${CHANGES}, ${atOf(CHANGES)}, ${CHANGES}, ${CHANGES - (CHANGES % BOOK_SNAPSHOT_EVERY)})`;
  const levels = [...[...bids].map(([p, s]) => ["BUY", p, s] as const), ...[...asks].map(([p, s]) => ["SELL", p, s] as const)];
  for (const [side, p, s] of levels) await sql`INSERT INTO book_levels VALUES (${outcome}, ${side}, ${p / 1000}, ${s / 100})`;
  await sql`VACUUM ANALYZE book_changes`;
  await sql`VACUUM ANALYZE book_snapshots`;
  console.log(`recorded ${CHANGES.toLocaleString("en-US")} changes (${snaps.length} snapshots) in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return { start, end, step, checks, atOf };
}

async function storage() {
  const [r] = await sql<{ changes: number; snapshots: number }[]>`
    SELECT (SELECT sum(pg_total_relation_size(relid)) FROM pg_partition_tree('book_changes'))::float8 AS changes,
           (SELECT sum(pg_total_relation_size(relid)) FROM pg_partition_tree('book_snapshots'))::float8 AS snapshots`;
  return r;
}

// ------------------------------------------------------------------ 3. write cost

/**
 * OPS single-statement writes on one outcome's book (placements, partial fills, cancels); ops per second.
 * Bids 0.400–0.495 and asks 0.505–0.600 never cross: the book a matching engine leaves.
 */
async function writes(conn: postgres.ReservedSql, m: { market: string; outcomes: string[]; user: string }, seed: number, outcome = m.outcomes[0]) {
  const rnd = prng(seed);
  const open: string[] = [];
  const t0 = performance.now();
  for (let i = 0; i < OPS; i++) {
    const r = rnd();
    if (open.length < 20 || r < 0.5) {
      const id = randomUUID();
      const buy = rnd() < 0.5;
      const price = ((buy ? 400 + rnd() * 95 : 505 + rnd() * 95) / 1000).toFixed(3);
      await conn`INSERT INTO orders (id, market_id, outcome_id, user_id, side, type, price, shares, filled_shares, status, created_at)
                 VALUES (${id}, ${m.market}, ${outcome}, ${m.user}, ${buy ? "BUY" : "SELL"}, 'LIMIT', ${price}, 10, 0, 'OPEN', now())`;
      open.push(id);
    } else if (r < 0.8) {
      const id = open[Math.floor(rnd() * open.length)];
      await conn`UPDATE orders SET filled_shares = least(shares, filled_shares + 1),
                   status = CASE WHEN filled_shares + 1 >= shares THEN 'FILLED' ELSE 'PARTIALLY_FILLED' END::order_status WHERE id = ${id}`;
    } else {
      const [id] = open.splice(Math.floor(rnd() * open.length), 1);
      await conn`UPDATE orders SET status = 'CANCELLED' WHERE id = ${id} AND status <> 'FILLED'`;
    }
  }
  return OPS / ((performance.now() - t0) / 1000);
}

const BOOK_TRIGGERS = ["orders_book_ins", "orders_book_upd", "orders_book_del"];

try {
  await migrate(sql);
  const heavy = await makeMarket();
  const outcome = heavy.outcomes[0];
  const sim = await recordChanges(outcome);
  const size = await storage();

  // ---- 2. reads
  console.log(`\n${"case".padEnd(52)} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)}`);
  const rnd = prng(99);
  const unix = (ms: number) => (ms / 1000).toFixed(6);
  const key = { id: heavy.market, outcomeId: outcome };
  let wrong = 0;
  for (const [v, want] of sim.checks) {
    // The moment of version v (its time) and just before the next one: the book after v.
    const at = await getBookAt({ ...key, ts: unix(Date.parse(sim.atOf(v)) + 0.5 * sim.step) });
    const got = [...at.book.bids.map((l) => `b ${l.price} ${l.shares}`), ...at.book.asks.map((l) => `a ${l.price} ${l.shares}`)].join(",");
    if (at.version !== v || got !== want) wrong++;
  }
  console.log(`checked the book at ${sim.checks.size} random versions against the simulation: ${wrong ? `${wrong} WRONG` : "all equal"}`);
  for (const [name, run] of [
    ["book at a random moment (1 snapshot + < 200 changes)", () => getBookAt({ ...key, ts: unix(sim.start + rnd() * (sim.end - sim.start)) })],
    ["a page of 1,000 changes from a random version", () => getBookChanges({ ...key, fromVersion: 1 + Math.floor(rnd() * (CHANGES - 1000)), limit: 1000 })],
    [
      "a page of 1,000 changes from a random moment (startTs)",
      () => getBookChanges({ ...key, startTs: unix(sim.start + rnd() * (sim.end - sim.start) * 0.99), limit: 1000 }),
    ],
  ] as const) {
    for (let i = 0; i < 10; i++) await run();
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      await run();
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    row(name, quantile(times, 0.5), quantile(times, 0.99), "target p99 ≤ 30 ms");
  }

  // ---- 3. writes: on, off and no book triggers, interleaved, 3 rounds each
  const writer = await makeMarket();
  const conn = await sql.reserve();
  const rates: Record<"on" | "off" | "none", number[]> = { on: [], off: [], none: [] };
  for (let round = 0; round < 3; round++) {
    for (const mode of ["on", "off", "none"] as const) {
      await conn.unsafe(`SET markets.book_log = ${mode === "on" ? "on" : "off"}`);
      if (mode === "none") for (const t of BOOK_TRIGGERS) await conn.unsafe(`ALTER TABLE orders DISABLE TRIGGER ${t}`);
      // Without triggers the book tables fall out of step with the orders: that run writes the other outcome.
      rates[mode].push(await writes(conn, writer, round * 3 + mode.length, writer.outcomes[mode === "none" ? 1 : 0]));
      if (mode === "none") for (const t of BOOK_TRIGGERS) await conn.unsafe(`ALTER TABLE orders ENABLE TRIGGER ${t}`);
    }
  }
  conn.release();
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(`\nwrites per second (single statements: 50% placements, 30% partial fills, 20% cancels; median of 3 interleaved runs of ${OPS})`);
  console.log(`  record on                 ${med(rates.on).toFixed(0).padStart(7)}`);
  console.log(`  record off (versions kept) ${med(rates.off).toFixed(0).padStart(6)}`);
  console.log(`  no book triggers at all   ${med(rates.none).toFixed(0).padStart(7)}`);
  console.log(
    `  on / off = ${(med(rates.on) / med(rates.off)).toFixed(2)} (target ≥ 0.70); on / no book triggers = ${(med(rates.on) / med(rates.none)).toFixed(2)}`,
  );

  // ---- 4. storage
  const per = (bytes: number) => `${(((bytes / CHANGES) * 1_000_000) / 1024 / 1024).toFixed(1)} MB`;
  console.log(
    `\nstorage per 1,000,000 changes: book_changes ${per(size.changes)} + book_snapshots ${per(size.snapshots)} = ${per(size.changes + size.snapshots)} (tables and indexes)`,
  );
} finally {
  await sql.end();
  await closeDb();
  if (!args.keep) {
    const a = postgres(adminUrl.toString(), { max: 1, onnotice: () => {} });
    await a.unsafe(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
    await a.end();
  }
  await database.stop();
}
