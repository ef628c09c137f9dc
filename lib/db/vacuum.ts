// VACUUM (ANALYZE) after a bulk write: statistics for the planner, and the visibility map without
// which an index-only scan reads the heap of every row anyway (a freshly loaded table has none
// until autovacuum happens to run). VACUUM cannot run inside a transaction block.
import "server-only";
import type { Sql } from "./client";

export async function vacuumAnalyze(sql: Sql, tables: readonly string[]): Promise<void> {
  if (!tables.length) return;
  await sql.unsafe(`VACUUM (ANALYZE) ${tables.map((t) => `"${t.replace(/"/g, '""')}"`).join(", ")}`);
}
