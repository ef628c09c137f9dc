// server.ts on its own: with DATABASE_URL unset it starts the embedded PostgreSQL in its data
// directory, migrates, serves the API, and stops the database cleanly on SIGTERM; on DATABASE_URL its
// SIGTERM runs its own shutdown to exit 0. A start that fails says why in one line and exits 1.
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { expect, test, testRun } from "../fixtures";
import { migrate } from "@/lib/db/migrate";
import { createDatabase, runToExit, startInstance } from "../support/instance";
import { makeMarket } from "../support/markets";

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
    expect(app.stdout(), "WARM_UP_PAGES=0 (the tests' default) renders nothing first").not.toMatch(/warmed up: \d+ pages/);
  } finally {
    await app.stop();
  }
});

test('SIGTERM drains (docs/operations.md "Shutdown"): /readyz answers 503 draining at once while /v1 and pages still answer, then exit 0', async () => {
  const app = await startInstance({ DATABASE_URL: testRun().databaseUrl, LOG_REQUESTS: "0", SHUTDOWN_DRAIN_MS: "2000" });
  try {
    expect((await fetch(`${app.baseURL}/readyz`)).status).toBe(200);
    const exited = new Promise<number | null>((resolve) => app.child.once("exit", (code) => resolve(code)));
    const signalled = Date.now();
    app.child.kill("SIGTERM");
    await expect.poll(async () => (await fetch(`${app.baseURL}/readyz`)).status, { timeout: 1000, intervals: [50] }).toBe(503);
    const ready = await fetch(`${app.baseURL}/readyz`);
    expect(await ready.json()).toEqual({ status: "draining" });
    expect(ready.headers.get("retry-after")).toBe("1");
    // Still answering everything while the load balancer takes it out of rotation.
    expect((await fetch(`${app.baseURL}/v1/markets?limit=1`)).status).toBe(200);
    expect((await fetch(`${app.baseURL}/`)).status).toBe(200);
    expect(Date.now() - signalled).toBeLessThan(2000);
    expect(await exited).toBe(0);
    expect(Date.now() - signalled, "the drain lasted SHUTDOWN_DRAIN_MS").toBeGreaterThanOrEqual(2000);
    expect(app.stdout()).toContain("SIGTERM: shutting down (draining 2000 ms: /readyz answers 503)");
  } finally {
    await app.stop();
  }
});

test("server.ts whose output nobody reads any more (its starter gone) stops as on SIGTERM, at its next line, instead of spinning on the failed write", async () => {
  const app = await startInstance({ DATABASE_URL: testRun().databaseUrl, LOG_REQUESTS: "1", SHUTDOWN_DRAIN_MS: "500" });
  try {
    const exited = new Promise<number | null>((resolve) => app.child.once("exit", (code) => resolve(code)));
    // The reading ends of both pipes closed, as when the process that started the server dies.
    app.child.stdout!.destroy();
    app.child.stderr!.destroy();
    // A request logs a line (LOG_REQUESTS), which meets the closed pipe.
    expect((await fetch(`${app.baseURL}/healthz`)).status).toBe(200);
    const started = Date.now();
    const code = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve("still running"), 20_000))]);
    expect(code, "it stopped by itself, through its drain").toBe(0);
    expect(Date.now() - started).toBeLessThan(15_000);
  } finally {
    await app.stop();
  }
});

