// npm run outage:timeline -- [--app-dir DIR] [--down 10] [--connections 4] [--simulate]
// Stops a real PostgreSQL under polite load and prints what clients saw: status codes and the worst
// latency per second, the time from restart to the first 200, and to the push-channel resync.
// The app runs from --app-dir (default: this checkout) on a cluster of its own in a temp dir, so the
// same script measures an older checkout (with its own node_modules and production build) for a before/after.
import path from "node:path";
import { parseArgs } from "node:util";
import { io } from "socket.io-client";
import { sleep } from "../lib/dev/tools";
import { startInstance } from "../e2e/support/instance";
import { startOwnCluster } from "../e2e/support/cluster";
import { startLoad, timeline } from "../e2e/support/load";

const { values } = parseArgs({
  options: {
    "app-dir": { type: "string", default: process.cwd() },
    down: { type: "string", default: "10" },
    connections: { type: "string", default: "4" },
    simulate: { type: "boolean", default: false },
  },
});
const appDir = path.resolve(values["app-dir"]!);
const downMs = Number(values.down) * 1000;
const log = (m: string) => console.error(`[timeline] ${m}`);

const cluster = await startOwnCluster({ markets: 50, log });
const app = await startInstance({ DATABASE_URL: cluster.url, LOG_REQUESTS: "0" }, { cwd: appDir, args: values.simulate ? ["--simulate"] : [] }).catch(
  async (err) => {
    await cluster.destroy();
    throw err;
  },
);
const baseURL = app.baseURL;
try {
  log(`app from ${appDir} on ${baseURL}`);
  const list = await (await fetch(`${baseURL}/v1/markets?limit=1`)).json();
  const m = await (await fetch(`${baseURL}/v1/markets/${list.markets[0].id}`)).json();
  const outcome = m.outcomes[0].id;

  const socket = io(baseURL, { transports: ["websocket"] });
  const resyncs: number[] = [];
  socket.on("price", (s: { outcomeId: string | null }) => s.outcomeId === null && resyncs.push(Date.now()));
  await new Promise<void>((r) => socket.on("connect", () => r()));
  await socket.emitWithAck("join", { channel: `market:${m.slug}:price` });

  const paths = ["/v1/markets?limit=20", `/v1/markets/${m.id}`, `/v1/markets/${m.id}/orderbook?outcomeId=${outcome}`, `/markets/${m.slug}`];
  for (const p of paths) await (await fetch(baseURL + p)).text(); // Next loads each route's code on its first request
  const load = startLoad(baseURL, ["/v1/markets?limit=20", `/v1/markets/${m.id}`, `/v1/markets/${m.id}/orderbook?outcomeId=${outcome}`, `/markets/${m.slug}`], {
    connections: Number(values.connections),
    timeoutMs: 30_000,
  });
  await sleep(3000);
  const stoppedAt = Date.now();
  log(`stopping PostgreSQL (immediate) for ${downMs / 1000} s`);
  await cluster.crash();
  await sleep(downMs);
  await cluster.start();
  const restartedAt = Date.now();
  log("PostgreSQL started again");
  let firstOk = 0;
  while (Date.now() - restartedAt < 60_000) {
    const s = load.samples.find((x) => x.at + load.started >= restartedAt && x.status === 200 && x.path.startsWith("/v1/markets?"));
    if (s) {
      firstOk = s.at + load.started + s.ms;
      break;
    }
    await sleep(100);
  }
  await sleep(8000);
  await load.stop();
  // The LISTEN connection retries on its own backoff (up to REALTIME_RETRY_MAX_MS, 30 s): wait for it.
  for (let waited = 0; !resyncs.some((t) => t >= restartedAt) && waited < 40_000; waited += 250) await sleep(250);
  socket.disconnect();

  const from = stoppedAt - load.started - 3000;
  console.log(`outage timeline: ${appDir}, ${values.connections} connections, database down ${downMs / 1000} s from t=3 s`);
  console.log("  t(s)  statuses                               worst ms");
  const secondOf = (t: number) => Math.floor((t - load.started - from) / 1000);
  for (const row of timeline(load.samples, from)) {
    const marks =
      row.second === secondOf(stoppedAt) ? "  ← database stopped" : row.second === secondOf(restartedAt) ? "  ← database accepts connections again" : "";
    const counts = Object.entries(row.counts)
      .map(([k, n]) => `${k}×${n}`)
      .join(" ");
    console.log(`  ${String(row.second).padStart(4)}  ${counts.padEnd(38)} ${String(row.maxMs).padStart(6)}${marks}`);
  }
  const during = load.samples.filter((s) => s.at + load.started >= stoppedAt);
  const byStatus = during.reduce<Record<string, number>>((a, s) => ((a[s.status || "timeout"] = (a[s.status || "timeout"] ?? 0) + 1), a), {});
  const worst = Math.max(...during.map((s) => s.ms));
  const resync = resyncs.find((t) => t >= restartedAt);
  for (const s of during.filter((x) => x.status !== 200 && x.status !== 503).slice(0, 5))
    console.log(`  unexpected: ${s.status} ${s.path} after ${s.ms} ms: ${s.body.slice(0, 200)}`);
  console.log(`from the stop on: ${JSON.stringify(byStatus)}, slowest answer ${worst} ms`);
  console.log(`restart → first 200 on /v1/markets: ${firstOk ? `${((firstOk - restartedAt) / 1000).toFixed(1)} s` : "none within 60 s"}`);
  console.log(
    app
      .output()
      .split("\n")
      .filter((l) => l.startsWith("[db]"))
      .map((l) => `  server: ${l}`)
      .join("\n"),
  );
  console.log(`restart → push-channel resync: ${resync ? `${((resync - restartedAt) / 1000).toFixed(1)} s` : "none seen"}`);
} finally {
  await app.stop();
  await cluster.destroy();
}
process.exit(0);
