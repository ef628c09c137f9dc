// Time limits of the request pool (issue 11): how long a connect, a statement, a lock wait and a whole
// request may take before the answer is a 503 instead of a hang. Long jobs (migrations, seed, import)
// lift them inside their own transaction.
import type postgres from "postgres";

function envMs(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a number of milliseconds >= 0, got "${raw}"`);
  return n;
}

/** Per-connection settings of the request pool: a statement may run 3 s and wait 1 s for a lock (0 = no limit). */
export function queryBounds(): { statement_timeout: number; lock_timeout: number } {
  return { statement_timeout: envMs("DB_STATEMENT_TIMEOUT_MS", 3000), lock_timeout: envMs("DB_LOCK_TIMEOUT_MS", 1000) };
}

/** Seconds a connection attempt may take (postgres.js counts in seconds); a black-holed host fails in 2 s, not 10. */
export function connectTimeoutS(): number {
  return envMs("DB_CONNECT_TIMEOUT_MS", 2000) / 1000;
}

/** How long a request may wait for the database in all (pool slot included): a little over one statement. */
export function requestDeadlineMs(): number {
  const { statement_timeout } = queryBounds();
  return envMs("DB_REQUEST_TIMEOUT_MS", statement_timeout > 0 ? statement_timeout + 500 : 5000);
}

/** Lifts the request pool's limits for the rest of a transaction: migrations, seeding and imports run long. */
export async function liftBounds(tx: postgres.TransactionSql<{}> | postgres.Sql<{}>): Promise<void> {
  await tx`SELECT set_config('statement_timeout', '0', true), set_config('lock_timeout', '0', true)`;
}
