// npm run bench:realtime – push-signal latency from a database commit to the clients: connects N
// socket.io clients (WebSocket) to a running server, joins them to a throwaway bench market's
// orderbook channel (or its trades channel: `--channel trades`), commits order (or trade) inserts spaced
// wider than the coalescing interval and prints p50/p90/p99/max of (client receive time − time the
// INSERT was sent). With `--channel trades` a signal counts only if it carries the committed trade (the
// tape on the watchers' screens without a request). Prints, asserts nothing.
//
//   BASE_URL=http://127.0.0.1:3400 DATABASE_URL=postgres://… npm run bench:realtime -- --clients 1000 --commits 40 [--channel trades]
//   (without the env vars it uses .data/test-run.json, i.e. a running Playwright test server)
import { parseArgs } from "node:util";
import postgres from "postgres";
import type { Socket } from "socket.io-client";
import { percentile as pct, sleep } from "../lib/dev/tools";
import { benchTargets, commitBid, commitTrade, createBenchMarket, joinWatchers } from "./bench-market";

const { values } = parseArgs({
  options: {
    clients: { type: "string", default: "1000" },
    commits: { type: "string", default: "40" },
    spacing: { type: "string", default: "400" }, // ms between commits; > the coalescing interval
    batch: { type: "string", default: "50" }, // clients connecting at once
    channel: { type: "string", default: "orderbook" }, // orderbook | trades
  },
});
const CLIENTS = Math.min(5000, Math.max(1, Number(values.clients)));
const COMMITS = Math.min(500, Math.max(1, Number(values.commits)));
const SPACING = Math.max(200, Number(values.spacing));
const BATCH = Math.max(1, Number(values.batch));

const { baseURL, databaseUrl } = benchTargets("http://127.0.0.1:3400");

const sql = postgres(databaseUrl, { max: 2, onnotice: () => {} });

// A throwaway native market, removed at the end.
const market = await createBenchMarket(sql, "bench-rt", "Realtime latency benchmark?");
const { slug, drop } = market;

const kind = values.channel === "trades" ? "trades" : "orderbook";
const channel = `market:${slug}:${kind}`;
const sent: number[] = []; // commit i: time the INSERT was sent
const acked: number[] = []; // commit i: time its commit was acknowledged
const received: number[][] = Array.from({ length: COMMITS }, () => []);
let unexpected = 0;
const sockets: Socket[] = [];

try {
  console.log(`bench-realtime: ${CLIENTS} clients → ${baseURL}, ${COMMITS} commits every ${SPACING} ms on ${channel}`);
  await joinWatchers(baseURL, channel, {
    count: CLIENTS,
    batch: BATCH,
    sockets,
    onSignal: (_, sig) => {
      const at = Date.now();
      const k = sig.seq - 1; // the room is new: commit k produces seq k+1
      const carried = kind !== "trades" || (Array.isArray(sig.trades) && sig.trades.length === 1);
      if (sig.channel === channel && carried && k >= 0 && k < COMMITS) received[k].push(at);
      else unexpected++;
    },
  });

  for (let k = 0; k < COMMITS; k++) {
    sent[k] = Date.now();
    await (kind === "trades" ? commitTrade(sql, market, "0.400") : commitBid(sql, market, "0.400"));
    acked[k] = Date.now();
    process.stdout.write(`\r  commit ${k + 1}/${COMMITS}`);
    await sleep(SPACING);
  }
  const deadline = Date.now() + 5_000;
  while (received.some((r) => r.length < CLIENTS) && Date.now() < deadline) await sleep(50);
  console.log("");

  const latencies = received.flatMap((r, k) => r.map((t) => t - sent[k])).sort((a, b) => a - b);
  const fanout = received
    .filter((r) => r.length)
    .map((r) => Math.max(...r) - Math.min(...r))
    .sort((a, b) => a - b);
  const commitRtt = acked.map((a, k) => a - sent[k]).sort((a, b) => a - b);
  const firstClient = received
    .filter((r) => r.length)
    .map((r, k) => Math.min(...r) - sent[k])
    .sort((a, b) => a - b);
  const expected = CLIENTS * COMMITS;
  console.log(`received ${latencies.length}/${expected} signals (${unexpected} unexpected)`);
  if (latencies.length) {
    console.log(`latency commit→client (ms): p50 ${pct(latencies, 50)}  p90 ${pct(latencies, 90)}  p99 ${pct(latencies, 99)}  max ${latencies.at(-1)}`);
    console.log(`  first client per commit (ms): p50 ${pct(firstClient, 50)}  max ${firstClient.at(-1)}`);
    console.log(`  fan-out first→last client per commit (ms): p50 ${pct(fanout, 50)}  max ${fanout.at(-1)}`);
    console.log(`  INSERT round trip (ms): p50 ${pct(commitRtt, 50)}  max ${commitRtt.at(-1)}`);
  }
} finally {
  for (const s of sockets) s.disconnect();
  await drop();
  await sql.end();
}
