// npm run bench:trades [-- --runs 300 --limit 100]
// Times the trade tape and the batch book read straight against the database (the query functions
// of lib/markets/sql/, no HTTP, no cache: every run is a cache miss), on a database with a heavy
// outcome (npm run db:seed -- --heavy-trades 1000000). With BENCH_URL, the same over HTTP against a
// server on that database started with CACHE=off RATE_LIMIT=off (so every request is a miss too).
// Prints p50 and p99 per case against the targets of docs/performance.md: a tape page ≤ 20 ms at any depth,
// 50 books ≤ 3× one book. Prints only; never asserts.
import { parseArgs } from "node:util";
import { closeDb, db } from "../lib/db/client";
import { resolveDatabase } from "../lib/db/embedded";
import { sampleTimes } from "../lib/dev/tools";
import { getOrderBook, getOrderBooks } from "../lib/markets/sql/books";
import { outcomesById } from "../lib/markets/sql/resolve";
import { listTrades } from "../lib/markets/sql/trades";
import { encodeTradeCursor } from "../lib/markets/trade-cursor";

const { values: args } = parseArgs({ options: { runs: { type: "string" }, limit: { type: "string" } } });
const runs = Number(args.runs ?? 300);
const limit = Number(args.limit ?? 100);

const database = await resolveDatabase({ log: (m) => console.error(m) });
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

function report(name: string, times: number[]) {
  const r = { p50: quantile(times, 0.5), p99: quantile(times, 0.99) };
  console.log(`${name.padEnd(58)} ${r.p50.toFixed(2).padStart(8)} ${r.p99.toFixed(2).padStart(8)}`);
  return r;
}

// Warm-up of 5: plans cached, pages in memory.
async function time(name: string, run: () => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  const [times] = await sampleTimes([run], { runs, warmup: 5 });
  return report(name, times);
}

/** Two cases run alternately, run for run, so that a machine shared with other work slows both alike. */
async function timePair(names: [string, string], runs2: [() => Promise<unknown>, () => Promise<unknown>]) {
  const times = await sampleTimes(runs2, { runs, warmup: 5 });
  return times.map((t, k) => report(names[k], t)) as [{ p50: number; p99: number }, { p50: number; p99: number }];
}

