// Moves the markets feed's table after the commits (migration 0022, docs/api.md "GET /v1/markets/changes"):
// every MARKETS_FEED_APPLY_MS, market_positions_apply() gives each market named by the changes logged since
// the last pass the position of its last one. Every instance runs it; a pass that finds another running
// returns at once, and the next one continues from where the last stopped.
import "server-only";
import { config } from "@/lib/config";
import type { Sql } from "@/lib/db/client";
import { startPeriodic } from "@/lib/db/periodic";

/** Changes read per statement: short statements, so a pass never holds the state row for long. */
export const APPLY_BATCH = 5_000;

/**
 * How long one statement of a pass may run, whatever the pool's statement timeout. A batch that meets a change
 * naming no market (a statement that added more than 5,000, migration 0032) applies the whole backlog in one statement, under
 * the numbering lock (migration 0022): on a cold cache with a backlog of a million changes that outlasted the
 * request pool's 3 s, so every pass failed, holding each writer's commit for up to 3 s, and the next began again.
 */
export const APPLY_TIMEOUT_MS = 60_000;

/** One pass: batches until one reads fewer than `batch`; how many changes were applied. */
export async function applyMarketPositions(sql: Sql, batch = APPLY_BATCH): Promise<number> {
  let applied = 0;
  for (;;) {
    const [row] = await sql.begin(async (tx) => {
      await tx`SELECT set_config('statement_timeout', ${String(APPLY_TIMEOUT_MS)}, true)`;
      return tx<{ n: number }[]>`SELECT market_positions_apply(${batch}) AS n`;
    });
    // An answer without its row (seen from the pool while other statements were being cancelled at a
    // timeout) is taken as nothing applied: the next pass applies it.
    const n = row?.n ?? 0;
    applied += n;
    if (n < batch) return applied;
  }
}

export function startFeedApplier(sql: Sql, options: { intervalMs?: number; log?: (message: string) => void } = {}): () => Promise<void> {
  return startPeriodic(async () => void (await applyMarketPositions(sql)), {
    intervalMs: options.intervalMs ?? config().MARKETS_FEED_APPLY_MS,
    jitter: 0.2,
    what: "the feed's apply",
    log: options.log ?? ((m: string) => console.log(`[markets-feed] ${m}`)),
  });
}
