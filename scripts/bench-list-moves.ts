// npm run bench:list-moves [-- --active 56000 --cancelled 22000 --rounds 30]
// What a list read pays when markets moved since the last one (docs/performance.md "List orders in memory"):
// the in-memory orders (lib/markets/list-index.ts) of a synthetic catalogue the size of the venues data set's
// kept statuses (ACTIVE and CANCELLED, ten categories), then, per round, N markets announced changed with a
// new liquidity and one slice asked: it reads them again (a loader in memory here, no database) and moves
// them in their orders. Prints the slice's time, p50 and max, for N = 50, 220 (what an ingest batch of 1,000
// venue lines touches), 500 and 2,000. Prints only; never asserts.
import { parseArgs } from "node:util";
import { ListIndex } from "../lib/markets/list-index";
import type { IndexRow } from "../lib/markets/sql/list-index-rows";
import type { MarketListQuery } from "../lib/markets/schemas/queries";

const { values: args } = parseArgs({ options: { active: { type: "string" }, cancelled: { type: "string" }, rounds: { type: "string" } } });
const ACTIVE = Number(args.active ?? 56_000);
const CANCELLED = Number(args.cancelled ?? 22_000);
const ROUNDS = Number(args.rounds ?? 30);
const CATEGORIES = ["Politics", "Sports", "Crypto", "Economics", "Science", "Culture", "World", "Tech", "Weather", "Other"];

/** A deterministic number in [0, 1) for `i` (Knuth's multiplicative hash). */
const unit = (i: number) => (Math.imul(i, 2654435761) >>> 0) / 2 ** 32;
const idOf = (i: number) => `${i.toString(16).padStart(8, "0")}-0000-4000-8000-${(i * 7).toString(16).padStart(12, "0")}`;
const rows: IndexRow[] = Array.from({ length: ACTIVE + CANCELLED }, (_, i) => ({
  id: idOf(i),
  slug: `market-${i}`,
  status: i < ACTIVE ? "ACTIVE" : "CANCELLED",
  category: CATEGORIES[i % CATEGORIES.length],
  volume: (unit(i) * 1e6).toFixed(6),
  liquidity: (unit(i + 7) * 1e5).toFixed(6),
  created: 1.7e15 + i * 1e6,
  ends: 1.8e15 + i * 1e6,
  question: `Market ${i}`,
  description: "",
}));
const byId = new Map(rows.map((r) => [r.id, r]));
let round = 0;
const load = async (ids: string[] | null) =>
  ids ? ids.map((id) => ({ ...byId.get(id)!, liquidity: (unit(round * 100_003 + Number.parseInt(id.slice(0, 8), 16)) * 1e5).toFixed(6) })) : rows;
const counts = async () =>
  new Map([
    ["ACTIVE", ACTIVE],
    ["CANCELLED", CANCELLED],
  ]);
const index = new ListIndex(
  load,
  async () => null,
  counts,
  () => 1024 ** 3,
);
index.subscriber.listening?.(false);
const query = { status: "ACTIVE", sortBy: "LIQUIDITY", sortOrder: "DESC", limit: 20, offset: 0 } as MarketListQuery;
const t0 = performance.now();
while (!(await index.slice(query))) await new Promise((r) => setTimeout(r, 10));
console.log(`orders of ${(ACTIVE + CANCELLED).toLocaleString("en-US")} markets built in ${Math.round(performance.now() - t0)} ms`);
for (const n of [50, 220, 500, 2_000]) {
  const times: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    round++;
    for (let k = 0; k < n; k++) index.event({ kind: "detail", slug: null, marketId: idOf(Math.floor(unit(round * 7_919 + k * 31) * ACTIVE)), outcomeId: null });
    const t = performance.now();
    await index.slice(query);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  console.log(`${String(n).padStart(5)} markets moved: a slice p50 ${times[Math.floor(ROUNDS / 2)].toFixed(1)} ms, max ${times[ROUNDS - 1].toFixed(1)} ms`);
}
