// npm run bench:streams – server-sent event streams held by one instance (docs/api.md "Push channels"):
// makes 100 hot throwaway markets, opens N streams of GET /v1/stream (plain node:http requests, in
// batches), each following 3 channels picked at random from the 300 of those markets, then commits orders
// and trades on them at a steady rate and times every delivery from the commit (the event's `at`: the
// database's clock when the change was numbered, at its commit; same machine, same clock) to its arrival.
// Prints the latency of every delivery and of the last subscriber of each event, the deliveries the
// streams should have had (from change_log, through the hub's own mapping) and did not, and the server's
// memory before and with the streams open. Prints, asserts nothing.
//
//   npm run bench:streams -- [--streams 10000] [--rate 20] [--seconds 30] [--batch 250] [--cpu-prof]
//   Without BASE_URL it starts its own server.ts on DATABASE_URL, else on the embedded cluster in .data/pg
//   (seeded when empty; a production build is made if there is none), with STREAM_MAX_PER_CLIENT at
//   --streams and RATE_LIMIT off. With BASE_URL (and DATABASE_URL) it uses that server, which must allow
//   that many streams from one address; APP_PID names its process for the memory figures. The server it
//   started leaves its output in .data/bench-streams-server.log.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { percentile as pct, prng, sleep } from "../lib/dev/tools";
import { resolveDatabase } from "../lib/db/embedded";
import { parseMarketEvent } from "../lib/events/market-events";
import { streamEventsOf } from "../lib/streams/stream-events";
import { type Instance, startInstance } from "../e2e/support/instance";
import { commitBid, commitTrade, createBenchMarket } from "./bench-market";

const { values } = parseArgs({
  options: {
    streams: { type: "string", default: "10000" },
    markets: { type: "string", default: "100" },
    rate: { type: "string", default: "20" }, // commits per second
    seconds: { type: "string", default: "30" },
    batch: { type: "string", default: "250" }, // streams opening at once
    seed: { type: "string", default: "7" },
    "cpu-prof": { type: "boolean", default: false }, // the server writes a CPU profile to .data/prof when it stops
  },
});
const STREAMS = Math.max(1, Number(values.streams));
const MARKETS = Math.max(1, Number(values.markets));
const RATE = Math.max(0.1, Number(values.rate));
const SECONDS = Math.max(1, Number(values.seconds));
const BATCH = Math.max(1, Number(values.batch));
const KINDS = ["orderbook", "trades", "price"] as const;
const kindIndex = (name: string) => KINDS.indexOf(name as (typeof KINDS)[number]);
const log = (m: string) => console.error(`[bench:streams] ${m}`);
const MB = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

// ------------------------------------------------------------------ the server and its database
let server: Instance | null = null;
let database: { url: string; stop: () => Promise<void> } | null = null;
let baseURL = process.env.BASE_URL;
let pid = process.env.APP_PID ? Number(process.env.APP_PID) : undefined;
if (baseURL) {
  if (!process.env.DATABASE_URL) throw new Error("with BASE_URL, set DATABASE_URL (the database that server uses)");
  database = { url: process.env.DATABASE_URL, stop: async () => {} };
} else {
  database = await resolveDatabase({ log });
  const profDir = path.join(process.cwd(), ".data", "prof");
  if (values["cpu-prof"]) fs.mkdirSync(profDir, { recursive: true });
  log("starting server.ts (it seeds an empty database, and builds when there is no production build)");
  server = await startInstance(
    {
      DATABASE_URL: database.url,
      SKIP_SEED: undefined,
      LOG_REQUESTS: "0",
      RATE_LIMIT: "off",
      STREAM_MAX_PER_CLIENT: String(STREAMS),
      SOAK_PROBE_MS: "0", // memory lines only when asked (SIGUSR2)
    },
    {
      nodeArgs: ["--require", "./scripts/soak-probe.cjs", "--expose-gc", ...(values["cpu-prof"] ? ["--cpu-prof", `--cpu-prof-dir=${profDir}`] : [])],
      timeoutMs: 30 * 60_000,
    },
  );
  baseURL = server.baseURL;
  pid = server.child.pid;
}
const base = baseURL as string;
const sql = postgres(database.url, { max: 4, onnotice: () => {} });

