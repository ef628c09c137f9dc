import fs from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { acceptsBrotli, staticBrotli } from "./static-brotli";

const dist = fs.mkdtempSync(path.join(os.tmpdir(), "static-brotli-"));
afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));
const script = "export const answer = () => 42;\n".repeat(200);
fs.mkdirSync(path.join(dist, "static", "chunks"), { recursive: true });
fs.writeFileSync(path.join(dist, "static", "chunks", "a.js"), script);
fs.writeFileSync(path.join(dist, "static", "chunks", "tiny.js"), "1");

function call(handler: (req: IncomingMessage, res: ServerResponse) => boolean, url: string, headers: Record<string, string>) {
  const res = { statusCode: 200, headers: {} as Record<string, unknown>, body: undefined as Buffer | undefined };
  const handled = handler(
    { method: "GET", url, headers } as unknown as IncomingMessage,
    {
      setHeader: (k: string, v: unknown) => void (res.headers[k.toLowerCase()] = v),
      end: (b?: Buffer) => void (res.body = b),
      set statusCode(s: number) {
        res.statusCode = s;
      },
    } as unknown as ServerResponse,
  );
  return { handled, ...res };
}

describe("acceptsBrotli", () => {
  it("takes br with or without a weight above 0, nothing else", () => {
    for (const h of ["br", "gzip, deflate, br, zstd", "gzip;q=1.0, br;q=0.5"]) expect(acceptsBrotli(h), h).toBe(true);
    for (const h of [undefined, "", "gzip, deflate", "br;q=0", "gzip, br;q=0.0", "brotli"]) expect(acceptsBrotli(h), String(h)).toBe(false);
  });
});

describe("staticBrotli", () => {
  it("answers a build script in Brotli to a browser that takes it, and leaves the rest to Next", async () => {
    const handler = await staticBrotli(dist);
    const r = call(handler, "/_next/static/chunks/a.js?v=1", { "accept-encoding": "gzip, deflate, br, zstd" });
    expect(r.handled).toBe(true);
    expect(r.headers["content-encoding"]).toBe("br");
    expect(r.headers["content-type"]).toBe("application/javascript; charset=UTF-8");
    expect(r.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(zlib.brotliDecompressSync(r.body!).toString()).toBe(script);
    expect(r.headers["content-length"]).toBe(r.body!.length);
    // Revalidation with its validator: 304, no body.
    const again = call(handler, "/_next/static/chunks/a.js", { "accept-encoding": "br", "if-none-match": String(r.headers.etag) });
    expect([again.handled, again.statusCode, again.body]).toEqual([true, 304, undefined]);
    // Kept beside the build: a second start reads it.
    expect(fs.existsSync(path.join(dist, "cache", "brotli", "chunks", "a.js.br"))).toBe(true);
    expect(call(await staticBrotli(dist), "/_next/static/chunks/a.js", { "accept-encoding": "br" }).body).toEqual(r.body);
    // Next answers: no br, a range, a file Brotli would not make smaller, anything else.
    expect(call(handler, "/_next/static/chunks/a.js", { "accept-encoding": "gzip" }).handled).toBe(false);
    expect(call(handler, "/_next/static/chunks/a.js", { "accept-encoding": "br", range: "bytes=0-9" }).handled).toBe(false);
    expect(call(handler, "/_next/static/chunks/tiny.js", { "accept-encoding": "br" }).handled).toBe(false);
    expect(call(handler, "/_next/static/chunks/none.js", { "accept-encoding": "br" }).handled).toBe(false);
    expect(call(handler, "/markets/x", { "accept-encoding": "br" }).handled).toBe(false);
  });
});
