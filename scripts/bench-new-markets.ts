// npm run bench:new-markets -- --app URL [--markets 2000] [--events 5000] [--mix search] [--seconds 45] [--at 12] [--lanes 2] [--seed N]
// Lists read while a venue's new markets arrive (docs/performance.md "Reads while the ingest flows", its "A batch
// of new markets"), on the database of DATABASE_URL that the app at --app (started with RATE_LIMIT=off) reads:
//   1. a list mix of bench:compare (bench/src/mixes.mjs: catvol, deep, search, wide) is asked of the app by 32
//      connections for --seconds;
//   2. --at seconds in, `npm run ingest` (--lanes) writes a generated venue (lib/ingest/generator.ts): its
//      traders, --markets new markets, then --events order and trade events, as fast as it can;
//   3. meanwhile a markets stream (GET /v1/stream?channels=markets) counts what it is told.
// Prints the load's req/s and p50/p99 per 5 s (those the ingest overlaps marked) and overall, the list
// orders' rebuilds, refreshes and SQL fallbacks from the app's /api/stats, and the stream's `created`
// events and resets. Prints only; never asserts.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { mixes } from "../bench/src/mixes.mjs";
import { listQuery } from "../bench/src/targets.mjs";
import { openStream } from "../e2e/support/sse";
import { percentile } from "../lib/dev/tools";
import { VenueStream } from "../lib/ingest/generator";

const { values: args } = parseArgs({
  options: {
    app: { type: "string" },
    markets: { type: "string", default: "2000" },
    events: { type: "string", default: "5000" },
    mix: { type: "string", default: "search" },
    seconds: { type: "string", default: "45" },
    at: { type: "string", default: "12" },
    lanes: { type: "string", default: "2" },
    seed: { type: "string" },
  },
});
const all = mixes();
if (!args.app || !process.env.DATABASE_URL || !(args.mix! in all)) {
  console.error(
    `usage: DATABASE_URL=postgres://…/markets npm run bench:new-markets -- --app http://127.0.0.1:3000 [--markets 2000] [--events 5000] [--mix ${Object.keys(all).join("|")}] [--seconds 45] [--at 12] [--lanes 2] [--seed N]`,
  );
  process.exit(2);
}
const app = args.app.replace(/\/+$/, "");
const SECONDS = Number(args.seconds);
const AT = Number(args.at);
// A new venue each run unless --seed is given: its slugs (venue-<seed>-market-<n>) must be new to the database.
const SEED = Number(args.seed ?? Date.now() % 1_000_000_000);

type ListIndexStats = { rebuilds: number; refreshes: number; refreshed: number; fallbacks: number };
const indexStats = async (): Promise<ListIndexStats> => ((await (await fetch(`${app}/api/stats`)).json()) as { listIndex: ListIndexStats }).listIndex;

// The venue, as npm run ingest reads it: a file of lines.
const venue = new VenueStream({ seed: SEED, rate: 1000, ratio: 10 });
const lines = [...venue.preamble(Number(args.markets))];
for (let i = 0; i < Number(args.events); i++) lines.push(venue.next());
const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "new-markets-")), "venue.ndjson");
fs.writeFileSync(file, `${lines.join("\n")}\n`);

// The markets stream, as a client reads it: every event kept, counted at the end.
const stream = await openStream(`${app}/v1/stream?channels=markets`);

const before = await indexStats();
const started = Date.now();
const answers: [at: number, ms: number, status: number][] = [];
let ingestWindow: [number, number] = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
let ingestSaid = "";
const ingest = new Promise<void>((resolve) => {
  setTimeout(() => {
    const from = Date.now() - started;
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/ingest.ts", file, "--lanes", String(args.lanes), "--quiet"], {
      env: process.env,
      stdio: ["ignore", "ignore", "pipe"],
    });
    child.stderr.on("data", (d) => (ingestSaid += String(d)));
    child.once("exit", (code) => {
      ingestWindow = [from, Date.now() - started];
      if (code !== 0) console.error(`npm run ingest exited with ${code}:\n${ingestSaid}`);
      resolve();
    });
  }, AT * 1000);
});
const load = autocannon({
  url: app,
  connections: 32,
  duration: SECONDS,
  requests: all[args.mix!].cases.map((c) => ({ method: "GET", path: `/v1/markets?${listQuery(c)}` })),
});
load.on("response", (_client, status, _bytes, ms) => answers.push([Date.now() - started, ms, status]));
await load;
await ingest;
const after = await indexStats();
stream.close();
await stream.closed;

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const summary = (list: [number, number, number][], seconds: number) => {
  const ms = list.map(([, m]) => m).sort((a, b) => a - b);
  return `${fmt(ms.length / seconds).padStart(6)} req/s  p50 ${fmt(percentile(ms, 50) ?? 0).padStart(5)} ms  p99 ${fmt(percentile(ms, 99) ?? 0).padStart(5)} ms  not 2xx ${list.filter(([, , s]) => s < 200 || s >= 300).length}`;
};
console.log(
  `mix ${args.mix} (${all[args.mix!].about}), 32 connections, ${SECONDS} s; at ${AT} s npm run ingest --lanes ${args.lanes}: ${fmt(Number(args.markets))} new markets (venue ${SEED}), then ${fmt(Number(args.events))} events`,
);
for (let s = 0; s < SECONDS; s += 5) {
  const slot = answers.filter(([at]) => at >= s * 1000 && at < (s + 5) * 1000);
  const during = s * 1000 < ingestWindow[1] && (s + 5) * 1000 > ingestWindow[0];
  console.log(`${`${s}-${s + 5} s`.padStart(9)} ${during ? "ingest" : "      "} ${summary(slot, 5)}`);
}
console.log(`      all        ${summary(answers, SECONDS)}`);
console.log(
  `ingest from ${(ingestWindow[0] / 1000).toFixed(1)} s to ${(ingestWindow[1] / 1000).toFixed(1)} s: ${/ingest: done: [^\n]*/.exec(ingestSaid)?.[0] ?? "(no summary)"}`,
);
const delta = (k: keyof ListIndexStats) => fmt(after[k] - before[k]);
console.log(
  `list orders: ${delta("rebuilds")} rebuilds, ${delta("refreshes")} refreshes of ${delta("refreshed")} markets, ${delta("fallbacks")} lists from SQL`,
);
const created = stream.events.filter((e) => e.event === "market" && e.data.type === "created").length;
const resets = stream.events.filter((e) => e.event === "reset").length;
console.log(
  stream.status !== 200
    ? `markets stream: refused (${stream.status})`
    : `markets stream: ${fmt(created)} created, ${fmt(resets)} resets, ${fmt(stream.events.length)} events`,
);
fs.rmSync(path.dirname(file), { recursive: true, force: true });
process.exit(0);
