// The markets feed (docs/api.md "GET /v1/markets/changes"): a mirror that pages from position 0 holds
// exactly the markets of the database, and one that goes on from `next` through a burst of concurrent
// writes (markets created, resolved, renamed, deleted, repriced) equals the database again, each item as
// the list and the market endpoints show it. Strict validation, both shapes, ETag/304. Other specs write
// beside this one, so a comparison with the whole catalogue pulls again until the mirror has caught up.
import postgres from "postgres";
import type { APIRequestContext } from "@playwright/test";
import { camelMarketChangesSchema, type MarketChanges, type MarketListItem, marketChangesSchema } from "@/lib/markets/schemas";
import { expect, test, testRun } from "../fixtures";
import { CAMEL } from "../support/api";
import { addTradesWithVolume, feedPosition, makeFullMarket, makeMarket, type TestMarket, uniqueSlug } from "../support/markets";

const FEED = "/v1/markets/changes";

async function feedPage(request: APIRequestContext, since: number, limit: number): Promise<MarketChanges> {
  const res = await request.get(`${FEED}?since=${since}&limit=${limit}`);
  expect(res.status(), await res.text()).toBe(200);
  expect(res.headers()["cache-control"]).toBe("no-cache");
  return marketChangesSchema.parse(await res.json());
}

/** A copy of the catalogue kept by the feed alone, as a client would keep it. */
class Mirror {
  readonly markets = new Map<string, MarketListItem>();
  /** The last slug of each deleted market the feed named. */
  readonly tombstones = new Map<string, string>();
  next = 0;
  pages = 0;
  changes = 0;

  constructor(
    private readonly request: APIRequestContext,
    private readonly limit: number,
  ) {}

  /** Pages from `next` until a page is not full; every page in position order, after `since`, each market once. */
  async pull(): Promise<void> {
    for (;;) {
      const page = await feedPage(this.request, this.next, this.limit);
      this.pages++;
      // Every rule of a page as one list of breaches, checked once (an expect per change would cost more than the request).
      const breaches: string[] = [];
      let last = this.next;
      for (const c of page.changes) {
        if (c.position <= last) breaches.push(`${c.id} at ${c.position}, not after ${last}`);
        last = c.position;
        if (c.deleted !== (c.market === null)) breaches.push(`${c.id}: deleted ${c.deleted} with market ${c.market === null ? "null" : "set"}`);
        if (c.market) {
          if (c.market.id !== c.id || c.market.slug !== c.slug) breaches.push(`${c.id} ${c.slug}: the item says ${c.market.id} ${c.market.slug}`);
          this.markets.set(c.id, c.market);
        } else {
          this.markets.delete(c.id);
          this.tombstones.set(c.id, c.slug);
        }
      }
      if (new Set(page.changes.map((c) => c.id)).size !== page.changes.length) breaches.push("a market twice on one page");
      if (page.next !== (page.changes.at(-1)?.position ?? this.next)) breaches.push(`next ${page.next}`);
      if (page.more !== (page.changes.length === this.limit)) breaches.push(`more ${page.more} with ${page.changes.length} changes`);
      if (page.head < page.next) breaches.push(`head ${page.head} before next ${page.next}`);
      expect(breaches, `the page since ${this.next}`).toEqual([]);
      this.changes += page.changes.length;
      this.next = page.next;
      if (!page.more) return;
    }
  }
}

type Row = { id: string; slug: string; status: string };
const keyOf = (r: Row) => `${r.id} ${r.slug} ${r.status}`;

/** The markets that differ between the mirror and the database (id, slug, status), as "mirror: …" and "database: …" lines. */
async function differences(mirror: Mirror, sql: postgres.Sql): Promise<string[]> {
  const rows = await sql<Row[]>`SELECT id, slug, status::text FROM markets`;
  const db = new Set(rows.map(keyOf));
  const held = new Set([...mirror.markets.values()].map(keyOf));
  return [...[...held].filter((k) => !db.has(k)).map((k) => `mirror: ${k}`), ...[...db].filter((k) => !held.has(k)).map((k) => `database: ${k}`)];
}

