// Reads the numbered changes (migration 0021, docs/api.md "Positions"): what a resuming stream replays.
// Every change up to `head` is committed and visible, in position order; every change up to `horizon`
// was dropped by retention (./change-log-sweeper.ts), so a resume from before it must reset.
import "server-only";
import type { Sql } from "@/lib/db/client";
import { type MarketEvent, marketEventOf } from "./market-events";

export interface ChangeLogBounds {
  /** Every position up to it was dropped: a resume from an older position must reset. */
  horizon: number;
  /** The newest committed position: a resume from a newer one asks for what does not exist. */
  head: number;
}

export interface Change {
  position: number;
  /** When it was numbered (at its commit), unix ms. */
  at: number;
  /** The announcement, with its position (and version, trade ids where it has them). */
  event: MarketEvent;
}

/**
 * The log's bounds, in one snapshot. The head is the newest position that snapshot sees, not the
 * sequence's last value: a writer takes its numbers inside its commit, so until that commit is visible
 * the sequence is ahead of what anyone can read, and a client told to carry on from it would skip the
 * change that commits a moment later. Positions of markets numbered without a change (a statement that
 * added more than 5,000, migration 0032) count too.
 */
export async function changeLogBounds(sql: Sql): Promise<ChangeLogBounds> {
  const [row] = await sql<{ horizon: number; head: number }[]>`
    SELECT s.horizon::float8 AS horizon,
           greatest(s.horizon, (SELECT max(position) FROM change_log), (SELECT max(position) FROM market_positions))::float8 AS head
      FROM change_log_state s`;
  return row;
}

/**
 * The changes after position `after`, at most `limit`, in position order; null when `after` is older than
 * the horizon (changes after it were dropped: the reader must reset). The horizon is read in the same
 * statement as the rows, so a trim between two calls cannot hide a gap.
 */
export async function readChanges(sql: Sql, after: number, limit: number): Promise<Change[] | null> {
  const rows = await sql<{ horizon: number; position: number | null; us: number | null; event: unknown }[]>`
    SELECT s.horizon::float8 AS horizon, c.position::float8 AS position, (extract(epoch FROM c.at) * 1000000)::int8::float8 AS us, c.event
      FROM change_log_state s
      LEFT JOIN LATERAL (
        SELECT position, at, event FROM change_log WHERE position > ${after} ORDER BY position LIMIT ${limit}
      ) c ON s.horizon <= ${after}
     ORDER BY c.position`;
  if (!rows.length || rows[0].horizon > after) return null;
  const changes: Change[] = [];
  for (const row of rows) {
    if (row.position === null || row.us === null) continue;
    // An event this build cannot read is still a change at that position: a flush says anything may have changed.
    const event = marketEventOf(row.event) ?? { kind: "flush", slug: null, marketId: null, outcomeId: null };
    event.position = row.position;
    event.atUs = row.us;
    changes.push({ position: row.position, at: Math.floor(row.us / 1000), event });
  }
  return changes;
}
