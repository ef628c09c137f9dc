// The response cache (lib/markets/reads/cache.ts) on two instances over one database: answers come from
// memory, and once an instance has heard of a commit (its push signal went out after the cache
// dropped what the commit changed) no answer it gives predates that commit, even while concurrent
// readers keep loads in flight across every write.
import type { Socket } from "socket.io-client";
import type postgres from "postgres";
import { expect, test, testRun } from "../fixtures";
import { collect, connectClient, join, waitFor, type Received } from "../realtime-helpers";
import { addOrder, addTrades, addTradesWithVolume, makeMarket, type TestMarket } from "../support/markets";
import { startInstance, type Instance } from "../support/instance";
import { formatUsdCompact } from "@/lib/ui/format";
import { listSlugs, relatedRows } from "../support/page-html";

test.describe.configure({ mode: "serial", timeout: 180_000 });

let other: Instance;
const bases = () => [testRun().baseURL, other.baseURL];

test.beforeAll(async () => {
  test.setTimeout(200_000);
  other = await startInstance({ DATABASE_URL: testRun().databaseUrl, LOG_REQUESTS: "0", RATE_LIMIT: "off" });
});
test.afterAll(async () => {
  await other?.stop();
});

async function getJson(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  return { status: res.status, headers: res.headers, body: res.status === 200 ? await res.json() : null };
}

