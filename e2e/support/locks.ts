// A read held in flight on purpose: a table locked in a transaction of the tests' own, and the sessions
// (the app's) waiting for it, found so that a test can end one under its read.
import type postgres from "postgres";
import { sleep } from "@/lib/dev/tools";

/** Locks `table` (ACCESS EXCLUSIVE) in a transaction of `sql` until `release()`, which resolves once it has ended. */
export async function holdLock(sql: postgres.Sql, table: string): Promise<{ release: () => Promise<void> }> {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let locked!: () => void;
  const isLocked = new Promise<void>((r) => (locked = r));
  const holder = sql.begin(async (tx) => {
    await tx`LOCK TABLE ${tx(table)} IN ACCESS EXCLUSIVE MODE`;
    locked();
    await released;
  });
  await Promise.race([isLocked, holder]);
  return {
    release: async () => {
      release();
      await holder;
    },
  };
}

/** The pids of the sessions of `sql`'s own database waiting for a lock, polled every 10 ms for up to `ms`. */
export async function lockWaiters(sql: postgres.Sql, ms = 1000): Promise<number[]> {
  const end = Date.now() + ms;
  for (;;) {
    const rows = await sql<{ pid: number }[]>`
      SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`;
    if (rows.length || Date.now() > end) return rows.map((r) => r.pid);
    await sleep(10);
  }
}