/** Pulls until the mirror equals the database: other specs write meanwhile, so a pull and a read of the database may straddle a write. */
async function expectInStep(mirror: Mirror, sql: postgres.Sql) {
  let diff: string[] = [];
  for (let attempt = 0; attempt < 20; attempt++) {
    await mirror.pull();
    diff = await differences(mirror, sql);
    if (diff.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(diff.slice(0, 20)).toEqual([]);
}

/** A market detail as the list shows it: without what only the detail has, with comments_count (from the database). */
function listItemOfDetail(detail: Record<string, unknown>, commentsCount: number) {
  const { total_liquidity, top_traders, comments, external_market_id, price_market, predict_market, creator, ...base } = detail;
  return { ...base, comments_count: commentsCount };
}

test.describe("GET /v1/markets/changes", () => {
  test("pages from since=0 to the end and holds exactly the markets of the database", async ({ request, sql }) => {
    const mirror = new Mirror(request, 100);
    await expectInStep(mirror, sql);
    expect(mirror.pages).toBeGreaterThan(1);
    expect(mirror.markets.size).toBeGreaterThan(100);
    // A page past the end is empty and keeps the position it was asked from.
    const far = await feedPage(request, Number.MAX_SAFE_INTEGER, 1000);
    expect(far).toMatchObject({ changes: [], next: Number.MAX_SAFE_INTEGER, more: false });
  });

  test("a mirror that goes on from next through a burst of concurrent writes equals the database again", async ({ request, sql }) => {
    test.setTimeout(120_000);
    // Held by the mirror before the burst: one deleted, one renamed and then deleted, one moved through every state.
    const gone = await makeMarket(sql, { prefix: "feed-gone", status: "ACTIVE" });
    const renamedGone = await makeMarket(sql, { prefix: "feed-rngone", status: "ACTIVE" });
    const moved = await makeMarket(sql, { prefix: "feed-moved", status: "LOCKED" });
    const mirror = new Mirror(request, 7);
    await expectInStep(mirror, sql);
    expect(mirror.markets.has(gone.id)).toBe(true);

    // The writers: six connections, each market's writes in order, the markets in parallel, while the mirror pulls.
    const writer = postgres(testRun().databaseUrl, { max: 6, onnotice: () => {} });
    const own: TestMarket[] = [];
    const renamedSlug = uniqueSlug("feed-renamed");
    const burst = async () => {
      const created = await Promise.all([
        makeMarket(writer, { prefix: "feed-new", status: "ACTIVE" }),
        makeMarket(writer, { prefix: "feed-resolve", status: "ACTIVE" }),
        makeMarket(writer, { prefix: "feed-rename", status: "ACTIVE" }),
        makeMarket(writer, { prefix: "feed-price", status: "ACTIVE", outcomes: 3 }),
        makeMarket(writer, { prefix: "feed-brief", status: "ACTIVE" }),
        makeFullMarket(writer),
      ]);
      own.push(...created);
      const [, resolve, rename, price, brief, full] = created;
      await Promise.all([
        writer.begin(async (tx) => {
          await tx`UPDATE outcomes SET probability = CASE WHEN id = ${resolve.yes} THEN 100 ELSE 0 END WHERE market_id = ${resolve.id}`;
          await tx`UPDATE markets SET status = 'RESOLVED', winning_outcome_id = ${resolve.yes}, resolved_at = now(), settled_at = now() WHERE id = ${resolve.id}`;
        }),
        writer`UPDATE markets SET slug = ${renamedSlug}, question = 'Renamed by the feed spec?' WHERE id = ${rename.id}`,
        (async () => {
          for (const p of [
            [50, 30, 20],
            [40, 40, 20],
            [10, 20, 70],
          ]) {
            await writer`UPDATE outcomes o SET probability = v.p FROM unnest(${price.outcomes}::uuid[], ${p}::numeric[]) AS v (id, p) WHERE o.id = v.id`;
          }
        })(),
        writer`DELETE FROM markets WHERE id = ${brief.id}`,
        writer`DELETE FROM markets WHERE id = ${gone.id}`,
        (async () => {
          await writer`UPDATE markets SET slug = ${`${renamedGone.slug}-x`} WHERE id = ${renamedGone.id}`;
          await writer`DELETE FROM markets WHERE id = ${renamedGone.id}`;
        })(),
        (async () => {
          await writer`UPDATE markets SET status = 'ACTIVE' WHERE id = ${moved.id}`;
          await writer`UPDATE markets SET status = 'CANCELLED', settled_at = now() WHERE id = ${moved.id}`;
        })(),
        addTradesWithVolume(writer, full, [
          { price: "0.700", shares: "10" },
          { price: "0.710", shares: "5" },
        ]),
      ]);
    };
    let writing = true;
    const written = burst().finally(() => {
      writing = false;
    });
    while (writing) await mirror.pull();
    await written;
    await writer.end();
    await expectInStep(mirror, sql);

    // Deleted markets are gone from the mirror: each came as a tombstone with its last slug.
    for (const m of [gone, renamedGone, own[4]]) expect(mirror.markets.has(m.id)).toBe(false);
    expect(mirror.tombstones.get(gone.id)).toBe(gone.slug);
    expect(mirror.tombstones.get(renamedGone.id)).toBe(`${renamedGone.slug}-x`);
    expect(mirror.tombstones.get(own[4].id)).toBe(own[4].slug);
    expect(mirror.markets.get(own[2].id)?.slug).toBe(renamedSlug);
    expect(mirror.markets.get(own[1].id)).toMatchObject({ status: "RESOLVED", winning_outcome_id: own[1].yes });
    expect(mirror.markets.get(moved.id)?.status).toBe("CANCELLED");
    expect(mirror.markets.get(own[3].id)?.outcomes.map((o) => o.probability)).toEqual([10, 20, 70]);

    // Each live market of the burst as GET /v1/markets/{id} shows it and as the list lists it. Those
    // answers come from the instance's cache, fresh once it has heard the commits: asked until they are.
    for (const m of [...own.filter((o) => o.id !== own[4].id), moved]) {
      const item = mirror.markets.get(m.id)!;
      const [{ comments_count }] = await sql<{ comments_count: number }[]>`SELECT comments_count FROM markets WHERE id = ${m.id}`;
      await expect.poll(async () => listItemOfDetail(await (await request.get(`/v1/markets/${m.id}`)).json(), comments_count)).toEqual(item);
      const listed = async () => {
        const q = new URLSearchParams({ q: item.question, status: item.status });
        const body = await (await request.get(`/v1/markets?${q}`)).json();
        return body.markets.find((x: MarketListItem) => x.id === m.id);
      };
      await expect.poll(listed).toEqual(item);
    }
  });

  test("rejects a since or limit out of range or given twice, and unknown parameters, with the API's 400", async ({ request }) => {
    const cases: [string, string][] = [
      ["since=-1", "since must not be less than 0"],
      ["since=abc", "since must be an integer number"],
      ["since=1.5", "since must be an integer number"],
      ["since=", "since must be an integer number"],
      ["since=1e3", "since must be an integer number"],
      ["since=9007199254740992", "since must not be greater than 9007199254740991"],
      ["since=99999999999999999999999", "since must not be greater than 9007199254740991"],
      ["since=1&since=2", "since must be an integer number"],
      ["limit=0", "limit must not be less than 1"],
      ["limit=1001", "limit must not be greater than 1000"],
      ["limit=ten", "limit must be an integer number"],
      ["offset=0", "property offset should not exist"],
      ["since=0&cursor=x", "property cursor should not exist"],
    ];
    for (const [query, message] of cases) {
      const res = await request.get(`${FEED}?${query}`);
      expect(res.status(), query).toBe(400);
      expect(res.headers()["cache-control"], query).toBe("no-store");
      const body = await res.json();
      expect(body, query).toMatchObject({ statusCode: 400, error: "Bad Request" });
      expect(body.message, query).toContain(message);
    }
  });

  test("answers both shapes: the list's item in each, the same envelope", async ({ request, sql }) => {
    const m = await makeFullMarket(sql);
    const position = await feedPosition(sql, m.id);
    const since = Number(position) - 1;
    // The market is alone at its position: the page from just before it starts with it, in either shape.
    const primaryRes = await request.get(`${FEED}?since=${since}&limit=1`);
    const camelRes = await request.get(`${FEED}?since=${since}&limit=1`, { headers: { Accept: CAMEL } });
    expect(primaryRes.headers()["content-type"]).toContain("application/json");
    expect(camelRes.headers()["content-type"]).toContain(CAMEL);
    expect(camelRes.headers().etag).not.toBe(primaryRes.headers().etag);
    const primary = marketChangesSchema.parse(await primaryRes.json());
    const camel = camelMarketChangesSchema.parse(await camelRes.json());
    expect(primary.changes[0]).toMatchObject({ id: m.id, slug: m.slug, deleted: false });
    expect(camel.changes[0]).toMatchObject({ id: m.id, slug: m.slug, deleted: false, position: primary.changes[0].position });
    // Each item is what the list answers in that shape.
    const list = (accept: string) => request.get(`/v1/markets?q=${m.token}`, { headers: { Accept: accept } }).then((r) => r.json());
    await expect.poll(async () => (await list("application/json")).markets[0]).toEqual(primary.changes[0].market);
    await expect.poll(async () => (await list(CAMEL)).markets[0]).toEqual(camel.changes[0].market);
    expect(camel.changes[0].market).toMatchObject({ id: m.id, commentsCount: primary.changes[0].market?.comments_count, totalVolume: expect.any(String) });
    expect(Object.keys(camel).sort()).toEqual(["changes", "head", "more", "next"]);
  });

  test("revalidates with the ETag: 304 while the page is the same, 200 once a market on it changed", async ({ request, sql }) => {
    const m = await makeMarket(sql, { prefix: "feed-etag" });
    const position = await feedPosition(sql, m.id);
    const url = `${FEED}?since=${Number(position) - 1}&limit=1`;
    // `head` moves with any write of any spec: ask until two answers in a row are the same page.
    await expect
      .poll(
        async () => {
          const first = await request.get(url);
          const etag = first.headers().etag;
          const again = await request.get(url, { headers: { "If-None-Match": etag } });
          if (again.status() !== 304) return again.status();
          expect(again.headers().etag).toBe(etag);
          expect(again.headers()["cache-control"]).toBe("no-cache");
          expect((await again.body()).length).toBe(0);
          return 304;
        },
        { timeout: 15_000, intervals: [0, 50, 100] },
      )
      .toBe(304);
    const before = (await request.get(url)).headers().etag;
    await sql`UPDATE markets SET question = 'Changed for the ETag?' WHERE id = ${m.id}`;
    // Read from the database every time: the change shows in the very next answer, no waiting for the change stream.
    const after = await request.get(url, { headers: { "If-None-Match": before } });
    expect(after.status()).toBe(200);
    expect(after.headers().etag).not.toBe(before);
    // The market moved on to a later position; no change is older than the page's since.
    const page = marketChangesSchema.parse(await after.json());
    expect(page.changes[0].position).toBeGreaterThan(Number(position) - 1);
    // The feed's table moves it on a moment after the commit (the applier, migration 0022).
    await feedPosition(sql, m.id);
    const moved = await feedPage(request, Number(position), 1000);
    expect(moved.changes.find((c) => c.id === m.id)?.market?.question).toBe("Changed for the ETag?");
  });
});
