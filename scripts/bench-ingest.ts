// npm run bench:ingest -- --minutes N [--rate 6000] [--ratio 10] [--markets 2000] [--batch 1000] [--wait 50] [--lanes 1] [--seed N] [--start ISO] [--unpaced] [--priority low|normal]
// The ingest path under a sustained venue stream (docs/performance.md "Ingest"), on the database of
// DATABASE_URL or EMBEDDED_PG_DIR as it is (the demo seed, a venues data set), every trigger on:
//   1. the generator's traders and markets (--markets) are ingested first, unmeasured;
//   2. then for --minutes the generator (lib/ingest/generator.ts) offers `rate` events a second (--unpaced:
//      as many as the ingest takes) to the ingest pipeline of npm run ingest, in this process; the events'
//      times start at --start (default: now; an earlier day's is a backfill, which marks that day's exports);
//   3. every 10 s and at the end it prints book changes/s (order events written), trades/s, the lag from a
//      line's arrival to its batch's commit and from commit to the NOTIFY a listener receives (`a` of
//      migration 0021's announcements), p50/p99, the backlog (offered, not yet committed), and the lines and
//      markets of a batch (its work grows with the markets it touches, not its lines); a run of two
//      minutes or more also prints the rates of its first and its last minute.
// Prints only; never asserts. Target on 2 cores: ≥ 5,000 book changes/s and ≥ 500 trades/s for 10 minutes.
import { parseArgs } from "node:util";
import { config } from "../lib/config";
import { connect } from "../lib/db/client";
import { resolveDatabase } from "../lib/db/embedded";
import { migrate } from "../lib/db/migrate";
import { percentile } from "../lib/dev/tools";
import { VenueStream } from "../lib/ingest/generator";
import { Ingest } from "../lib/ingest/run";
import { enterPriority, ingestPool, priorityArg } from "../lib/ingest/yield";

const { values: args } = parseArgs({
  options: {
    minutes: { type: "string" },
    rate: { type: "string" },
    ratio: { type: "string" },
    markets: { type: "string" },
    batch: { type: "string" },
    wait: { type: "string" },
    lanes: { type: "string" },
    seed: { type: "string" },
    start: { type: "string" },
    unpaced: { type: "boolean" },
    priority: { type: "string", default: "low" },
  },
});
const priority = priorityArg(args.priority);
await enterPriority(priority);
const MINUTES = Number(args.minutes ?? 1);
const RATE = Number(args.rate ?? 6000);
const RATIO = Number(args.ratio ?? 10);
const MARKETS = Number(args.markets ?? 2000);
const BATCH = Number(args.batch ?? 1000);
const WAIT = Number(args.wait ?? 50);
const LANES = Number(args.lanes ?? 1);
// A new venue each run unless --seed is given: the same seed at another start would repeat its order ids with other times.
const SEED = Number(args.seed ?? Date.now() % 1_000_000_000);
const START = args.start === undefined ? undefined : Date.parse(args.start);
if (START !== undefined && Number.isNaN(START)) {
  console.error(`--start: expected an ISO 8601 instant, got ${args.start}`);
  process.exit(2);
}

const database = await resolveDatabase({ log: (m) => console.error(m) });
const url = config().DATABASE_URL!;
// The ingest's sessions, at the ingest's priority (lib/ingest/yield.ts) unless --priority normal.
const { sql, stopYielding } = ingestPool(url, { max: 4 + LANES, priority, log: (m) => console.error(m) });
const listener = connect(url, { max: 1 });
const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

