import { execFileSync } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { route } from "@/lib/api/route";
import { reportCacheResult } from "@/lib/cache/request-status";
import { ResponseCache } from "@/lib/cache/response-cache";
import { apiRouter, bySpecificity, matchRoute, ROUTED_FOLDERS, scanApiRoutes } from "./api-router";

const appDir = path.resolve(import.meta.dirname, "../../app");
const routes = scanApiRoutes(appDir);
const match = (p: string) => {
  const m = matchRoute(routes, p);
  return m && { folder: m.route.folder, params: m.params };
};

describe("the /v1 and probe routes, matched as Next matches its app directory", () => {
  it("finds every route.ts under app/v1, app/healthz and app/readyz", () => {
    const files = execFileSync("find", ROUTED_FOLDERS.map((f) => path.join(appDir, f)).concat("-name", "route.ts"), { encoding: "utf8" })
      .trim()
      .split("\n");
    expect(routes.map((r) => r.file).sort()).toEqual(files.sort());
  });

  it.each([
    ["/v1/markets", "v1/markets", {}],
    ["/v1/markets/slug", "v1/markets/slug", {}],
    ["/v1/markets/slug/will-it", "v1/markets/slug/[slug]", { slug: "will-it" }],
    ["/v1/markets/slug/will-it/orderbook/at", "v1/markets/slug/[slug]/orderbook/at", { slug: "will-it" }],
    // A static segment wins over the market id at the same place, as in Next: the feed is not a market named "changes".
    ["/v1/markets/changes", "v1/markets/changes", {}],
    ["/v1/markets/changes/orderbook", "v1/markets/[id]/orderbook", { id: "changes" }],
    ["/v1/markets/abc", "v1/markets/[id]", { id: "abc" }],
    ["/v1/markets/abc/orderbook", "v1/markets/[id]/orderbook", { id: "abc" }],
    ["/v1/markets/abc/trades", "v1/markets/[id]/trades", { id: "abc" }],
    ["/v1/markets/a%20b%2Fc/candles", "v1/markets/[id]/candles", { id: "a b/c" }],
    ["/v1/openapi.json", "v1/openapi.json", {}],
    ["/v1/asyncapi.json", "v1/asyncapi.json", {}],
    ["/v1/orderbooks", "v1/orderbooks", {}],
    ["/v1", "v1/[[...path]]", {}],
    ["/v1/nope", "v1/[[...path]]", { path: ["nope"] }],
    ["/v1/markets/abc/nope", "v1/[[...path]]", { path: ["markets", "abc", "nope"] }],
    ["/v1/markets/slug/x/orderbook/at/more", "v1/[[...path]]", { path: ["markets", "slug", "x", "orderbook", "at", "more"] }],
    ["/healthz", "healthz", {}],
    ["/readyz", "readyz", {}],
  ])("%s → %s", (p, folder, params) => {
    expect(match(p)).toEqual({ folder, params });
  });

  it("prefers static over dynamic over catch-all at the first segment that differs, and needs a segment for [...x]", () => {
    const table = [{ folder: "v1/[...rest]" }, { folder: "v1/[id]/x" }, { folder: "v1/[id]" }, { folder: "v1/a/[id]" }, { folder: "v1/a/b" }].map((r) => ({
      ...r,
      segments: r.folder.split("/").map((name) => {
        const all = /^\[\.\.\.(.+)\]$/.exec(name);
        if (all) return { kind: "catchAll" as const, name: all[1], optional: false };
        const param = /^\[(.+)\]$/.exec(name);
        return param ? { kind: "param" as const, name: param[1] } : { kind: "static" as const, value: name };
      }),
    }));
    const sorted = [...table].sort(bySpecificity);
    const at = (p: string) => matchRoute(sorted, p)?.route.folder ?? null;
    expect(at("/v1/a/b")).toBe("v1/a/b");
    expect(at("/v1/a/c")).toBe("v1/a/[id]");
    expect(at("/v1/a")).toBe("v1/[id]");
    expect(at("/v1/q/x")).toBe("v1/[id]/x");
    expect(at("/v1/q/y")).toBe("v1/[...rest]");
    expect(at("/v1")).toBeNull();
  });
});

