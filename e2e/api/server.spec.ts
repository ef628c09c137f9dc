// server.ts on its own: with DATABASE_URL unset it starts the embedded PostgreSQL in its data
// directory, migrates, serves the API, and stops the database cleanly on SIGTERM; on DATABASE_URL its
// SIGTERM runs its own shutdown to exit 0.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { expect, test, testRun } from "../fixtures";
import { startInstance } from "../support/instance";

test("server.ts starts the embedded database, migrates, serves, and stops cleanly on SIGTERM", async ({ request }) => {
  test.skip(process.env.TEST_DEV === "1", "Next refuses a second dev server in one directory; runs against the production build");
  test.setTimeout(180_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "markets-embedded-"));
  fs.chmodSync(dir, 0o755); // as root, PostgreSQL runs as its own OS user, which must reach the data directory
  const pgDir = path.join(dir, "pg");
  // DATABASE_URL removed: server.ts starts the embedded cluster itself.
  const server = await startInstance({ EMBEDDED_PG_DIR: pgDir, DATABASE_URL: undefined, LOG_REQUESTS: "0" }).catch((err) => {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  });
  const child = server.child;
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  try {
    const res = await request.get(`${server.baseURL}/v1/markets`);
    expect(res.status()).toBe(200);
    expect(await res.json()).toEqual({ markets: [], total: 0, limit: 20, offset: 0 });

    const pidFile = path.join(pgDir, "postmaster.pid");
    expect(fs.existsSync(pidFile)).toBe(true);
    const pgPort = Number(fs.readFileSync(pidFile, "utf8").split("\n")[3]);
    const sql = postgres(`postgres://postgres:postgres@127.0.0.1:${pgPort}/markets`, { max: 1 });
    const applied = await sql`SELECT name FROM schema_migrations ORDER BY name`;
    await sql.end();
    const files = fs
      .readdirSync("lib/db/migrations")
      .filter((f) => f.endsWith(".sql"))
      .sort();
    expect(applied.map((r) => r.name)).toEqual(files);

    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(fs.existsSync(pidFile), "postgres stopped and removed its pid file").toBe(false);
  } finally {
    if (child.exitCode === null) child.kill("SIGKILL");
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("server.ts on DATABASE_URL shuts down through its own drain on SIGTERM: exit 0, not the embedded cluster's exit hook", async () => {
  const app = await startInstance({ DATABASE_URL: testRun().databaseUrl, LOG_REQUESTS: "0" });
  try {
    expect((await fetch(`${app.baseURL}/v1/markets?limit=1`)).status).toBe(200);
    const exited = new Promise<number | null>((resolve) => app.child.once("exit", (code) => resolve(code)));
    app.child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(app.stdout()).toContain("SIGTERM: shutting down");
  } finally {
    await app.stop();
  }
});
