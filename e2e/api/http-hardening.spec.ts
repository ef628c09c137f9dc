// What reaches the server that no page or client library would send: undecodable paths, other methods,
// slashes and dot segments on /v1, prototype keys. Each gets a 4xx of its own, never a 500 or a redirect.
import { expect, test } from "../fixtures";
import { errorBodySchema } from "@/lib/markets/schemas";
import { makeFullMarket, type FullMarket } from "../support/markets";
import { rawRequest } from "../support/raw-http";

let m: FullMarket;
test.beforeAll(async ({ sql }) => {
  m = await makeFullMarket(sql);
});

test("pages – an undecodable path is a 400, not a 500", async ({ baseURL }) => {
  for (const path of ["/markets/%%", "/markets/%E0%A4%A", "/%", "/docs/%C0"]) {
    const res = await rawRequest(baseURL!, "GET", path);
    expect(res.status, path).toBe(400);
    expect(res.body, path).toMatch(/malformed URL/);
  }
});

test("every method other than GET, HEAD and OPTIONS – 405 with Allow on every route, JSON on /v1", async ({ baseURL }) => {
  for (const method of ["TRACE", "POST", "PUT", "DELETE", "PATCH", "PROPFIND"]) {
    for (const path of ["/v1/markets", `/v1/markets/${m.id}`, "/v1/nowhere"]) {
      const res = await rawRequest(baseURL!, method, path);
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.allow, `${method} ${path}`).toBe("GET, HEAD, OPTIONS");
      expect(res.headers["access-control-allow-origin"]).toBe("*");
      expect(errorBodySchema.parse(JSON.parse(res.body))).toEqual({ statusCode: 405, message: `Cannot ${method} ${path}`, error: "Method Not Allowed" });
    }
    for (const path of ["/", `/markets/${m.slug}`, "/docs", "/healthz", "/readyz"]) {
      const res = await rawRequest(baseURL!, method, path);
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.allow, `${method} ${path}`).toBe("GET, HEAD, OPTIONS");
    }
  }
});

test("OPTIONS on a page – 204 with Allow, no CORS", async ({ baseURL }) => {
  const res = await rawRequest(baseURL!, "OPTIONS", "/", { Origin: "https://third-party.example" });
  expect(res.status).toBe(204);
  expect(res.headers.allow).toBe("GET, HEAD, OPTIONS");
  expect(res.headers["access-control-allow-origin"]).toBeUndefined();
});

test("GET /v1 – ?__proto__ is refused like any unknown key, on every endpoint", async ({ request }) => {
  for (const qs of ["__proto__=1", "limit=1&%5F%5Fproto%5F%5F=2", "__proto__[limit]=1", "constructor=1"]) {
    const res = await request.get(`/v1/markets?${qs}`);
    expect(res.status(), qs).toBe(400);
    const key = decodeURIComponent(qs.split("&").pop()!.split("=")[0]);
    expect((await res.json()).message, qs).toEqual([`property ${key} should not exist`]);
  }
  // Book and history ignore unknown parameters, but __proto__ would vanish unseen before validation: refused too.
  const res = await request.get(`/v1/markets/${m.id}/orderbook?outcomeId=${m.outcomes[0]}&__proto__=1`);
  expect(res.status()).toBe(400);
  expect((await res.json()).message).toEqual(["property __proto__ should not exist"]);
  // The tape and the batches refuse unknown keys like the list.
  for (const url of [
    `/v1/markets/${m.id}/trades?__proto__=1`,
    `/v1/orderbooks?outcomeIds=${m.outcomes[0]}&__proto__=1`,
    `/v1/prices-history?outcomeIds=${m.outcomes[0]}&constructor=1`,
  ]) {
    const r = await request.get(url);
    expect(r.status(), url).toBe(400);
    expect((await r.json()).message[0], url).toMatch(/^property (__proto__|constructor) should not exist$/);
  }
});

test("/v1 with a trailing slash – a JSON 404 naming the path without it, never a redirect (preflights included)", async ({ baseURL }) => {
  for (const method of ["GET", "HEAD", "OPTIONS"]) {
    for (const path of ["/v1/markets/", `/v1/markets/${m.id}/`, "/v1/"]) {
      const res = await rawRequest(baseURL!, method, path, { Origin: "https://third-party.example", "Access-Control-Request-Method": "GET" });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.headers.location).toBeUndefined();
      expect(res.headers["access-control-allow-origin"]).toBe("*");
      if (method !== "HEAD") expect(errorBodySchema.parse(JSON.parse(res.body)).message, path).toMatch(/^Cannot \w+ \/v1.*\//);
    }
  }
  const res = await rawRequest(baseURL!, "GET", "/v1/markets/");
  expect(JSON.parse(res.body).message).toBe("Cannot GET /v1/markets/ (no trailing slash: /v1/markets)");
});

