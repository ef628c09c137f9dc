// npm run bench:exports [-- --trades 1000000 --markets 2000 --rounds 2 --prepare]
// The export targets of docs/api.md "Exports": one day with ≥ 1,000,000 trades written as Parquet (rows/s,
// peak RSS growth of the writing process, bytes per trade row), and /v1 list and market reads (p99) idle
// and while that export runs, interleaved window by window so that a machine shared with other work slows
// both alike; the export runs in a process started as the job starts its worker (lib/exports/launch.ts) and
// stopped while a read is in flight, as the server stops the job's (lib/exports/pause.ts).
// Makes its own database (markets_bench_exports on the embedded cluster, or beside DATABASE_URL's): the demo
// seed, then the trades of one day two days ago (--prepare: make the database and stop). Prints only; never asserts.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { freePort } from "../lib/dev/tools";
import { resolveDatabase } from "../lib/db/embedded";
import { migrate } from "../lib/db/migrate";
import { spawnAtIdlePriority } from "../lib/exports/launch";
import { type Pauser, pauseWhileBusy } from "../lib/exports/pause";
import { addDays, dayOf } from "../lib/exports/names";

const { values: args } = parseArgs({
  options: { trades: { type: "string" }, markets: { type: "string" }, rounds: { type: "string" }, child: { type: "string" }, prepare: { type: "boolean" } },
});
const DAY = addDays(dayOf(Date.now()), -2);

// ------------------------------------------------------------------ the export, in a process of its own
if (args.child) {
  const { openDuck } = await import("../lib/exports/duck");
  const { writeDayFile, JOB_SESSION } = await import("../lib/exports/writer");
  const url = args.child;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-exports-"));
  const sql = postgres(url, { max: 1, onnotice: () => {}, connection: JOB_SESSION });
  const duck = await openDuck(dir);
  await sql`SELECT 1`;
  // The baseline holds DuckDB's code for a CSV read into a Parquet file, faulted in by a file of one row: the
  // growth is then what the day's rows cost, not the library's pages (10-15 MB that a process which spent its
  // start stopped, beside the reads, had not yet touched).
  fs.writeFileSync(path.join(dir, "warm.csv"), "1.5,2026-01-01 00:00:00+00\n");
  await duck.connection.run(
    `COPY (SELECT * FROM read_csv('${dir}/warm.csv', columns = {'a': 'DECIMAL(18,6)', 't': 'TIMESTAMPTZ'}, header = false, auto_detect = false)) TO '${dir}/warm.parquet' (FORMAT parquet, COMPRESSION zstd)`,
  );
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  const file = await writeDayFile({ sql, databaseUrl: url, duck: duck.connection, dir, dataset: "trades", day: DAY });
  const ms = performance.now() - started;
  const peak = process.resourceUsage().maxRSS * 1024;
  process.stdout.write(`${JSON.stringify({ rows: file.rows, bytes: file.bytes, ms, rssBefore, peak })}\n`);
  duck.close();
  await sql.end();
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}

const tradesWanted = Number(args.trades ?? 1_000_000);
const rounds = Number(args.rounds ?? 2);
const log = (m: string) => console.error(`[bench:exports] ${m}`);

const base = await resolveDatabase({ log });
const benchUrl = new URL(process.env.DATABASE_URL!);
const admin = postgres(benchUrl.toString(), { max: 1, onnotice: () => {} });
benchUrl.pathname = "/markets_bench_exports";
const [exists] = await admin`SELECT 1 AS one FROM pg_database WHERE datname = 'markets_bench_exports'`;
if (!exists) await admin.unsafe(`CREATE DATABASE markets_bench_exports`);
await admin.end();
const sql = postgres(benchUrl.toString(), { max: 2, onnotice: () => {}, connection: { statement_timeout: 0 } });

// ------------------------------------------------------------------ data: the seed, then one heavy day
await migrate(sql, log);
const [{ markets }] = await sql<{ markets: number }[]>`SELECT count(*)::int AS markets FROM markets`;
if (markets === 0) {
  const { seedDatabase } = await import("../lib/seed/seed");
  await seedDatabase(sql, { markets: Number(args.markets ?? 2000), log });
}
const dayStart = `${DAY}T00:00:00Z`;
const [{ n: have }] = await sql<{ n: number }[]>`
  SELECT count(*)::int AS n FROM trades WHERE executed_at >= ${dayStart}::timestamptz AND executed_at < ${dayStart}::timestamptz + interval '1 day'`;
