// Chooses the pool a read goes to: a streaming replica that is up and has replayed at least the
// position this instance has announced (lib/db/consistency.ts), else the primary. Replicas are
// probed once a second (and at once when one of their connections closes), never per request; a
// read that needs a replica to catch up polls it every few ms for a bounded time.
// lib/db's modules depend one way: client.ts → replicas.ts → consistency.ts.
import "server-only";
import type postgres from "postgres";
import { config } from "@/lib/config";
import { consistencyEnabled, parseLsn, requiredPosition } from "./consistency";

type Sql = postgres.Sql;

export interface ReadRouterOptions {
  primary: Sql;
  urls: string[];
  /** Opens a pool; `onclose` must be passed on to postgres.js. */
  open: (url: string, onclose: () => void) => Sql;
  /** How long a read waits for a replica to replay a noted position before it reads the primary. */
  waitMs?: number;
  /** Health and position probe interval. */
  checkMs?: number;
  log?: (m: string) => void;
}

export interface ReplicaState {
  name: string;
  up: boolean;
  replayed: bigint;
  lagging: boolean;
}

export interface ReadRouter {
  /**
   * A replica that has replayed what this instance announced, else the primary. `withoutPrimary`: the
   * primary cannot be reached, so a replica that is up serves however far it got (nothing newer can
   * commit while the writer is away), and undefined when none is.
   */
  pick: (options?: { withoutPrimary?: boolean }) => Promise<Sql | undefined>;
  /** A replica answered its last probe. */
  anyUp: () => boolean;
  state: () => ReplicaState[];
  close: () => Promise<void>;
}

interface Replica extends ReplicaState {
  sql: Sql;
  /** The position it failed to reach in time; it is waited for again once it has replayed that far. */
  laggingFor: bigint;
  probing?: Promise<void>;
  probedAt: number;
}

const POLL_MS = 5;
const NOT_IN_RECOVERY = (1n << 64n) - 1n; // a URL that names a primary serves any position

export function createReadRouter(options: ReadRouterOptions): ReadRouter {
  const { primary, urls, open } = options;
  const waitMs = options.waitMs ?? config().DATABASE_REPLICA_WAIT_MS;
  const checkMs = options.checkMs ?? config().DATABASE_REPLICA_CHECK_MS;
  const log = options.log ?? ((m: string) => console.log(`[db] ${m}`));
  const consistent = consistencyEnabled();

  const replicas: Replica[] = urls.map((url, i) => {
    const r: Replica = {
      // The host part as written: `new URL` refuses a multi-host URL (h1:5432,h2:5432).
      name: `replica ${i + 1} (${url.replace(/^[^:]*:\/\/(?:[^@/]*@)?/, "").split(/[/?]/)[0]})`,
      up: false,
      replayed: 0n,
      lagging: false,
      laggingFor: 0n,
      probedAt: 0,
      sql: undefined as unknown as Sql,
    };
    // A closed connection is how a stopped replica shows first: probe now rather than at the next tick.
    r.sql = open(url, () => void (Date.now() - r.probedAt > 100 && probe(r)));
    return r;
  });

  const probe = (r: Replica): Promise<void> => {
    if (r.probing) return r.probing;
    r.probedAt = Date.now();
    r.probing = (async () => {
      let timer: NodeJS.Timeout | undefined;
      try {
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer in ${checkMs} ms`)), checkMs);
        });
        const [row] = await Promise.race([r.sql<{ lsn: string | null }[]>`SELECT pg_last_wal_replay_lsn()::text AS lsn`, timeout]);
        r.replayed = row.lsn === null ? NOT_IN_RECOVERY : parseLsn(row.lsn);
        if (!r.up) log(`${r.name} is up`);
        r.up = true;
        if (r.lagging && r.replayed >= r.laggingFor) {
          r.lagging = false;
          log(`${r.name} has caught up: reading it again`);
        }
      } catch (err) {
        if (r.up) log(`${r.name} is down, reading elsewhere: ${(err as Error).message}`);
        r.up = false;
      } finally {
        clearTimeout(timer);
        r.probing = undefined;
      }
    })();
    return r.probing;
  };
  // Several reads waiting on one replica share its probes, at most one per POLL_MS.
  const poll = (r: Replica) => r.probing ?? (Date.now() - r.probedAt < POLL_MS ? Promise.resolve() : probe(r));

  const ticker = setInterval(() => replicas.forEach((r) => void probe(r)), checkMs);
  ticker.unref();
  const first = Promise.all(replicas.map(probe));

  let turn = 0;
  const caughtUp = (need: bigint) => {
    const ready = replicas.filter((r) => r.up && r.replayed >= need);
    return ready.length ? ready[turn++ % ready.length] : undefined;
  };

  return {
    async pick({ withoutPrimary = false } = {}) {
      await first;
      const need = consistent ? requiredPosition() : 0n;
      const ready = caughtUp(need);
      if (ready) return ready.sql;
      // Without the primary the fallback is any replica that is up: the furthest it got is the freshest there is.
      const fallback = () => (withoutPrimary ? caughtUp(0n)?.sql : primary);
      // Replicas that already failed to catch up in time are not waited for again until a probe sees them there.
      const waitable = replicas.filter((r) => r.up && !r.lagging);
      for (const r of replicas) if (r.up && r.lagging) void poll(r);
      if (!waitable.length) return fallback();
      const deadline = Date.now() + waitMs;
      while (Date.now() < deadline) {
        await Promise.all(waitable.map(poll));
        const r = caughtUp(need);
        if (r) return r.sql;
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      for (const r of waitable) {
        if (!r.up || r.replayed >= need) continue;
        // Logged once a lag (reads that waited beside this one found it lagging already): the replica's
        // later reads skip it until a probe sees it at the furthest position they waited for.
        if (r.lagging) {
          if (need > r.laggingFor) r.laggingFor = need;
          continue;
        }
        log(
          `${r.name} is ${need - r.replayed} bytes of WAL behind after ${waitMs} ms: reading ${withoutPrimary ? "replicas as far as they got (the primary is away)" : "the primary"} until it catches up`,
        );
        Object.assign(r, { lagging: true, laggingFor: need });
      }
      return fallback();
    },
    anyUp: () => replicas.some((r) => r.up),
    state: () => replicas.map(({ name, up, replayed, lagging }) => ({ name, up, replayed, lagging })),
    async close() {
      clearInterval(ticker);
      await Promise.all(replicas.map((r) => r.sql.end({ timeout: 1 }).catch(() => {})));
    },
  };
}
