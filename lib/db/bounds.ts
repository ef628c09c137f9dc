// Time limits of the request pool: how long a connect, a statement, a lock wait and a whole
// request may take before the answer is a 503 instead of a hang. Long jobs (migrations, seed, import)
// lift them inside their own transaction.
import "server-only";
import type postgres from "postgres";
import { config } from "@/lib/config";

/** Per-connection settings of the request pool: a statement may run 3 s and wait 1 s for a lock (0 = no limit). */
export function queryBounds(): { statement_timeout: number; lock_timeout: number } {
  return { statement_timeout: config().DB_STATEMENT_TIMEOUT_MS, lock_timeout: config().DB_LOCK_TIMEOUT_MS };
}

/** Seconds a connection attempt may take (postgres.js counts in seconds); a black-holed host fails in 2 s, not 10. */
export function connectTimeoutS(): number {
  return config().DB_CONNECT_TIMEOUT_MS / 1000;
}

/** How long a request may wait for the database in all (pool slot included): a little over one statement. */
export function requestDeadlineMs(): number {
  const { DB_REQUEST_TIMEOUT_MS, DB_STATEMENT_TIMEOUT_MS } = config();
  return DB_REQUEST_TIMEOUT_MS ?? (DB_STATEMENT_TIMEOUT_MS > 0 ? DB_STATEMENT_TIMEOUT_MS + 500 : 5000);
}

/** Lifts the request pool's limits for the rest of a transaction: migrations, seeding and imports run long. */
export async function liftBounds(tx: postgres.TransactionSql<{}> | postgres.Sql<{}>): Promise<void> {
  await tx`SELECT set_config('statement_timeout', '0', true), set_config('lock_timeout', '0', true)`;
}