if (have < tradesWanted) {
  log(`adding ${tradesWanted - have} trades on ${DAY}`);
  // Bulk: triggers off for this session (candles and the derived columns are not what is measured).
  await sql.begin(async (tx) => {
    await tx`SET LOCAL session_replication_role = replica`;
    await tx`
      WITH o AS (SELECT array_agg(id ORDER BY id) AS ids, array_agg(market_id ORDER BY id) AS mids, count(*)::int AS n FROM outcomes),
           u AS (SELECT array_agg(id ORDER BY id) AS ids, count(*)::int AS n FROM users),
           g AS (SELECT i, 1 + floor(random() ^ 2 * o.n)::int AS k, 1 + floor(random() ^ 2 * u.n)::int AS a, 1 + floor(random() * u.n)::int AS b
                   FROM generate_series(1, ${tradesWanted - have}) i, o, u)
      INSERT INTO trades (id, market_id, outcome_id, price, shares, maker_user_id, taker_user_id, executed_at)
      SELECT gen_random_uuid(), o.mids[g.k], o.ids[g.k], round((0.01 + random() * 0.98)::numeric, 3), round((1 + random() ^ 3 * 2000)::numeric, 2),
             u.ids[g.a], u.ids[g.b], ${dayStart}::timestamptz + ((g.i - 1 + random()) * 86400.0 / ${tradesWanted - have}) * interval '1 second'
        FROM g, o, u`;
  });
  await sql`VACUUM ANALYZE trades`;
}
if (args.prepare) {
  log("database ready");
  await sql.end();
  await base.stop();
  process.exit(0);
}

// ------------------------------------------------------------------ a server on it, and the reads
const port = await freePort();
const server = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
  env: {
    ...process.env,
    DATABASE_URL: benchUrl.toString(),
    PORT: String(port),
    HOST: "127.0.0.1",
    SKIP_SEED: "1",
    EXPORT_JOB: "off",
    RATE_LIMIT: "off",
    CACHE: "off",
    WARM_UP_PAGES: "0",
    WARM_UP_ITEMS_PERCENT: "0",
    LOG_REQUESTS: "0",
  },
  stdio: ["ignore", "pipe", "inherit"],
});
await new Promise<void>((resolve, reject) => {
  let out = "";
  server.stdout!.on("data", (d) => {
    out += d;
    if (out.includes("ready on")) resolve();
  });
  server.once("exit", () => reject(new Error(`server.ts exited: ${out.slice(-2000)}`)));
});
const ids = (await sql<{ id: string }[]>`SELECT id FROM markets WHERE status = 'ACTIVE' ORDER BY id`).map((r) => r.id);
const origin = `http://127.0.0.1:${port}`;

const latencies = { idle: { list: [] as number[], market: [] as number[] }, export: { list: [] as number[], market: [] as number[] } };
let mode: "idle" | "export" | "paused" = "idle";
let reading = true;
// The export's process is stopped while a read is in flight, as the server stops the job's (lib/exports/pause.ts):
// here the bench's reads are the server's only requests, so the bench tells the pauser of them itself.
let pauser: Pauser | null = null;
async function reader() {
  while (reading) {
    if (mode === "paused") {
      await new Promise((r) => setTimeout(r, 50));
      continue;
    }
    const list = Math.random() < 0.5;
    const url = list
      ? `${origin}/v1/markets?limit=20&offset=${Math.floor(Math.random() * 500)}&sortBy=VOLUME`
      : `${origin}/v1/markets/${ids[Math.floor(Math.random() * ids.length)]}`;
    // Read before the request: the mode may change while it is in flight.
    const m: string = mode;
    const t = performance.now();
    const p = pauser;
    p?.started();
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
    } finally {
      p?.finished();
    }
    if (m === "idle" || m === "export") latencies[m][list ? "list" : "market"].push(performance.now() - t);
  }
}

interface ExportRun {
  rows: number;
  bytes: number;
  ms: number;
  rssBefore: number;
  peak: number;
  /** The process's life, from its start to its exit (ms), and how much of it the reads kept it stopped. */
  lifeMs: number;
  pausedMs: number;
}

