// npm run bench:markets-feed [-- --url http://127.0.0.1:3000] [--seconds 30] [--rate 20] [--churn 2] [--limit 1000] [--poll 250] [--parallel 1]
// The markets feed (docs/api.md "GET /v1/markets/changes") as a client that mirrors the catalogue uses it:
//  1. full sync: pages from position 0 until a page is not full (prints markets, pages, seconds, markets/s,
//     bytes on the wire); with --parallel N, N ranges of positions at once (Mirror.sync);
//  2. follow: for --seconds, the simulator trades (lib/simulator, --rate ticks/s) and markets of the bench's
//     own are created, resolved, renamed and deleted (--churn of each per second), while the mirror polls from
//     `next` every --poll ms (prints polls, changes, and how soon a created market was in the mirror);
//  3. compare: once the writes stopped and a last pull found nothing new, every market of the database, read
//     with the list's own select list (lib/markets/sql/fragments.ts), against the mirror's copy: equal,
//     different, missing, extra. Exits 1 when any differ. The bench's markets are deleted afterwards.
// Against --url (a running server on the same database), else a server.ts of its own on DATABASE_URL (or
// the embedded cluster), started like the other benches (needs `npm run build`). Target (docs/performance.md):
// a 100,000-market catalogue fully synced in ≤ 60 s on 2 cores.
import { createHash } from "node:crypto";
import { parseArgs } from "node:util";
import { liftBounds } from "../lib/db/bounds";
import { closeDb, db, type Sql } from "../lib/db/client";
import { resolveDatabase } from "../lib/db/embedded";
import { percentile, sleep } from "../lib/dev/tools";
import type { MarketChanges } from "../lib/markets/schemas";
import { type ListedRow, listedRowSql, listItemOf } from "../lib/markets/sql/fragments";
import { startSimulator } from "../lib/simulator/simulator";
import { makeMarket, type TestMarket, uniqueSlug } from "../e2e/support/markets";
import { type Instance, startInstance } from "../e2e/support/instance";

const { values: args } = parseArgs({
  options: {
    url: { type: "string" },
    seconds: { type: "string", default: "30" },
    rate: { type: "string", default: "20" },
    churn: { type: "string", default: "2" },
    limit: { type: "string", default: "1000" },
    parallel: { type: "string", default: "1" },
    poll: { type: "string", default: "250" },
  },
});
const SECONDS = Number(args.seconds);
const RATE = Number(args.rate);
const CHURN = Number(args.churn);
const LIMIT = Number(args.limit);
const POLL_MS = Number(args.poll);
const PARALLEL = Math.max(1, Number(args.parallel));
const TARGET_S = 60;

const database = await resolveDatabase({ log: (m) => console.error(m) });
let server: Instance | undefined;
if (!args.url) server = await startInstance({ DATABASE_URL: database.url, SKIP_SEED: "1", LOG_REQUESTS: "0", RATE_LIMIT: "off", EXPORT_JOB: "off" });
const base = args.url ?? server!.baseURL;
const sql = db();

/** What the mirror keeps of a market: the position it was named at, its slug and status, a digest of its list item's JSON (null: deleted). */
interface Held {
  position: number;
  slug: string;
  status: string | null;
  digest: string | null;
}
const digest = (item: unknown) => createHash("sha1").update(JSON.stringify(item)).digest("base64");

class Mirror {
  /** Every market the feed named, deleted ones included: a change applies only over an older one of its market. */
  readonly entries = new Map<string, Held>();
  next = 0;
  pages = 0;
  changes = 0;
  bytes = 0;
  /** Called with each change applied. */
  onChange: (id: string, deleted: boolean) => void = () => {};

  /** The markets held (not deleted). */
  get size() {
    let n = 0;
    for (const e of this.entries.values()) if (e.digest !== null) n++;
    return n;
  }

  private async page(since: number): Promise<MarketChanges> {
    const res = await fetch(`${base}/v1/markets/changes?since=${since}&limit=${LIMIT}`, { headers: { "Accept-Encoding": "gzip" } });
    if (res.status !== 200) throw new Error(`GET /v1/markets/changes?since=${since}: ${res.status} ${await res.text()}`);
    this.bytes += Number(res.headers.get("content-length") ?? 0);
    this.pages++;
    return (await res.json()) as MarketChanges;
  }

