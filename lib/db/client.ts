// The one connection pool of the process, shared (lib/process-state.ts) so that server.ts, scripts and
// the route handlers Next bundles separately all use it (and dev reloads do not leak pools).
import "server-only";
import postgres from "postgres";
import { config } from "@/lib/config";
import { dropShared, peekShared, shared } from "@/lib/process-state";
import { inScope, runInScope } from "@/lib/request-scope";
import { createReadRouter, type ReadRouter } from "./replicas";
import { connectTimeoutS, queryBounds } from "./bounds";
import { DatabaseUnavailableError } from "./errors";

export type Sql = postgres.Sql;

export function connect(url: string, { connection, ...options }: postgres.Options<{}> = {}): Sql {
  return postgres(url, {
    max: config().DB_POOL_SIZE,
    idle_timeout: 30,
    connect_timeout: connectTimeoutS(),
    // A short, flat reconnect delay: postgres.js's own backoff grows to 20 s during an outage and held
    // recovery back by as much; the breaker (breaker.ts) already paces attempts while the database is away.
    backoff: () => 0.2,
    onnotice: () => {},
    ...options,
    // No JIT in these sessions even where the migrations could not turn it off for the database (a role
    // that does not own it): docs/deploy.md "PostgreSQL settings".
    connection: { jit: "off", ...connection },
  });
}

export function db(): Sql {
  return shared("sql", () => {
    const url = config().DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL is not set: start through server.ts or a script that resolves the database");
    // Requests must not hang on a locked table or a runaway query (lib/db/bounds.ts; long jobs lift this).
    return connect(url, { connection: queryBounds() });
  });
}

export async function closeDb() {
  await dropShared<ReadRouter>("reads")?.close();
  await dropShared<Sql>("sql")?.end({ timeout: 5 });
}

// ------------------------------------------------------------------ reads (read replicas)

/**
 * The pool for the reads of /v1 and the pages: with DATABASE_REPLICA_URLS, a replica that is up and
 * has replayed every commit this instance has announced (lib/db/replicas.ts), else the primary; while
 * the primary cannot be reached (lib/db/breaker.ts, withDatabase), a replica that is up, however far it got.
 * Writes, migrations, LISTEN and anything that must see its own writes use db().
 */
export async function readDb(): Promise<Sql> {
  const urls = config().DATABASE_REPLICA_URLS;
  if (!urls.length) return db();
  const attempt = inScope("readAttempt");
  if (attempt?.primaryOnly) return db();
  const sql = await readRouter().pick({ withoutPrimary: attempt?.withoutPrimary });
  if (!sql) throw new DatabaseUnavailableError("neither the primary nor a replica can be reached");
  if (attempt && sql !== db()) attempt.replica = true;
  return sql;
}

function readRouter(): ReadRouter {
  return shared("reads", () =>
    createReadRouter({ primary: db(), urls: config().DATABASE_REPLICA_URLS, open: (url, onclose) => connect(url, { onclose, connection: queryBounds() }) }),
  );
}

/** Where the reads of one attempt at a database load went (lib/db/breaker.ts retries a load once). */
export interface ReadAttempt {
  /** A read of it went to a replica. */
  replica: boolean;
  /** Every read goes to the primary: the retry of a load a replica failed. */
  primaryOnly: boolean;
  /** The primary cannot be reached: every read goes to a replica that is up. */
  withoutPrimary?: boolean;
}

/** Runs `work` with its reads recorded in `attempt` (readDb); without replicas there is nothing to record. */
export function recordReads<T>(attempt: ReadAttempt, work: () => Promise<T>): Promise<T> {
  return config().DATABASE_REPLICA_URLS.length ? runInScope("readAttempt", attempt, work) : work();
}

/** A replica answered its last probe (so reads can go on without the primary); false without DATABASE_REPLICA_URLS. */
export function replicaUp(): boolean {
  return config().DATABASE_REPLICA_URLS.length > 0 && readRouter().anyUp();
}

/** The replicas as this process sees them (for logs and tests); empty without DATABASE_REPLICA_URLS. */
export function replicaStates() {
  return peekShared<ReadRouter>("reads")?.state() ?? [];
}
