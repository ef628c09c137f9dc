// Applies lib/db/migrations/NNNN_name.sql in order, each in its own transaction, recorded in schema_migrations.
import "server-only";
import fs from "node:fs";
import path from "node:path";
import { liftBounds } from "./bounds";
import type { Sql } from "./client";

export const MIGRATIONS_DIR = path.join(process.cwd(), "lib", "db", "migrations");

export function migrationFiles(): string[] {
  return fs
    .readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^\d{4}_.+\.sql$/.test(f))
    .sort();
}

export async function pendingMigrations(sql: Sql): Promise<string[]> {
  const [{ exists }] = await sql<{ exists: boolean }[]>`SELECT to_regclass('schema_migrations') IS NOT NULL AS exists`;
  const applied = exists ? new Set((await sql<{ name: string }[]>`SELECT name FROM schema_migrations`).map((r) => r.name)) : new Set<string>();
  return migrationFiles().filter((f) => !applied.has(f));
}

export async function migrate(sql: Sql, log: (m: string) => void = () => {}): Promise<string[]> {
  return sql.begin(async (tx) => {
    await liftBounds(tx); // a migration may wait for the lock below and rewrite large tables
    // One migrator at a time, even with several app instances starting together.
    await tx`SELECT pg_advisory_xact_lock(727274)`;
    await tx`CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`;
    const applied = new Set((await tx<{ name: string }[]>`SELECT name FROM schema_migrations`).map((r) => r.name));
    const done: string[] = [];
    for (const file of migrationFiles()) {
      if (applied.has(file)) continue;
      await tx.unsafe(fs.readFileSync(path.join(MIGRATIONS_DIR, file), "utf8"));
      await tx`INSERT INTO schema_migrations (name) VALUES (${file})`;
      log(`migrated ${file}`);
      done.push(file);
    }
    return done;
  });
}
