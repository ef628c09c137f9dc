// npm run soak -- [--minutes 10] [--connections 4] [--sockets 20] [--markets 400] [--no-gc]
// Mixed load for minutes on an app with the simulator trading, on a cluster of its own in a temp dir:
// list, market, book, history and page requests plus sockets joining and leaving. Prints each minute
// the server's RSS, its heap after a full GC (--expose-gc: a leak keeps growing there, lazily collected
// garbage does not) and the p50/p99 latency of that minute.
import { parseArgs } from "node:util";
import { io } from "socket.io-client";
import { percentile, sleep } from "../lib/dev/tools";
import { startInstance } from "../e2e/support/instance";
import { startOwnCluster } from "../e2e/support/cluster";
import { startLoad } from "../e2e/support/load";
import { createMarketsClient } from "../packages/client/src/index";

const { values } = parseArgs({
  options: {
    minutes: { type: "string", default: "10" },
    connections: { type: "string", default: "4" },
    sockets: { type: "string", default: "20" },
    markets: { type: "string", default: "400" },
    "no-gc": { type: "boolean", default: false },
  },
});
const minutes = Number(values.minutes);
const log = (m: string) => console.error(`[soak] ${m}`);
const MB = (b: number) => (b / 1048576).toFixed(0);
/** "0", or the answers other than 200 by status ("429×12 0×1"; 0 is a client timeout). */
const otherStatuses = (slice: { status: number }[]) => {
  const counts = new Map<number, number>();
  for (const { status } of slice) if (status !== 200) counts.set(status, (counts.get(status) ?? 0) + 1);
  return counts.size ? [...counts].map(([status, n]) => `${status}×${n}`).join(" ") : "0";
};

const cluster = await startOwnCluster({ markets: Number(values.markets), log });
const app = await startInstance(
  { DATABASE_URL: cluster.url, LOG_REQUESTS: "0" },
  { nodeArgs: ["--require", "./scripts/soak-probe.cjs", ...(values["no-gc"] ? [] : ["--expose-gc"])], args: ["--simulate"] },
).catch(async (err) => {
  await cluster.destroy();
  throw err;
});
const baseURL = app.baseURL;
type Memory = { t: number; rss: number; heapUsed: number; external: number; arrayBuffers: number };
/** The probe's latest line (`[soak-mem] {…}` on the server's stderr every 10 s). */
const lastMemory = (): Memory | undefined => {
  const line = app
    .output()
    .match(/^\[soak-mem\] .*$/gm)
    ?.at(-1);
  return line ? JSON.parse(line.slice(11)) : undefined;
};

let stopSockets = false;
try {
  const { markets } = await createMarketsClient({ baseUrl: baseURL }).listMarkets({ query: { limit: 100 } });
  const paths = markets
    .slice(0, 40)
    .flatMap((m, i) => [
      `/v1/markets?limit=20&offset=${(i * 20) % 200}&sortBy=${["VOLUME", "TRENDING", "CREATED"][i % 3]}`,
      `/v1/markets/${m.id}`,
      `/v1/markets/slug/${m.slug}/orderbook?outcomeId=${m.outcomes[0].id}`,
      `/v1/markets/${m.id}/prices-history?outcomeId=${m.outcomes[0].id}&fidelity=60`,
      ...(i % 4 === 0 ? [`/markets/${m.slug}`, `/?q=${"aeiou"[i % 5]}`] : []),
    ]);
  // Sockets come and go: connect, join two channels of a random market, stay a few seconds, leave.
  const socketLoop = async (k: number) => {
    while (!stopSockets) {
      const m = markets[(k * 7 + Math.floor(Math.random() * markets.length)) % markets.length];
      const s = io(baseURL, { transports: ["websocket"], reconnection: false });
      await new Promise<void>((r) => (s.on("connect", () => r()), s.on("connect_error", () => r())));
      await s
        .timeout(5000)
        .emitWithAck("join", { channel: `market:${m.slug}:price` })
        .catch(() => {});
      await s
        .timeout(5000)
        .emitWithAck("join", { channel: `market:${m.slug}:orderbook` })
        .catch(() => {});
      await s
        .timeout(5000)
        .emitWithAck("join", { channel: `market:no-such-${k}-${Date.now() % 97}:price` })
        .catch(() => {});
      await sleep(2000 + Math.random() * 3000);
      s.disconnect();
    }
  };
  const socketLoops = Array.from({ length: Number(values.sockets) }, (_, k) => socketLoop(k));
  const load = startLoad(baseURL, paths, { connections: Number(values.connections), pauseMs: 5 });
  const pid = app.child.pid!;
  console.log(
    `soak: ${minutes} min, ${values.connections} HTTP loops, ${values.sockets} socket loops, simulator on, ${values.markets} markets (server pid ${pid})`,
  );
  console.log(" min   rss MB  heap MB (after GC)  external MB  requests   p50 ms   p99 ms   other answers");
  for (let minute = 1; minute <= minutes; minute++) {
    const from = load.samples.length;
    await sleep(60_000);
    const slice = load.samples.slice(from);
    const ms = slice.map((s) => s.ms).sort((a, b) => a - b);
    const q = (p: number) => percentile(ms, p) ?? 0;
    const last = lastMemory();
    console.log(
      `${String(minute).padStart(4)}  ${MB(last?.rss ?? 0).padStart(7)}  ${MB(last?.heapUsed ?? 0).padStart(18)}  ${MB(last?.external ?? 0).padStart(11)}  ${String(slice.length).padStart(8)}  ${String(q(50)).padStart(7)}  ${String(q(99)).padStart(7)}  ${otherStatuses(slice)}`,
    );
  }
  stopSockets = true;
  await load.stop();
  await Promise.all(socketLoops);
} finally {
  stopSockets = true;
  await app.stop();
  await cluster.destroy();
}
process.exit(0);
