// Preloaded into the soak's server (node --require): a memory line on stderr every SOAK_PROBE_MS, taken
// after a full GC when node runs with --expose-gc, so live heap and lazily collected garbage are told apart;
// one more at once on SIGUSR2 (bench:streams asks for one before and after it opens its streams).
// Only the main thread: node runs preloads in tsx's module-hooks worker as well, whose small heap would
// otherwise be reported as the server's.
const { isMainThread } = require("node:worker_threads");
const every = Number(process.env.SOAK_PROBE_MS || 10000);
const probe = () => {
  if (typeof global.gc === "function") global.gc();
  const m = process.memoryUsage();
  process.stderr.write(
    `[soak-mem] ${JSON.stringify({ t: Date.now(), rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, arrayBuffers: m.arrayBuffers })}\n`,
  );
};
if (isMainThread) {
  if (every > 0) setInterval(probe, every).unref();
  process.on("SIGUSR2", probe);
}
