// Serve stale on error: while its database is away, an instance answers what it last held (already
// invalidated) for a bounded time, marked stale, instead of failing; past that bound it fails.
// The instance runs on a PostgreSQL cluster of its own, stopped and started by the test.
import postgres from "postgres";
import { expect, test } from "../fixtures";
import { startOwnCluster, type OwnCluster } from "../support/cluster";
import { addOrder, makeMarket, type TestMarket } from "../support/markets";
import { startInstance, type Instance } from "../support/instance";

test.describe.configure({ mode: "serial", timeout: 240_000 });

let cluster: OwnCluster;
let app: Instance;
let sql: postgres.Sql;
let m: TestMarket;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  cluster = await startOwnCluster({ markets: 2 });
  sql = postgres(cluster.url, { max: 2, onnotice: () => {} });
  m = await makeMarket(sql, { prefix: "stale", status: "ACTIVE" });
  await addOrder(sql, m, { price: "0.420" });
  app = await startInstance({ DATABASE_URL: cluster.url, LOG_REQUESTS: "0", RATE_LIMIT: "off", CACHE_STALE_IF_ERROR_S: "8", REALTIME_RETRY_MAX_MS: "1000" });
});

test.afterAll(async () => {
  await app?.stop();
  await sql?.end({ timeout: 1 }).catch(() => {});
  await cluster?.destroy();
});

test("stale-if-error – an invalidated answer is served, marked stale, while the database is away, and only for CACHE_STALE_IF_ERROR_S", async () => {
  const url = `${app.baseURL}/v1/markets/slug/${m.slug}/orderbook?outcomeId=${m.outcomes[0]}`;
  const never = `${app.baseURL}/v1/markets/slug/${m.slug}/orderbook?outcomeId=${m.outcomes[1]}`;
  await fetch(url);
  expect((await fetch(url)).headers.get("x-cache")).toBe("HIT");
  await addOrder(sql, m, { price: "0.430" }); // invalidates the cached book
  await expect.poll(async () => (await (await fetch(url)).json()).bids.length, { timeout: 5_000 }).toBe(2);
  await addOrder(sql, m, { price: "0.440" }); // and again: the two-level book is now stale
  await expect.poll(async () => (await (await fetch(url)).json()).bids.length, { timeout: 5_000 }).toBe(3);
  await sql.end();
  await cluster.crash();

  const started = Date.now();
  const stale = await fetch(url);
  expect(stale.status).toBe(200);
  expect(stale.headers.get("x-cache")).toBe("STALE");
  expect(stale.headers.get("warning")).toContain("110");
  expect(stale.headers.get("cache-control")).toContain("max-age=0");
  expect(Number(stale.headers.get("age"))).toBeGreaterThanOrEqual(0);
  expect((await stale.json()).bids).toHaveLength(3);
  const uncached = await fetch(never);
  expect(uncached.status).toBeGreaterThanOrEqual(500);
  expect(uncached.headers.get("x-cache")).toBeNull();

  // Past the bound the instance no longer vouches for it.
  await new Promise((r) => setTimeout(r, Math.max(0, 9_000 - (Date.now() - started))));
  const expired = await fetch(url);
  expect(expired.status).toBeGreaterThanOrEqual(500);
  expect(await expired.json()).toMatchObject({ statusCode: expired.status });

  // The database returns: fresh answers again, without a restart.
  await cluster.start();
  await expect
    .poll(
      async () => {
        const r = await fetch(url);
        return r.status === 200 ? [r.headers.get("x-cache"), (await r.json()).bids.length] : r.status;
      },
      { timeout: 30_000, intervals: [250] },
    )
    .toEqual(expect.arrayContaining([3]));
});
