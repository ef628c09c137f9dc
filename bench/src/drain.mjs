// Between slots: the statements a slot left running in PostgreSQL end before the next slot starts. A target
// whose requests the load generator has given up on (the slot ended) may still run their statements: bare's
// deep and search queries take seconds each on a large catalogue, its pool queues more behind them (they
// start only after the slot ended), and they would otherwise run during the next target's slot and be
// counted against it. The reference servers' sessions are named `bench-<name>` (src/servers.mjs).
import postgres from "postgres";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * A watcher of `databaseUrl`'s sessions. `mark()` at the end of a slot; `drained()` resolves once no client
 * session of the database runs a statement that started before the mark and no reference server's session
 * runs any (a writer beside the run, such as the ingest, starts new ones and is not waited for), or after
 * `maxMs`, with how long it waited and how many were left then.
 */
export function drainer(databaseUrl, { maxMs = 60_000, everyMs = 100 } = {}) {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {}, connection: { application_name: "bench-drain" } });
  let mark = null;
  const left = async () => {
    const [{ n }] = await sql`
      SELECT count(*)::int AS n FROM pg_stat_activity
       WHERE datname = current_database() AND backend_type = 'client backend' AND state = 'active'
         AND pid <> pg_backend_pid() AND (query_start < ${mark} OR application_name LIKE 'bench-%')`;
    return n;
  };
  return {
    async mark() {
      [{ mark }] = await sql`SELECT clock_timestamp() AS mark`;
    },
    async drained() {
      const started = Date.now();
      let n = await left();
      while (n > 0 && Date.now() - started < maxMs) {
        await sleep(everyMs);
        n = await left();
      }
      return { waitedMs: Date.now() - started, left: n };
    },
    end: () => sql.end({ timeout: 1 }),
  };
}