test("/v1 paths never resolve outside /v1", async ({ baseURL }) => {
  for (const path of [
    "/v1/%2e%2e",
    "/v1/..",
    "/v1/%2E%2E/docs",
    "/v1/.%2e/",
    "/v1/markets/..%2f..%2fdocs",
    "/v1%2f..%2f",
    "/v1\\..\\docs",
    "/v1/markets/%2e",
    "//v1/markets",
    "/v1//markets",
    "/x/../v1/markets",
    "/%2e%2e/v1/markets",
  ]) {
    const res = await rawRequest(baseURL!, "GET", path);
    expect(res.status, path).toBe(404);
    expect(res.headers["content-type"], path).toMatch(/^application\/json/);
    errorBodySchema.parse(JSON.parse(res.body));
  }
});

test("GET /v1 – a javascript: URL already stored is never handed out (image, video, avatars)", async ({ request, sql }) => {
  const evil = await makeFullMarket(sql);
  await sql`UPDATE markets SET image_url = 'javascript:alert(1)', video_url = ' JAVASCRIPT:alert(1)', video_poster_url = 'data:image/svg+xml,<svg onload=alert(1)>' WHERE id = ${evil.id}`;
  await sql`UPDATE outcomes SET image_url = 'java	script:alert(1)' WHERE market_id = ${evil.id}`;
  await sql`UPDATE users SET profile_image_url = 'vbscript:msgbox(1)' WHERE id = ANY(${evil.users})`;
  const market = await (await request.get(`/v1/markets/${evil.id}`)).json();
  expect(market.image_url).toBe("");
  expect(market.video_url).toBeNull();
  expect(market.video_poster_url).toBeNull();
  expect(market.video_source_url).toBe("https://video.example/source");
  expect(market.outcomes.map((o: { image_url: string | null }) => o.image_url)).toEqual([null, null]);
  for (const c of market.comments) expect(c.user.profile_image_url).toBeNull();
  for (const t of market.top_traders) expect(t.profile_image_url).toBeNull();
  const list = await (await request.get(`/v1/markets?q=${evil.token}`)).json();
  expect(list.markets[0].image_url).toBe("");
  expect(JSON.stringify([market, list])).not.toMatch(/script:|data:/i);
});

test("security headers – pages and /docs carry a nonce CSP and the hardening headers; /v1 keeps CORS and gets nosniff", async ({ request }) => {
  const nonces = new Set<string>();
  for (const path of ["/", `/markets/${m.slug}`, "/docs", "/docs"]) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(200);
    const h = res.headers();
    const csp = h["content-security-policy"];
    expect(csp, path).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
    expect(csp, path).toContain("frame-ancestors 'none'");
    expect(csp, path).toContain("object-src 'none'");
    expect(csp, path).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(h["x-content-type-options"], path).toBe("nosniff");
    expect(h["referrer-policy"], path).toBe("strict-origin-when-cross-origin");
    expect(h["permissions-policy"], path).toContain("camera=()");
    expect(h["x-frame-options"], path).toBe("DENY");
    const nonce = /'nonce-([^']+)'/.exec(csp)![1];
    nonces.add(nonce);
    // Every script of the document carries this response's nonce.
    const html = await res.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((s) => s[0]);
    expect(scripts.length, path).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag, path).toContain(`nonce="${nonce}"`);
  }
  expect(nonces.size, "a fresh nonce per response").toBe(4);
  const api = await request.get("/v1/markets?limit=1");
  expect(api.headers()["x-content-type-options"]).toBe("nosniff");
  expect(api.headers()["access-control-allow-origin"]).toBe("*");
  expect(api.headers()["content-security-policy"]).toBeUndefined();
});

test("icons – /favicon.ico, /icon.svg and /apple-icon.png are served, and pages link them", async ({ request }) => {
  const ico = await request.get("/favicon.ico");
  expect(ico.status()).toBe(200);
  expect(ico.headers()["content-type"]).toMatch(/image\/(x-icon|vnd\.microsoft\.icon)/);
  expect((await ico.body()).subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0]));
  const html = await (await request.get("/")).text();
  for (const [rel, type] of [
    ["icon", "image/svg+xml"],
    ["apple-touch-icon", "image/png"],
  ]) {
    const href = new RegExp(`<link rel="${rel}" href="([^"]+)"[^>]*type="${type.replace("+", "\\+")}"`).exec(html)?.[1];
    expect(href, rel).toBeTruthy();
    const res = await request.get(href!);
    expect(res.status(), href).toBe(200);
    expect(res.headers()["content-type"], href).toContain(type);
  }
});
