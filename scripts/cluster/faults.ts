// The faults the cluster rides out, each under steady read load through HAProxy (list pages, markets,
// books and market pages on 16 connections), and what clients got: every answer counted by status, the
// latencies, and each fault's own measures. The cluster's fault tests (e2e/cluster/faults.test.ts) assert
// the targets; `npm run chaos` prints the same table on demand. What each fault costs: docs/deploy.md
// "Faults".
import postgres from "postgres";
import { io, type Socket } from "socket.io-client";
import { sleep } from "../../lib/dev/tools";
import { type Sample, startLoad } from "../../e2e/support/load";
import { addOrder, makeMarket, type TestMarket } from "../../e2e/support/markets";
import type { Cluster } from "./topology";

/** The instances' settings under the fault load: it stands for many clients, so no per-client rate limit applies. */
export const FAULT_ENV = { RATE_LIMIT: "off" };

export const FAULTS = ["instance-killed", "rolling-restart", "primary-stopped", "replica-stopped"] as const;
export type Fault = (typeof FAULTS)[number];

export interface FaultReport {
  fault: Fault;
  /** The target, as the table prints it. */
  target: string;
  /** Answers during the fault's window. */
  requests: number;
  ok: number;
  /** The API's own 503: JSON error body with Retry-After (an instance's, or HAProxy's errorfile). */
  json503: number;
  /** Everything else: connection failures, timeouts, other statuses, a 503 that is not the API's. */
  failed: number;
  p99Ms: number;
  /** The fault's own figures (milliseconds unless the name says otherwise). */
  measures: Record<string, number>;
  met: boolean;
  /** The first few failures, to read when a target is missed. */
  examples: string[];
}

export interface FaultOptions {
  /** How long the primary or the replica stays stopped. */
  outageMs?: number;
  connections?: number;
  log?: (m: string) => void;
}

const isJson503 = (s: Sample) =>
  s.status === 503 && Boolean(s.retryAfter) && (s.contentType ?? "").startsWith("application/json") && s.body.includes('"statusCode":503');

function p99(samples: Sample[]) {
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
  return ms.length ? ms[Math.min(ms.length - 1, Math.floor(ms.length * 0.99))] : 0;
}

function count(samples: Sample[]) {
  const ok = samples.filter((s) => s.status >= 200 && s.status < 400).length;
  const json503 = samples.filter(isJson503).length;
  const bad = samples.filter((s) => !(s.status >= 200 && s.status < 400) && !isJson503(s));
  return {
    requests: samples.length,
    ok,
    json503,
    failed: bad.length,
    p99Ms: p99(samples),
    examples: bad.slice(0, 5).map((s) => `${s.status || "no answer"} ${s.path}: ${s.body.slice(0, 120)}`),
  };
}

/** What the load asks for: list pages, markets, books and market pages of the seeded markets. */
async function loadPaths(sql: postgres.Sql) {
  const rows = await sql<{ slug: string; outcome: string }[]>`
    SELECT m.slug, (SELECT o.id::text FROM outcomes o WHERE o.market_id = m.id ORDER BY o.id LIMIT 1) AS outcome
      FROM markets m WHERE m.status = 'ACTIVE' ORDER BY m.created_at DESC, m.id DESC LIMIT 12`;
  const paths = [];
  for (const [i, r] of rows.entries()) {
    paths.push(`/v1/markets?limit=10&offset=${i * 2}`, `/v1/markets/slug/${r.slug}`, `/v1/markets/slug/${r.slug}/orderbook?outcomeId=${r.outcome}`);
    if (i % 3 === 0) paths.push(`/markets/${r.slug}`);
  }
  return paths;
}

/** A Socket.IO client through HAProxy joined to one channel, which joins again on every reconnect and records its gaps. */
async function watcher(baseURL: string, channel: string) {
  const socket: Socket = io(baseURL, { path: "/socket.io", transports: ["websocket"], forceNew: true, reconnectionDelay: 250, reconnectionDelayMax: 1000 });
  const gaps: number[] = [];
  let lostAt = 0;
  let signals = 0;
  socket.on("orderbook", () => signals++);
  socket.on("disconnect", () => (lostAt = Date.now()));
  socket.on("connect", () => {
    if (lostAt) gaps.push(Date.now() - lostAt);
    lostAt = 0;
    socket.emit("join", { channel });
  });
  await new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error("no socket.io connection through HAProxy")), 15_000);
    socket.once("connect", () => (clearTimeout(t), resolve()));
  });
  return {
    socket,
    /** Longest time without a connection so far, and whether it is without one now. */
    worstGapMs: () => Math.max(0, ...gaps, lostAt ? Date.now() - lostAt : 0),
    reconnects: () => gaps.length,
    signals: () => signals,
    connected: () => socket.connected,
  };
}

