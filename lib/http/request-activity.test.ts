import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { requestActivity } from "./request-activity";

describe("request activity – who is told of the requests in flight", () => {
  it("tells a listener of each request once it starts and once it is answered or dropped, and nothing after it left", async () => {
    const requests = requestActivity();
    const seen: string[] = [];
    const off = requests.subscribe({ started: () => seen.push("started"), finished: () => seen.push("finished") });
    const server = http.createServer((req, res) => {
      requests.track(req, res);
      if (req.url === "/answer") res.end("ok");
      // "/hang" is never answered: its client goes away.
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      await (await fetch(`${origin}/answer`)).text();
      await expect.poll(() => seen).toEqual(["started", "finished"]);

      const gone = new AbortController();
      const hanging = fetch(`${origin}/hang`, { signal: gone.signal }).catch(() => "aborted");
      await expect.poll(() => seen.length).toBe(3);
      gone.abort();
      expect(await hanging).toBe("aborted");
      await expect.poll(() => seen).toEqual(["started", "finished", "started", "finished"]);

      off();
      await (await fetch(`${origin}/answer`)).text();
      await new Promise((r) => setTimeout(r, 50));
      expect(seen).toHaveLength(4);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
