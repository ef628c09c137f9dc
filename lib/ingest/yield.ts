// The ingest yields the CPU to the reads it shares a machine with (docs/ingest.md "Priority"): its own
// process, in a session of its own (lib/os/session.ts), and its PostgreSQL sessions when the database runs on
// this machine, at nice 19 with their autogroups (lib/os/priority.ts). Nothing else changes: alone, it writes
// as fast as before; beside reads that want every core, each read goes first, and the ingest writes in the
// time they leave. On 2 cores, during a 1,000 lines/s ingest, a cold market page kept 33-42 % of its idle
// rate at normal priority, 55-61 % with only the ingest's backends lowered, and 68-77 % with its process's
// session too (docs/performance.md "Reads while the ingest flows").
import type postgres from "postgres";
import { connect } from "../db/client";
import { lowerBackends, lowerProcess, sessionOf } from "../os/priority";
import { leadOwnSession } from "../os/session";

/** The application_name of the ingest's database sessions: how it finds their backends. */
export const INGEST_APPLICATION = "markets-ingest";

/**
 * Lowers this process now and the backends of the ingest's sessions now and every `everyMs` (a session
 * opened later, after a lost connection, is found by the next pass). Tells `log` once what it could lower.
 * Returns the stop.
 */
export function yieldToReads(sql: postgres.Sql, { everyMs = 5_000, log = (_m: string) => {} } = {}): () => void {
  const own = lowerProcess(process.pid);
  const process_ = `this process${sessionOf(process.pid) === process.pid ? " (in a session of its own)" : ""}`;
  const lowered = new Set<number>();
  let told = false;
  const pass = async () => {
    try {
      const rows = await sql<{ pid: number }[]>`
        SELECT pid FROM pg_stat_activity WHERE application_name = ${INGEST_APPLICATION} AND datname = current_database()`;
      const fresh = rows.map((r) => r.pid).filter((pid) => !lowered.has(pid));
      for (const pid of await lowerBackends(sql, fresh)) lowered.add(pid);
      if (!told && rows.length) {
        told = true;
        log(
          lowered.size
            ? `priority: ${process_}${own ? "" : " (not lowered)"} and ${lowered.size} database session(s) at nice 19: reads on this machine go first`
            : `priority: ${process_}${own ? " at nice 19" : " not lowered"}; its database sessions keep theirs (another machine's, or not ours to renice)`,
        );
      }
    } catch (err) {
      if (!told) {
        told = true;
        log(`priority: could not lower the database sessions (${(err as Error).message})`);
      }
    }
  };
  void pass();
  const timer = setInterval(() => void pass(), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** `--priority` of npm run ingest and bench:ingest: low (the default) yields to reads, normal does not. */
export type IngestPriority = "low" | "normal";

/** The priority `value` names; for any other value the script ends with the usage message (exit code 2). */
export function priorityArg(value: string | undefined): IngestPriority {
  if (value === undefined || value === "low") return "low";
  if (value === "normal") return "normal";
  console.error(`--priority ${value}: expected low (the default: reads on this machine go first) or normal`);
  process.exit(2);
}

/**
 * At low priority, this script again at the head of a session of its own (lib/os/session.ts: the calling
 * process only waits for it, and exits with its code). Call it before anything else has side effects.
 */
export async function enterPriority(priority: IngestPriority): Promise<void> {
  if (priority === "low") await leadOwnSession();
}

/**
 * The ingest's pool: `max` connections to `url` named INGEST_APPLICATION, lowered at low priority
 * (yieldToReads, telling `log`). `stopYielding` ends the lowering passes; the pool is the caller's to end.
 */
export function ingestPool(url: string, { max, priority, log }: { max: number; priority: IngestPriority; log: (m: string) => void }) {
  const sql = connect(url, { max, connection: { application_name: INGEST_APPLICATION } });
  const stopYielding = priority === "normal" ? () => {} : yieldToReads(sql, { log });
  return { sql, stopYielding };
}
