// The cold and hot probe of single-market reads (--detail): the market by slug, its first outcome's book and
// price history, the market page, and the list pages, asked of each app alone with 16 connections.
//   cold: every request takes the next market of a shuffled list of all markets (the next list page), so
//         keys rarely repeat: crawlers, shared links, the long tail;
//   hot:  one market (the first list page) asked again and again.
// Apps are interleaved per endpoint and mode, each walking the same shuffled list from the same point (a
// random one per run, or --cold-from).
import os from "node:os";
import postgres from "postgres";
import { runLoad } from "./load.mjs";
import { f0, f1, median, stamp, table, writeOutput } from "./report.mjs";

const CONNECTIONS = 16;
/** The list page's size (lib/ui/list-params.ts PAGE_SIZE): how many pages the home list has. */
const PAGE_SIZE = 20;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Every market's slug and first outcome, in an order fixed by the data (md5 of the id), and the list's page count. */
async function keysOf(databaseUrl) {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const markets = await sql`
      SELECT m.slug, (SELECT o.id FROM outcomes o WHERE o.market_id = m.id ORDER BY o."index" LIMIT 1) AS outcome
        FROM markets m ORDER BY md5(m.id::text)`;
    const [{ active }] = await sql`SELECT count(*)::int AS active FROM markets WHERE status = 'ACTIVE'`;
    return { markets, pages: Math.max(1, Math.ceil(active / PAGE_SIZE)) };
  } finally {
    await sql.end();
  }
}

const ENDPOINTS = {
  market: (m) => `/v1/markets/slug/${m.slug}`,
  orderbook: (m) => `/v1/markets/slug/${m.slug}/orderbook?outcomeId=${m.outcome}`,
  history: (m) => `/v1/markets/slug/${m.slug}/prices-history?outcomeId=${m.outcome}`,
  page: (m) => `/markets/${m.slug}`,
};

/** What the probe asks, in its order: the single reads, then list pages. */
const PROBED = [...Object.keys(ENDPOINTS), "list"];

/** The probe's slots, `endpoint.mode` (what --probe names). */
export const PROBE_SLOTS = PROBED.flatMap((e) => ["cold", "hot"].map((m) => `${e}.${m}`));

/** Runs the probe; resolves with each app's medians keyed "endpoint.mode" ({rps, p99, failed}). */
export async function detail(apps, databaseUrl, o) {
  const started = new Date();
  const { markets, pages } = await keysOf(databaseUrl);
  console.log(
    `detail: ${markets.length} markets, ${pages} list pages; ${CONNECTIONS} connections, ${o.seconds} s per endpoint, mode and app, ${o.rounds} round(s); apps ${apps.map((a) => `${a.name}=${a.origin}`).join("  ")}`,
  );
  // Each run walks on from a point of its own: a second run on the same instance (idle, then under load) would
  // otherwise ask the keys the first one left in its caches. Every app of the run starts at the same point.
  const from = o.coldFrom ?? Math.floor(Math.random() * markets.length);
  console.log(`cold walk from key ${from} (--cold-from ${from} repeats it)`);
  const cursor = new Map(apps.map((a) => [a.name, from])); // the next cold key per app, carried across endpoints and rounds
  const probed = (endpoint, mode) => !o.probe || o.probe.includes(`${endpoint}.${mode}`);
  const slots = [];
  for (let round = 1; round <= o.rounds; round++) {
    const hot = markets[(round * 7 + 3) % markets.length];
    const paths = {
      ...Object.fromEntries(Object.entries(ENDPOINTS).map(([name, f]) => [name, { cold: (n) => f(markets[n % markets.length]), hot: () => f(hot) }])),
      list: { cold: (n) => `/?page=${1 + (n % pages)}`, hot: () => "/" },
    };
    for (const [endpoint, modes] of Object.entries(paths)) {
      for (const mode of ["cold", "hot"]) {
        if (!probed(endpoint, mode)) continue;
        for (const app of apps) {
          // One request template whose path is the next of the walk, across all connections.
          const start = mode === "cold" ? cursor.get(app.name) : 0;
          let n = 0;
          const requests = [{ method: "GET", setupRequest: (req) => ({ ...req, path: modes[mode](start + n++) }) }];
          const s = await runLoad(app.origin, requests, { connections: CONNECTIONS, seconds: o.seconds });
          if (mode === "cold" && endpoint !== "list") cursor.set(app.name, start + n);
          slots.push({ round, endpoint, mode, app: app.name, rps: s.rps, p50: s.p50, p99: s.p99, failed: s.failed });
          console.log(
            `round ${round} ${endpoint.padEnd(9)} ${mode} ${app.name.padEnd(8)} ${f0(s.rps).padStart(6)} req/s  p50 ${f1(s.p50).padStart(6)} ms  p99 ${f1(s.p99).padStart(6)} ms${s.failed ? `  !! ${s.failed} failed` : ""}`,
          );
          await sleep(o.pause * 1000);
        }
      }
    }
  }
  console.log(`cold keys used: ${[...cursor].map(([name, n]) => `${name} ${n - from} of ${markets.length}`).join(", ")}`);

  const medians = Object.fromEntries(apps.map((a) => [a.name, {}]));
  const rows = [["endpoint", "mode", ...apps.flatMap((a) => [`${a.name} req/s`, `${a.name} p99 ms`]), "failed"]];
  for (const endpoint of PROBED) {
    for (const mode of ["cold", "hot"]) {
      if (!probed(endpoint, mode)) continue;
      const row = [endpoint, mode];
      let failed = 0;
      for (const app of apps) {
        const mine = slots.filter((s) => s.endpoint === endpoint && s.mode === mode && s.app === app.name);
        const m = { rps: median(mine.map((s) => s.rps)), p99: median(mine.map((s) => s.p99)), failed: mine.reduce((n, s) => n + s.failed, 0) };
        medians[app.name][`${endpoint}.${mode}`] = m;
        row.push(f0(m.rps), f1(m.p99));
        failed += m.failed;
      }
      rows.push([...row, failed]);
    }
  }
  const markdown = [
    `# bench:compare --detail ${started.toISOString()}${o.label ? ` (${o.label})` : ""}`,
    "",
    `${markets.length} markets; ${CONNECTIONS} connections, ${o.seconds} s per slot, median of ${o.rounds} round(s); ${os.cpus().length} CPUs; node ${process.version}`,
    "",
    table(rows),
    "",
  ].join("\n");
  console.log(`\n${markdown}`);
  const file = writeOutput(o.out, `detail-${stamp(started)}`, markdown, {
    started: started.toISOString(),
    label: o.label,
    markets: markets.length,
    slots,
    medians,
  });
  console.log(`written ${file}.{md,json}`);
  return medians;
}
