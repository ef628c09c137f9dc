import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmbeddedDatabase, startEmbeddedPostgres } from "../db/embedded";
import { createListener, LISTENER_APPLICATION_NAME, retryDelay } from "./listener";

describe("retryDelay", () => {
  const mid = () => 0.5; // no jitter
  it.each([
    [1, 500],
    [2, 1_000],
    [3, 2_000],
    [6, 16_000],
    [7, 30_000], // 32 s capped
    [50, 30_000], // no overflow into Infinity or NaN
  ])("attempt %i waits %i ms (min 500, max 30 000)", (n, ms) => {
    expect(retryDelay(n, 500, 30_000, mid)).toBe(ms);
  });

  it("jitters by ±20 % so that instances do not reconnect in step", () => {
    expect(retryDelay(3, 500, 30_000, () => 0)).toBe(1_600);
    expect(retryDelay(3, 500, 30_000, () => 0.999999)).toBe(2_400);
  });
});

describe("createListener – against a real PostgreSQL", () => {
  const CLUSTER = path.join(process.cwd(), ".data", "listener-test-pg");
  let cluster: EmbeddedDatabase;
  beforeAll(async () => {
    cluster = await startEmbeddedPostgres({ dir: CLUSTER, database: "postgres", log: () => {} });
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
  }, 60_000);

  const listen = (heartbeatMs: number) => {
    const events = { listens: 0, lost: 0, notes: [] as string[] };
    const listener = createListener({
      url: cluster.url,
      channel: "listener_test",
      heartbeatMs,
      retryMinMs: 50,
      retryMaxMs: 200,
      onNotify: () => {},
      onListen: () => events.listens++,
      onLost: () => events.lost++,
      log: (m) => events.notes.push(m),
    });
    return { listener, events };
  };
  const busy = (ms: number) => {
    const until = Date.now() + ms;
    while (Date.now() < until); // the event loop blocked, as by a large synchronous rebuild
  };
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it("an event loop blocked for many heartbeats is not a lost connection: the pong waiting unread counts", async () => {
    const { listener, events } = listen(100);
    await listener.ready;
    for (let i = 0; i < 4; i++) {
      await sleep(130 + i * 37); // a ping in flight, at another phase each time
      busy(1_000);
    }
    await sleep(500);
    expect(events.notes).toEqual([]);
    expect(events).toMatchObject({ listens: 1, lost: 0 });
    await listener.close();
  }, 30_000);

  it("a connection that stops answering (its backend stopped) is lost after three unanswered pings, and comes back", async () => {
    const { listener, events } = listen(100);
    await listener.ready;
    const admin = postgres(cluster.url, { max: 1, onnotice: () => {} });
    const [{ pid }] = await admin<{ pid: number }[]>`SELECT pid FROM pg_stat_activity WHERE application_name = ${LISTENER_APPLICATION_NAME}`;
    process.kill(pid, "SIGSTOP");
    try {
      const lostBy = Date.now() + 3_000;
      while (events.lost === 0 && Date.now() < lostBy) await sleep(20);
    } finally {
      process.kill(pid, "SIGCONT");
    }
    expect(events.lost).toBe(1);
    expect(events.notes[0]).toMatch(/no heartbeat: 3 pings unanswered/);
    const backBy = Date.now() + 5_000;
    while (events.listens < 2 && Date.now() < backBy) await sleep(20);
    expect(events.listens).toBe(2);
    await admin.end();
    await listener.close();
  }, 30_000);
});
