// The reads of the in-memory list orders (lib/markets/list-index.ts): the markets of the kept statuses with
// the columns the orders use, and how many markets each status has.
import "server-only";
import type postgres from "postgres";
import { withDatabase } from "@/lib/db/breaker";
import { readDb } from "@/lib/db/client";

/** A market's row as the orders read it (also what a test's loader hands over). */
export interface IndexRow {
  id: string;
  slug: string;
  status: string;
  category: string;
  volume: string;
  liquidity: string;
  created: number;
  ends: number;
  question: string;
  description: string;
}

/**
 * A build reads every market of the kept statuses, in the background and never for a request, so it runs under a time limit of
 * its own rather than a request's: at 360,000 markets a read of the whole table from a cold cache takes
 * longer than a request may wait (docs/scale.md), and a build cut short by the request's limit never finished.
 */
const BUILD_READ_TIMEOUT_MS = 120_000;

/**
 * Every market of `statuses` (ids null, a build) or those of `ids` among them (a refresh: through the
 * breaker, fast failures while the database is away), with the columns the orders use.
 */
export const loadRows = (ids: string[] | null, statuses: readonly string[]) =>
  ids ? withDatabase(async () => selectRows(await readDb(), ids, statuses)) : forBuild((sql) => selectRows(sql, null, statuses));

/** Markets per status, which a build weighs against the budget before it reads any. */
export const countRows = () =>
  forBuild(async (sql) => {
    const rows = await sql<{ status: string; n: number }[]>`SELECT status::text AS status, count(*)::int AS n FROM markets GROUP BY status`;
    return new Map(rows.map((r) => [r.status, r.n]));
  });

/**
 * `read` in a transaction under the build's time limit. Its answer is handed out beside the transaction, not
 * as its result, and nothing that postgres.js may keep refers to it afterwards: `begin` leaves a handler on
 * the connection that holds the result of the last transaction it ran, and the stack of a query's first
 * call (kept per call site) holds the callback of the transaction and so what that callback can reach. A
 * build's rows (65 MB of heap at 86,000 markets) had stayed held that way after the orders were made from them.
 */
async function forBuild<T>(read: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = await readDb();
  const out: { value?: T } = {};
  await sql.begin(async (tx) => {
    await tx`SELECT set_config('statement_timeout', ${String(BUILD_READ_TIMEOUT_MS)}, true)`;
    out.value = await read(tx as unknown as postgres.Sql);
  });
  const value = out.value as T;
  delete out.value;
  return value;
}

async function selectRows(sql: postgres.Sql, ids: string[] | null, statuses: readonly string[]): Promise<IndexRow[]> {
  const micros = (column: string) => sql.unsafe(`(extract(epoch FROM ${column}) * 1000000)::float8`);
  return sql<IndexRow[]>`
    SELECT id, slug, status, category, total_volume::text AS volume, total_liquidity::text AS liquidity,
           ${micros("created_at")} AS created, ${micros("trading_ends_at")} AS ends, question, description
      FROM markets
     WHERE status = ANY(${statuses as string[]}::market_status[]) ${ids ? sql`AND id = ANY(${ids}::uuid[])` : sql``}`;
}