test("server.ts renders the first list page and the trending markets' pages before it opens its port; the first reader's view is rendered for its own host", async () => {
  test.skip(process.env.TEST_DEV === "1", "no warm-up in dev");
  const sql = postgres(testRun().databaseUrl, { max: 1 });
  const trending = (await sql<{ slug: string }[]>`SELECT slug FROM markets WHERE status = 'ACTIVE' ORDER BY volume_24h DESC, id DESC LIMIT 5`).map(
    (r) => r.slug,
  );
  await sql.end();
  expect(trending).toHaveLength(5);
  const app = await startInstance({ DATABASE_URL: testRun().databaseUrl, LOG_REQUESTS: "1", WARM_UP_PAGES: "6", WARM_UP_RENDERS: "12" });
  try {
    const out = app.stdout();
    const ready = out.indexOf("ready on");
    expect(out).toMatch(/warmed up: 6 pages, 12 renders in \d+ ms \(0 failed, 0 left at the deadline\)/);
    expect(out.indexOf("warmed up")).toBeLessThan(ready);
    // What it asked for, from the request log before "ready on": the list page, then the five markets most traded in 24 h.
    const asked = out
      .slice(0, ready)
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { path: string; status: number });
    // Twelve renders of six pages: each page twice, the second from memory.
    const pages = ["/", ...trending.map((s) => `/markets/${s}`)];
    expect(asked.map((r) => r.path).sort()).toEqual([...pages, ...pages].sort());
    expect(asked.every((r) => r.status === 200)).toBe(true);
    // Rendered under a loopback host of its own, so not kept: the first reader's view is rendered for them.
    const page = `${app.baseURL}/markets/${trending[0]}`;
    const first = await fetch(page);
    expect(first.headers.get("x-render-cache")).toBe("MISS");
    expect(await first.text()).toContain(`<link rel="canonical" href="${page}"/>`);
    // It is a page the cache does keep: a later view comes from memory (the test database's writers may
    // change it between views, so a few may be rendered again first).
    let later = "";
    for (let i = 0; i < 30 && later !== "HIT"; i++) later = (await fetch(page)).headers.get("x-render-cache") ?? "";
    expect(later).toBe("HIT");
  } finally {
    await app.stop();
  }
});

test("server.ts loads the ACTIVE markets' list items before it opens its port; a change after it shows", async () => {
  test.setTimeout(150_000);
  // A database of its own: other workers' writes to the shared one would make a first read refresh the order (a MISS).
  const db = await createDatabase("markets_test_warm_items");
  const sql = postgres(db.url, { max: 2, onnotice: () => {} });
  try {
    await migrate(sql, () => {});
    const markets = await Promise.all(
      ["alpha", "beta", "gamma"].map((w) => makeMarket(sql, { prefix: "warm-item", status: "ACTIVE", columns: { question: `Will ${w} happen?` } })),
    );
    const m = markets[0];
    const list = (base: string) => fetch(`${base}/v1/markets?status=ACTIVE&q=alpha`);

    // Without the warm-up the first read of the list loads its item.
    const cold = await startInstance({ DATABASE_URL: db.url, LOG_REQUESTS: "0", WARM_UP_ITEMS_PERCENT: "0" });
    try {
      const res = await list(cold.baseURL);
      expect((await res.json()).markets.map((x: { id: string }) => x.id)).toEqual([m.id]);
      expect(res.headers.get("x-cache")).toBe("MISS");
      expect(cold.stdout()).not.toContain("list items");
    } finally {
      await cold.stop();
    }

    const app = await startInstance({ DATABASE_URL: db.url, LOG_REQUESTS: "0", WARM_UP_ITEMS_PERCENT: "100" });
    try {
      const out = app.stdout();
      const line = out.match(/warmed up: list items of 3 of 3 ACTIVE markets in \d+ ms \(response cache [\d.]+ MB\)/);
      expect(line, out).not.toBeNull();
      expect(out.indexOf(line![0])).toBeLessThan(out.indexOf("ready on"));
      const res = await list(app.baseURL);
      expect((await res.json()).markets.map((x: { id: string }) => x.id)).toEqual([m.id]);
      expect(res.headers.get("x-cache"), "its item was loaded before the port opened").toBe("HIT");
      // An item loaded by the warm-up is an entry like any other: its market's change drops it.
      await sql`UPDATE markets SET question = 'Will alpha happen soon?' WHERE id = ${m.id}`;
      let question = "";
      for (let i = 0; i < 50 && question !== "Will alpha happen soon?"; i++) {
        question = (await (await list(app.baseURL)).json()).markets[0]?.question ?? "";
        if (question !== "Will alpha happen soon?") await new Promise((r) => setTimeout(r, 100));
      }
      expect(question).toBe("Will alpha happen soon?");
    } finally {
      await app.stop();
    }
  } finally {
    await sql.end();
    await db.drop();
  }
});

