// npm run bench:list-index [-- --budget-mb 200]
// Builds the lists' orders (lib/markets/list-index.ts) from DATABASE_URL as an instance does at start (reads
// only: the markets of each status, then those of the statuses kept within the budget; LIST_INDEX_MAX_MB
// when --budget-mb is not given), and prints what GET /api/stats says of them (statuses kept, markets,
// bytes) beside what V8's heap holds more for them after a full collection, and how long the build took.
// Prints only; never asserts.
import { parseArgs } from "node:util";
import { config } from "../lib/config";
import { closeDb } from "../lib/db/client";
import { ListIndex } from "../lib/markets/list-index";

const { values: args } = parseArgs({ options: { "budget-mb": { type: "string" } } });
if (!process.env.DATABASE_URL) throw new Error("set DATABASE_URL to the database to read");
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with node --expose-gc (npm run bench:list-index does)");
const budgetMb = args["budget-mb"] === undefined ? config().LIST_INDEX_MAX_MB : Number(args["budget-mb"]);
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
const heapUsed = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

const before = heapUsed();
const index = new ListIndex(undefined, undefined, undefined, () => budgetMb * 1024 * 1024);
const started = performance.now();
index.subscriber.listening?.(false); // as server.ts's change stream does once it listens: the build starts
while (!index.size.built) await new Promise((r) => setTimeout(r, 20));
const ms = Math.round(performance.now() - started);
const held = heapUsed() - before;
const { kept, statuses, markets, bytes } = index.size;
console.log(`budget ${budgetMb} MB; markets by status: ${JSON.stringify(statuses)}`);
console.log(
  `kept ${kept.join(", ")}: ${markets} markets, ${mb(bytes)} MB as /api/stats states them; V8 heap ${mb(held)} MB more after a full collection; built in ${ms} ms`,
);
await closeDb();
