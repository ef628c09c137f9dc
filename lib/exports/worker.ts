// The export job's process (started by ./scheduler.ts when a file is due, at idle priority: ./launch.ts): one pass
// of ./job.ts over EXPORT_DIR with a connection of its own (no statement timeout, UTC) and its own DuckDB,
// so that neither the pass's memory nor its CPU is the server's. Prints one JSON line per file written and
// one at the end with the pass's peak RSS.
import fs from "node:fs";
import path from "node:path";
import { config } from "@/lib/config";
import { connect } from "@/lib/db/client";
import { openDuck } from "./duck";
import { runExportPass } from "./job";
import { TMP_DIR } from "./store";
import { JOB_SESSION } from "./writer";

// Started in a session of its own (./launch.ts), and killed with its parent by setpriv; where setpriv is missing,
// nothing stops it with its parent but this.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.exit(1);
}, 1000).unref();

const c = config();
if (!c.DATABASE_URL) throw new Error("DATABASE_URL is not set");
const dir = path.resolve(c.EXPORT_DIR);
const sql = connect(c.DATABASE_URL, {
  max: 1,
  connection: JOB_SESSION,
});
// What a pass that was stopped midway left behind (one pass at a time per directory: ./scheduler.ts).
fs.rmSync(path.join(dir, TMP_DIR), { recursive: true, force: true });
const duck = await openDuck(dir);
const print = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);
let code = 0;
try {
  const files = await runExportPass({
    sql,
    databaseUrl: c.DATABASE_URL,
    duck: duck.connection,
    dir,
    partialEveryMs: c.EXPORT_PARTIAL_MINUTES * 60_000,
    retentionDays: c.BOOK_LOG_RETENTION_DAYS,
    since: c.EXPORT_SINCE,
    log: (message) => print({ message }),
  });
  print({ done: files.length, maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024) });
} catch (err) {
  console.error(err);
  code = 1;
} finally {
  duck.close();
  await sql.end({ timeout: 5 });
}
// Whatever a failed pass left open (a COPY stream, DuckDB's threads) must not keep the process alive.
process.exit(code);