/** The server's resident memory (/proc) and, on a server started here, its live heap after a full GC. */
async function serverMemory(): Promise<{ rss?: number; heap?: number }> {
  const rssKb = pid ? /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] : undefined;
  let heap: number | undefined;
  if (server) {
    const lines = () => server!.output().match(/^\[soak-mem\] .*$/gm) ?? [];
    const before = lines().length;
    server.child.kill("SIGUSR2");
    const end = Date.now() + 10_000;
    while (lines().length === before && Date.now() < end) await sleep(50);
    const line = lines().at(-1);
    if (lines().length > before && line) heap = JSON.parse(line.slice(11)).heapUsed;
  } else {
    const stats = (await (await fetch(`${base}/api/stats`)).json().catch(() => null)) as { process?: { heapUsedMb: number } } | null;
    if (stats?.process) heap = stats.process.heapUsedMb * 1024 * 1024;
  }
  // After the GC: the RSS it gave back counts no more.
  const rssAfter = pid ? /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] : rssKb;
  return { rss: rssAfter ? Number(rssAfter) * 1024 : undefined, heap };
}

/** The server's CPU time in ms (utime + stime of /proc/<pid>/stat). */
function serverCpuMs(): number | undefined {
  if (!pid) return undefined;
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks of 10 ms
}

/** The server's event-loop delay since the previous call (GET /api/stats). */
async function loopDelay(): Promise<{ p50: number; p99: number; max: number } | undefined> {
  const r = await fetch(`${base}/api/stats`).catch(() => null);
  return r?.ok ? ((await r.json()) as { eventLoopDelayMs: { p50: number; p99: number; max: number } }).eventLoopDelayMs : undefined;
}

// ------------------------------------------------------------------ the streams, as light as a client can be
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const requests: http.ClientRequest[] = [];
/** Per stream: its channels (indexes into `channels`), the position it started from, the last one it got. */
const followed = new Uint16Array(STREAMS * 3);
const startPos = new Float64Array(STREAMS).fill(-1);
const lastPos = new Float64Array(STREAMS);
const tails: string[] = new Array(STREAMS).fill("");
/** Per stream: when it last heard anything, and the longest it went without (while `timing`). */
const heardAt = new Float64Array(STREAMS);
const silence = new Float64Array(STREAMS);
let timing = false;
/** Per stream: position × 4 + kind of every event it got. */
const got: Array<Set<number>> = Array.from({ length: STREAMS }, () => new Set());
/** Per position: its commit time and when its last delivery arrived. */
const perPosition = new Map<number, { at: number; last: number; n: number }>();
const latencies: number[] = [];
const byKind: number[][] = KINDS.map(() => []);
let duplicates = 0;
let disorder = 0;
let resets = 0;
let ended = 0;

function onFrame(i: number, buf: string, from: number, now: number) {
  if (!buf.startsWith("id: ", from)) return; // `retry:`
  const nl = buf.indexOf("\n", from);
  const position = Number(buf.slice(from + 4, nl));
  const event = buf.slice(nl + 8, buf.indexOf("\n", nl + 1)); // after "event: "
  if (event === "heartbeat") {
    if (startPos[i] < 0) startPos[i] = lastPos[i] = position;
    return;
  }
  if (event === "reset") return void resets++;
  const a = buf.indexOf('"at":', nl);
  const at = Number.parseInt(buf.slice(a + 5, a + 25), 10);
  const key = position * 4 + kindIndex(event);
  if (got[i].has(key)) duplicates++;
  else got[i].add(key);
  if (position < lastPos[i]) disorder++;
  lastPos[i] = position;
  latencies.push(now - at);
  byKind[key % 4]?.push(now - at);
  const p = perPosition.get(position);
  if (p) (p.last = Math.max(p.last, now)), p.n++;
  else perPosition.set(position, { at, last: now, n: 1 });
}

function onData(i: number, chunk: string) {
  const now = Date.now();
  if (timing && now - heardAt[i] > silence[i]) silence[i] = now - heardAt[i];
  heardAt[i] = now;
  const buf = tails[i] ? tails[i] + chunk : chunk;
  let from = 0;
  for (let end = buf.indexOf("\n\n"); end >= 0; end = buf.indexOf("\n\n", from)) {
    onFrame(i, buf, from, now);
    from = end + 2;
  }
  tails[i] = from < buf.length ? buf.slice(from) : "";
}

