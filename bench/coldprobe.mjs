// node bench/coldprobe.mjs ORIGIN DBURL ROUNDS SECONDS [LABELS] — cold market pages, 16 connections, rounds of SECONDS;
// before each round runs `bash /work/prof/cond.sh LABEL` (LABELS comma-separated, cycled) to set a condition.
import { execSync } from "node:child_process";
import postgres from "postgres";
import { runLoad } from "./src/load.mjs";
const [origin, url, rounds, seconds, labels = "x"] = process.argv.slice(2);
const sql = postgres(url, { max: 1 });
const markets = await sql`SELECT slug FROM markets ORDER BY md5(id::text)`;
await sql.end();
let n = Math.floor(Math.random() * markets.length);
const conds = labels.split(",");
for (let r = 0; r < Number(rounds); r++) {
  const label = conds[r % conds.length];
  execSync(`bash /work/prof/cond.sh ${label}`, { stdio: "inherit" });
  const s = await runLoad(origin, [{ method: "GET", setupRequest: (req) => ({ ...req, path: `/markets/${markets[n++ % markets.length].slug}` }) }], { connections: 16, seconds: Number(seconds) });
  console.log(`${new Date().toISOString().slice(11, 19)} ${label.padEnd(8)} ${s.rps.toFixed(1)} req/s p99 ${s.p99} ms failed ${s.failed ?? 0}`);
  await new Promise((r) => setTimeout(r, 2000));
}
