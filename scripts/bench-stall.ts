// npm run bench:stall – how soon a client knows that a joined channel went silent. Starts its own server.ts
// (on DATABASE_URL, else the embedded demo cluster), joins a market's three channels with a plain
// socket.io client that follows docs/api.md "Push channels" (a channel that hears nothing for its heartbeat
// `interval` + 1 s is stalled), then stops the server with SIGSTOP (the TCP connection stays open, nothing
// is sent: a silent stall) and times the client's detection, from the last message it heard and from the
// stop; SIGCONT, wait until every channel hears again, repeat. Prints, asserts nothing.
//
//   npm run bench:stall -- [--rounds 5]
import { parseArgs } from "node:util";
import { io } from "socket.io-client";
import { percentile, sleep } from "../lib/dev/tools";
import { resolveDatabase } from "../lib/db/embedded";
import type { Heartbeat } from "../lib/realtime/channels";
import { startInstance } from "../e2e/support/instance";

const { values } = parseArgs({ options: { rounds: { type: "string", default: "5" } } });
const ROUNDS = Math.max(1, Math.min(50, Number(values.rounds)));
const GRACE_MS = 1_000;

const database = await resolveDatabase({ log: (m) => console.error(m) });
const server = await startInstance({ DATABASE_URL: database.url, SKIP_SEED: "1", LOG_REQUESTS: "0", RATE_LIMIT: "off" });
const socket = io(server.baseURL, { path: "/socket.io", transports: ["websocket"], reconnection: false });
try {
  const { markets } = (await (await fetch(`${server.baseURL}/v1/markets?limit=1`)).json()) as { markets: { slug: string }[] };
  const slug = markets[0].slug;
  if (!socket.connected) await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("connect_error", reject));
  const lastHeard = new Map<string, number>();
  let interval = 0;
  const heard = (channel: string) => lastHeard.set(channel, Date.now());
  socket.on("heartbeat", (hb: Heartbeat) => {
    interval = hb.interval;
    heard(hb.channel);
  });
  for (const kind of ["price", "orderbook", "trades"]) {
    const channel = `market:${slug}:${kind}`;
    socket.on(kind, (s: { channel: string }) => heard(s.channel));
    const ack = await socket.timeout(10_000).emitWithAck("join", { channel });
    if (!ack.ok) throw new Error(`join ${channel}: ${ack.error}`);
    heard(channel);
  }
  while (!interval) await sleep(100);
  console.log(`bench-stall: ${slug}, 3 channels, heartbeat interval ${interval} ms, grace ${GRACE_MS} ms, ${ROUNDS} rounds`);

  const sinceLast: number[] = [];
  const sinceStop: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    await sleep(Math.random() * interval); // stop at any point of the heartbeat cycle
    const stoppedAt = Date.now();
    server.child.kill("SIGSTOP");
    // The client's watchdog, as a client would run it: every 100 ms, any channel silent past interval + grace.
    let detected = 0;
    let last = 0;
    while (!detected) {
      await sleep(100);
      const now = Date.now();
      for (const t of lastHeard.values()) {
        if (now - t > interval + GRACE_MS) {
          detected = now;
          last = t; // the stalled channel's last message
          break;
        }
      }
    }
    server.child.kill("SIGCONT");
    sinceLast.push(detected - last);
    sinceStop.push(detected - stoppedAt);
    console.log(`  round ${r + 1}: detected ${detected - last} ms after the last message, ${detected - stoppedAt} ms after the stop`);
    // Every channel hears again before the next round.
    const resumed = Date.now();
    while ([...lastHeard.values()].some((t) => t < resumed)) await sleep(100);
  }
  sinceLast.sort((a, b) => a - b);
  sinceStop.sort((a, b) => a - b);
  console.log(
    `after the stop (ms):                      p50 ${percentile(sinceStop, 50)}  max ${sinceStop.at(-1)}  (target ≤ interval + 1 s = ${interval + GRACE_MS})`,
  );
  console.log(`after the stalled channel's last message (ms): p50 ${percentile(sinceLast, 50)}  max ${sinceLast.at(-1)}`);
} finally {
  socket.close();
  server.child.kill("SIGCONT");
  await server.stop();
  await database.stop();
}
