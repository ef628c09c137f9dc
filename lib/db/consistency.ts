// Read-after-notify consistency with read replicas: the primary's WAL position after every commit
// this instance has announced, so that a read that follows a push signal is served by a replica that
// has replayed at least that far (lib/db/replicas.ts), or by the primary.
// One position per process (lib/process-state.ts): server.ts (which hears the NOTIFYs) and the route
// handlers Next bundles separately must share it. Depends on nothing else of lib/db.
import "server-only";
import type postgres from "postgres";
import { config } from "@/lib/config";
import { shared } from "@/lib/process-state";

const position = () => shared("commitPosition", () => ({ lsn: 0n }));

/** A pg_lsn ("16/B374D848") as a number that compares like the WAL does. */
export function parseLsn(lsn: string): bigint {
  const m = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(lsn);
  if (!m) throw new Error(`not a WAL position: ${lsn}`);
  return (BigInt(`0x${m[1]}`) << 32n) | BigInt(`0x${m[2]}`);
}

/** Records that every read from now on must see the primary's WAL up to `lsn` (never moves back). */
export function noteCommitPosition(lsn: string | bigint) {
  const at = typeof lsn === "bigint" ? lsn : parseLsn(lsn);
  const noted = position();
  if (at > noted.lsn) noted.lsn = at;
}

/** The WAL position a replica must have replayed to serve a read here (0 when nothing was noted). */
export function requiredPosition(): bigint {
  return position().lsn;
}

/** DATABASE_REPLICA_CONSISTENCY=off turns the mechanism off (to show what it prevents); on by default. */
export function consistencyEnabled(): boolean {
  return config().DATABASE_REPLICA_CONSISTENCY;
}

/**
 * Wraps whatever a NOTIFY sets off (signals to sockets, cache invalidation) so that it runs only once
 * the primary's WAL position after that commit is noted. A NOTIFY is delivered after its commit, so a
 * position read on the primary after receiving it is at or past the commit record (one taken inside
 * the transaction would be before it). The write position, not the insert one: a commit (synchronous_commit
 * on, the default) is written before its NOTIFY goes out, and on an idle server the insert position can
 * sit past a page header that replay never reaches. One query per burst: everything that arrived before a query
 * was sent is covered by it; whatever arrives while it runs waits for the next one.
 * Without replicas (or with the mechanism off) `fn` runs at once, as before.
 */
export function commitGate(primary: postgres.Sql, log: (m: string) => void = () => {}): (fn: () => void) => void {
  if (!config().DATABASE_REPLICA_URLS.length || !consistencyEnabled()) return (fn) => fn();
  let waiting: Array<() => void> = [];
  let running = false;
  const run = async () => {
    running = true;
    while (waiting.length) {
      const batch = waiting;
      waiting = [];
      try {
        const [{ lsn }] = await primary<{ lsn: string }[]>`SELECT pg_current_wal_lsn()::text AS lsn`;
        noteCommitPosition(lsn);
      } catch (err) {
        // The signal still goes out: a client that refetches may see older data, but it never misses a change.
        log(`could not read the primary's WAL position: ${(err as Error).message}`);
      }
      for (const fn of batch) fn();
    }
    running = false;
  };
  return (fn) => {
    waiting.push(fn);
    if (!running) void run();
  };
}
