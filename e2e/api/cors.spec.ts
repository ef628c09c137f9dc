// CORS: /v1 is public data, readable by scripts of any origin with GET (incl. conditional requests);
// nothing else on the site opens itself to other origins.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "../fixtures";
import { endpointsOf } from "../support/api";
import { makeFullMarket, type FullMarket } from "../support/markets";

const ORIGIN = "https://third-party.example";

let m: FullMarket;
test.beforeAll(async ({ sql }) => {
  m = await makeFullMarket(sql);
});

test("GET /v1 – Access-Control-Allow-Origin * on successes and errors, ETag exposed to scripts", async ({ request }) => {
  const urls = [...endpointsOf(m).map((e) => e.url), "/v1/openapi.json", "/v1/asyncapi.json", "/v1/markets?limit=0", "/v1/markets/not-a-uuid", "/v1/nowhere"];
  for (const url of urls) {
    const res = await request.get(url, { headers: { Origin: ORIGIN } });
    expect(res.headers()["access-control-allow-origin"], url).toBe("*");
    expect(res.headers()["access-control-expose-headers"]?.toLowerCase(), url).toContain("etag");
    expect(res.headers()["access-control-allow-credentials"], url).toBeUndefined();
  }
});

test("OPTIONS /v1 – answers the preflight of a conditional GET", async ({ request }) => {
  for (const url of [...endpointsOf(m).map((e) => e.url), "/v1/openapi.json", "/v1/asyncapi.json"]) {
    const res = await request.fetch(url, {
      method: "OPTIONS",
      headers: { Origin: ORIGIN, "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "if-none-match" },
    });
    expect(res.status(), url).toBe(204);
    const h = res.headers();
    expect(h["access-control-allow-origin"], url).toBe("*");
    expect(h["access-control-allow-methods"].split(/,\s*/), url).toEqual(expect.arrayContaining(["GET", "HEAD"]));
    expect(h["access-control-allow-methods"], url).not.toMatch(/POST|PUT|PATCH|DELETE/);
    expect(h["access-control-allow-headers"], url).toBe("*");
  }
});

test("paths outside /v1 send no CORS headers", async ({ request }) => {
  for (const url of ["/healthz", "/readyz", "/docs", "/"]) {
    const get = await request.get(url, { headers: { Origin: ORIGIN } });
    expect(get.status(), url).toBe(200);
    expect(get.headers()["access-control-allow-origin"], url).toBeUndefined();
  }
  for (const url of ["/healthz", "/readyz"]) {
    const preflight = await request.fetch(url, {
      method: "OPTIONS",
      headers: { Origin: ORIGIN, "Access-Control-Request-Method": "GET" },
    });
    expect(preflight.headers()["access-control-allow-origin"], url).toBeUndefined();
  }
});

test("a page of another origin can read /v1 with a conditional request, but not other paths (real browser)", async ({ page, baseURL }) => {
  // A blank page served on another port, hence another origin; its fetches to our server are real
  // cross-origin requests, preflights included. (A real loopback server: Chromium refuses requests into
  // the loopback address space from pages it cannot place there.)
  const other = http.createServer((_req, res) => res.writeHead(200, { "Content-Type": "text/html" }).end("<!doctype html><title>x</title>"));
  await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
  const foreign = `http://127.0.0.1:${(other.address() as AddressInfo).port}/`;
  expect(new URL(foreign).origin).not.toBe(new URL(baseURL!).origin);
  await page.goto(foreign);
  const result = await page.evaluate(
    async ({ base, id }) => {
      const first = await fetch(`${base}/v1/markets/${id}`);
      const etag = first.headers.get("etag");
      const body = await first.json();
      // If-None-Match is not a safelisted header: this one needs the preflight.
      const again = await fetch(`${base}/v1/markets/${id}`, { headers: { "If-None-Match": etag ?? "" }, cache: "no-store" });
      let healthz = "readable";
      try {
        await fetch(`${base}/healthz`);
      } catch {
        healthz = "blocked";
      }
      return { status: first.status, id: body.id, etag, againStatus: again.status, healthz };
    },
    { base: baseURL!, id: m.id },
  );
  expect(result.status).toBe(200);
  expect(result.id).toBe(m.id);
  expect(result.etag).toMatch(/^W\/"/);
  expect(result.againStatus).toBe(304);
  expect(result.healthz).toBe("blocked");
  other.close();
});