function exportOnce(): Promise<ExportRun> {
  return new Promise((resolve, reject) => {
    // Started as the job's process is (lib/exports/launch.ts: SCHED_IDLE, or nice 19 without it).
    const child = spawnAtIdlePriority("scripts/bench-exports.ts", ["--child", benchUrl.toString()], { stdio: ["ignore", "pipe", "inherit"] });
    const born = performance.now();
    const p = pauseWhileBusy(child.pid!);
    pauser = p;
    let out = "";
    child.stdout!.on("data", (d) => (out += d));
    child.once("exit", (code) => {
      pauser = null;
      p.close();
      if (code !== 0) return reject(new Error(`export child exited ${code}`));
      resolve({ ...JSON.parse(out.trim().split("\n").pop()!), lifeMs: performance.now() - born, pausedMs: p.stats().pausedMs });
    });
  });
}

// The machine's load around the measured part: a shared machine moves every figure here.
const loadBefore = os.loadavg()[0];
const readers = Array.from({ length: 2 }, () => reader());
// Warm-up: plans cached, pages in memory.
await new Promise((r) => setTimeout(r, 3000));
for (const k of Object.values(latencies)) (k.list.length = 0), (k.market.length = 0);
// The export alone first (no reads beside it): what the pipeline does with the machine to itself.
mode = "paused";
await new Promise((r) => setTimeout(r, 1000));
const alone = await exportOnce();
mode = "idle";
await new Promise((r) => setTimeout(r, 3000));
const exports: ExportRun[] = [];
for (let round = 0; round < rounds; round++) {
  mode = "export";
  const e = await exportOnce();
  exports.push(e);
  mode = "idle";
  await new Promise((r) => setTimeout(r, e.lifeMs));
}
reading = false;
await Promise.all(readers);
const loadAfter = os.loadavg()[0];
server.kill("SIGTERM");
await sql.end();
await base.stop();

const q = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? Number.NaN;
const mb = (b: number) => (b / 1024 / 1024).toFixed(1);
console.log(`| measure | result | target |`);
console.log(`|---|---:|---|`);
console.log(`| load average (1 min) before / after the measured part, ${os.cpus().length} cores | ${loadBefore.toFixed(2)} / ${loadAfter.toFixed(2)} | |`);
console.log(
  `| export of ${DAY} (trades) alone: ${alone.rows.toLocaleString("en")} rows in ${(alone.ms / 1000).toFixed(2)} s | ${Math.round(alone.rows / (alone.ms / 1000)).toLocaleString("en")} rows/s | ≥ 200,000 rows/s |`,
);
console.log(
  `| peak RSS growth of the writing process, alone (${mb(alone.rssBefore)} MB before, ${mb(alone.peak)} MB at the peak) | ${mb(alone.peak - alone.rssBefore)} MB | ≤ 100 MB |`,
);
for (const [i, e] of exports.entries()) {
  console.log(
    `| export of ${DAY} (trades), beside the reads, run ${i + 1}: ${e.rows.toLocaleString("en")} rows in ${(e.ms / 1000).toFixed(2)} s; the process lived ${(e.lifeMs / 1000).toFixed(1)} s, stopped by the reads ${Math.round((e.pausedMs / e.lifeMs) * 100)} % of it | ${Math.round(e.rows / (e.ms / 1000)).toLocaleString("en")} rows/s | |`,
  );
  console.log(
    `| peak RSS growth of the writing process, run ${i + 1} (${mb(e.rssBefore)} MB before, ${mb(e.peak)} MB at the peak) | ${mb(e.peak - e.rssBefore)} MB | |`,
  );
}
console.log(`| file size | ${(exports[0].bytes / exports[0].rows).toFixed(1)} bytes per trade row (${mb(exports[0].bytes)} MB) | ≤ 40 |`);
for (const kind of ["list", "market"] as const) {
  const idle = q(latencies.idle[kind], 0.99);
  const busy = q(latencies.export[kind], 0.99);
  console.log(
    `| /v1 ${kind} p99, idle vs while exporting (${latencies.idle[kind].length} / ${latencies.export[kind].length} reads, CACHE=off) | ${idle.toFixed(1)} ms vs ${busy.toFixed(1)} ms (${busy > idle ? "+" : ""}${Math.round((busy / idle - 1) * 100)} %) | within 20 % |`,
  );
}