  /** Pages from `since` until a page is not full or reaches `until`; returns the last next and the changes applied. */
  private async walk(since: number, until = Number.POSITIVE_INFINITY): Promise<{ next: number; applied: number }> {
    let applied = 0;
    for (;;) {
      const page = await this.page(since);
      for (const c of page.changes) {
        const held = this.entries.get(c.id);
        if (held && held.position >= c.position) continue;
        this.entries.set(c.id, { position: c.position, slug: c.slug, status: c.market?.status ?? null, digest: c.market ? digest(c.market) : null });
        this.onChange(c.id, c.deleted);
        applied++;
      }
      since = page.next;
      if (!page.more || since >= until) return { next: since, applied };
    }
  }

  /** Pages from `next` until a page is not full; returns how many changes it applied. */
  async pull(): Promise<number> {
    const { next, applied } = await this.walk(this.next);
    this.next = next;
    this.changes += applied;
    return applied;
  }

  /**
   * The whole catalogue from position 0. With `parallel` > 1, the positions up to the head are split in as
   * many ranges, each paged at once from its start to the next one's, then the rest from the last: a change
   * applies only over an older one of its market, so pages read out of order still leave each market at its
   * last change (docs/api.md "GET /v1/markets/changes").
   */
  async sync(parallel: number): Promise<void> {
    if (parallel <= 1) return void (await this.pull());
    const { head } = await this.page(0);
    const starts = Array.from({ length: parallel }, (_, i) => Math.floor((head * i) / parallel));
    const walked = await Promise.all(starts.map((start, i) => this.walk(start, starts[i + 1])));
    this.changes += walked.reduce((n, w) => n + w.applied, 0);
    this.next = walked.at(-1)!.next;
    await this.pull();
  }
}

const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
const ms = (n: number | undefined) => (n === undefined ? "–" : `${Math.round(n)} ms`);
let failed = false;
const own: TestMarket[] = [];

