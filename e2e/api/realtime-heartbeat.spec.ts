// Heartbeats on joined channels (docs/api.md "Push channels"): a quiet channel still hears from the
// server, so a client can tell a quiet market from a stalled connection, and a lost last signal shows
// as a seq the client never saw.
import type { Socket } from "socket.io-client";
import type { Heartbeat, Signal } from "@/lib/realtime/channels";
import { expect, test, testRun } from "../fixtures";
import { addOrder, makeMarket } from "../support/markets";
import { connectClient, join, waitFor } from "../realtime-helpers";

const HEARTBEAT_MS = 5_000; // server default (REALTIME_CHANNEL_HEARTBEAT_MS)
const sockets: Socket[] = [];
test.afterEach(() => {
  for (const s of sockets.splice(0)) s.disconnect();
});
const client = async () => {
  const s = await connectClient(testRun().baseURL);
  sockets.push(s);
  return s;
};

test("heartbeat – an idle joined channel hears from the server within the interval, with seq 0 and the interval", async ({ sql }) => {
  const m = await makeMarket(sql, { prefix: "hb", status: "ACTIVE" });
  const s = await client();
  const beats: Array<Heartbeat & { receivedAt: number }> = [];
  s.on("heartbeat", (hb: Heartbeat) => beats.push({ ...hb, receivedAt: Date.now() }));
  const joinedAt = Date.now();
  expect(await join(s, `market:${m.slug}:price`)).toEqual({ ok: true });
  await waitFor(() => beats.length >= 2, 2 * HEARTBEAT_MS + 2_000, "two heartbeats");
  expect(beats[0]).toMatchObject({ channel: `market:${m.slug}:price`, seq: 0, interval: HEARTBEAT_MS });
  expect(beats[0].receivedAt - joinedAt).toBeLessThanOrEqual(HEARTBEAT_MS + 1_000);
  expect(beats[1].receivedAt - beats[0].receivedAt).toBeLessThanOrEqual(HEARTBEAT_MS + 1_000);
});

test("heartbeat – a client that dropped the last signal learns it from the next heartbeat's seq", async ({ sql }) => {
  const m = await makeMarket(sql, { prefix: "hb-gap", status: "ACTIVE" });
  const s = await client();
  const channel = `market:${m.slug}:orderbook`;
  // The client's rule (docs/api.md "Push channels"): a signal whose seq skips one, or a heartbeat whose seq
  // is past the last signal handled, means a signal was missed.
  let last = 0;
  let dropped: Signal | undefined;
  let gap: string | undefined;
  s.on("orderbook", (sig: Signal) => {
    if (!dropped) return void (dropped = sig); // this client "loses" the first signal, as a flaky link would
    if (sig.seq > last + 1) gap ??= `signal ${sig.seq} after ${last}`;
    last = sig.seq;
  });
  s.on("heartbeat", (hb: Heartbeat) => {
    if (hb.channel === channel && hb.seq > last) gap ??= `heartbeat ${hb.seq} after ${last}`;
  });
  expect(await join(s, channel)).toEqual({ ok: true });
  await addOrder(sql, m, { price: "0.420" });
  await waitFor(() => dropped !== undefined, 10_000, "the signal of the order");
  const droppedAt = Date.now();
  await waitFor(() => gap !== undefined, 2 * HEARTBEAT_MS + 2_000, "the client to notice the missed signal");
  expect(gap, "found by a heartbeat (or a later signal, when another test's resync signalled meanwhile)").toMatch(/^(heartbeat|signal) \d+ after 0$/);
  expect(Date.now() - droppedAt).toBeLessThanOrEqual(HEARTBEAT_MS + 1_000);
});
