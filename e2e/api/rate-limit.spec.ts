// The /v1 rate limit, on an instance of its own with small numbers (the test server runs with it off):
// a burst, then 429 with Retry-After and the RateLimit fields; per client, and behind a trusted proxy by
// the right-most X-Forwarded-For hop that is not the proxy.
import { expect, test } from "../fixtures";
import { errorBodySchema } from "@/lib/markets/schemas";
import { startInstance, type Instance } from "../support/instance";
import { rawRequest } from "../support/raw-http";

// Burst 5, one token back every 10 s (q=5 per w=50 s): slow enough that a loaded machine cannot refill
// the bucket while the test spends it.
const POLICY = '"v1";q=5;w=50';

let server: Instance;
test.beforeAll(async ({}, testInfo) => {
  test.skip(process.env.TEST_DEV === "1", "needs a production build of its own instance");
  testInfo.setTimeout(180_000);
  server = await startInstance({ RATE_LIMIT: "on", RATE_LIMIT_RPS: "0.1", RATE_LIMIT_BURST: "5", TRUST_PROXY: "loopback", LOG_REQUESTS: "0" });
});
test.afterAll(async () => server?.stop());

const get = (path: string, client: string) => rawRequest(server.baseURL, "GET", path, { "X-Forwarded-For": client });
const remaining = (h: Record<string, unknown>) => Number(/;r=(\d+)/.exec(String(h["ratelimit"]))?.[1]);

test.describe.configure({ timeout: 90_000 });

test("a client gets its burst, then 429 with the error body, Retry-After and the RateLimit fields", async () => {
  const client = "198.51.100.1";
  const seen: number[] = [];
  for (let i = 0; i < 5; i++) {
    const res = await get("/v1/markets?limit=1", client);
    expect(res.status).toBe(200);
    expect(res.headers["ratelimit-policy"]).toBe(POLICY);
    expect(res.headers["ratelimit"]).toMatch(/^"v1";r=\d+;t=\d+$/);
    seen.push(remaining(res.headers));
  }
  // Refill during the loop may hand back a token: the count never rises by more than that.
  expect(seen[0]).toBe(4);
  expect(Math.min(...seen)).toBeLessThanOrEqual(1);
  let refused = await get("/v1/markets?limit=1", client);
  while (refused.status === 200) refused = await get("/v1/markets?limit=1", client);
  expect(refused.status).toBe(429);
  expect(errorBodySchema.parse(JSON.parse(refused.body))).toEqual({ statusCode: 429, message: "Too many requests", error: "Too Many Requests" });
  expect(Number(refused.headers["retry-after"])).toBeGreaterThanOrEqual(1);
  expect(refused.headers["ratelimit-policy"]).toBe(POLICY);
  expect(refused.headers["ratelimit"]).toMatch(/^"v1";r=0;t=(4\d|50)$/);
  expect(Number(refused.headers["retry-after"])).toBeLessThanOrEqual(10);
  expect(refused.headers["access-control-allow-origin"]).toBe("*");
  expect(refused.headers["cache-control"]).toBe("no-store");

  // Errors count and carry the fields too; preflights are free but still report the state.
  const preflight = await rawRequest(server.baseURL, "OPTIONS", "/v1/markets", {
    "X-Forwarded-For": client,
    Origin: "https://x.example",
    "Access-Control-Request-Method": "GET",
  });
  expect(preflight.status).toBe(204);
  expect(preflight.headers["ratelimit"]).toMatch(/^"v1";r=0;/);

  // Pages and health checks are not limited.
  for (const path of ["/healthz", "/healthz", "/healthz"]) expect((await get(path, client)).status).toBe(200);

  // After Retry-After seconds the client may go on.
  await new Promise((r) => setTimeout(r, Number(refused.headers["retry-after"]) * 1000 + 100));
  expect((await get("/v1/markets?limit=1", client)).status).toBe(200);
});

test("clients are counted apart; a forged left-most X-Forwarded-For hop does not buy a fresh bucket", async () => {
  const spender = "203.0.113.7";
  for (let i = 0; i < 5; i++) await get("/v1/nowhere", spender); // 404s cost a token as well
  expect((await get("/v1/markets?limit=1", spender)).status).toBe(429);
  expect((await get("/v1/markets?limit=1", `6.6.6.6, ${spender}`)).status, "same right-most untrusted hop").toBe(429);
  expect((await get("/v1/markets?limit=1", "203.0.113.8")).status, "another client").toBe(200);
  // Without the header the socket's address (loopback, trusted but nothing forwarded) is the client.
  const direct = await rawRequest(server.baseURL, "GET", "/v1/markets?limit=1");
  expect(direct.status).toBe(200);
  expect(remaining(direct.headers)).toBe(4);
});

test("a batch costs one request per distinct id (GET /v1/orderbooks, /v1/prices-history), at most a whole bucket", async () => {
  const ids = (n: number) => Array.from({ length: n }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`);
  const client = "198.51.100.77";
  // Three distinct ids (one repeated, one in capitals): three tokens of five.
  const three = await get(`/v1/orderbooks?outcomeIds=${[...ids(3), ids(1)[0].toUpperCase()].join(",")}`, client);
  expect(three.status).toBe(200);
  expect(remaining(three.headers)).toBe(2);
  // Four more do not fit into the two left: refused whole, nothing taken.
  const four = await get(`/v1/prices-history?outcomeIds=${ids(4).join(",")}`, client);
  expect(four.status).toBe(429);
  expect(Number(four.headers["retry-after"])).toBeGreaterThanOrEqual(10);
  // A single request still fits.
  const one = await get("/v1/markets?limit=1", client);
  expect(one.status).toBe(200);
  expect(remaining(one.headers)).toBe(1);
  // Fifty ids cost the whole bucket of five, not more (a batch larger than the bucket would never pass).
  const other = "198.51.100.78";
  const fifty = await get(`/v1/orderbooks?outcomeIds=${ids(50).join(",")}`, other);
  expect(fifty.status).toBe(200);
  expect(remaining(fifty.headers)).toBe(0);
  expect((await get("/v1/markets?limit=1", other)).status).toBe(429);
});
