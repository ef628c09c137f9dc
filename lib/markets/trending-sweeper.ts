// Keeps the stored 24 h volume of TRENDING close to the truth (migration 0003): once a minute it
// subtracts the trades that aged out. Readers are exact without it; it keeps their correction small.
import "server-only";
import { config } from "@/lib/config";
import type { Sql } from "@/lib/db/client";
import { startPeriodic } from "@/lib/db/periodic";

export interface SweeperOptions {
  intervalMs?: number;
  log?: (message: string) => void;
}

/** Each step moves the watermark at most this far, so it stays well inside the statement timeout. */
const STEP = "2 minutes";
/** Steps in one sweep at most: a watermark hours behind catches up over several sweeps. */
const MAX_STEPS = 60;

/**
 * One sweep, in steps of bounded work (migration 0013), until the watermark has caught up; the new
 * watermark, or null when a concurrent writer or sweep made it skip.
 */
export async function sweepTrending(sql: Sql): Promise<Date | null> {
  let swept: Date | null = null;
  for (let i = 0; i < MAX_STEPS; i++) {
    const [step] = await sql<{ swept_at: Date; behind: boolean }[]>`SELECT * FROM sweep_volume_24h_step(${STEP}::interval)`;
    if (!step) break;
    swept = step.swept_at;
    if (!step.behind) break;
  }
  return swept;
}

export function startTrendingSweeper(sql: Sql, options: SweeperOptions = {}): () => Promise<void> {
  return startPeriodic(async () => void (await sweepTrending(sql)), {
    intervalMs: options.intervalMs ?? config().TRENDING_SWEEP_MS,
    immediate: false,
    what: "sweep",
    log: options.log ?? ((m: string) => console.log(`[trending] ${m}`)),
  });
}