/** Sequential readers hammering `urls` until stopped; each records what it saw, in order. */
function readers(urls: string[], perUrl: number, measure: (body: any) => number) {
  let running = true;
  const seen: number[][] = [];
  const loops = urls.flatMap((url) =>
    Array.from({ length: perUrl }, async () => {
      const mine: number[] = [];
      seen.push(mine);
      while (running) {
        const r = await getJson(url).catch(() => null);
        if (r?.status === 200) mine.push(measure(r.body));
      }
    }),
  );
  return {
    seen,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

async function watch(m: TestMarket, kind: "price" | "orderbook") {
  const sockets: Socket[] = [];
  const got: Received[][] = [];
  for (const base of bases()) {
    const s = await connectClient(base);
    expect(await join(s, `market:${m.slug}:${kind}`)).toEqual({ ok: true });
    sockets.push(s);
    got.push(collect(s));
  }
  return {
    got,
    close: () => {
      for (const s of sockets) s.close();
    },
  };
}

test("response cache – a repeated read comes from memory with the same ETag, and a 304 needs no load", async ({ sql }) => {
  const m = await makeMarket(sql, { prefix: "cache-hit", status: "ACTIVE" });
  // The order's announcement drops the book: read only once every instance has heard it, or a read
  // stored before it arrives is rightly dropped and the second read is a MISS.
  const { got, close } = await watch(m, "orderbook");
  try {
    await addOrder(sql, m, { price: "0.400" });
    await waitFor(() => got.every((g) => g.length > 0), 15_000, "the order's signal on every instance");
  } finally {
    close();
  }
  const url = `${testRun().baseURL}/v1/markets/slug/${m.slug}/orderbook?outcomeId=${m.outcomes[0]}`;
  const first = await getJson(url);
  const second = await getJson(url);
  expect(first.status).toBe(200);
  expect(second.headers.get("x-cache")).toBe("HIT");
  expect(second.headers.get("etag")).toBe(first.headers.get("etag"));
  const revalidated = await fetch(url, { headers: { "If-None-Match": first.headers.get("etag")! } });
  expect(revalidated.status).toBe(304);
  expect(revalidated.headers.get("x-cache")).toBe("HIT");
});

test("response cache – a burst of orders under concurrent reads: after each signal the next read has the order, on both instances", async ({ sql }) => {
  const m = await makeMarket(sql, { prefix: "cache-burst", status: "ACTIVE" });
  const book = (base: string, byId: boolean) => `${base}/v1/markets/${byId ? m.id : `slug/${m.slug}`}/orderbook?outcomeId=${m.outcomes[0]}`;
  const urls = bases().flatMap((b) => [book(b, true), book(b, false)]);
  const load = readers(urls, 3, (body) => body.bids.length);
  const { got, close } = await watch(m, "orderbook");
  const carried = got.map(() => 0);
  try {
    for (let i = 1; i <= 20; i++) {
      const price = (i / 100 + 0.1).toFixed(3);
      const before = got.map((g) => g.length);
      await addOrder(sql, m, { price, shares: "3.00" });
      // One order, one notification: the next signal on each instance went out after it was heard.
      await waitFor(() => got.every((g, n) => g.length > before[n]), 15_000, `the signal of order ${i} on both instances`);
      for (const [n, g] of got.entries()) {
        const signal = g[before[n]] as Received & { book?: { bids: { price: string }[] } };
        // A signal that names the outcome carries its book, with the order. A resync names none and
        // carries no book (its readers refetch): realtime.spec kills every instance's LISTEN connection
        // on this database, and a spec running beside this one sees that.
        if (signal.outcomeId === null && signal.book === undefined) continue;
        expect(signal.outcomeId, `signal ${i} on instance ${n}`).toBe(m.outcomes[0]);
        expect(
          signal.book?.bids.map((l) => l.price),
          `book carried by the signal ${i} on instance ${n}: ${JSON.stringify(signal)}`,
        ).toContain(price);
        carried[n]++;
      }
      for (const url of urls) {
        const r = await getJson(url);
        expect(
          r.body.bids.map((l: { price: string }) => l.price),
          `${url} after order ${i}`,
        ).toContain(price);
        expect(r.body.bids).toHaveLength(i);
      }
    }
  } finally {
    close();
    await load.stop();
  }
  // Resyncs are rare: nearly every order's signal carried the book on each instance.
  for (const n of carried) expect(n).toBeGreaterThanOrEqual(16);
  // Each sequential reader saw the book only grow: no answer older than one already shown.
  for (const seq of load.seen) {
    for (let k = 1; k < seq.length; k++) expect(seq[k]).toBeGreaterThanOrEqual(seq[k - 1]);
  }
  expect(load.seen.flat().length).toBeGreaterThan(40); // the readers really kept loads in flight
});

test("response cache – a burst of trades: market, history and list follow on both instances", async ({ sql }) => {
  const m = await makeMarket(sql, { prefix: "cache-trades", status: "ACTIVE" });
  const marketUrl = (b: string) => `${b}/v1/markets/${m.id}`;
  const historyUrl = (b: string) => `${b}/v1/markets/slug/${m.slug}/prices-history?outcomeId=${m.outcomes[0]}`;
  const listUrl = (b: string) => `${b}/v1/markets?q=${m.slug}&status=ACTIVE&sortBy=VOLUME`;
  const load = readers(
    bases().flatMap((b) => [marketUrl(b), historyUrl(b), listUrl(b)]),
    2,
    () => 0,
  );
  const { got, close } = await watch(m, "price");
  let last = "";
  try {
    for (let i = 1; i <= 15; i++) {
      last = (0.3 + i / 100).toFixed(3);
      await addTrades(sql, m, [{ price: last, shares: "2.000000" }]);
    }
    const committedAt = Date.now();
    // The last change always gets a signal, within the coalescing window of being heard: wait for one
    // after the last commit, then for the channel to stay quiet well past that window.
    await waitFor(() => got.every((g) => (g.at(-1)?.receivedAt ?? 0) > committedAt), 15_000, "a signal after the burst");
    await waitFor(() => got.every((g) => Date.now() - g.at(-1)!.receivedAt > 500), 15_000, "quiet channels");
    const [{ volume }] = await sql<{ volume: string }[]>`SELECT total_volume::text AS volume FROM markets WHERE id = ${m.id}`;
    for (const b of bases()) {
      const market = await getJson(marketUrl(b));
      expect(Number(market.body.total_volume), marketUrl(b)).toBeCloseTo(Number(volume), 6);
      const history = await getJson(historyUrl(b));
      expect(history.body.history.at(-1).p, historyUrl(b)).toBeCloseTo(Number(last), 6);
      const list = await getJson(listUrl(b));
      expect(Number(list.body.markets[0].total_volume), listUrl(b)).toBeCloseTo(Number(volume), 6);
    }
  } finally {
    close();
    await load.stop();
  }
});

test("response cache – comments, new markets and renamed users reach answers already cached", async ({ sql }) => {
  const m = await makeMarket(sql, { prefix: "cache-kinds", status: "ACTIVE" });
  const urls = bases().map((b) => `${b}/v1/markets/slug/${m.slug}`);
  for (const url of urls) {
    await getJson(url);
    await getJson(url); // cached on both
  }
  await sql`INSERT INTO comments (id, market_id, user_id, content, created_at) VALUES (gen_random_uuid(), ${m.id}, ${m.users[0]}, 'first!', now())`;
  for (const url of urls) {
    await expect.poll(async () => (await getJson(url)).body.comments.length, { timeout: 3_000 }).toBe(1);
  }
  const renamed = `renamed-${m.users[0].slice(0, 8)}`;
  await sql`UPDATE users SET username = ${renamed} WHERE id = ${m.users[0]}`;
  for (const url of urls) {
    await expect.poll(async () => (await getJson(url)).body.comments[0].user.username, { timeout: 3_000 }).toBe(renamed);
  }
  const listUrls = bases().map((b) => `${b}/v1/markets?q=cache-kinds-new-${m.id.slice(0, 8)}`);
  for (const url of listUrls) expect((await getJson(url)).body.total).toBe(0);
  const fresh = await makeMarket(sql, { prefix: `cache-kinds-new-${m.id.slice(0, 8)}`, status: "ACTIVE" });
  for (const url of listUrls) {
    await expect.poll(async () => (await getJson(url)).body.markets.map((x: { id: string }) => x.id), { timeout: 3_000 }).toEqual([fresh.id]);
  }
  // And the cache keeps working after what it dropped: with nothing changed, an answer is memory's again
  // (asked until so: other specs' writes may drop it meanwhile).
  for (const url of urls) {
    await expect
      .poll(async () => {
        await getJson(url);
        return (await getJson(url)).headers.get("x-cache");
      })
      .toBe("HIT");
  }
});

type Write = [what: string, write: () => Promise<unknown>];

/**
 * A page under a burst of writes on both instances: readers keep renders of it in flight all along; after
 * each write, a trade in `sentinel` (a market the page does not show) is awaited on both instances (its
 * signal says every write before it was heard), then each instance's page must show what the database says.
 */
async function pageFollows<T>(
  sql: postgres.Sql,
  opts: { label: string; sentinel: TestMarket; path: string; read: (html: string) => T; expected: () => Promise<T>; writes: Write[] },
) {
  const page = async (base: string) => {
    const res = await fetch(`${base}${opts.path}`, { headers: { accept: "text/html" } });
    return { cache: res.headers.get("x-render-cache"), shown: opts.read(await res.text()) };
  };
  let running = true;
  let views = 0;
  const loops = bases().flatMap((b) =>
    [1, 2].map(async () => {
      while (running) {
        await page(b).catch(() => null);
        views++;
      }
    }),
  );
  const { got, close } = await watch(opts.sentinel, "price");
  let hits = 0;
  try {
    for (const [what, write] of opts.writes) {
      await write();
      const since = Date.now();
      await addTradesWithVolume(sql, opts.sentinel, [{ price: "0.300" }]);
      await waitFor(() => got.every((g) => (g.at(-1)?.receivedAt ?? 0) >= since), 15_000, `the sentinel's signal after "${what}" on both instances`);
      const want = await opts.expected();
      for (const b of bases()) {
        const seen = await page(b);
        if (seen.cache === "HIT") hits++;
        expect(seen.shown as unknown, `${b} after "${what}" (${seen.cache})`).toEqual(want);
      }
    }
  } finally {
    running = false;
    close();
    await Promise.all(loops);
  }
  expect(views).toBeGreaterThan(40); // the readers really kept renders in flight
  console.log(`${opts.label}: ${views} concurrent views, ${hits} of ${opts.writes.length * 2} checks from memory`);
}

test("response cache – related markets on a market page follow a burst of trades and moves elsewhere, on both instances", async ({ sql }) => {
  const token = `crel${Date.now().toString(36)}`;
  const group = `${token}-group`;
  const tag = `${token}-tag`;
  const make = (name: string, extra: Parameters<typeof makeMarket>[1]) =>
    makeMarket(sql, { prefix: `${token}-${name}`, status: "ACTIVE", category: "FINANCE", question: `Will ${token} ${name} hold?`, ...extra });
  const a = await make("a", { subCategory: group, columns: { tags: [tag] } });
  // In a's group by sub-category or by its tag, and outside it (another sub-category, no tag).
  const members = [
    ...(await Promise.all([1, 2, 3, 4, 5].map((i) => make(`s${i}`, { subCategory: group, totalVolume: String(100 * i) })))),
    ...(await Promise.all([1, 2, 3].map((i) => make(`t${i}`, { subCategory: `${token}-own${i}`, totalVolume: String(150 * i), columns: { tags: [tag] } })))),
  ];
  // Outsiders trade more: one that joins is at the top of the list.
  const outsiders = await Promise.all([1, 2, 3].map((i) => make(`o${i}`, { subCategory: `${token}-else${i}`, totalVolume: String(1000 * i) })));
  // Another category: its trades touch nothing a's page shows; its signal says the writes before it were heard.
  const sentinel = await makeMarket(sql, { prefix: `${token}-sentinel`, status: "ACTIVE", category: "CRYPTO", subCategory: `${token}-sentinel` });

  const expected = async () => {
    const rows = await sql<{ question: string; volume: string }[]>`
      SELECT question, total_volume::text AS volume FROM markets
       WHERE category = 'FINANCE' AND status = 'ACTIVE' AND (sub_category = ${group} OR tags && ${sql.array([tag])}) AND id <> ${a.id}
       ORDER BY total_volume DESC, id DESC LIMIT 6`;
    return rows.map((r) => ({ question: r.question, volume: formatUsdCompact(Number(r.volume)) }));
  };
  // The top of a's list, by how it is in the group: moves of markets it shows change what it shows.
  const topOf = async (how: "sub" | "tag") => {
    const [top] = await sql<{ id: string }[]>`
      SELECT id FROM markets
       WHERE category = 'FINANCE' AND status = 'ACTIVE' AND id <> ${a.id}
         AND ${how === "sub" ? sql`sub_category = ${group}` : sql`sub_category <> ${group} AND tags && ${sql.array([tag])}`}
       ORDER BY total_volume DESC, id DESC LIMIT 1`;
    return top.id;
  };
  const writes: Write[] = [
    ...[0, 6, 2, 7, 4, 1].map(
      (i, n): Write => [`a trade in member ${i}`, () => addTradesWithVolume(sql, members[i], [{ price: "0.500", shares: String(200 * (n + 1)) }])],
    ),
    ["a trade outside", () => addTradesWithVolume(sql, outsiders[0], [{ price: "0.500", shares: "9000" }])],
    ["o2 takes the tag", () => sql`UPDATE markets SET tags = ${sql.array([tag])} WHERE id = ${outsiders[1].id}`],
    ["the top market of the sub-category leaves it", async () => sql`UPDATE markets SET sub_category = ${`${token}-left`} WHERE id = ${await topOf("sub")}`],
    ["the top market by the tag drops it", async () => sql`UPDATE markets SET tags = '{}' WHERE id = ${await topOf("tag")}`],
    ["o3 joins the sub-category", () => sql`UPDATE markets SET sub_category = ${group} WHERE id = ${outsiders[2].id}`],
    ["a trade in o2", () => addTradesWithVolume(sql, outsiders[1], [{ price: "0.500", shares: "5000" }])],
    ["the top market of the sub-category locks (out of the lists)", async () => sql`UPDATE markets SET status = 'LOCKED' WHERE id = ${await topOf("sub")}`],
  ];
  await pageFollows(sql, { label: "related burst", sentinel, path: `/markets/${a.slug}`, read: relatedRows, expected, writes });
});

test("response cache – a list page from the in-memory order follows a burst of trades, moves and new markets, on both instances", async ({ sql }) => {
  // At the top of the category's list by volume, far above the demo markets.
  const token = `clist${Date.now().toString(36)}`;
  const make = (name: string, volume: string) =>
    makeMarket(sql, { prefix: `${token}-${name}`, status: "ACTIVE", category: "SCIENCE", subCategory: `${token}-sub`, totalVolume: volume });
  const mine = await Promise.all([5, 4, 3, 2, 1].map((n) => make(`m${n}`, `${n}000000000000`)));
  const sentinel = await makeMarket(sql, { prefix: `${token}-sentinel`, status: "ACTIVE", category: "CRYPTO", subCategory: `${token}-sentinel` });
  const path = "/?category=science&sort=volume";
  const top = async () => {
    const rows = await sql<{ slug: string }[]>`
      SELECT slug FROM markets WHERE category = 'SCIENCE' AND status = 'ACTIVE' ORDER BY total_volume DESC, id DESC LIMIT 8`;
    return rows.map((r) => r.slug);
  };
  const trade = (m: TestMarket, shares: string) => addTradesWithVolume(sql, m, [{ price: "0.500", shares }]);
  const writes: Write[] = [
    ["a trade that moves nothing past another", () => trade(mine[2], "2")],
    ["m2 past m3", () => trade(mine[3], "3000000000000")],
    ["m1 to the top", () => trade(mine[4], "20000000000000")],
    ["m5 out of the lists", () => sql`UPDATE markets SET status = 'LOCKED' WHERE id = ${mine[0].id}`],
    ["m4 to another category", () => sql`UPDATE markets SET category = 'FINANCE' WHERE id = ${mine[1].id}`],
    ["a new market at the top", () => make("new", "90000000000000").then((m) => mine.push(m))],
    ["m5 back into the lists", () => sql`UPDATE markets SET status = 'ACTIVE' WHERE id = ${mine[0].id}`],
    ["a trade at the bottom of the order", () => make("low", "0").then((m) => (mine.push(m), trade(m, "5")))],
    // Off the page until now: no tag of the page names it, only the page's slice of the order shows the move.
    ["the bottom market to the top", () => trade(mine.at(-1)!, "100000000000000")],
  ];
  try {
    await pageFollows(sql, { label: "list burst", sentinel, path, read: (html) => listSlugs(html).slice(0, 8), expected: top, writes });
  } finally {
    // Their volumes would lead the lists for every other spec.
    await sql`UPDATE markets SET status = 'LOCKED' WHERE id = ANY(${mine.map((m) => m.id)})`;
  }
});

test("response cache – a search page follows a burst of trades, renames, moves and new markets, on both instances", async ({ sql }) => {
  const token = `csrch${Date.now().toString(36)}`;
  const make = (name: string, volume: string, question = `${token} ${name}?`) =>
    makeMarket(sql, { prefix: `${token}-${name}`, status: "ACTIVE", category: "SCIENCE", question, totalVolume: volume });
  const mine = await Promise.all([5, 4, 3, 2, 1].map((n) => make(`m${n}`, `${n}000`)));
  const stranger = await make("stranger", "500", "Found by another word only?");
  mine.push(stranger);
  const sentinel = await makeMarket(sql, { prefix: `${token}-sentinel`, status: "ACTIVE", category: "CRYPTO" });
  const path = `/?q=${token}&sort=volume`;
  const found = async () => {
    const rows = await sql<{ slug: string }[]>`
      SELECT slug FROM markets WHERE status = 'ACTIVE' AND (question ILIKE ${`%${token}%`} OR description ILIKE ${`%${token}%`})
      ORDER BY total_volume DESC, id DESC LIMIT 8`;
    return rows.map((r) => r.slug);
  };
  const trade = (m: TestMarket, shares: string) => addTradesWithVolume(sql, m, [{ price: "0.500", shares }]);
  const writes: Write[] = [
    ["a trade in a market the search does not find", () => trade(stranger, "2")],
    ["a trade that moves nothing past another", () => trade(mine[2], "2")],
    ["m2 past m3", () => trade(mine[3], "3000")],
    ["m1 to the top", () => trade(mine[4], "20000")],
    ["the stranger renamed into the search", () => sql`UPDATE markets SET question = ${`Now ${token.toUpperCase()}?`} WHERE id = ${stranger.id}`],
    ["m5 found by its description only", () => sql`UPDATE markets SET question = 'Other words?', description = ${`About ${token}.`} WHERE id = ${mine[0].id}`],
    ["m4 out of the search", () => sql`UPDATE markets SET question = 'Elsewhere?', description = 'Nothing.' WHERE id = ${mine[1].id}`],
    ["m3 locked", () => sql`UPDATE markets SET status = 'LOCKED' WHERE id = ${mine[2].id}`],
    ["a new market at the top", () => make("new", "90000").then((m) => mine.push(m))],
    ["the stranger traded to the top", () => trade(stranger, "1000000")],
  ];
  try {
    await pageFollows(sql, { label: "search burst", sentinel, path, read: (html) => listSlugs(html), expected: found, writes });
  } finally {
    await sql`UPDATE markets SET status = 'LOCKED' WHERE id = ANY(${mine.map((m) => m.id)})`;
  }
});