try {
  const sql = db();
  const [heavy] = await sql<{ market_id: string; outcome_id: string; n: number }[]>`
    SELECT market_id, outcome_id, count(*)::int AS n FROM trades GROUP BY 1, 2 ORDER BY 3 DESC LIMIT 1`;
  if (!heavy) throw new Error("no trades: seed first (npm run db:seed -- --heavy-trades 1000000)");
  const [{ n: marketTrades }] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM trades WHERE market_id = ${heavy.market_id}`;
  /** The cursor of the trade at this offset of the walk (what a client holds after offset/limit pages). */
  const cursorAt = async (scope: "market" | "outcome", offset: number) => {
    const where = scope === "market" ? sql`market_id = ${heavy.market_id}` : sql`outcome_id = ${heavy.outcome_id}`;
    const [row] = await sql<{ us: string; id: string }[]>`
      SELECT (extract(epoch FROM executed_at) * 1000000)::int8::text AS us, id FROM trades WHERE ${where}
       ORDER BY executed_at DESC, id DESC OFFSET ${offset} LIMIT 1`;
    return encodeTradeCursor({ us: BigInt(row.us), id: row.id });
  };
  console.log(`heavy outcome ${heavy.outcome_id}: ${heavy.n.toLocaleString("en-US")} trades; its market ${marketTrades.toLocaleString("en-US")}`);
  console.log(`${runs} runs per case after 5 warm-up runs, limit ${limit}; milliseconds (cache miss: the query functions)`);
  console.log(`${"case".padEnd(58)} ${"p50".padStart(8)} ${"p99".padStart(8)}`);
  const tape: { p50: number; p99: number }[] = [];
  for (const scope of ["outcome", "market"] as const) {
    const total = scope === "market" ? marketTrades : heavy.n;
    const base = { id: heavy.market_id, outcomeId: scope === "outcome" ? heavy.outcome_id : undefined, limit };
    const middle = await cursorAt(scope, Math.floor(total / 2));
    const last = await cursorAt(scope, Math.max(0, total - limit - 1));
    tape.push(await time(`tape (${scope}) first page`, () => listTrades(base)));
    tape.push(
      await time(`tape (${scope}) middle page (before, ${Math.floor(total / 2).toLocaleString("en-US")} deep)`, () => listTrades({ ...base, before: middle })),
    );
    tape.push(
      await time(`tape (${scope}) last page (before, ${(total - limit - 1).toLocaleString("en-US")} deep)`, () => listTrades({ ...base, before: last })),
    );
    tape.push(await time(`tape (${scope}) after the middle cursor`, () => listTrades({ ...base, after: middle })));
  }

  // Books: 50 native outcomes with resting orders (and mirrored ones when there are), the same set every run.
  const ids = (
    await sql<{ id: string }[]>`
      (SELECT DISTINCT outcome_id AS id FROM orders WHERE type = 'LIMIT' AND status IN ('OPEN', 'PARTIALLY_FILLED') LIMIT 45)
      UNION ALL (SELECT outcome_id FROM external_books LIMIT 5)`
  ).map((r) => r.id);
  const refs = await outcomesById(ids);
  const one = [...refs.values()][0];
  const [single, batch] = await timePair(
    ["one book (GET …/orderbook: outcome check + levels)", `batch of ${ids.length} books (outcome lookup + one query), alternating`],
    [() => getOrderBook({ id: one.market_id, outcomeId: one.outcome_id }), async () => getOrderBooks([...(await outcomesById(ids)).values()])],
  );
  const http = process.env.BENCH_URL;
  const httpTape: { p50: number; p99: number }[] = [];
  let overHttp: { single: { p50: number; p99: number }; batch: { p50: number; p99: number } } | undefined;
  if (http) {
    const get = async (path: string) => {
      const res = await fetch(new URL(path, http));
      if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
      await res.arrayBuffer();
    };
    const middle = await cursorAt("outcome", Math.floor(heavy.n / 2));
    const last = await cursorAt("outcome", Math.max(0, heavy.n - limit - 1));
    const tapeUrl = `/v1/markets/${heavy.market_id}/trades?limit=${limit}&outcomeId=${heavy.outcome_id}`;
    console.log(`over HTTP: ${http} (start it with CACHE=off RATE_LIMIT=off)`);
    for (const [name, url] of [
      ["first page", tapeUrl],
      ["middle page", `${tapeUrl}&before=${middle}`],
      ["last page", `${tapeUrl}&before=${last}`],
    ]) {
      httpTape.push(await time(`HTTP tape (outcome) ${name}`, () => get(url)));
    }
    const [single, batch] = await timePair(
      ["HTTP one book", `HTTP batch of ${ids.length} books, alternating`],
      [() => get(`/v1/markets/${one.market_id}/orderbook?outcomeId=${one.outcome_id}`), () => get(`/v1/orderbooks?outcomeIds=${ids.join(",")}`)],
    );
    overHttp = { single, batch };
  }
  const worst = Math.max(...tape.map((t) => t.p99));
  console.log(`tape: worst p99 ${worst.toFixed(2)} ms (target ≤ 20 ms) ${worst <= 20 ? "ok" : "OVER"}`);
  if (httpTape.length)
    console.log(`tape over HTTP: worst p99 ${Math.max(...httpTape.map((t) => t.p99)).toFixed(2)} ms (the route, JSON and the client included)`);
  const ratio = batch.p50 / single.p50;
  console.log(
    `batch of ${ids.length} / one book: ${ratio.toFixed(2)}× at p50, ${(batch.p99 / single.p99).toFixed(2)}× at p99 (target ≤ 3×) ${ratio <= 3 ? "ok" : "OVER"}`,
  );
  if (overHttp) {
    const r = overHttp.batch.p50 / overHttp.single.p50;
    console.log(`over HTTP: ${r.toFixed(2)}× at p50, ${(overHttp.batch.p99 / overHttp.single.p99).toFixed(2)}× at p99 (target ≤ 3×) ${r <= 3 ? "ok" : "OVER"}`);
  }
} finally {
  await closeDb();
  await database.stop();
}
