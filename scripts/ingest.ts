// npm run ingest [-- <file>] [--follow] [--batch 1000] [--wait 50] [--lanes N] [--priority low|normal] – reads the NDJSON event stream of
// docs/ingest.md from stdin or a file (with --follow, a file that grows, read on like tail -f until
// Ctrl-C), writes it in batches into DATABASE_URL or the embedded database, reports each bad line on
// stderr (`line N: <json path>: <message>`) and skips it, and prints progress on stderr every 2 s. It yields
// the CPU to reads on the same machine unless `--priority normal` (docs/ingest.md "Priority").
import fs from "node:fs";
import os from "node:os";
import { parseArgs } from "node:util";
import { config } from "../lib/config";
import { resolveDatabase } from "../lib/db/embedded";
import { migrate } from "../lib/db/migrate";
import { percentile } from "../lib/dev/tools";
import { Ingest } from "../lib/ingest/run";
import { fileLines, readableLines } from "../lib/ingest/source";
import { enterPriority, ingestPool, priorityArg } from "../lib/ingest/yield";

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    follow: { type: "boolean" },
    batch: { type: "string" },
    wait: { type: "string" },
    lanes: { type: "string" },
    priority: { type: "string", default: "low" },
    quiet: { type: "boolean" },
  },
});
const file = positionals[0];
// One writer per core by default: each lane is a database session (docs/ingest.md "Lanes").
const lanes = args.lanes ? Number(args.lanes) : os.availableParallelism();
if (args.follow && !file) {
  console.error("usage: npm run ingest [-- <file>] [--follow]   (--follow needs a file)");
  process.exit(2);
}
const priority = priorityArg(args.priority);
if (file && !fs.existsSync(file)) {
  console.error(`${file}: no such file`);
  process.exit(2);
}
await enterPriority(priority);

const database = await resolveDatabase({ log: (m) => console.error(m) });
const { sql, stopYielding } = ingestPool(config().DATABASE_URL!, { max: 4 + lanes, priority, log: (m) => console.error(`ingest: ${m}`) });
const stop = new AbortController();
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => stop.abort());

let exitCode = 0;
try {
  await migrate(sql, (m) => console.error(m));
  const lags: number[] = [];
  const ingest = new Ingest(sql, {
    batchSize: args.batch ? Number(args.batch) : undefined,
    batchWaitMs: args.wait ? Number(args.wait) : undefined,
    lanes,
    onRejected: (r) => console.error(`line ${r.line}: ${r.error}`),
    onBatch: (_n, lag) => lags.push(lag),
  });
  const started = Date.now();
  let last = { at: started, lines: 0 };
  const progress = () => {
    const s = ingest.stats;
    const now = Date.now();
    const sorted = lags.splice(0).sort((a, b) => a - b);
    const rate = ((s.lines - last.lines) * 1000) / Math.max(1, now - last.at);
    last = { at: now, lines: s.lines };
    console.error(
      `ingest: ${s.lines.toLocaleString("en-US")} lines, ${Math.round(rate).toLocaleString("en-US")}/s, ${s.rejected} bad, ` +
        `orders ${s.kinds.order.toLocaleString("en-US")} trades ${s.kinds.trade.toLocaleString("en-US")} markets ${s.kinds.market}, ` +
        `lag p50 ${percentile(sorted, 50) ?? 0} ms p99 ${percentile(sorted, 99) ?? 0} ms, backlog ${ingest.backlog}`,
    );
  };
  const timer = args.quiet ? undefined : setInterval(progress, 2000);
  const lines = file ? fileLines(file, { follow: args.follow, signal: stop.signal }) : readableLines(process.stdin);
  try {
    for await (const line of lines) {
      if (stop.signal.aborted) break;
      await ingest.push(line);
    }
    await ingest.flush();
  } finally {
    clearInterval(timer);
  }
  const s = ingest.stats;
  const secs = (Date.now() - started) / 1000;
  console.error(
    `ingest: done: ${s.lines.toLocaleString("en-US")} lines in ${secs.toFixed(1)} s (${Math.round(s.lines / secs).toLocaleString("en-US")}/s), ` +
      `${s.accepted.toLocaleString("en-US")} written in ${s.batches} batches (${s.commits} commits), ${s.rejected} bad; ` +
      `rows changed: orders ${s.orders}, trades ${s.trades}, markets ${s.markets}, users ${s.users}`,
  );
} catch (err) {
  console.error(`ingest: ${(err as Error).stack ?? err}`);
  exitCode = 1;
} finally {
  stopYielding();
  await sql.end({ timeout: 5 });
  await database.stop();
}
process.exit(exitCode);
