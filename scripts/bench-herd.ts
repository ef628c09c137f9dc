// npm run bench:herd – commit → the moment the LAST of N watchers holds the new order book. N socket.io
// clients watch one market's orderbook channel as the market page does: a signal that carries the
// book is shown as it is; one without it makes the watcher refetch GET …/orderbook. Each commit adds
// a bid at a new price, so "holds the new book" is checked, not assumed. Prints, asserts nothing.
//
//   BASE_URL=http://127.0.0.1:3000 DATABASE_URL=postgres://… npm run bench:herd -- --watchers 1000 --commits 30
//   --refetch   ignore books carried by signals (what a client that only refetches sees)
//   (without the env vars it uses .data/test-run.json, i.e. a running Playwright test server)
import { parseArgs } from "node:util";
import postgres from "postgres";
import type { Socket } from "socket.io-client";
import http from "node:http";
import { percentile as pct, sleep } from "../lib/dev/tools";
import { benchTargets, commitBid, createBenchMarket, joinWatchers } from "./bench-market";

const { values } = parseArgs({
  options: {
    watchers: { type: "string", default: "1000" },
    commits: { type: "string", default: "30" },
    spacing: { type: "string", default: "600" },
    batch: { type: "string", default: "50" },
    refetch: { type: "boolean", default: false },
  },
});
const WATCHERS = Math.min(5000, Math.max(1, Number(values.watchers)));
const COMMITS = Math.min(200, Math.max(1, Number(values.commits)));
const SPACING = Math.max(200, Number(values.spacing));
const BATCH = Math.max(1, Number(values.batch));

const { baseURL, databaseUrl } = benchTargets("http://127.0.0.1:3000");

const sql = postgres(databaseUrl, { max: 2, onnotice: () => {} });
const priceOf = (k: number) => (0.1 + (k + 1) / 1000).toFixed(3);
type Book = { bids: { price: string }[] };
const holds = (book: Book | undefined, k: number) => Boolean(book?.bids.some((l) => l.price === priceOf(k)));

const market = await createBenchMarket(sql, "bench-herd", "Refetch herd benchmark?");
const { outcomeId, slug, drop } = market;

const channel = `market:${slug}:orderbook`;
const bookUrl = `${baseURL}/v1/markets/slug/${slug}/orderbook?outcomeId=${outcomeId}`;
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
const getBook = () =>
  new Promise<Book>((resolve, reject) => {
    http
      .get(bookUrl, { agent, headers: { accept: "application/json" } }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c) => (body += c));
        res.on("end", () => (res.statusCode === 200 ? resolve(JSON.parse(body)) : reject(new Error(`HTTP ${res.statusCode}`))));
      })
      .on("error", reject);
  });
const sent: number[] = [];
// held[k][w]: when watcher w first held a book with commit k's bid (ms), from a signal or a refetch.
const held: number[][] = Array.from({ length: COMMITS }, () => []);
let carried = 0;
let refetches = 0;
let failures = 0;
const sockets: Socket[] = [];

async function refetch(w: number, k: number) {
  for (let attempt = 0; attempt < 3; attempt++) {
    refetches++;
    try {
      const book = await getBook();
      if (holds(book, k)) return (held[k][w] ??= Date.now());
    } catch {
      failures++;
    }
  }
}

try {
  console.log(`bench-herd: ${WATCHERS} watchers → ${baseURL}, ${COMMITS} commits every ${SPACING} ms${values.refetch ? " (refetch only)" : ""}`);
  await joinWatchers(baseURL, channel, {
    count: WATCHERS,
    batch: BATCH,
    sockets,
    onSignal: (w, sig) => {
      const k = sig.seq - 1; // a new room: commit k produces seq k+1
      if (sig.channel !== channel || k < 0 || k >= COMMITS) return;
      if (!values.refetch && holds(sig.book as Book | undefined, k)) {
        carried++;
        held[k][w] ??= Date.now();
      } else void refetch(w, k);
    },
  });

  for (let k = 0; k < COMMITS; k++) {
    sent[k] = Date.now();
    await commitBid(sql, market, priceOf(k));
    process.stdout.write(`\r  commit ${k + 1}/${COMMITS}`);
    await sleep(SPACING);
  }
  const deadline = Date.now() + 10_000;
  while (held.some((h) => h.filter(Boolean).length < WATCHERS) && Date.now() < deadline) await sleep(50);
  console.log("");

  const complete = held.map((h) => h.filter(Boolean).length === WATCHERS);
  const last = held
    .map((h, k) => Math.max(...h.filter(Boolean)) - sent[k])
    .filter((_, k) => complete[k])
    .sort((a, b) => a - b);
  const all = held.flatMap((h, k) => h.filter(Boolean).map((t) => t - sent[k])).sort((a, b) => a - b);
  console.log(`commits where every watcher held the new book: ${complete.filter(Boolean).length}/${COMMITS}`);
  console.log(`books from signals: ${carried}, refetches: ${refetches} (${failures} failed)`);
  if (last.length) {
    console.log(`commit → LAST watcher holds the new book (ms): p50 ${pct(last, 50)}  p99 ${pct(last, 99)}  max ${last.at(-1)}`);
    console.log(`commit → each watcher (ms): p50 ${pct(all, 50)}  p99 ${pct(all, 99)}  max ${all.at(-1)}`);
  }
} finally {
  for (const s of sockets) s.disconnect();
  agent.destroy();
  await drop();
  await sql.end();
}
