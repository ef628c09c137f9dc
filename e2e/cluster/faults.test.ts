// The fault suite: each fault of scripts/cluster/faults.ts under steady read load through HAProxy, on a
// cluster of its own (PostgreSQL primary + streaming replica, two supervised app instances, HAProxy),
// with the targets of docs/deploy.md "Faults" asserted and the table printed (`npm run chaos` prints it
// on demand).
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "@/lib/dev/tools";
import { type FaultReport, FAULT_ENV, faultTable, FAULTS, runFault } from "../../scripts/cluster/faults";
import { type Cluster, startCluster } from "../../scripts/cluster/topology";

const dir = path.join(process.cwd(), ".data", `cluster-faults-${process.pid}`);
const log = (m: string) => console.log(`[faults] ${m}`);
let cluster: Cluster;
const reports: FaultReport[] = [];

beforeAll(async () => {
  cluster = await startCluster({ dir, port: await freePort(), seed: { markets: 60, tradesPerOutcome: 40 }, env: FAULT_ENV, log });
}, 600_000);

afterAll(async () => {
  if (reports.length) console.log(`\nfaults through HAProxy, 16 connections of steady reads:\n${faultTable(reports)}\n`);
  await cluster?.stop();
  // KEEP_CLUSTER_DIR=1 keeps the logs of a failed run (app*.log, primary.log, replica.log, haproxy.log) to read.
  if (!process.env.KEEP_CLUSTER_DIR) fs.rmSync(dir, { recursive: true, force: true });
}, 120_000);

describe("without the primary, through HAProxy", () => {
  it("the primary stopped: /readyz stays 200 naming it unreachable, /v1 answers from the replica and says so, pages render", async () => {
    await cluster.database.primary.stop();
    try {
      for (const i of cluster.instances) {
        await expect
          .poll(async () => {
            const res = await fetch(`${i.baseURL}/readyz`);
            return { status: res.status, body: await res.json() };
          })
          .toEqual({ status: 200, body: { status: "ready", primary: "unreachable", replicas: { up: 1, behind: expect.any(Number), total: 1 } } });
      }
      const list = await fetch(`${cluster.baseURL}/v1/markets?limit=5&sortBy=TRENDING&offset=7`);
      expect(list.status).toBe(200);
      expect(list.headers.get("x-data-source")).toBe("replica");
      expect(((await list.json()) as { markets: unknown[] }).markets).toHaveLength(5);
      const page = await fetch(`${cluster.baseURL}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("<html");
    } finally {
      await cluster.database.primary.start();
    }
    // Back: the header is gone once the instances reach the primary again.
    await expect.poll(async () => (await fetch(`${cluster.baseURL}/v1/markets?limit=5`)).headers.get("x-data-source"), { timeout: 10_000 }).toBeNull();
  }, 120_000);
});

describe("no instance up, through HAProxy", () => {
  it("HAProxy answers the API's JSON 503 with Retry-After for /v1 and the plain page for the browser", async () => {
    await Promise.all(cluster.instances.map((i) => i.stop()));
    try {
      await expect.poll(async () => (await fetch(`${cluster.baseURL}/v1/markets`)).status, { timeout: 10_000 }).toBe(503);
      const api = await fetch(`${cluster.baseURL}/v1/markets?limit=1`);
      expect(api.status).toBe(503);
      expect(api.headers.get("content-type")).toBe("application/json");
      expect(api.headers.get("retry-after")).toBe("1");
      expect(api.headers.get("access-control-allow-origin")).toBe("*");
      expect(await api.json()).toEqual({ statusCode: 503, message: "Service temporarily unavailable", error: "Service Unavailable" });
      const page = await fetch(`${cluster.baseURL}/markets/anything`);
      expect(page.status).toBe(503);
      expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(page.headers.get("retry-after")).toBe("1");
      expect(await page.text()).toContain("<h1>Temporarily unavailable</h1>");
    } finally {
      await Promise.all(cluster.instances.map((i) => i.start()));
    }
    // Back in rotation once HAProxy's checks pass again (rise 2 at 1 s).
    await expect.poll(async () => (await fetch(`${cluster.baseURL}/v1/markets?limit=1`)).status, { timeout: 15_000 }).toBe(200);
  }, 240_000);
});

describe("faults under load, through HAProxy", () => {
  it.each(FAULTS)(
    "%s: clients get what docs/deploy.md promises",
    async (fault) => {
      const report = await runFault(cluster, fault, { log });
      reports.push(report);
      expect(report.requests, "the load ran").toBeGreaterThan(200);
      expect(report.examples, faultTable([report])).toEqual([]);
      expect(report.met, faultTable([report])).toBe(true);
      // Every instance serves again afterwards.
      for (const i of cluster.instances) expect(i.running(), i.name).toBe(true);
    },
    240_000,
  );
});
