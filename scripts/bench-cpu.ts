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
//
// Two servers side by side (B_URL, B_PID: another build or configuration, on the same database): both get
// the same paths at the same time, each on its own connections, so both run in the same minute of the
// machine. The machine's pace moves a run's figures by a third from one minute to the next; the two
// servers' difference within a run does not move with it. Repeat the command and compare the pairs.
import fs from "node:fs";
import http from "node:http";
import { parseArgs } from "node:util";
import postgres from "postgres";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { "cold-markets": { type: "boolean", default: false }, unique: { type: "boolean", default: false } },
});
interface Server {
  name: string;
  base: string;
  pid: number;
}
const servers: Server[] = [{ name: "A", base: process.env.APP_URL ?? "http://127.0.0.1:3000", pid: Number(process.env.APP_PID) }];
if (process.env.B_URL || process.env.B_PID) servers.push({ name: "B", base: process.env.B_URL ?? "", pid: Number(process.env.B_PID) });
for (const { name, base, pid } of servers) {
  if (!pid) throw new Error(name === "A" ? "set APP_PID (the server's process id)" : "set B_PID beside B_URL (the second server's process id)");
  if (!base) throw new Error("set B_URL beside B_PID (the second server's address)");
}
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

/** One server's share of a measurement: its own connections, the same paths as the other's. */
function load(server: Server, pathAt: (i: number) => string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  let next = 0;
  const get = (path: string) =>
    new Promise<number>((resolve, reject) => {
      http.get(new URL(path, server.base), { agent }, (res) => res.resume().on("end", () => resolve(res.statusCode ?? 0))).on("error", reject);
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
  const cpu = () => [cpuMs(`/proc/${server.pid}/stat`), cpuMs(`/proc/${server.pid}/task/${server.pid}/stat`), performance.now()];
  return { run, cpu, close: () => agent.destroy() };
}

async function measure(label: string, pathAt: (i: number) => string) {
  // Each server's count is its own: the faster one finishes first and the other's last requests run alone,
  // so a pair compares CPU per request; its req/s are only each server's own.
  const loads = servers.map((server) => load(server, pathAt));
  await Promise.all(loads.map((l) => l.run(100)));
  const results = await Promise.all(
    loads.map(async (l) => {
      const [all0, main0, t0] = l.cpu();
      const statuses = await l.run(requests);
      const [all1, main1, t1] = l.cpu();
      l.close();
      return { statuses, main: main1 - main0, all: all1 - all0, ms: t1 - t0 };
    }),
  );
  const perReq = (ms: number) => (ms / requests).toFixed(2);
  results.forEach(({ statuses, main, all, ms }, i) => {
    const codes = [...statuses].map(([s, n]) => `${n}× ${s}`).join(", ");
    const who = servers.length > 1 ? ` [${servers[i].name}]` : "";
    console.log(
      `${label}${who}: main thread ${perReq(main)} ms, all threads ${perReq(all)} ms per request; ${Math.round((requests / ms) * 1000)} req/s at ${connections} connections (${codes})`,
    );
  });
}

const withN = (path: string, i: number) => (values.unique ? `${path}${path.includes("?") ? "&" : "?"}n=${i}` : path);
if (values["cold-markets"]) {
  const paths = await coldMarketPaths();
  await measure("cold market pages", (i) => paths[i % paths.length]);
}
for (const path of positionals) await measure(path, (i) => withN(path, i));
