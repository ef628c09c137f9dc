import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { logRequest } from "./request-log";

describe("logRequest – one JSON line per request, over a real http server", () => {
  it("writes method, path without query, status and duration once the response is done", async () => {
    const lines: string[] = [];
    const server = http.createServer((req, res) => {
      logRequest(req, res, (l) => lines.push(l));
      res.statusCode = 418;
      res.end("teapot");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    await fetch(`http://127.0.0.1:${port}/v1/markets?q=private`);
    await expect.poll(() => lines.length).toBe(1);
    server.close();
    expect(lines[0].endsWith("\n")).toBe(true);
    const entry = JSON.parse(lines[0]);
    expect(entry).toEqual({ time: expect.any(String), method: "GET", path: "/v1/markets", status: 418, durationMs: expect.any(Number) });
    expect(lines[0]).not.toContain("private");
  });
});
