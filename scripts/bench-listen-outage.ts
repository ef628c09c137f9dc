// npm run bench:listen-outage -- [--window 12] [--app-dir DIR]
// What a database that refuses connections costs an instance: its CPU time (utime + stime from /proc,
// clock ticks of 1/100 s) over a window while idle with a socket joined, then over the same window while
// the database refuses connections and the LISTEN connection retries with backoff, and the reconnect
// attempts it logged. Prints the figures, asserts nothing: they depend on the machine's load, which is
// why this is not a spec (e2e/api/realtime.spec.ts checks the backoff and the resync). For scale:
// postgres.js's own re-LISTEN loop spent 190 ticks in 12 s (16 % of a core) against 9 idle.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { io } from "socket.io-client";
import { sleep } from "../lib/dev/tools";
import { startOwnCluster } from "../e2e/support/cluster";
import { startInstance } from "../e2e/support/instance";

const { values } = parseArgs({ options: { window: { type: "string", default: "12" }, "app-dir": { type: "string", default: process.cwd() } } });
const windowMs = Number(values.window) * 1000;
const log = (m: string) => console.error(`[listen-outage] ${m}`);

const cluster = await startOwnCluster({ markets: 5, log });
const app = await startInstance(
  { DATABASE_URL: cluster.url, LOG_REQUESTS: "0", REALTIME_HEARTBEAT_MS: "1000", REALTIME_RETRY_MAX_MS: "2000" },
  { cwd: path.resolve(values["app-dir"]!) },
).catch(async (err) => {
  await cluster.destroy();
  throw err;
});
const adminUrl = new URL(cluster.url);
adminUrl.pathname = "/postgres";
const admin = postgres(adminUrl.toString(), { max: 1, onnotice: () => {} });
try {
  const cpuTicks = () => {
    const fields = fs.readFileSync(`/proc/${app.child.pid}/stat`, "utf8").split(") ")[1].split(" ");
    return Number(fields[11]) + Number(fields[12]);
  };
  const list = await (await fetch(`${app.baseURL}/v1/markets?limit=1`)).json();
  const slug: string = list.markets[0].slug;
  const socket = io(app.baseURL, { transports: ["websocket"] });
  await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  let resynced = false;
  socket.on("price", (s: { outcomeId: string | null }) => void (s.outcomeId === null && (resynced = true)));
  await socket.emitWithAck("join", { channel: `market:${slug}:price` });

  const idleStart = cpuTicks();
  await sleep(windowMs);
  const idle = cpuTicks() - idleStart;

  log(`refusing connections for ${windowMs / 1000} s`);
  await admin.unsafe(`ALTER DATABASE markets ALLOW_CONNECTIONS false`);
  await admin`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'markets'`;
  const before = app.output().length;
  const outageStart = cpuTicks();
  await sleep(windowMs);
  const outage = cpuTicks() - outageStart;
  const attempts =
    app
      .output()
      .slice(before)
      .match(/reconnect attempt \d+/g)?.length ?? 0;

  await admin.unsafe(`ALTER DATABASE markets ALLOW_CONNECTIONS true`);
  const back = Date.now();
  while (!resynced && Date.now() - back < 15_000) await sleep(50);
  socket.close();
  console.log(`window ${windowMs / 1000} s: idle ${idle} CPU ticks; refusing connections ${outage} CPU ticks, ${attempts} reconnect attempts`);
  console.log(resynced ? `push channels resynced ${Date.now() - back} ms after connections were allowed again` : "no resync signal within 15 s");
} finally {
  await admin.end();
  await app.stop();
  await cluster.destroy();
}
