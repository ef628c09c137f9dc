import type http from "node:http";
import { describe, expect, it } from "vitest";
import { warmUp } from "./warm-up";

describe("warmUp", () => {
  it("asks for every path on a loopback port it closes afterwards, at most `concurrency` at once", async () => {
    const seen: string[] = [];
    let inFlight = 0;
    let most = 0;
    let port = 0;
    const listener: http.RequestListener = (req, res) => {
      port = req.socket.localPort ?? 0;
      seen.push(req.url ?? "");
      most = Math.max(most, ++inFlight);
      setTimeout(() => {
        inFlight--;
        res.writeHead(req.url === "/missing" ? 404 : 200, { "content-type": "text/html" }).end("<p>page</p>");
      }, 5);
    };
    const paths = ["/", "/?page=2", ...Array.from({ length: 10 }, (_, i) => `/markets/m-${i}`), "/missing"];
    const r = await warmUp(listener, paths, { concurrency: 3 });
    expect([...seen].sort()).toEqual([...paths].sort());
    expect(most).toBe(3);
    expect(r).toMatchObject({ rendered: 12, failed: 1, skipped: 0 });
    // The port is closed: a new connection is refused.
    await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();
  });

  it("stops at the deadline: requests in flight are aborted, the rest not asked, and it returns", async () => {
    const seen: string[] = [];
    const listener: http.RequestListener = (req) => void seen.push(req.url ?? ""); // never answers
    const started = performance.now();
    const r = await warmUp(listener, ["/a", "/b", "/c", "/d", "/e"], { concurrency: 2, deadlineMs: 300 });
    expect(performance.now() - started).toBeLessThan(3000);
    expect(seen.sort()).toEqual(["/a", "/b"]);
    expect(r).toMatchObject({ rendered: 0, failed: 0, skipped: 5 });
  });

  it("returns at the deadline even when a request never settles, aborted or not", async () => {
    let asked = 0;
    const never = (() => (asked++, new Promise<Response>(() => {}))) as typeof fetch;
    const started = performance.now();
    const r = await warmUp(() => {}, ["/a", "/b", "/c"], { concurrency: 2, deadlineMs: 200, fetch: never });
    expect(performance.now() - started).toBeLessThan(3000);
    expect(asked).toBe(2);
    expect(r).toMatchObject({ rendered: 0, failed: 0, skipped: 3 });
  });

  it("asks the paths again, pass after pass, until `renders` requests were made", async () => {
    const seen: string[] = [];
    const listener: http.RequestListener = (req, res) => {
      seen.push(req.url ?? "");
      res.writeHead(200, { "content-type": "text/html" }).end("<p>page</p>");
    };
    const r = await warmUp(listener, ["/a", "/b", "/c"], { concurrency: 2, renders: 8 });
    // Two at once, so they may arrive in another order: counted. The third pass is begun in order.
    expect(seen.filter((p) => p === "/a").length).toBe(3);
    expect(seen.filter((p) => p === "/b").length).toBe(3);
    expect(seen.filter((p) => p === "/c").length).toBe(2);
    expect(r).toMatchObject({ rendered: 8, failed: 0, skipped: 0 });
    // Fewer renders than paths: every path is still asked once.
    seen.length = 0;
    expect(await warmUp(listener, ["/a", "/b", "/c"], { renders: 1 })).toMatchObject({ rendered: 3 });
    expect(seen.sort()).toEqual(["/a", "/b", "/c"]);
  });

  it("counts the renders the deadline left out, passes included", async () => {
    const listener: http.RequestListener = (req) => void req; // never answers
    const r = await warmUp(listener, ["/a", "/b"], { concurrency: 1, renders: 6, deadlineMs: 200 });
    expect(r).toMatchObject({ rendered: 0, failed: 0, skipped: 6 });
  });

  it("does nothing for no paths", async () => {
    expect(await warmUp(() => {}, [])).toMatchObject({ rendered: 0, failed: 0, skipped: 0 });
  });
});
