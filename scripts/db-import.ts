// npm run db:import -- a.json [b.json ...] – validates and upserts each file (docs/import.md), one
// transaction per file, into DATABASE_URL or the embedded database; stops at the first bad file.
import fs from "node:fs";
import cliProgress from "cli-progress";
import { closeDb, db } from "../lib/db/client";
import { resolveDatabase } from "../lib/db/embedded";
import { migrate } from "../lib/db/migrate";
import { ImportError, importFile, vacuumAfterImport } from "../lib/import/import";

const files = process.argv.slice(2).filter((a) => a !== "--");
if (!files.length) {
  console.error("usage: npm run db:import -- <file.json> [<file2.json> ...]");
  process.exit(2);
}

const PROGRESS_MIN_ROWS = 20_000;

const database = await resolveDatabase({ log: (m) => console.error(m) });
let exitCode = 0;
try {
  const sql = db();
  await migrate(sql, (m) => console.error(m));
  let imported = 0;
  for (const file of files) {
    let data: unknown;
    try {
      data = JSON.parse(fs.readFileSync(file, "utf8"));
    } catch (err) {
      console.error(`${file}: cannot read JSON: ${(err as Error).message}`);
      exitCode = 1;
      break;
    }
    const bar = new cliProgress.SingleBar(
      {
        format: `${file} [{bar}] {percentage}% | {value}/{total} rows | {duration_formatted}`,
        stream: process.stderr,
        hideCursor: true,
        noTTYOutput: true,
        notTTYSchedule: 5_000,
      },
      cliProgress.Presets.shades_classic,
    );
    let barStarted = false;
    try {
      const s = await importFile(sql, data, {
        onProgress: (done, total) => {
          if (total < PROGRESS_MIN_ROWS) return;
          if (!barStarted) bar.start(total, done), (barStarted = true);
          else bar.update(done);
        },
      });
      if (barStarted) bar.stop();
      imported++;
      console.log(
        `${file}: imported users=${s.users} markets=${s.markets} outcomes=${s.outcomes} comments=${s.comments} orders=${s.orders} trades=${s.trades} external_books=${s.external_books} (${s.markets_touched} markets refreshed) in ${(s.ms / 1000).toFixed(1)} s`,
      );
    } catch (err) {
      if (barStarted) bar.stop();
      console.error(`${file}: ${err instanceof ImportError ? err.message : (err as Error).stack}`);
      console.error(`${file}: nothing was written`);
      exitCode = 1;
      break;
    }
  }
  if (imported) {
    const t0 = Date.now();
    await vacuumAfterImport(sql);
    console.log(`vacuum (analyze) in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
} finally {
  await closeDb();
  await database.stop();
}
process.exit(exitCode);
