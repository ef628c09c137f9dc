// server.ts on its own: with DATABASE_URL unset it starts the embedded PostgreSQL in its data
// directory, migrates, serves the API, and stops the database cleanly on SIGTERM.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { expect, test } from "../fixtures";
import { freePort } from "@/lib/db/embedded";

test("server.ts starts the embedded database, migrates, serves, and stops cleanly on SIGTERM", async ({ request }) => {
  test.skip(process.env.TEST_DEV === "1", "Next refuses a second dev server in one directory; runs against the production build");
  test.setTimeout(180_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "markets-embedded-"));
  fs.chmodSync(dir, 0o755); // as root, PostgreSQL runs as its own OS user, which must reach the data directory
  const pgDir = path.join(dir, "pg");
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, EMBEDDED_PG_DIR: pgDir, PORT: String(port), HOST: "127.0.0.1", SKIP_SEED: "1", LOG_REQUESTS: "0" };
  delete env.DATABASE_URL;
  // One node process (no npx/tsx wrapper in between), so SIGTERM reaches server.ts itself.
  const child = spawn(process.execPath, ["--import", "tsx", "server.ts"], { env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  try {
    await expect.poll(() => output, { timeout: 150_000 }).toContain("ready on");
    const res = await request.get(`http://127.0.0.1:${port}/v1/markets`);
    expect(res.status()).toBe(200);
    expect(await res.json()).toEqual({ markets: [], total: 0, limit: 20, offset: 0 });

    const pidFile = path.join(pgDir, "postmaster.pid");
    expect(fs.existsSync(pidFile)).toBe(true);
    const pgPort = Number(fs.readFileSync(pidFile, "utf8").split("\n")[3]);
    const sql = postgres(`postgres://postgres:postgres@127.0.0.1:${pgPort}/markets`, { max: 1 });
    const applied = await sql`SELECT name FROM schema_migrations ORDER BY name`;
    await sql.end();
    const files = fs.readdirSync("lib/db/migrations").filter((f) => f.endsWith(".sql")).sort();
    expect(applied.map((r) => r.name)).toEqual(files);

    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(fs.existsSync(pidFile), "postgres stopped and removed its pid file").toBe(false);
  } finally {
    if (child.exitCode === null) child.kill("SIGKILL");
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