/** Polls `check` until it holds; `what` may say, once it failed, what the last check saw. */
async function until(what: string | (() => string), check: () => Promise<boolean> | boolean, timeoutMs: number, everyMs = 50) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await Promise.resolve(check()).catch(() => false)) return;
    await sleep(everyMs);
  }
  throw new Error(`${typeof what === "string" ? what : what()}: not within ${timeoutMs} ms`);
}

/** Resolves once HAProxy routes requests to `name` again: three in a row pinned to it (SRV cookie) are served by it. */
export async function inRotation(baseURL: string, name: string, timeoutMs = 30_000) {
  let inARow = 0;
  await until(
    `${name} back in HAProxy's rotation`,
    async () => {
      const res = await fetch(`${baseURL}/healthz`, { headers: { cookie: `SRV=${name}` } });
      await res.arrayBuffer();
      inARow = res.headers.get("x-served-by") === name ? inARow + 1 : 0;
      return inARow >= 3;
    },
    timeoutMs,
    200,
  );
}

/** Runs one fault under load and reports what clients got. The cluster is whole again when it returns. */
export async function runFault(cluster: Cluster, fault: Fault, options: FaultOptions = {}): Promise<FaultReport> {
  const outageMs = options.outageMs ?? 30_000;
  const log = options.log ?? (() => {});
  // Whole to begin with: every instance in HAProxy's rotation.
  for (const i of cluster.instances) await inRotation(cluster.baseURL, i.name);
  const primary = postgres(cluster.primaryUrl, { max: 1, onnotice: () => {}, connect_timeout: 2 });
  const paths = await loadPaths(primary);
  const load = startLoad(cluster.baseURL, paths, { connections: options.connections ?? 16, pauseMs: 20, timeoutMs: 15_000 });
  const at = () => Date.now() - load.started;
  const measures: Record<string, number> = {};
  let from = 0;
  let to = 0;
  let report: Omit<FaultReport, "fault" | "target" | "met" | "measures">;
  let met: (r: typeof report) => boolean;
  let target: string;
  try {
    await sleep(3000); // steady first
    if (fault === "instance-killed") {
      target = "0 failed idempotent requests";
      const victim = cluster.instances[0];
      from = at();
      const t0 = Date.now();
      log(`SIGKILL ${victim.name}`);
      await victim.kill();
      await victim.start(); // restarted by the cluster's supervision
      measures["restarted after ms"] = Date.now() - t0;
      await sleep(3000);
      to = at();
      met = (r) => r.failed === 0 && r.json503 === 0;
    } else if (fault === "rolling-restart") {
      target = "0 failed requests; sockets back within 5 s";
      const m = await makeMarket(primary, { prefix: "chaos", status: "ACTIVE" });
      await until("the market on every instance", async () => (await fetch(`${cluster.baseURL}/v1/markets/slug/${m.slug}`)).ok, 15_000);
      const watchers = await Promise.all(Array.from({ length: 8 }, () => watcher(cluster.baseURL, `market:${m.slug}:orderbook`)));
      try {
        from = at();
        for (const instance of cluster.instances) {
          log(`SIGTERM ${instance.name} (drain), then start it again`);
          await instance.stop();
          await instance.start();
          // As a deploy must: the next one only once HAProxy sends requests to this one again.
          await inRotation(cluster.baseURL, instance.name);
        }
        to = at();
        await until("every socket connected", () => watchers.every((w) => w.connected()), 10_000);
        measures["socket reconnects"] = watchers.reduce((n, w) => n + w.reconnects(), 0);
        measures["sockets back within ms (worst)"] = Math.max(...watchers.map((w) => w.worstGapMs()));
        // Rejoined: a new order reaches every socket.
        const before = watchers.map((w) => w.signals());
        await addOrder(primary, m, { price: "0.450" });
        await until("a signal on every socket after the restarts", () => watchers.every((w, i) => w.signals() > before[i]), 10_000);
      } finally {
        for (const w of watchers) w.socket.close();
      }
      met = (r) => r.failed === 0 && r.json503 === 0 && measures["sockets back within ms (worst)"] <= 5000;
    } else if (fault === "primary-stopped") {
      target = `≥ 99 % 200 while the primary is stopped ${outageMs / 1000} s, the rest JSON 503 + Retry-After, p99 ≤ 250 ms; back: fresh and resync ≤ 5 s`;
      const m = await makeMarket(primary, { prefix: "chaos", status: "ACTIVE" });
      await until("the market on every instance", async () => (await fetch(`${cluster.baseURL}/v1/markets/slug/${m.slug}`)).ok, 15_000);
      const w = await watcher(cluster.baseURL, `market:${m.slug}:orderbook`);
      try {
        await sleep(500);
        from = at();
        log(`stopping the primary for ${outageMs / 1000} s`);
        await cluster.database.primary.stop();
        await sleep(outageMs);
        to = at();
        const signalsBefore = w.signals();
        const t0 = Date.now();
        await cluster.database.primary.start();
        log("the primary is back");
        // Push resync: the LISTEN connection is back and every joined channel is signalled (clients refetch).
        await until("the push resync", () => w.signals() > signalsBefore, 15_000, 20);
        measures["push resync after ms"] = Date.now() - t0;
        // Fresh answers: a commit after the return is served by every instance.
        const t1 = Date.now();
        await addOrder(primary, m, { price: "0.470" });
        let without: string[] = [];
        await until(
          () => `the new order on every instance (the last answers of ${without.join(", ")} did not have it)`,
          async () => {
            const books = await Promise.all(
              cluster.instances.map(async (i) => {
                const res = await fetch(`${cluster.baseURL}/v1/markets/slug/${m.slug}/orderbook?outcomeId=${m.outcomes[0]}`, {
                  headers: { cookie: `SRV=${i.name}` },
                });
                return { name: i.name, book: `${res.status} ${res.headers.get("x-cache") ?? ""} ${await res.text()}` };
              }),
            );
            without = books.filter((b) => !b.book.includes('"0.470"')).map((b) => `${b.name}: ${b.book.slice(0, 160)}`);
            return !without.length;
          },
          15_000,
        );
        measures["fresh after commit ms"] = Date.now() - t1;
        measures["fresh after return ms"] = Date.now() - t0;
      } finally {
        w.socket.close();
        await cluster.database.primary.start();
      }
      met = (r) =>
        r.ok / Math.max(1, r.requests) >= 0.99 &&
        r.failed === 0 &&
        r.p99Ms <= 250 &&
        measures["push resync after ms"] <= 5000 &&
        measures["fresh after return ms"] <= 5000;
    } else {
      target = `0 failed reads while the replica is stopped ${outageMs / 1000} s`;
      from = at();
      log(`stopping the replica for ${outageMs / 1000} s`);
      await cluster.database.replica.stop();
      try {
        await sleep(outageMs);
      } finally {
        await cluster.database.replica.start();
      }
      to = at();
      met = (r) => r.failed === 0 && r.json503 === 0;
    }
    await sleep(1000);
  } finally {
    await load.stop();
    await primary.end({ timeout: 1 });
  }
  const window = load.samples.filter((s) => s.at >= from && s.at <= to);
  report = count(window);
  measures["p99 ms of pages"] = p99(window.filter((s) => !s.path.startsWith("/v1/")));
  return { fault, target, measures, met: met(report), ...report };
}

/** The table `npm run chaos` and the fault tests print. */
export function faultTable(reports: FaultReport[]): string {
  const head = ["fault", "requests", "2xx", "JSON 503", "failed", "p99 ms", "measured", "target", "met"];
  const rows = reports.map((r) => [
    r.fault,
    String(r.requests),
    `${r.ok} (${((r.ok / Math.max(1, r.requests)) * 100).toFixed(2)} %)`,
    String(r.json503),
    String(r.failed),
    String(r.p99Ms),
    Object.entries(r.measures)
      .map(([k, v]) => `${k} ${v}`)
      .join("; ") || "–",
    r.target,
    r.met ? "yes" : "NO",
  ]);
  return [head, head.map(() => "---"), ...rows].map((cells) => `| ${cells.join(" | ")} |`).join("\n");
}
