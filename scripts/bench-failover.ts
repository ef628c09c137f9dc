// npm run bench:failover [-- seconds]: what synchronous replication costs an import, on a
// pg_auto_failover formation (./cluster/auto-failover.ts). The same importer (lib/import) runs for
// `seconds` each way on the same primary: commits that wait for the standby (synchronous_commit on,
// the formation's default) and commits that do not (synchronous_commit local, as asynchronous
// replication would), as one-trade files (latency) and as files of 2,000 trades (throughput).
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { importFile } from "../lib/import/import";
import { startAutoFailover } from "./cluster/auto-failover";
import { processGroup } from "./cluster/processes";

const seconds = Number(process.argv[2] ?? 20);
const dir = path.join(process.cwd(), ".data", "bench-failover");
fs.mkdirSync(dir, { recursive: true });
const group = processGroup();
const database = await startAutoFailover({
  dir,
  seed: { markets: 10, tradesPerOutcome: 10 },
  track: (p) => group.track(p),
  log: (m) => console.error(`[failover] ${m}`),
});

const setup = postgres(database.primaryUrl, { max: 1, onnotice: () => {} });
const [m] = await setup<{ market_id: string; outcome_id: string }[]>`SELECT market_id, id AS outcome_id FROM outcomes LIMIT 1`;
const users = (await setup<{ id: string }[]>`SELECT id FROM users LIMIT 2`).map((u) => u.id);
await setup.end();
const file = (n: number) => ({
  trades: Array.from({ length: n }, (_, i) => ({
    id: randomUUID(),
    ...m,
    price: `0.${String(100 + (i % 800)).padStart(3, "0")}`,
    shares: "1",
    maker_user_id: users[0],
    taker_user_id: users[1],
    executed_at: new Date().toISOString(),
  })),
});

async function run(commit: "on" | "local", tradesPerFile: number) {
  const sql = postgres(database.primaryUrl, { max: 1, onnotice: () => {}, connection: { synchronous_commit: commit } });
  const end = Date.now() + seconds * 1000;
  let files = 0;
  while (Date.now() < end) await importFile(sql, file(tradesPerFile)).then(() => files++);
  await sql.end();
  const trades = files * tradesPerFile;
  return { commit, tradesPerFile, files, perFileMs: (seconds * 1000) / files, tradesPerS: trades / seconds };
}

try {
  const rows = [];
  for (const size of [1, 2000]) for (const commit of ["on", "local"] as const) rows.push(await run(commit, size));
  console.log(`\n${seconds} s each, one importer connection, ${(await import("node:os")).availableParallelism()} cores\n`);
  console.log("| synchronous_commit | trades per file | files | ms per file | trades/s |\n|---|---|---|---|---|");
  for (const r of rows) console.log(`| ${r.commit} | ${r.tradesPerFile} | ${r.files} | ${r.perFileMs.toFixed(1)} | ${Math.round(r.tradesPerS)} |`);
} finally {
  await database.stop();
  group.release();
  fs.rmSync(dir, { recursive: true, force: true });
}
