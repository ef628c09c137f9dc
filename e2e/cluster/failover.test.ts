// The cluster in failover mode (`npm run cluster -- --failover`, docs/deploy.md "Failover
// (pg_auto_failover)"): the primary is lost for good under a steady import, pg_auto_failover promotes
// the standby, and the importer, the app instances and their push channels follow it through the
// multi-host DATABASE_URL. Prints what the failover cost.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { io, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, sleep } from "@/lib/dev/tools";
import { importFile } from "@/lib/import/import";
import type { FailoverDatabase } from "../../scripts/cluster/auto-failover";
import { type Cluster, startCluster } from "../../scripts/cluster/topology";
import { join, waitFor } from "../realtime-helpers";
import { makeMarket, type TestMarket } from "../support/markets";

/** The target of docs/deploy.md "Failover (pg_auto_failover)": imports resume on the promoted node within this. */
const RESUME_TARGET_S = 30;

const dir = path.join(process.cwd(), ".data", `failover-test-${process.pid}`);
let cluster: Cluster;
let database: FailoverDatabase;
let writer: postgres.Sql;

beforeAll(async () => {
  const port = process.env.TEST_PORT ? Number(process.env.TEST_PORT) : await freePort();
  cluster = await startCluster({ dir, port, failover: true, seed: { markets: 40, tradesPerOutcome: 20 }, log: (m) => console.log(`[cluster] ${m}`) });
  database = cluster.database as FailoverDatabase;
  writer = openWriter();
}, 600_000);

afterAll(async () => {
  await writer?.end({ timeout: 0 });
  await cluster?.stop();
  // KEEP_CLUSTER_DIR=1 keeps the logs of a failed run (app*.log, monitor.log, node*.log) to read.
  if (!process.env.KEEP_CLUSTER_DIR) fs.rmSync(dir, { recursive: true, force: true });
}, 120_000);

/** The importer's connection: the multi-host URL, reconnecting at once (postgres.js tries the next host). */
const openWriter = () => postgres(cluster.primaryUrl, { max: 1, connect_timeout: 2, backoff: () => 0.2, onnotice: () => {} });

/** One trade as an import file (docs/import.md "trades"), through the importer's own code path. */
const importTrade = (m: TestMarket, price: string) => {
  const id = randomUUID();
  const trade = {
    id,
    market_id: m.id,
    outcome_id: m.yes,
    price,
    shares: "1",
    maker_user_id: m.users[0],
    taker_user_id: m.users[1],
    executed_at: new Date().toISOString(),
  };
  return importFile(writer, { trades: [trade] }).then(() => id);
};

async function get(pathAndQuery: string) {
  const res = await fetch(`${cluster.baseURL}${pathAndQuery}`);
  return { status: res.status, body: res.ok ? await res.json() : await res.text() };
}

