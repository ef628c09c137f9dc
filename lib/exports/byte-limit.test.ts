import { EventEmitter } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { exportByteLimit } from "./byte-limit";

/** A request and a response as far as the byte limit reads them; `send` finishes the response with a status and a length. */
function exchange(url: string, { method = "GET", address = "203.0.113.7" } = {}) {
  const req = { method, url, headers: {}, socket: { remoteAddress: address } } as unknown as IncomingMessage;
  const headers: Record<string, string | number> = {};
  const answered: { status?: number; headers?: Record<string, string | number>; body?: string } = {};
  const res = Object.assign(new EventEmitter(), {
    statusCode: 200,
    getHeader: (name: string) => headers[name.toLowerCase()],
    writeHead: (status: number, h: Record<string, string | number>) => Object.assign(answered, { status, headers: h }),
    end: (body: string) => (answered.body = body),
  });
  const send = (status: number, bytes: number) => {
    res.statusCode = status;
    headers["content-length"] = bytes;
    res.emit("finish");
  };
  return { req, res: res as unknown as ServerResponse, answered, send };
}

const FILE = "/v1/exports/trades/2026-01-02.parquet";

function limited() {
  let t = 1000;
  const limit = exportByteLimit({ bytesPerS: 1000, burstBytes: 10_000, trustProxy: null, maxKeys: 100, now: () => t });
  const get = (url = FILE, opts?: { method?: string; address?: string }) => {
    const x = exchange(url, opts);
    return { refused: limit(x.req, x.res), ...x };
  };
  return { get, advance: (s: number) => (t += s) };
}

describe("export byte limit – downloads are charged the bytes they are sent", () => {
  it("lets a download start while bytes are left, then answers 429 with Retry-After until the debt is paid back", () => {
    const { get, advance } = limited();
    const first = get();
    expect(first.refused).toBe(false);
    first.send(200, 25_000); // 15,000 bytes in debt
    const refused = get();
    expect(refused.refused).toBe(true);
    expect(refused.answered.status).toBe(429);
    expect(refused.answered.headers?.["Retry-After"]).toBe("16"); // (15,000 + 1) / 1,000 bytes a second
    expect(JSON.parse(refused.answered.body!)).toMatchObject({ statusCode: 429 });
    advance(15);
    expect(get().refused).toBe(true);
    advance(1);
    expect(get().refused).toBe(false); // refilled at the configured rate
  });

  it("charges a 206 by its Content-Length; HEAD, 304, errors and other paths cost nothing", () => {
    const { get } = limited();
    get().send(206, 9_000);
    get().send(304, 0);
    get().send(404, 50_000);
    get(FILE, { method: "HEAD" }).send(200, 50_000);
    get("/v1/exports").send(200, 50_000);
    expect(get().refused).toBe(false); // 1,000 bytes left
    get().send(200, 1_000);
    expect(get().refused).toBe(true);
    expect(get("/v1/exports").refused).toBe(false); // the index is not a file
    expect(get(FILE, { method: "HEAD" }).refused).toBe(false);
  });

  it("keeps one budget per client", () => {
    const { get } = limited();
    get().send(200, 20_000);
    expect(get().refused).toBe(true);
    expect(get(FILE, { address: "198.51.100.1" }).refused).toBe(false);
  });
});
