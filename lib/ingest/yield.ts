// The ingest yields the CPU to the reads it shares a machine with (docs/ingest.md "Priority"): its own
// process, and its PostgreSQL sessions when the database runs on this machine, at nice 19 with their
// autogroups (lib/os/priority.ts; its own process's autogroup only when it leads its session, or the
// session of whoever started it would be lowered for good). Nothing else changes: alone, it writes as fast
// as before; beside reads that want every core, each read goes first, and the ingest writes in the time
// they leave. On 2 cores, during a 1,000 lines/s ingest, a cold market page kept 37-42 % of its idle rate,
// and 55-61 % with the ingest lowered, which kept up (docs/performance.md "Reads while the ingest flows").
import type postgres from "postgres";
import { lowerBackends, lowerProcess } from "../os/priority";

/** The application_name of the ingest's database sessions: how it finds their backends. */
export const INGEST_APPLICATION = "markets-ingest";

/**
 * Lowers this process now and the backends of the ingest's sessions now and every `everyMs` (a session
 * opened later, after a lost connection, is found by the next pass). Tells `log` once what it could lower.
 * Returns the stop.
 */
export function yieldToReads(sql: postgres.Sql, { everyMs = 5_000, log = (_m: string) => {} } = {}): () => void {
  const own = lowerProcess(process.pid);
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
            ? `priority: this process${own ? "" : " (not lowered)"} and ${lowered.size} database session(s) at nice 19: reads on this machine go first`
            : `priority: this process${own ? " at nice 19" : " not lowered"}; its database sessions keep theirs (another machine's, or not ours to renice)`,
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
