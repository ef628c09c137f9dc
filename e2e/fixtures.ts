// Shared helpers for Playwright tests: the test run's database (written by scripts/test-server.ts)
// and the ids of the hand-written fixture markets in e2e/fixtures/import-sample.json.
import fs from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { test as base, expect } from "@playwright/test";

export interface TestRun {
  databaseUrl: string;
  baseURL: string;
  database: string;
}

export function testRun(): TestRun {
  return JSON.parse(fs.readFileSync(path.join(process.cwd(), ".data", "test-run.json"), "utf8"));
}

export const test = base.extend<{}, { sql: postgres.Sql }>({
  // One connection pool per worker to the same database the server under test reads.
  sql: [
    async ({}, use) => {
      const sql = postgres(testRun().databaseUrl, { max: 2, onnotice: () => {} });
      await use(sql);
      await sql.end();
    },
    { scope: "worker" },
  ],
});

export { expect };
