// Health endpoints for load balancers and the per-request log line. The readiness failures and the log
// need a server of their own: another instance over a database this test creates.
import postgres from "postgres";
import { expect, test } from "../fixtures";
import { createDatabase, startInstance, type Instance } from "../support/instance";

test("GET /healthz – 200 {status: ok}, never cached", async ({ request }) => {
  const res = await request.get("/healthz");
  expect(res.status()).toBe(200);
  expect(await res.json()).toEqual({ status: "ok" });
  expect(res.headers()["cache-control"]).toBe("no-store");
});

test("GET /readyz – 200 when the database answers and every migration is applied", async ({ request, sql }) => {
  const res = await request.get("/readyz");
  expect(res.status()).toBe(200);
  expect(await res.json()).toEqual({ status: "ready", primary: "up" });
  expect(res.headers()["cache-control"]).toBe("no-store");
  // Independently: the migration files on disk are all recorded in the test database.
  const { migrationFiles } = await import("../../lib/db/migrate");
  const applied = (await sql<{ name: string }[]>`SELECT name FROM schema_migrations`).map((r) => r.name);
  expect(applied).toEqual(expect.arrayContaining(migrationFiles()));
});

test.describe
  .serial("a second instance over its own database", () => {
    let db: Awaited<ReturnType<typeof createDatabase>>;
    let own: postgres.Sql;
    let server: Instance;
    let base = "";
    let database = "";
    const stdout = () => server.stdout();

    test.beforeAll(async () => {
      test.setTimeout(180_000);
      db = await createDatabase("markets_test_health");
      database = db.name;
      own = postgres(db.url, { max: 1, onnotice: () => {} });
      // Same mode as the server under test: the production build, or the dev server while iterating.
      const dev = process.env.TEST_DEV === "1";
      server = await startInstance(
        // A dev server locks its dist dir; the second one needs its own.
        { DATABASE_URL: db.url, LOG_REQUESTS: "1", ...(dev ? { NEXT_DIST_DIR: ".next-health" } : {}) },
        { args: dev ? ["--dev"] : [], timeoutMs: 170_000 },
      );
      base = server.baseURL;
    });

    test.afterAll(async () => {
      await server?.stop();
      await own?.end();
      await db?.drop();
    });

    test("one JSON line per request on stdout: time, method, path (no query), status, duration", async ({ request }) => {
      const marker = `/v1/markets/log-${Date.now()}`;
      const before = stdout().length;
      expect((await request.get(`${base}/v1/markets?limit=1&q=secret-term`)).status()).toBe(200);
      expect((await request.get(marker)).status()).toBe(404);
      expect((await request.get(`${base}${marker}`)).status()).toBe(404);
      await expect.poll(() => stdout().slice(before).includes(marker)).toBe(true);
      const lines = stdout()
        .slice(before)
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l));
      const list = lines.filter((l) => l.path === "/v1/markets");
      expect(list).toHaveLength(1);
      expect(list[0]).toEqual({ time: expect.any(String), method: "GET", path: "/v1/markets", status: 200, durationMs: expect.any(Number) });
      expect(Date.parse(list[0].time)).toBeGreaterThan(Date.now() - 60_000);
      expect(list[0].durationMs).toBeGreaterThanOrEqual(0);
      expect(stdout()).not.toContain("secret-term");
      expect(lines.filter((l) => l.path === marker)).toEqual([expect.objectContaining({ method: "GET", status: 404 })]);
    });

    test("GET /readyz – 503 naming the pending migrations when one is not applied", async ({ request }) => {
      expect((await request.get(`${base}/readyz`)).status()).toBe(200);
      const [{ name }] = await own<{ name: string }[]>`SELECT name FROM schema_migrations ORDER BY name DESC LIMIT 1`;
      await own`DELETE FROM schema_migrations WHERE name = ${name}`;
      const res = await request.get(`${base}/readyz`);
      expect(res.status()).toBe(503);
      expect(res.headers()["cache-control"]).toBe("no-store");
      const body = await res.json();
      expect(body.status).toBe("unavailable");
      expect(body.reasons).toEqual([`pending migrations: ${name}`]);
      // /healthz does not look at the database.
      expect((await request.get(`${base}/healthz`)).status()).toBe(200);
    });

    test("GET /readyz – 503 when the database is unreachable, without leaking the connection string", async ({ request }) => {
      await own.end();
      await db.admin.unsafe(`DROP DATABASE "${database}" WITH (FORCE)`);
      const res = await request.get(`${base}/readyz`);
      expect(res.status()).toBe(503);
      const body = await res.json();
      expect(body.status).toBe("unavailable");
      expect(body.reasons).toHaveLength(1);
      expect(body.reasons[0]).toMatch(/^database unreachable/);
      expect(JSON.stringify(body)).not.toContain(database);
      expect((await request.get(`${base}/healthz`)).status()).toBe(200);
    });
  });
