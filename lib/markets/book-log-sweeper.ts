// Keeps the record of past books (migration 0011) within BOOK_LOG_RETENTION_DAYS: every BOOK_LOG_SWEEP_MS
// (and at start) one pass of book_log_maintain() creates the coming days and drops expired ones whole,
// after carrying forward what the kept days still need. Every instance runs it; passes are idempotent,
// and one that cannot get its locks at once gives up and leaves it to the next.
import "server-only";
import { config } from "@/lib/config";
import type { Sql } from "@/lib/db/client";

export interface BookLogSweeperOptions {
  intervalMs?: number;
  retentionDays?: number;
  log?: (message: string) => void;
}

/** One pass: days created, days dropped, snapshots carried forward. */
export async function sweepBookLog(sql: Sql, retentionDays: number): Promise<{ created: number; dropped: number; carried: number }> {
  const [row] = await sql<{ created: number; dropped: number; carried: number }[]>`
    SELECT created, dropped, carried FROM book_log_maintain(${retentionDays})`;
  return row;
}

export function startBookLogSweeper(sql: Sql, options: BookLogSweeperOptions = {}): () => Promise<void> {
  const intervalMs = options.intervalMs ?? config().BOOK_LOG_SWEEP_MS;
  const retentionDays = options.retentionDays ?? config().BOOK_LOG_RETENTION_DAYS;
  const log = options.log ?? ((m: string) => console.log(`[book-log] ${m}`));
  let failing = false;
  let running: Promise<unknown> = Promise.resolve();
  const pass = () => {
    running = sql
      .begin((tx) => sweepBookLog(tx as unknown as Sql, retentionDays))
      .then(
        (r) => {
          if (r.dropped || r.carried) log(`dropped ${r.dropped} day(s), carried ${r.carried} snapshot(s)`);
          if (failing) log("sweeping again");
          failing = false;
        },
        (err) => {
          // Once per run of failures: a lock not granted at once, or the database away (reported elsewhere too).
          if (!failing) log(`sweep failed: ${(err as Error).message}`);
          failing = true;
        },
      );
  };
  pass();
  const timer = setInterval(pass, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
