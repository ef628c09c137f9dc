// The one connection pool of the process. Kept on globalThis so that server.ts, scripts and the
// route handlers Next bundles separately all share it (and dev reloads do not leak pools).
import postgres from "postgres";
import { replicaUrls } from "./consistency";
import { createReadRouter, type ReadRouter } from "./replicas";

export type Sql = postgres.Sql;

const g = globalThis as unknown as { __marketsSql?: Sql; __marketsReads?: ReadRouter };

export function connect(url: string, options: postgres.Options<{}> = {}): Sql {
  return postgres(url, {
    max: Number(process.env.DB_POOL_SIZE ?? 10),
    idle_timeout: 30,
    connect_timeout: 10,
    onnotice: () => {},
    ...options,
  });
}

export function db(): Sql {
  if (!g.__marketsSql) {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL is not set: start through server.ts or a script that resolves the database");
    g.__marketsSql = connect(url);
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
  g.__marketsReads ??= createReadRouter({ primary: db(), urls, open: (url, onclose) => connect(url, { onclose }) });
  return g.__marketsReads.pick();
}

/** The replicas as this process sees them (for logs and tests); empty without DATABASE_REPLICA_URLS. */
export function replicaStates() {
  return g.__marketsReads?.state() ?? [];
}
