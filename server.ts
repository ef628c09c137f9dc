// One node http server for the whole product: Next (pages and /v1 route handlers) and, on the same
// port, the Socket.IO push channels. Starts the embedded PostgreSQL when DATABASE_URL is unset.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import next from "next";
import { breaker } from "./lib/db/breaker";
import { closeDb, db } from "./lib/db/client";
import { resolveDatabase } from "./lib/db/embedded";
import { migrate } from "./lib/db/migrate";
import { createChangeStream } from "./lib/events/change-stream";
import { cacheInvalidation, getOrderBook } from "./lib/markets/cache";
import { startTrendingSweeper } from "./lib/markets/trending-sweeper";
import { attachRealtime } from "./lib/realtime/server";
import { frontDoor } from "./lib/server/front-door";
import { rateLimitConfig, trustedProxies } from "./lib/server/rate-limit";
import { logRequest, requestLogEnabled } from "./lib/server/request-log";
import { answerUnavailablePage } from "./lib/server/unavailable-page";

const args = new Set(process.argv.slice(2));
const dev = args.has("--dev");
const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? "0.0.0.0";
const distDir = process.env.NEXT_DIST_DIR || ".next";

function log(message: string) {
  console.log(`[server] ${message}`);
}

async function main() {
  const database = await resolveDatabase({ log });
  const sql = db();
  const applied = await migrate(sql, log);
  if (applied.length) log(`applied ${applied.length} migration(s)`);

  if (!process.env.SKIP_SEED) {
    const [{ n }] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM markets`;
    if (n === 0) {
      log("database is empty: seeding demo data");
      const { seedDatabase } = await import("./lib/seed/seed");
      await seedDatabase(sql, { log });
    }
  }

  if (!dev && !fs.existsSync(path.join(distDir, "BUILD_ID"))) {
    log(`no production build in ${distDir}: running next build`);
    const r = spawnSync("npx", ["next", "build"], { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
    if (r.status !== 0) throw new Error("next build failed");
  }

  const app = next({ dev, hostname, port, turbopack: dev });
  const handle = app.getRequestHandler();
  await app.prepare();

  const logRequests = requestLogEnabled();
  // Malformed URLs, unknown methods and /v1 paths that are not the API's answer here; /v1 is rate limited.
  const guard = frontDoor({ rateLimit: rateLimitConfig(), trustProxy: trustedProxies(process.env.TRUST_PROXY) });
  const server = http.createServer((req, res) => {
    if (logRequests) logRequest(req, res);
    if (guard(req, res)) return;
    if (answerUnavailablePage(req, res)) return;
    void handle(req, res);
  });
  const closers: Array<() => Promise<void>> = [];
  // One stream of committed changes (NOTIFY market_events) feeds the response cache and the push channels.
  // The cache subscribes first: it drops a changed answer before any socket is told to refetch it, and it
  // answers from memory only while the stream is heard.
  const changes = createChangeStream({
    databaseUrl: database.url,
    heartbeatMs: Number(process.env.REALTIME_HEARTBEAT_MS ?? 5_000),
    log: (m) => console.log(`[changes] ${m}`),
  });
  if (process.env.CACHE !== "off") changes.subscribe(cacheInvalidation);
  // Push channels on the same port. A failure to attach is an error, not a silently missing feature.
  closers.push(
    attachRealtime(server, {
      changes,
      bookFor: process.env.REALTIME_PUSH_BOOK === "0" ? undefined : (slug, outcomeId) => getOrderBook({ slug, outcomeId }),
    }),
  );
  await changes.start();
  closers.push(() => changes.close());
  closers.push(startTrendingSweeper(sql));
  if (args.has("--simulate") || process.env.SIMULATE === "1") {
    const { startSimulator } = await import("./lib/simulator/simulator");
    closers.push(startSimulator(sql, { log }));
  }

  server.listen(port, hostname, () => log(`ready on http://${hostname === "0.0.0.0" ? "localhost" : hostname}:${port} (${dev ? "dev" : "production"})`));

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: shutting down`);
    const force = setTimeout(() => process.exit(1), 10_000).unref();
    server.close();
    server.closeAllConnections();
    for (const close of closers) await close().catch(() => {});
    await app.close?.().catch?.(() => {});
    breaker().close();
    await closeDb();
    await database.stop();
    clearTimeout(force);
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}

main().catch((err) => {
  console.error("[server] failed to start:", err);
  process.exit(1);
});
