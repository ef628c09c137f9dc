// Keeps the numbered changes (migration 0021, docs/api.md "Positions") within CHANGES_RETENTION_HOURS:
// about once a minute, change_log_trim() drops the oldest changes in batches until fewer than a batch were
// old enough. Every instance runs it, at jittered times; a trim that finds another one running returns 0
// at once and leaves the work to it, and the horizon only ever moves forward.
import "server-only";
import { config } from "@/lib/config";
import type { Sql } from "@/lib/db/client";

export interface ChangeLogSweeperOptions {
  /** Mean time between passes (each one is jittered by ±20 %). */
  intervalMs?: number;
  retentionHours?: number;
  batch?: number;
  log?: (message: string) => void;
}

const INTERVAL_MS = 60_000;
/** Changes dropped per statement: a short delete, so that a pass never holds anything for long. */
export const TRIM_BATCH = 10_000;

/** One pass: batches until one drops fewer than `batch`; how many changes were dropped. */
export async function sweepChangeLog(sql: Sql, retentionHours: number, batch = TRIM_BATCH): Promise<number> {
  let dropped = 0;
  for (;;) {
    const [{ n }] = await sql<{ n: number }[]>`SELECT change_log_trim(make_interval(hours => ${retentionHours}), ${batch}) AS n`;
    dropped += n;
    if (n < batch) return dropped;
  }
}

export function startChangeLogSweeper(sql: Sql, options: ChangeLogSweeperOptions = {}): () => Promise<void> {
  const intervalMs = options.intervalMs ?? INTERVAL_MS;
  const retentionHours = options.retentionHours ?? config().CHANGES_RETENTION_HOURS;
  const batch = options.batch ?? TRIM_BATCH;
  const log = options.log ?? ((m: string) => console.log(`[change-log] ${m}`));
  let failing = false;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<unknown> = Promise.resolve();
  // Instances started together drift apart instead of trimming in step.
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(pass, intervalMs * (0.8 + 0.4 * Math.random()));
    timer.unref();
  };
  const pass = () => {
    running = sweepChangeLog(sql, retentionHours, batch)
      .then(
        () => {
          if (failing) log("trimming again");
          failing = false;
        },
        (err) => {
          // Once per run of failures: the database away is reported elsewhere too.
          if (!failing) log(`trim failed: ${(err as Error).message}`);
          failing = true;
        },
      )
      .finally(schedule);
  };
  pass();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}