describe("failover – the primary lost for good under a steady import", () => {
  it("imports resume on the promoted node within 30 s, every acknowledged trade is there, and the instances follow", async () => {
    const m = await makeMarket(writer, { prefix: "fo", status: "ACTIVE" });
    const acknowledged: { id: string; at: number; ms: number }[] = [];
    const failedAttempts: string[] = [];
    let importing = true;
    const importer = (async () => {
      for (let i = 0; importing; i++) {
        try {
          const sent = Date.now();
          const id = await importTrade(m, `0.${String(100 + (i % 800)).padStart(3, "0")}`);
          acknowledged.push({ id, at: Date.now(), ms: Date.now() - sent });
        } catch (err) {
          failedAttempts.push((err as Error).message);
          // A new pool, as a rerun of `npm run db:import` has: postgres.js 3.4.9 can leave a transaction's
          // connection waiting forever once its backend went away under it (porsager/postgres#1216).
          const old = writer;
          writer = openWriter();
          void old.end({ timeout: 0 }).catch(() => {});
          await sleep(100);
        }
      }
    })();
    // Reads through HAProxy all along: a market read, every 200 ms (counted by status from the loss on).
    const reads = new Map<number, number>();
    let lostAt = Number.POSITIVE_INFINITY;
    let reading = true;
    const reader = (async () => {
      while (reading) {
        const status = await get(`/v1/markets/slug/${m.slug}`).then(
          (r) => r.status,
          () => 0,
        );
        if (Date.now() >= lostAt) reads.set(status, (reads.get(status) ?? 0) + 1);
        await sleep(200);
      }
    })();

    /** What the nodes and the monitor were doing when a wait below timed out. */
    const explain = async (err: unknown) => {
      const lines = [
        `${(err as Error).message}; ${acknowledged.length} imports acknowledged; import errors: ${[...new Set(failedAttempts)].slice(0, 5).join(" | ")}`,
      ];
      for (const n of database.nodes) {
        const c = postgres(n.url, { max: 1, connect_timeout: 2, onnotice: () => {} });
        try {
          const busy = await c<{ line: string }[]>`
            SELECT format('%s %s %s/%s %ss: %s', n.name, application_name, wait_event_type, wait_event,
                          round(extract(epoch FROM now() - query_start)::numeric, 1), left(query, 80)) AS line
              FROM pg_stat_activity, (SELECT ${n.name}::text AS name) n
             WHERE state <> 'idle' AND pid <> pg_backend_pid() AND backend_type = 'client backend'`;
          const streams = await c<{ line: string }[]>`
            SELECT format('%s streams to %s: %s %s, replay lag %s', ${n.name}::text, application_name, state, sync_state, replay_lag) AS line
              FROM pg_stat_replication`;
          const [sync] = await c<{ names: string }[]>`SELECT current_setting('synchronous_standby_names') AS names`;
          lines.push(`${n.name}: synchronous_standby_names '${sync.names}'`, ...busy.map((r) => r.line), ...streams.map((r) => r.line));
        } catch (e) {
          lines.push(`${n.name}: ${(e as Error).message}`);
        } finally {
          await c.end({ timeout: 0 });
        }
      }
      // What the monitor decided, and why: its event log.
      const monitor = postgres(database.monitorUrl, { max: 1, onnotice: () => {} });
      const events = await monitor<{ line: string }[]>`
        SELECT format('%s %s %s→%s %s', eventtime::time, nodename, reportedstate, goalstate, description) AS line
          FROM pgautofailover.event ORDER BY eventid DESC LIMIT 20`;
      await monitor.end();
      throw new Error([...lines, ...events.map((e) => e.line).reverse()].join("\n"));
    };
    await waitFor(() => acknowledged.length >= 20, 30_000, "imports before the loss").catch(explain);
    const lost = await database.loseWriter();
    lostAt = Date.now();
    const before = acknowledged.length;
    await waitFor(() => acknowledged.some((a) => a.at > lostAt), RESUME_TARGET_S * 1000 + 30_000, "an import on the promoted node").catch(explain);
    const resumedS = (acknowledged.find((a) => a.at > lostAt)!.at - lostAt) / 1000;
    await sleep(2000); // a little more importing on the new primary
    importing = false;
    await importer;
    const promoted = await database.writerName();

    // Every acknowledged trade is on the new primary.
    const node = database.nodes.find((n) => n.name === promoted)!;
    const direct = postgres(node.url, { max: 1, onnotice: () => {} });
    const ids = acknowledged.map((a) => a.id);
    const [{ found }] = await direct<{ found: number }[]>`SELECT count(*)::int AS found FROM trades WHERE id = ANY(${ids}::uuid[])`;
    const [{ inRecovery }] = await direct<{ inRecovery: boolean }[]>`SELECT pg_is_in_recovery() AS "inRecovery"`;
    const [{ pgMajor }] = await direct<{ pgMajor: string }[]>`SELECT current_setting('server_version_num')::int / 10000 AS "pgMajor"`;
    await direct.end();

    // The instances follow: a trade committed now reaches a socket joined to the market's trades channel
    // (each instance's LISTEN found the new primary), and a refetch shows it.
    const socket: Socket = io(cluster.baseURL, { path: "/socket.io", transports: ["websocket"], forceNew: true });
    let pushS = Number.NaN;
    let readAfter = 0;
    try {
      await waitFor(() => socket.connected, 15_000, "a socket through HAProxy");
      await expect.poll(async () => (await join(socket, `market:${m.slug}:trades`)).ok, { timeout: 30_000 }).toBe(true);
      const carried: string[] = [];
      socket.on("trades", (s: { trades?: { id: string }[] }) => carried.push(...(s.trades ?? []).map((t) => t.id)));
      // LISTEN reconnects with backoff (REALTIME_RETRY_MAX_MS): commit a trade a second until one is heard.
      const pushStarted = Date.now();
      let latest = "";
      while (!carried.includes(latest) && Date.now() - pushStarted < 30_000) {
        latest = await importTrade(m, "0.777");
        const sent = Date.now();
        while (!carried.includes(latest) && Date.now() - sent < 1000) await sleep(20);
      }
      pushS = (Date.now() - pushStarted) / 1000;
      expect(carried, "a trades signal carrying a trade committed on the new primary").toContain(latest);
      const page = await get(`/v1/markets/slug/${m.slug}/trades?limit=100`);
      readAfter = page.status;
      expect(page.status).toBe(200);
      expect(page.body.trades.map((t: { id: string }) => t.id)).toContain(latest);
    } finally {
      socket.close();
      reading = false;
      await reader;
    }

    // An import of one trade before the loss: a commit on node1 that waits for node2 (synchronous replication).
    const took = acknowledged
      .slice(0, before)
      .map((a) => a.ms)
      .sort((a, b) => a - b);
    const statuses = [...reads].map(([s, n]) => `${n} × ${s || "error"}`).join(", ");
    console.log(
      [
        "",
        "| fault | measured | target |",
        "|---|---|---|",
        `| primary (${lost}) SIGKILLed for good, import loop running | imports resumed on ${promoted} after ${resumedS.toFixed(1)} s | ≤ ${RESUME_TARGET_S} s |`,
        `| an import of one trade before the loss (a synchronous commit; PostgreSQL ${pgMajor} as packaged, JIT built in) | median ${took[Math.floor(took.length / 2)]} ms, slowest ${took.at(-1)} ms | (a figure) |`,
        `| acknowledged trades | ${before} before the loss, ${acknowledged.length} in all; ${found} of ${acknowledged.length} on ${promoted} | all (synchronous replication) |`,
        `| failed import attempts during the failover | ${failedAttempts.length}, retried: ${[...new Set(failedAttempts.map((e) => e.slice(0, 90)))].join("; ")} | (the importer retries) |`,
        `| market reads through HAProxy, from the loss on | ${statuses}; a trades page after: ${readAfter} | ≥ 95 % 200 |`,
        `| push after the failover | a trades signal ${pushS.toFixed(1)} s after the first commit tried | heard |`,
        "",
      ].join("\n"),
    );
    expect(promoted).not.toBe(lost);
    expect(inRecovery).toBe(false);
    expect(resumedS).toBeLessThanOrEqual(RESUME_TARGET_S);
    expect(found).toBe(acknowledged.length);
    expect((await get(`/v1/markets/slug/${m.slug}`)).status).toBe(200);
    // Reads went on without the primary (docs/api.md "Reads without the primary"): from the standby, then the promoted node.
    const total = [...reads.values()].reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(20);
    expect((reads.get(200) ?? 0) / total, `market reads through HAProxy from the loss on: ${statuses}`).toBeGreaterThanOrEqual(0.95);
  });
});
