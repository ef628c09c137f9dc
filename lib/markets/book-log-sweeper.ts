// Keeps the record of past books (migration 0011) within BOOK_LOG_RETENTION_DAYS: every BOOK_LOG_SWEEP_MS
// (and at start) one pass of book_log_maintain() creates the coming days and drops expired ones whole,
// after carrying forward what the kept days still need. Every instance runs it; passes are idempotent,
// and one that cannot get its locks at once gives up and leaves it to the next.
import "server-only";
import { config } from "@/lib/config";
import type { Sql } from "@/lib/db/client";
import { startPeriodic } from "@/lib/db/periodic";

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
  const retentionDays = options.retentionDays ?? config().BOOK_LOG_RETENTION_DAYS;
  // A pass fails when a lock is not granted at once; the next one tries again.
  return startPeriodic(
    async () => {
      const r = await sql.begin((tx) => sweepBookLog(tx as unknown as Sql, retentionDays));
      if (r.dropped || r.carried) return `dropped ${r.dropped} day(s), carried ${r.carried} snapshot(s)`;
    },
    {
      intervalMs: options.intervalMs ?? config().BOOK_LOG_SWEEP_MS,
      what: "sweep",
      log: options.log ?? ((m: string) => console.log(`[book-log] ${m}`)),
    },
  );
}