try {
  const [{ n: total }] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM markets`;
  console.log(`bench-markets-feed: ${base}, ${total.toLocaleString("en-US")} markets in the database, pages of ${LIMIT}`);

  // 1. Full sync from position 0.
  const mirror = new Mirror();
  const t0 = performance.now();
  await mirror.sync(PARALLEL);
  const syncS = (performance.now() - t0) / 1000;
  console.log(
    `full sync${PARALLEL > 1 ? ` (${PARALLEL} ranges at once)` : ""}: ${mirror.size.toLocaleString("en-US")} markets, ${mirror.pages} pages, ${syncS.toFixed(1)} s, ` +
      `${Math.round(mirror.size / syncS).toLocaleString("en-US")} markets/s, ${mb(mirror.bytes)} on the wire ` +
      `(target ≤ ${TARGET_S} s for 100,000: ${syncS <= (TARGET_S * Math.max(total, 1)) / 100_000 ? "ok" : "OVER"})`,
  );

  // 2. Follow while the simulator trades and the bench's own markets come and go.
  const created = new Map<string, number>();
  const seenAfter: number[] = [];
  mirror.onChange = (id, deleted) => {
    const at = created.get(id);
    if (at !== undefined && !deleted) {
      seenAfter.push(performance.now() - at);
      created.delete(id);
    }
  };
  const stopSimulator = startSimulator(sql, { ratePerSecond: RATE, log: () => {} });
  const counts = { created: 0, resolved: 0, renamed: 0, deleted: 0, failed: 0 };
  const writesEnd = Date.now() + SECONDS * 1000;
  // The bench's markets: created ACTIVE (without users: deleting users flushes every cache), then one in
  // three resolved, renamed or deleted, each at most once.
  const untouched: TestMarket[] = [];
  const churn = async () => {
    while (Date.now() < writesEnd) {
      const started = Date.now();
      try {
        for (let i = 0; i < CHURN; i++) {
          const m = await makeMarket(sql, { prefix: "bench-feed", status: "ACTIVE", users: 0 });
          created.set(m.id, performance.now());
          own.push(m);
          untouched.push(m);
          counts.created++;
        }
        for (let i = 0; i < CHURN && untouched.length >= 3; i++) {
          const [resolve, rename, remove] = untouched.splice(Math.floor(Math.random() * (untouched.length - 2)), 3);
          await sql.begin(async (tx) => {
            await tx`UPDATE outcomes SET probability = CASE WHEN id = ${resolve.yes} THEN 100 ELSE 0 END WHERE market_id = ${resolve.id}`;
            await tx`UPDATE markets SET status = 'RESOLVED', winning_outcome_id = ${resolve.yes}, resolved_at = now(), settled_at = now() WHERE id = ${resolve.id}`;
          });
          counts.resolved++;
          await sql`UPDATE markets SET slug = ${uniqueSlug("bench-feed-renamed")} WHERE id = ${rename.id}`;
          counts.renamed++;
          await sql`DELETE FROM markets WHERE id = ${remove.id}`;
          counts.deleted++;
        }
      } catch (err) {
        if (++counts.failed <= 3) console.error(`churn: ${(err as Error).message}`);
      }
      await sleep(Math.max(0, 1000 - (Date.now() - started)));
    }
  };
  const follow = async () => {
    let polls = 0;
    while (Date.now() < writesEnd) {
      const started = Date.now();
      await mirror.pull();
      polls++;
      await sleep(Math.max(0, POLL_MS - (Date.now() - started)));
    }
    return polls;
  };
  const changesBefore = mirror.changes;
  const [polls] = await Promise.all([follow(), churn()]);
  await stopSimulator();
  const [{ trades }] = await sql<
    { trades: number }[]
  >`SELECT count(*)::int AS trades FROM trades WHERE executed_at > now() - ${`${SECONDS + 5} seconds`}::interval`;
  const catchUp = performance.now();
  await mirror.pull();
  const catchUpMs = performance.now() - catchUp;
  seenAfter.sort((a, b) => a - b);
  console.log(
    `follow: ${SECONDS} s of writes (simulator at ${RATE} ticks/s: ${trades} trades; ${counts.created} markets created, ${counts.resolved} resolved, ` +
      `${counts.renamed} renamed, ${counts.deleted} deleted${counts.failed ? `, ${counts.failed} failed` : ""}); ${polls} polls every ${POLL_MS} ms, ` +
      `${(mirror.changes - changesBefore).toLocaleString("en-US")} changes applied; a created market in the mirror after p50 ${ms(percentile(seenAfter, 50))}, ` +
      `p99 ${ms(percentile(seenAfter, 99))}, max ${ms(seenAfter.at(-1))}; caught up ${ms(catchUpMs)} after the writes stopped`,
  );

  // 3. Compare with the database, once a pull after the read finds nothing new (nothing changed under it).
  for (let attempt = 1; ; attempt++) {
    const t = performance.now();
    const truth = new Map<string, string>();
    // One snapshot, without the request pool's statement timeout: 100,000 items take longer than a request may.
    await sql.begin("ISOLATION LEVEL REPEATABLE READ READ ONLY", async (tx) => {
      await liftBounds(tx);
      await tx<ListedRow[]>`SELECT ${listedRowSql(tx as unknown as Sql)} FROM markets m`.cursor(2000, (rows) => {
        for (const r of rows) truth.set(r.id, digest(listItemOf(r)));
      });
    });
    const readS = (performance.now() - t) / 1000;
    if ((await mirror.pull()) > 0 && attempt < 5) continue;
    let equal = 0;
    const different: string[] = [];
    const missing: string[] = [];
    for (const [id, item] of truth) {
      const mine = mirror.entries.get(id);
      if (!mine?.digest) missing.push(id);
      else if (mine.digest === item) equal++;
      else different.push(`${id} (${mine.slug} ${mine.status} at ${mine.position})`);
    }
    const extra = [...mirror.entries].filter(([id, e]) => e.digest !== null && !truth.has(id)).map(([id]) => id);
    failed = different.length + missing.length + extra.length > 0;
    console.log(
      `compare (database read in ${readS.toFixed(1)} s): ${equal.toLocaleString("en-US")} equal, ${different.length} different, ` +
        `${missing.length} missing from the mirror, ${extra.length} in the mirror only: ${failed ? "DIFFERENT" : "equal to the database"}`,
    );
    for (const line of [...different, ...missing.map((id) => `missing ${id}`), ...extra.map((id) => `extra ${id}`)].slice(0, 10)) console.log(`  ${line}`);
    break;
  }
} finally {
  // The bench's markets go (their tombstones stay in market_positions, as any deleted market's).
  if (own.length) await sql`DELETE FROM markets WHERE id = ANY(${own.map((m) => m.id)}::uuid[])`.catch(() => {});
  await server?.stop();
  await closeDb();
  await database.stop();
}
process.exit(failed ? 1 : 0);
