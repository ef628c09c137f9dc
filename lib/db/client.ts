// The one connection pool of the process. Kept on globalThis so that server.ts, scripts and the
// route handlers Next bundles separately all share it (and dev reloads do not leak pools).
import postgres from "postgres";
import { replicaUrls } from "./consistency";
import { createReadRouter, type ReadRouter } from "./replicas";
import { connectTimeoutS, queryBounds } from "./bounds";

export type Sql = postgres.Sql;

const g = globalThis as unknown as { __marketsSql?: Sql; __marketsReads?: ReadRouter };

export function connect(url: string, options: postgres.Options<{}> = {}): Sql {
  return postgres(url, {
    max: Number(process.env.DB_POOL_SIZE ?? 10),
    idle_timeout: 30,
    connect_timeout: connectTimeoutS(),
    // A short, flat reconnect delay: postgres.js's own backoff grows to 20 s during an outage and held
    // recovery back by as much; the breaker (breaker.ts) already paces attempts while the database is away.
    backoff: () => 0.2,
    onnotice: () => {},
    ...options,
  });
}

export function db(): Sql {
  if (!g.__marketsSql) {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL is not set: start through server.ts or a script that resolves the database");
    // Requests must not hang on a locked table or a runaway query (issue 11; long jobs lift this).
    g.__marketsSql = connect(url, { connection: queryBounds() });
  }
  return g.__marketsSql;
}

export async function closeDb() {
  const reads = g.__marketsReads;
  g.__marketsReads = undefined;
  await reads?.close();
  const sql = g.__marketsSql;
  g.__marketsSql = undefined;
  await sql?.end({ timeout: 5 });
}

// ------------------------------------------------------------------ reads (read replicas)

/**
 * The pool for the reads of /v1 and the pages: with DATABASE_REPLICA_URLS, a replica that is up and
 * has replayed every commit this instance has announced (lib/db/replicas.ts), else the primary.
 * Writes, migrations, LISTEN and anything that must see its own writes use db().
 */
export async function readDb(): Promise<Sql> {
  const urls = replicaUrls();
  if (!urls.length) return db();
  g.__marketsReads ??= createReadRouter({ primary: db(), urls, open: (url, onclose) => connect(url, { onclose, connection: queryBounds() }) });
  return g.__marketsReads.pick();
}

/** The replicas as this process sees them (for logs and tests); empty without DATABASE_REPLICA_URLS. */
export function replicaStates() {
  return g.__marketsReads?.state() ?? [];
}
