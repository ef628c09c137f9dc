// HTTP caching of /v1: weak ETags on every 200 (one per variant, shared by the identity and gzip
// encodings), 304 on If-None-Match, Cache-Control per endpoint, Vary: Accept everywhere, so a CDN
// in front can absorb read load.
import http from "node:http";
import { gunzipSync } from "node:zlib";
import { randomUUID } from "node:crypto";
import { expect, test, testRun } from "../fixtures";
import { CAMEL, endpointsOf, type EndpointKind } from "../support/api";
import { makeFullMarket, type FullMarket } from "../support/markets";

const WEAK_ETAG = /^W\/"[A-Za-z0-9_-]+"$/;
const identity = { "Accept-Encoding": "identity" };

/** A GET whose body is not decoded, to see what actually crosses the wire. */
function rawGet(path: string, headers: Record<string, string>): Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(new URL(path, testRun().baseURL), { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on("error", reject);
  });
}

const directives = (cacheControl: string | undefined) =>
  Object.fromEntries(
    (cacheControl ?? "")
      .split(",")
      .map((d) => d.trim().split("="))
      .map(([k, v]) => [k, v === undefined ? true : Number(v)]),
  );

const varyOf = (headers: Record<string, string>) => (headers["vary"] ?? "").split(",").map((v) => v.trim().toLowerCase());

let m: FullMarket;
test.beforeAll(async ({ sql }) => {
  m = await makeFullMarket(sql);
});

test("every 200 from /v1 carries a weak ETag that is stable across identical requests", async ({ request }) => {
  for (const e of [...endpointsOf(m), { url: "/v1/openapi.json" }, { url: "/v1/asyncapi.json" }]) {
    const a = await request.get(e.url);
    const b = await request.get(e.url);
    expect(a.status(), e.url).toBe(200);
    const etag = a.headers()["etag"];
    expect(etag, e.url).toMatch(WEAK_ETAG);
    expect(b.headers()["etag"], e.url).toBe(etag);
  }
});