try {
  await migrate(sql, (m) => console.error(m));
  const [env] = await sql<{ disabled: number; book_log: boolean; positions: boolean; markets: number; orders: string; trades: string }[]>`
    SELECT (SELECT count(*)::int FROM pg_trigger WHERE NOT tgisinternal AND tgenabled = 'D') AS disabled,
           book_log_on() AS book_log, positions_on() AS positions,
           (SELECT count(*)::int FROM markets) AS markets,
           (SELECT reltuples::bigint::text FROM pg_class WHERE relname = 'orders') AS orders,
           (SELECT reltuples::bigint::text FROM pg_class WHERE relname = 'trades') AS trades`;
  console.log(
    `database: ${fmt(env.markets)} markets, ~${fmt(Number(env.orders))} orders, ~${fmt(Number(env.trades))} trades; ` +
      `triggers disabled: ${env.disabled}; book log ${env.book_log ? "on" : "off"}; positions ${env.positions ? "on" : "off"}; venue seed ${SEED}${START === undefined ? "" : `, events from ${new Date(START).toISOString()}`}; batch ${BATCH} lines or ${WAIT} ms, ${LANES} lane${LANES === 1 ? "" : "s"}`,
  );

  const venue = new VenueStream({ seed: SEED, ratio: RATIO, rate: RATE, start: START });
  // 1. the venue's traders and markets
  const setup = new Ingest(sql, { batchSize: BATCH, batchWaitMs: WAIT, lanes: LANES, onRejected: (r) => console.error(`preamble line ${r.line}: ${r.error}`) });
  const t0 = Date.now();
  await setup.consume(
    (async function* () {
      yield* venue.preamble(MARKETS);
    })(),
  );
  console.log(
    `preamble: ${fmt(setup.stats.lines)} lines (${fmt(setup.stats.markets)} markets, ${fmt(setup.stats.users)} traders new) in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );

  // 2. the stream
  const commitLags: number[] = [];
  const notifyLags: number[] = [];
  let allCommit: number[] = [];
  let allNotify: number[] = [];
  await listener.listen("market_events", (payload) => {
    const a = (JSON.parse(payload) as { a?: number }).a;
    if (a) notifyLags.push(Date.now() - a / 1000);
  });
  let rejected = 0;
  const ingest = new Ingest(sql, {
    batchSize: BATCH,
    batchWaitMs: WAIT,
    lanes: LANES,
    onRejected: (r) => {
      if (++rejected <= 5) console.error(`line ${r.line}: ${r.error}`);
    },
    onBatch: (_n, lag) => commitLags.push(lag),
  });
  const queue: string[] = [];
  const started = Date.now();
  const end = started + MINUTES * 60_000;
  let offered = 0;
  let head = 0; // queue[head..] are offered and not yet read
  let done = false;
  // The venue: `RATE` lines a second into the queue, whether or not the ingest keeps up (--unpaced: kept full).
  const produce = (async () => {
    while (Date.now() < end) {
      const due = args.unpaced ? offered + Math.max(0, 4 * BATCH - (queue.length - head)) : Math.floor(((Date.now() - started) * RATE) / 1000);
      for (; offered < due; offered++) queue.push(venue.next());
      await new Promise((r) => setTimeout(r, args.unpaced ? 1 : 10));
    }
    done = true;
  })();
  const consume = (async () => {
    while (!done || head < queue.length) {
      if (head >= queue.length) {
        await new Promise((r) => setTimeout(r, 2));
        continue;
      }
      await ingest.push(queue[head++]);
      if (head > 100_000) queue.splice(0, head), (head = 0);
    }
    await ingest.flush();
  })();

  let last = { at: started, orders: 0, trades: 0, lines: 0, batches: 0, touched: 0 };
  const report = (final = false) => {
    const s = ingest.stats;
    const now = Date.now();
    const span = (now - (final ? started : last.at)) / 1000;
    const base = final ? { orders: 0, trades: 0, lines: 0, batches: 0, touched: 0 } : last;
    const batches = s.batches - base.batches;
    const c = commitLags.splice(0).sort((a, b) => a - b);
    const n = notifyLags.splice(0).sort((a, b) => a - b);
    allCommit = allCommit.concat(c);
    allNotify = allNotify.concat(n);
    const cs = final ? allCommit.sort((a, b) => a - b) : c;
    const ns = final ? allNotify.sort((a, b) => a - b) : n;
    console.log(
      `${final ? "sustained" : `${((now - started) / 1000).toFixed(0).padStart(5)} s`}: ` +
        `book changes ${fmt((s.kinds.order - base.orders) / span)}/s, trades ${fmt((s.kinds.trade - base.trades) / span)}/s, lines ${fmt((s.lines - base.lines) / span)}/s; ` +
        `arrival → commit p50 ${percentile(cs, 50) ?? "-"} ms p99 ${percentile(cs, 99) ?? "-"} ms; ` +
        `commit → notify p50 ${(percentile(ns, 50) ?? 0).toFixed(0)} ms p99 ${(percentile(ns, 99) ?? 0).toFixed(0)} ms; ` +
        `backlog ${fmt(queue.length - head + ingest.backlog)} lines; batches ${s.batches} (${batches ? fmt((s.lines - base.lines) / batches) : "-"} lines, ` +
        `${batches ? fmt((s.touched - base.touched) / batches) : "-"} markets each), bad ${s.rejected}`,
    );
    last = { at: now, orders: s.kinds.order, trades: s.kinds.trade, lines: s.lines, batches: s.batches, touched: s.touched };
    if (!final) marks.push(last);
  };
  // The counts at each report, for the first and the last minute of the stream: the sustained rate averages
  // the whole run, and a stream that slows as it goes on hides in it.
  const marks: (typeof last)[] = [last];
  const minuteRates = () => {
    const stop = marks[marks.length - 1];
    if (stop.at - started < 120_000) return null;
    const rate = (a: typeof last, b: typeof last) => {
      const span = (b.at - a.at) / 1000;
      return `${fmt((b.orders - a.orders) / span)} book changes/s, ${fmt((b.trades - a.trades) / span)} trades/s`;
    };
    const firstEnd = marks.find((m) => m.at - started >= 60_000)!;
    const lastStart = [...marks].reverse().find((m) => stop.at - m.at >= 60_000)!;
    return `first minute ${rate(marks[0], firstEnd)}; last minute of the stream ${rate(lastStart, stop)}`;
  };
  const timer = setInterval(report, 10_000);
  await produce;
  const behind = offered - ingest.stats.lines;
  clearInterval(timer);
  report();
  console.log(`offered ${fmt(offered)} lines in ${MINUTES} min (${fmt(offered / (MINUTES * 60))}/s); ${fmt(behind)} not yet read when the venue stopped`);
  const minutes = minuteRates();
  if (minutes) console.log(minutes);
  await consume;
  report(true);
  console.log(`(batch ${BATCH} lines or ${WAIT} ms; the sustained rates count until the backlog was written)`);
} finally {
  stopYielding();
  await listener.end({ timeout: 5 });
  await sql.end({ timeout: 5 });
  await database.stop();
}
