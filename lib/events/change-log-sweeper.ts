// Keeps the numbered changes (migration 0021, docs/api.md "Positions") within CHANGES_RETENTION_HOURS:
// about once a minute, change_log_trim() drops the oldest changes in batches until fewer than a batch were
// old enough. Every instance runs it, at jittered times; a trim that finds another one running returns 0
// at once and leaves the work to it, and the horizon only ever moves forward.
import "server-only";
import { config } from "@/lib/config";
import type { Sql } from "@/lib/db/client";
import { startPeriodic } from "@/lib/db/periodic";

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

/**
 * A batch's time limit: its own, not the request pool's (3 s), which the first trim after a start outlasted
 * on a cold cache at 360,000 markets (docs/scale.md "Start-up at 360,000 markets").
 */
const TRIM_TIMEOUT_MS = 30_000;

/** One pass: batches until one drops fewer than `batch`; how many changes were dropped. */
export async function sweepChangeLog(sql: Sql, retentionHours: number, batch = TRIM_BATCH): Promise<number> {
  let dropped = 0;
  for (;;) {
    const n = await sql.begin(async (tx) => {
      await tx`SELECT set_config('statement_timeout', ${String(TRIM_TIMEOUT_MS)}, true)`;
      const [row] = await tx<{ n: number }[]>`SELECT change_log_trim(make_interval(hours => ${retentionHours}), ${batch}) AS n`;
      return row.n;
    });
    dropped += n;
    if (n < batch) return dropped;
  }
}

export function startChangeLogSweeper(sql: Sql, options: ChangeLogSweeperOptions = {}): () => Promise<void> {
  const retentionHours = options.retentionHours ?? config().CHANGES_RETENTION_HOURS;
  const batch = options.batch ?? TRIM_BATCH;
  return startPeriodic(async () => void (await sweepChangeLog(sql, retentionHours, batch)), {
    intervalMs: options.intervalMs ?? INTERVAL_MS,
    jitter: 0.2,
    what: "trim",
    log: options.log ?? ((m: string) => console.log(`[change-log] ${m}`)),
  });
}