/** Opens stream i; resolves when its opening heartbeat (its starting position) has arrived, or with the refusal. */
function openStream(i: number, names: string[]): Promise<string | null> {
  return new Promise((resolve) => {
    const req = http.get(`${base}/v1/stream?channels=${names.join(",")}`, { agent, headers: { Accept: "text/event-stream" } }, (res) => {
      res.setEncoding("latin1"); // only ASCII is read; a character split across chunks cannot break it
      if (res.statusCode !== 200) {
        let body = "";
        res.on("data", (c) => (body += c));
        res.on("end", () => resolve(`${res.statusCode} ${body.slice(0, 200)}`));
        return;
      }
      res.on("data", (chunk: string) => {
        onData(i, chunk);
        if (startPos[i] >= 0) resolve(null);
      });
      res.on("close", () => ended++);
    });
    req.on("error", (err) => resolve(err.message));
    requests[i] = req;
  });
}

// ------------------------------------------------------------------ the run
const markets: Awaited<ReturnType<typeof createBenchMarket>>[] = [];
try {
  const random = prng(Number(values.seed));
  for (let m = 0; m < MARKETS; m++) markets.push(await createBenchMarket(sql, "bench-sse", "Stream fan-out benchmark?"));
  const channels = markets.flatMap((m) => KINDS.map((k) => `market:${m.slug}:${k}`));
  const channelOf = new Map(channels.map((c, k) => [c, k]));
  const subscribers: number[][] = channels.map(() => []);
  for (let i = 0; i < STREAMS; i++) {
    const picked = new Set<number>();
    while (picked.size < 3) picked.add(Math.floor(random() * channels.length));
    [...picked].forEach((c, j) => {
      followed[i * 3 + j] = c;
      subscribers[c].push(i);
    });
  }
  console.log(
    `bench-streams: ${STREAMS} streams × 3 channels of ${MARKETS} markets → ${base}${server ? " (server started here)" : ""}; ${os.availableParallelism()} cores, load average ${os.loadavg()[0].toFixed(1)}`,
  );

  await sleep(1000); // the markets' own changes are out
  await loopDelay(); // its route loaded before anything is timed
  const memBefore = await serverMemory();
  const t0 = Date.now();
  const refused: string[] = [];
  for (let i = 0; i < STREAMS; i += BATCH) {
    const n = Math.min(BATCH, STREAMS - i);
    const names = (s: number) => [0, 1, 2].map((k) => channels[followed[s * 3 + k]]);
    const answers = await Promise.all(Array.from({ length: n }, (_, j) => openStream(i + j, names(i + j))));
    for (const a of answers) if (a) refused.push(a);
    process.stdout.write(`\r  opened ${i + n - refused.length}/${STREAMS} streams (${refused.length} refused)`);
  }
  const openS = (Date.now() - t0) / 1000;
  console.log(` in ${openS.toFixed(1)} s (${Math.round(STREAMS / openS)}/s)`);
  if (refused.length) console.log(`  first refusal: ${refused[0]}`);
  await sleep(6000); // every stream has had a heartbeat: what they hold now is what a quiet stream holds
  const memOpen = await serverMemory();
  await sleep(2000); // past the full GC of that figure

  // Orders and trades in turn on random hot markets, at RATE a second (each sent on time, whatever the last one took).
  const commits = Math.round(RATE * SECONDS);
  const roundTrips: number[] = [];
  const cpu0 = serverCpuMs();
  await loopDelay();
  const start = Date.now();
  timing = true;
  const inFlight: Promise<void>[] = [];
  for (let k = 0; k < commits; k++) {
    const due = start + (k * 1000) / RATE;
    if (due > Date.now()) await sleep(due - Date.now());
    const market = markets[Math.floor(random() * markets.length)];
    const price = (0.1 + Math.floor(random() * 800) / 1000).toFixed(3);
    const sent = Date.now();
    inFlight.push((k % 2 ? commitTrade(sql, market, price) : commitBid(sql, market, price)).then(() => void roundTrips.push(Date.now() - sent)));
    if (k % 20 === 19) process.stdout.write(`\r  committed ${k + 1}/${commits}, ${latencies.length} deliveries`);
  }
  await Promise.all(inFlight);
  const committedS = (Date.now() - start) / 1000;
  const [{ head }] = await sql<{ head: number }[]>`SELECT coalesce(max(position), 0)::float8 AS head FROM change_log`;

  // What every stream should get: the changes numbered after it started, up to the last commit, on its channels.
  const opened = [...startPos].filter((p) => p >= 0);
  const from = Math.min(...opened);
  const rows = await sql<{ position: number; us: number; event: Record<string, unknown> }[]>`
    SELECT position::float8 AS position, (extract(epoch FROM at) * 1000000)::int8::float8 AS us, event
      FROM change_log WHERE position > ${from} AND position <= ${head} ORDER BY position`;
  const expected: Array<[stream: number, key: number]> = [];
  let events = 0;
  for (const r of rows) {
    const change = parseMarketEvent(JSON.stringify({ ...r.event, p: r.position, a: r.us }));
    if (!change) continue;
    for (const e of streamEventsOf(change).events) {
      const c = channelOf.get(e.channel);
      if (c === undefined) continue;
      events++;
      const key = e.position * 4 + kindIndex(e.name);
      for (const i of subscribers[c]) if (startPos[i] >= 0 && e.position > startPos[i]) expected.push([i, key]);
    }
  }
  const missing = () => expected.filter(([i, key]) => !got[i].has(key)).length;
  const deadline = Date.now() + 15_000;
  while (missing() > 0 && Date.now() < deadline) await sleep(250);
  const cpu1 = serverCpuMs();
  timing = false;
  const stop = Date.now();
  for (let i = 0; i < STREAMS; i++) silence[i] = Math.max(silence[i], stop - heardAt[i]);
  const delay = await loopDelay();
  const wallS = (Date.now() - start) / 1000;
  const memLoaded = await serverMemory();
  console.log("");

  // ---------------------------------------------------------------- figures
  const lost = missing();
  latencies.sort((a, b) => a - b);
  const lastSub = [...perPosition.values()].map((p) => p.last - p.at).sort((a, b) => a - b);
  roundTrips.sort((a, b) => a - b);
  const row = (xs: number[]) => `p50 ${pct(xs, 50)}  p90 ${pct(xs, 90)}  p99 ${pct(xs, 99)}  max ${xs.at(-1)}`;
  console.log(
    `commits: ${commits} in ${committedS.toFixed(1)} s (${(commits / committedS).toFixed(1)}/s, orders and trades in turn); INSERT round trip (ms) ${row(roundTrips)}`,
  );
  console.log(
    `deliveries: ${latencies.length} of ${expected.length} expected, ${events} events at ${perPosition.size} positions; lost ${lost}, duplicated ${duplicates}, out of order ${disorder}, resets ${resets}, streams ended ${ended}`,
  );
  if (latencies.length) {
    console.log(`latency commit → stream (ms; commit = the event's at):  ${row(latencies)}`);
    console.log(`commit → last subscriber of each event (ms):          ${row(lastSub)}`);
    for (const xs of byKind) xs.sort((a, b) => a - b);
    console.log(`  by event: ${KINDS.map((k, j) => `${k} p50 ${pct(byKind[j], 50)} p99 ${pct(byKind[j], 99)}`).join(";  ")}`);
  }
  const quiet = [...silence].filter((_, i) => startPos[i] >= 0).sort((a, b) => a - b);
  console.log(`longest silence of each stream while timed (ms; heartbeats every 5000 when idle): ${row(quiet)}`);
  const per = (a?: number, b?: number) => (a !== undefined && b !== undefined ? `${((b - a) / 1024 / opened.length).toFixed(1)} KB per stream` : "?");
  const show = (m: { rss?: number; heap?: number }, what: "rss" | "heap") => (m[what] === undefined ? "?" : MB(m[what] as number));
  for (const [what, label] of [
    ["rss", "RSS"],
    ["heap", server ? "heap after a full GC" : "heap"],
  ] as const) {
    console.log(
      `server ${label}: ${show(memBefore, what)} before, ${show(memOpen, what)} with ${opened.length} streams open (${per(memBefore[what], memOpen[what])}), ${show(memLoaded, what)} after the commits`,
    );
  }
  if (cpu0 !== undefined && cpu1 !== undefined) {
    const d = delay ? `; event-loop delay p50 ${delay.p50} p99 ${delay.p99} max ${delay.max} ms` : "";
    console.log(`server CPU during the commits: ${Math.round(((cpu1 - cpu0) / 1000 / wallS) * 100)} % of a core${d}`);
  }
  console.log(`load average at the end: ${os.loadavg()[0].toFixed(1)} (1 min), ${os.loadavg()[1].toFixed(1)} (5 min)`);
  const me = process.resourceUsage();
  console.log(`this client: RSS ${MB(process.memoryUsage().rss)}, CPU ${((me.userCPUTime + me.systemCPUTime) / 1e6).toFixed(1)} s in all`);
} finally {
  for (const r of requests) r?.destroy();
  agent.destroy();
  for (const m of markets) await m.drop().catch(() => {});
  await sql.end();
  await server?.stop();
  if (server) fs.writeFileSync(path.join(process.cwd(), ".data", "bench-streams-server.log"), server.output());
  await database?.stop();
}
