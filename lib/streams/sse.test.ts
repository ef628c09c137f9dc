// GET /v1/stream's heartbeats (docs/api.md "Push channels"): a stream with nothing to send hears the
// position it is at before it has been quiet for the heartbeat interval, whenever it was opened.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "vitest";
import { sleep } from "@/lib/dev/tools";
import type { StreamHub } from "./hub";
import { sseEndpoint } from "./sse";

const INTERVAL = 600;
const quietHub = { subscribe: () => ({ close: () => {}, position: () => 42 }) } as unknown as StreamHub;

test("stream – a quiet stream hears a heartbeat with its position at least every interval", async () => {
  const sse = sseEndpoint({ hub: quietHub, trustProxy: null, heartbeatMs: INTERVAL });
  const server = http.createServer((req, res) => void (sse.handle(req, res) || res.writeHead(404).end()));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const heard: number[] = [];
  let text = "";
  const req = http.get(`http://127.0.0.1:${port}/v1/stream?channels=markets`, (res) => {
    res.setEncoding("utf8");
    res.on("data", (chunk: string) => {
      text += chunk;
      for (let i = chunk.indexOf("event: heartbeat"); i >= 0; i = chunk.indexOf("event: heartbeat", i + 1)) heard.push(Date.now());
    });
  });
  try {
    await sleep(INTERVAL * 5);
    const gaps = heard.slice(1).map((t, i) => t - heard[i]);
    expect(gaps.length).toBeGreaterThanOrEqual(4);
    // Never a full interval late (a sweep every interval/2 sent them every 1.5 intervals); a timer may run a little late.
    expect(Math.max(...gaps)).toBeLessThanOrEqual(INTERVAL + INTERVAL / 4);
    expect(text).toMatch(/^retry: 1000\n\nid: 42\nevent: heartbeat\ndata: \{"at":\d+,"position":42,"interval":600\}\n\n/);
  } finally {
    req.destroy();
    sse.close();
    server.close();
  }
});
