// npm run bench:api [-- --duration 5 --connections 10 --base-url http://localhost:3000]
// Benches every public read endpoint of a running server with autocannon and prints a table.
// Ids, slugs and outcome ids are discovered from GET /v1/markets first (through packages/client). Prints only; never asserts.
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { createMarketsClient } from "../packages/client/src/index";

const { values: args } = parseArgs({
  options: {
    duration: { type: "string" },
    connections: { type: "string" },
    "base-url": { type: "string" },
    only: { type: "string" },
  },
});

const base = (args["base-url"] ?? process.env.BASE_URL ?? "http://localhost:3000").replace(/\/+$/, "");
const duration = Number(args.duration ?? process.env.BENCH_DURATION ?? 5);
const connections = Number(args.connections ?? process.env.BENCH_CONNECTIONS ?? 10);

async function discover() {
  const api = createMarketsClient({ baseUrl: base, retry: false });
  const { markets } = await api.listMarkets({ query: { limit: 100 } }).catch((err: Error) => {
    throw new Error(`${err.message}; is the server running at ${base}?`);
  });
  const market = markets.find((m) => m.outcomes.length > 0);
  if (!market) throw new Error("GET /v1/markets returned no market with outcomes; seed the database first");
  // A word from a real question, so the search has hits.
  const word =
    market.question
      .split(/[^A-Za-z]+/)
      .filter((w) => w.length >= 5)
      .sort((a, b) => b.length - a.length)[0] ?? "will";
  return { market, outcomeId: market.outcomes[0].id, word: word.toLowerCase() };
}

const { market, outcomeId, word } = await discover();
const id = market.id;
const slug = encodeURIComponent(market.slug);
const out = encodeURIComponent(outcomeId);

const endpoints: [string, string][] = [
  ["list (default)", "/v1/markets"],
  [`list q=${word}`, `/v1/markets?q=${encodeURIComponent(word)}`],
  ["list sortBy=TRENDING", "/v1/markets?sortBy=TRENDING"],
  [`list ${market.category} VOLUME offset=200`, `/v1/markets?category=${market.category}&sortBy=VOLUME&offset=200`],
  ["market by id", `/v1/markets/${id}`],
  ["market by slug", `/v1/markets/slug/${slug}`],
  ["orderbook by id", `/v1/markets/${id}/orderbook?outcomeId=${out}`],
  ["orderbook by slug", `/v1/markets/slug/${slug}/orderbook?outcomeId=${out}`],
  ["prices-history by id", `/v1/markets/${id}/prices-history?outcomeId=${out}`],
  ["prices-history by slug", `/v1/markets/slug/${slug}/prices-history?outcomeId=${out}`],
];

console.error(`bench ${base}: ${duration} s per endpoint, ${connections} connections; market ${market.slug}`);
const rows: string[][] = [];
for (const [name, path] of endpoints) {
  if (args.only && !name.includes(args.only)) continue;
  console.error(`  ${name} …`);
  const r = await autocannon({ url: base + path, connections, duration });
  rows.push([name, r.requests.average.toFixed(0), r.latency.p50.toFixed(1), r.latency.p99.toFixed(1), String(r.non2xx + r.errors + r.timeouts)]);
}

const head = ["endpoint", "req/s", "p50 ms", "p99 ms", "non-2xx"];
const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
const line = (cells: string[]) => cells.map((v, c) => (c === 0 ? v.padEnd(widths[c]) : v.padStart(widths[c]))).join("  ");
console.log(line(head));
console.log(widths.map((w) => "-".repeat(w)).join("  "));
for (const r of rows) console.log(line(r));