describe("which requests the router answers", () => {
  // Two routed folders with one route each, over real HTTP; what the router leaves goes to a 404 here (Next's place).
  // One answers with a promise, one without (as app/healthz does): Next takes both.
  const ok = () => Response.json({ ok: true }, { headers: { "Cache-Control": "no-store" } });
  const okLater = async () => ok();
  // A file: a stream of its own length, counted as it is pulled (HEAD must not pull it).
  let pulled = 0;
  const fileAnswer = () => {
    const body = new ReadableStream<Uint8Array>(
      {
        pull(c) {
          pulled++;
          c.enqueue(new Uint8Array(3000).fill(7));
          c.close();
        },
      },
      { highWaterMark: 0 },
    );
    return Promise.resolve(new Response(body, { headers: { "Content-Type": "application/vnd.apache.parquet", "Content-Length": "3000" } }));
  };
  const routes = [
    {
      folder: "v1/file",
      segments: [
        { kind: "static" as const, value: "v1" },
        { kind: "static" as const, value: "file" },
      ],
      module: { GET: fileAnswer },
    },
    {
      folder: "v1/[[...path]]",
      segments: [
        { kind: "static" as const, value: "v1" },
        { kind: "catchAll" as const, name: "path", optional: true },
      ],
      module: { GET: okLater },
    },
    { folder: "healthz", segments: [{ kind: "static" as const, value: "healthz" }], module: { GET: ok } },
  ];
  const router = apiRouter(routes);
  const ask = (path: string, method = "GET") =>
    new Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
      const server = http.createServer((req, res) => {
        if (!router(req, res)) res.writeHead(404).end("left to Next");
      });
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo;
        const req = http.request({ host: "127.0.0.1", port, path, method }, (res) => {
          let body = "";
          res.on("data", (d) => (body += d));
          res.on("end", () => {
            server.close();
            resolve({ status: res.statusCode ?? 0, body, headers: res.headers });
          });
        });
        req.on("error", reject);
        req.end();
      });
    });

  it.each(["/healthz", "/healthz?probe=1", "/v1", "/v1?x=1", "/v1/anything"])("answers %s from its route", async (p) => {
    const res = await ask(p);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ ok: true });
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.headers.vary).toBe("Accept-Encoding");
  });

  it.each(["/", "/healthzx", "/v10", "/readyz", "/markets/healthz", "http://127.0.0.1/healthz"])("leaves %s to Next", async (p) => {
    expect((await ask(p)).status).toBe(404);
  });

  it("streams a body that is not JSON as the handler sized it, never gzipped, and HEAD leaves it unread", async () => {
    pulled = 0;
    const get = await ask("/v1/file");
    expect(get.status).toBe(200);
    expect(get.body.length).toBe(3000);
    expect(get.headers["content-length"]).toBe("3000");
    expect(get.headers["content-encoding"]).toBeUndefined();
    const before = pulled;
    const head = await ask("/v1/file", "HEAD");
    expect(head.headers["content-length"]).toBe("3000");
    expect(head.body).toBe("");
    expect(pulled).toBe(before);
  });

  it("answers HEAD from GET without the body, and leaves a method no module exports", async () => {
    const head = await ask("/healthz", "HEAD");
    expect(head.status).toBe(200);
    expect(head.body).toBe("");
    expect((await ask("/healthz", "OPTIONS")).status).toBe(404);
  });
});

describe("a /v1 answer through the route wrapper and the router", () => {
  // A read as lib/markets/reads/ makes it (a response cache, the answer told to the request), behind a route() handler.
  const cache = new ResponseCache({ maxBytes: 1_000_000, staleIfErrorMs: 0, canServeStale: () => false });
  cache.setLive(true);
  let market = { id: "m1", question: "Will it rain?", pad: "x".repeat(2000) };
  const GET = route({ cache: "market", offline: true }, async () => {
    const result = await cache.get("m1", ["market:m1"], async () => ({ value: market }));
    reportCacheResult(result);
    return result.value;
  });
  const router = apiRouter([
    {
      folder: "v1/m",
      segments: [
        { kind: "static", value: "v1" },
        { kind: "static", value: "m" },
      ],
      module: { GET } as Parameters<typeof apiRouter>[0][number]["module"],
    },
  ]);
  const server = http.createServer((req, res) => {
    if (!router(req, res)) res.writeHead(404).end();
  });
  const ask = (method: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; body: Buffer; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
      const go = () => {
        const { port } = server.address() as AddressInfo;
        const req = http.request({ host: "127.0.0.1", port, path: "/v1/m", method, headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (d: Buffer) => chunks.push(d));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), headers: res.headers }));
        });
        req.on("error", reject);
        req.end();
      };
      if (server.listening) go();
      else server.listen(0, "127.0.0.1", go);
    });

  it("writes the body its ETag names, HEAD and 304 alike, and a changed answer with a new body and ETag", async () => {
    try {
      const first = await ask("GET");
      expect(first.status).toBe(200);
      expect(JSON.parse(first.body.toString())).toEqual(market);
      expect(first.headers["content-length"]).toBe(String(first.body.length));
      const hit = await ask("GET");
      expect(hit.body.equals(first.body)).toBe(true);
      expect(hit.headers.etag).toBe(first.headers.etag);
      const head = await ask("HEAD");
      expect(head.body.length).toBe(0);
      expect(head.headers.etag).toBe(first.headers.etag);
      expect(head.headers["content-length"]).toBe(first.headers["content-length"]);
      const gz = await ask("GET", { "accept-encoding": "gzip" });
      expect(gz.headers["content-encoding"]).toBe("gzip");
      expect(zlib.gunzipSync(gz.body).equals(first.body)).toBe(true);
      expect((await ask("GET", { "if-none-match": first.headers.etag! })).status).toBe(304);

      market = { ...market, question: "Will it snow?" };
      cache.invalidate(["market:m1"]);
      for (const res of [await ask("GET"), await ask("GET")]) {
        expect(JSON.parse(res.body.toString()).question).toBe("Will it snow?");
        expect(res.headers.etag).not.toBe(first.headers.etag);
      }
      const gzChanged = await ask("GET", { "accept-encoding": "gzip" });
      expect(JSON.parse(zlib.gunzipSync(gzChanged.body).toString()).question).toBe("Will it snow?");
      expect((await ask("GET", { "if-none-match": first.headers.etag! })).status).toBe(200);
    } finally {
      server.close();
    }
  });
});
