// VACUUM (ANALYZE) after a bulk write: statistics for the planner, and the visibility map without
// which an index-only scan reads the heap of every row anyway (a freshly loaded table has none
// until autovacuum happens to run). VACUUM cannot run inside a transaction block.
import type { Sql } from "./client";

export async function vacuumAnalyze(sql: Sql, tables: readonly string[]): Promise<void> {
  if (!tables.length) return;
  // Not under the request pool's statement timeout (lib/db/bounds.ts): after a large seed or import it
  // runs for minutes. VACUUM takes no transaction, so the connection's own setting is lifted and reset.
  const conn = await sql.reserve();
  try {
    await conn`SET statement_timeout = 0`;
    await conn.unsafe(`VACUUM (ANALYZE) ${tables.map((t) => `"${t.replace(/"/g, '""')}"`).join(", ")}`);
  } finally {
    await conn`RESET statement_timeout`.catch(() => {});
    conn.release();
  }
}