test("server.ts's list-item warm-up asks a read again after the database did not answer it in time (a busy start), and finishes", async () => {
  test.setTimeout(150_000);
  const db = await createDatabase("markets_test_warm_retry");
  const sql = postgres(db.url, { max: 3, onnotice: () => {} });
  try {
    await migrate(sql, () => {});
    await Promise.all(
      ["alpha", "beta", "gamma"].map((w) => makeMarket(sql, { prefix: "warm-retry", status: "ACTIVE", columns: { question: `Will ${w} happen?` } })),
    );
    // The outcomes locked: the warm-up's read of the items (markets with their outcomes) waits until the
    // database gives up on it; the lock goes once the instance says it will ask that read again.
    const lock = await sql.reserve();
    await lock`BEGIN`;
    await lock`LOCK TABLE outcomes IN ACCESS EXCLUSIVE MODE`;
    let told = "";
    const starting = startInstance({ DATABASE_URL: db.url, LOG_REQUESTS: "0", WARM_UP_ITEMS_PERCENT: "100" }, { onStdout: (text) => (told += text) });
    let unheard: unknown = null;
    try {
      await expect
        .poll(() => told, { timeout: 90_000, intervals: [50] })
        .toMatch(/list-item warm-up: a read not answered \(database did not answer in time\); asking it again in 1500 ms/);
    } catch (err) {
      unheard = err; // thrown once the instance is up, so that it is stopped too
    } finally {
      await lock`ROLLBACK`;
      lock.release();
    }
    const app = await starting;
    try {
      if (unheard) throw unheard;
      const out = app.stdout();
      expect(out, out).toMatch(/warmed up: list items of 3 of 3 ACTIVE markets in \d+ ms \(response cache [\d.]+ MB; 1 read asked again\)/);
      expect(out.indexOf("asking it again"), "the retry is told before the result").toBeLessThan(out.indexOf("warmed up: list items"));
      const res = await fetch(`${app.baseURL}/v1/markets?status=ACTIVE&q=alpha`);
      expect((await res.json()).markets).toHaveLength(1);
      expect(res.headers.get("x-cache"), "its item was loaded before the port opened").toBe("HIT");
    } finally {
      await app.stop();
    }
  } finally {
    await sql.end();
    await db.drop();
  }
});

test("server.ts with its port in use – one line naming the port, the embedded PostgreSQL stopped, exit 1", async () => {
  test.skip(process.env.TEST_DEV === "1", "Next refuses a second dev server in one directory; runs against the production build");
  test.setTimeout(180_000);
  const taken = net.createServer();
  await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
  const port = (taken.address() as net.AddressInfo).port;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "markets-port-"));
  fs.chmodSync(dir, 0o755); // as root, PostgreSQL runs as its own OS user, which must reach the data directory
  const pgDir = path.join(dir, "pg");
  try {
    const run = await runToExit({ PORT: String(port), EMBEDDED_PG_DIR: pgDir, DATABASE_URL: undefined, LOG_REQUESTS: "0" }, { timeoutMs: 150_000 });
    expect(run.code, run.output).toBe(1);
    expect(run.output).toContain(`markets: cannot listen on 127.0.0.1:${port}: address in use (set PORT)`);
    expect(run.output).not.toContain("uncaughtException");
    expect(run.output, "it got as far as the database").toContain("Embedded PostgreSQL listening");
    expect(fs.existsSync(path.join(pgDir, "postmaster.pid")), "postgres stopped and removed its pid file").toBe(false);
  } finally {
    taken.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("server.ts with a bad configuration value – exits 1 at once, naming the variable and the value", async () => {
  const run = await runToExit({ DATABASE_URL: testRun().databaseUrl, DB_POOL_SIZE: "abc" }, { timeoutMs: 30_000 });
  expect(run.code, run.output).toBe(1);
  expect(run.output).toContain('markets: bad configuration: DB_POOL_SIZE="abc" is not valid: expected integer 1–1000');
  expect(run.output).not.toContain("ready on");
  expect(run.ms).toBeLessThan(20_000);
});
