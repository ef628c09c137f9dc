// The closing VACUUM (ANALYZE) of seed and import: it runs outside their transactions, on the
// request pool, whose statement_timeout (3 s by default) failed a 100,000-market seed after everything was
// written. It must finish however long it takes, and leave the pool's limits as they were.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { vacuumAnalyze } from "@/lib/db/vacuum";
import { expect, test } from "../fixtures";
import { createDatabase } from "../support/instance";

function run(script: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", script, ...args], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("exit", (code) => resolve({ code, output }));
  });
}

test.describe.configure({ timeout: 180_000 });

test("vacuumAnalyze – finishes past the pool's statement_timeout and lock_timeout, and puts both back", async () => {
  const db = await createDatabase("markets_test_vacuum");
  // The request pool's limits, small: 200 ms a statement, 100 ms a lock wait.
  const pool = postgres(db.url, { max: 2, onnotice: () => {}, connection: { statement_timeout: 200, lock_timeout: 100 } });
  const holder = postgres(db.url, { max: 1, onnotice: () => {} });
  try {
    await pool`CREATE TABLE vac (id int PRIMARY KEY, v text)`;
    await pool`INSERT INTO vac SELECT g, md5(g::text) FROM generate_series(1, 1000) g`;
    // A lock VACUUM must wait for, held for 1.5 s: longer than both limits of the pool.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const locked = new Promise<void>((ready) => {
      void holder.begin(async (tx) => {
        await tx`LOCK TABLE vac IN SHARE MODE`;
        ready();
        await held;
      });
    });
    await locked;
    setTimeout(release, 1500);
    const t0 = Date.now();
    await vacuumAnalyze(pool, ["vac"]);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1000);
    const [{ analyzed }] = await pool`SELECT last_analyze IS NOT NULL AS analyzed FROM pg_stat_user_tables WHERE relname = 'vac'`;
    expect(analyzed).toBe(true);
    // Every connection of the pool still has the pool's limits.
    const settings = await Promise.all(
      [0, 1].map(() => pool`SELECT current_setting('statement_timeout') AS s, current_setting('lock_timeout') AS l, pg_sleep(0.05)`),
    );
    for (const [row] of settings) expect({ s: row.s, l: row.l }).toEqual({ s: "200ms", l: "100ms" });
  } finally {
    await pool.end();
    await holder.end();
    await db.drop();
  }
});

test("npm run db:seed and db:import with a statement_timeout far below their VACUUM's time: both finish", async () => {
  const db = await createDatabase("markets_test_vacuum");
  // 100 ms: every statement of the pool but the long jobs' own (which lift it in their transactions) is far shorter,
  // even on a loaded machine (5 ms was not: a new connection's first statement exceeded it at load 10);
  // VACUUM (ANALYZE) of the seeded tables is not (~0.6 s; it failed with "canceling statement due to statement timeout").
  const env = { DATABASE_URL: db.url, DB_STATEMENT_TIMEOUT_MS: "100" };
  try {
    const seed = await run("scripts/db-seed.ts", ["--markets", "120", "--trades-per-outcome", "20"], env);
    expect(seed.output).toMatch(/vacuum \(analyze\) in/);
    expect(seed.output).not.toContain("statement timeout");
    expect(seed.code, seed.output).toBe(0);
    const file = path.join(os.tmpdir(), `vacuum-import-${Date.now()}.json`);
    fs.copyFileSync(path.join("e2e", "fixtures", "import-sample.json"), file);
    const imported = await run("scripts/db-import.ts", [file], env);
    expect(imported.output).toMatch(/vacuum \(analyze\) in/);
    expect(imported.code, imported.output).toBe(0);
  } finally {
    await db.drop();
  }
});