test("If-None-Match with the current ETag answers 304 with the same validators and no body", async ({ request }) => {
  for (const e of [...endpointsOf(m), { url: "/v1/openapi.json" }, { url: "/v1/asyncapi.json" }]) {
    for (const accept of ["application/json", CAMEL]) {
      const first = await request.get(e.url, { headers: { Accept: accept } });
      const etag = first.headers()["etag"];
      for (const ifNoneMatch of [etag, etag.replace(/^W\//, ""), `"something-else", ${etag}`, "*"]) {
        const again = await request.get(e.url, { headers: { Accept: accept, "If-None-Match": ifNoneMatch } });
        expect(again.status(), `${e.url} ${ifNoneMatch}`).toBe(304);
        expect(again.headers()["etag"]).toBe(etag);
        expect(again.headers()["cache-control"]).toBe(first.headers()["cache-control"]);
        expect(varyOf(again.headers())).toContain("accept");
        expect((await again.body()).length).toBe(0);
      }
      const stale = await request.get(e.url, { headers: { Accept: accept, "If-None-Match": '"not-the-current-one"' } });
      expect(stale.status(), e.url).toBe(200);
      expect(stale.headers()["etag"]).toBe(etag);
    }
  }
});

test("the ETag differs between the primary and the camelCase representation", async ({ request }) => {
  for (const e of endpointsOf(m)) {
    const primary = await request.get(e.url);
    const camel = await request.get(e.url, { headers: { Accept: CAMEL } });
    expect(camel.headers()["etag"], e.url).toMatch(WEAK_ETAG);
    expect(camel.headers()["etag"], e.url).not.toBe(primary.headers()["etag"]);
    // A cached primary representation is not valid for a camel request.
    const cross = await request.get(e.url, { headers: { Accept: CAMEL, "If-None-Match": primary.headers()["etag"] } });
    expect(cross.status(), e.url).toBe(200);
  }
});

test("the ETag changes when the data changes", async ({ request, sql }) => {
  const own = await makeFullMarket(sql);
  const url = `/v1/markets/${own.id}`;
  const before = (await request.get(url)).headers()["etag"];
  await sql.begin(async (tx) => {
    await tx`INSERT INTO comments (id, market_id, user_id, content, created_at) VALUES (${randomUUID()}, ${own.id}, ${own.users[0]}, 'new', now())`;
    // Like every write path: derived columns (comments_count) in the same transaction.
    await tx`SELECT refresh_market_derived(${[own.id]}::uuid[])`;
  });
  // The instance answers from memory until its LISTEN connection hears the commit (milliseconds later;
  // e2e/api/response-cache.spec.ts proves nothing older is served once it has): ask until it has.
  await expect
    .poll(async () => (await request.get(url, { headers: { "If-None-Match": before } })).status(), { timeout: 5_000, intervals: [20, 50, 100] })
    .toBe(200);
  const after = await request.get(url);
  expect(after.headers()["etag"]).not.toBe(before);
  expect((await request.get(url, { headers: { "If-None-Match": after.headers()["etag"] } })).status()).toBe(304);
});

test("Cache-Control suits each endpoint: short with stale-while-revalidate for list and market, shorter for book, history and trades", async ({ request }) => {
  const byKind = new Map<EndpointKind, Record<string, number | boolean>>();
  for (const e of endpointsOf(m)) {
    const cc = directives((await request.get(e.url)).headers()["cache-control"]);
    expect(cc.public, e.url).toBe(true);
    expect(cc["max-age"], e.url).toBeGreaterThan(0);
    expect(cc["stale-while-revalidate"], e.url).toBeGreaterThan(0);
    // Same kind, same policy (id and slug variants of one endpoint).
    if (byKind.has(e.kind)) expect(cc, e.url).toEqual(byKind.get(e.kind));
    byKind.set(e.kind, cc);
  }
  const maxAge = (k: EndpointKind) => byKind.get(k)!["max-age"] as number;
  expect(maxAge("list")).toBeLessThanOrEqual(60);
  expect(maxAge("market")).toBeLessThanOrEqual(60);
  expect(maxAge("book")).toBeLessThan(Math.min(maxAge("list"), maxAge("market")));
  expect(maxAge("history")).toBeLessThan(Math.min(maxAge("list"), maxAge("market")));
  expect(maxAge("trades")).toBeLessThan(Math.min(maxAge("list"), maxAge("market")));
  // A batch is cached like the single reads it is made of.
  expect(byKind.get("books")).toEqual(byKind.get("book"));
  // A past book or change page that may still change (the live end) is cached like the book.
  expect(byKind.get("past-book")).toEqual(byKind.get("book"));
  expect(byKind.get("book-changes")).toEqual(byKind.get("book"));
  expect(byKind.get("histories")).toEqual(byKind.get("history"));
  expect(directives((await request.get("/v1/openapi.json")).headers()["cache-control"])["max-age"]).toBeGreaterThan(maxAge("list"));
});

test("errors from /v1 are not stored and carry no ETag", async ({ request }) => {
  for (const url of ["/v1/markets?limit=101", "/v1/markets/not-a-uuid", `/v1/markets/${m.id}/orderbook`, "/v1/markets/slug", "/v1/unknown/path"]) {
    const res = await request.get(url);
    expect(res.status(), url).toBeGreaterThanOrEqual(400);
    expect(res.headers()["cache-control"], url).toBe("no-store");
    expect(res.headers()["etag"], url).toBeUndefined();
  }
});

test("Vary: Accept on every /v1 response: 200, 304, 4xx, HEAD and OPTIONS", async ({ request }) => {
  const urls = [...endpointsOf(m).map((e) => e.url), "/v1/openapi.json", "/v1/asyncapi.json", "/v1/markets?limit=0", "/v1/markets/not-a-uuid", "/v1/unknown"];
  for (const url of urls) {
    for (const accept of ["application/json", CAMEL]) {
      const res = await request.get(url, { headers: { Accept: accept } });
      expect(varyOf(res.headers()), url).toContain("accept");
      if (res.status() === 200) {
        const notModified = await request.get(url, { headers: { Accept: accept, "If-None-Match": res.headers()["etag"] } });
        expect(varyOf(notModified.headers()), url).toContain("accept");
      }
    }
    expect(varyOf((await request.head(url)).headers()), `HEAD ${url}`).toContain("accept");
    expect(varyOf((await request.fetch(url, { method: "OPTIONS" })).headers()), `OPTIONS ${url}`).toContain("accept");
  }
});

test("gzip and identity encodings share the weak ETag: the same JSON, and either validator gets a 304", async ({ request }) => {
  for (const url of ["/v1/markets?limit=20", `/v1/markets/${m.id}`, "/v1/openapi.json"]) {
    const plain = await rawGet(url, identity);
    expect(plain.headers["content-encoding"], url).toBeUndefined();
    const zipped = await rawGet(url, { "Accept-Encoding": "gzip" });
    expect(zipped.headers["content-encoding"], url).toBe("gzip");
    // The bytes on the wire: gzip of exactly the identity body, under the same validator.
    expect(gunzipSync(zipped.body).toString("utf8"), url).toBe(plain.body.toString("utf8"));
    expect(plain.headers.etag, url).toMatch(WEAK_ETAG);
    expect(zipped.headers.etag, url).toBe(plain.headers.etag);
    for (const encoding of ["gzip", "identity"]) {
      const res = await request.get(url, { headers: { "Accept-Encoding": encoding, "If-None-Match": plain.headers.etag! } });
      expect(res.status(), `${url} ${encoding}`).toBe(304);
    }
  }
});

test("HEAD answers with the headers of GET and no body", async ({ request }) => {
  const url = `/v1/markets/${m.id}`;
  const [get, head] = [await request.get(url), await request.head(url)];
  expect(head.status()).toBe(200);
  expect(head.headers()["etag"]).toBe(get.headers()["etag"]);
  expect(head.headers()["cache-control"]).toBe(get.headers()["cache-control"]);
  expect((await head.body()).length).toBe(0);
});
