// VACUUM (ANALYZE) after a bulk write: statistics for the planner, and the visibility map without
// which an index-only scan reads the heap of every row anyway (a freshly loaded table has none
// until autovacuum happens to run). VACUUM cannot run inside a transaction block, so the pool's
// limits (a 3 s statement_timeout, a 1 s lock_timeout: lib/db/bounds.ts) cannot be lifted with SET
// LOCAL as the seed and the import do for their writes; it runs on a connection of its own, with the
// limits lifted for the session and put back before the connection returns to the pool
// (a vacuum of 100,000 seeded markets takes longer than the pool's 3 s statement limit).
import "server-only";
import type { Sql } from "./client";

export async function vacuumAnalyze(sql: Sql, tables: readonly string[]): Promise<void> {
  if (!tables.length) return;
  const conn = await sql.reserve();
  try {
    const [saved] = await conn<{ statement_timeout: string; lock_timeout: string }[]>`
      SELECT current_setting('statement_timeout') AS statement_timeout, current_setting('lock_timeout') AS lock_timeout`;
    await conn`SELECT set_config('statement_timeout', '0', false), set_config('lock_timeout', '0', false)`;
    try {
      await conn.unsafe(`VACUUM (ANALYZE) ${tables.map((t) => `"${t.replace(/"/g, '""')}"`).join(", ")}`);
    } finally {
      await conn`SELECT set_config('statement_timeout', ${saved.statement_timeout}, false), set_config('lock_timeout', ${saved.lock_timeout}, false)`;
    }
  } finally {
    conn.release();
  }
}
