// A backend lost under a transaction. postgres.js 3.4.9 threw an uncaught TypeError from a write it had
// queued (porsager/postgres#1208), ending any process (a server, an importer) whose database went away
// mid-transaction; a terminated backend's error rejected the first query after the reconnect; and after a
// reset, the rollback it sent was never settled. patches/postgres+3.4.9.patch mends the three (npm install
// applies it); e2e/support/lost-connection.mjs is the scenario.
import { spawn } from "node:child_process";
import path from "node:path";
import { expect, test, testRun } from "../fixtures";
import { untilExit } from "../support/instance";

test("a transaction whose backend is terminated, or whose connection is reset, rejects with CONNECTION_CLOSED; the process lives on and the pool serves the next queries and transactions", async () => {
  const script = path.join(process.cwd(), "e2e/support/lost-connection.mjs");
  const run = await untilExit(spawn(process.execPath, [script], { env: { ...process.env, DB_URL: testRun().databaseUrl } }), 45_000);
  expect(run.output).not.toContain("TypeError");
  for (const cut of ["terminated", "reset"]) {
    expect(run.output).toContain(`${cut}: the transaction rejected CONNECTION_CLOSED`);
    expect(run.output).toContain(`${cut}: queries after 3`);
    expect(run.output).toContain(`${cut}: the next transaction committed`);
  }
  expect(run.code, run.output).toBe(0);
});
