// Server CPU per request, read from /proc (Linux): the main thread, where a Node server's requests wait
// their turn, and all the process's threads (V8's collector and compiler helpers too). On a shared
// 2-core machine, throughput moves by ±15% from one run to the next. CPU per request moves less, so it
// shows where a page's time goes. Against a running production server:
//   APP_URL=http://127.0.0.1:3000 APP_PID=<pid> npm run bench:cpu -- /watchlist /markets/<slug>
//   APP_URL=… APP_PID=… DATABASE_URL=… npm run bench:cpu -- --cold-markets
// --cold-markets asks for the page of a different market each request, in an order of its own
// (md5 of the id, from BENCH_OFFSET). --unique adds ?n=<i> to each path, so a page rendered once is not
// answered from memory. Each target gets 100 requests to warm up, then BENCH_REQUESTS (500) on
// BENCH_CONNECTIONS (2) keep-alive connections.
import fs from "node:fs";
import http from "node:http";
import { parseArgs } from "node:util";
import postgres from "postgres";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { "cold-markets": { type: "boolean", default: false }, unique: { type: "boolean", default: false } },
});
const base = process.env.APP_URL ?? "http://127.0.0.1:3000";
const pid = Number(process.env.APP_PID);
if (!pid) throw new Error("set APP_PID (the server's process id)");
if (!values["cold-markets"] && positionals.length === 0) throw new Error("name the paths to measure, or --cold-markets");
const requests = Number(process.env.BENCH_REQUESTS ?? 500);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 2);

/** utime + stime of a process or one of its threads, in ms (clock ticks of 10 ms). */
function cpuMs(statPath: string): number {
  const fields = fs.readFileSync(statPath, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function coldMarketPaths(): Promise<string[]> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("--cold-markets needs DATABASE_URL (the server's database)");
  const sql = postgres(url, { max: 1 });
  const offset = Number(process.env.BENCH_OFFSET ?? 0);
  const rows = await sql<{ slug: string }[]>`SELECT slug FROM markets ORDER BY md5(id::text) OFFSET ${offset} LIMIT ${requests + 100}`;
  await sql.end();
  return rows.map((r) => `/markets/${encodeURIComponent(r.slug)}`);
}

async function measure(label: string, pathAt: (i: number) => string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  let next = 0;
  const get = (path: string) =>
    new Promise<number>((resolve, reject) => {
      http.get(new URL(path, base), { agent }, (res) => res.resume().on("end", () => resolve(res.statusCode ?? 0))).on("error", reject);
    });
  const run = async (n: number) => {
    const statuses = new Map<number, number>();
    const end = next + n;
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (next < end) {
          const status = await get(pathAt(next++));
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }
      }),
    );
    return statuses;
  };
  await run(100);
  const [all0, main0, t0] = [cpuMs(`/proc/${pid}/stat`), cpuMs(`/proc/${pid}/task/${pid}/stat`), performance.now()];
  const statuses = await run(requests);
  const [all1, main1, t1] = [cpuMs(`/proc/${pid}/stat`), cpuMs(`/proc/${pid}/task/${pid}/stat`), performance.now()];
  agent.destroy();
  const perReq = (ms: number) => (ms / requests).toFixed(2);
  const codes = [...statuses].map(([s, n]) => `${n}× ${s}`).join(", ");
  console.log(
    `${label}: main thread ${perReq(main1 - main0)} ms, all threads ${perReq(all1 - all0)} ms per request; ${Math.round((requests / (t1 - t0)) * 1000)} req/s at ${connections} connections (${codes})`,
  );
}

const withN = (path: string, i: number) => (values.unique ? `${path}${path.includes("?") ? "&" : "?"}n=${i}` : path);
if (values["cold-markets"]) {
  const paths = await coldMarketPaths();
  await measure("cold market pages", (i) => paths[i % paths.length]);
}
for (const path of positionals) await measure(path, (i) => withN(path, i));
