// The page cache (lib/pages/page-cache.ts) over real HTTP and the test database: a second view of a page
// comes from memory with its own nonce, a change to what a page shows makes its next view fresh, a
// reader's watchlist cookie is neither cached nor shown to another reader, and no client picks a nonce.
import http from "node:http";
import zlib from "node:zlib";
import type postgres from "postgres";
import { expect, test, testRun } from "../fixtures";
import { COALESCE_MS, collect, connectClient, join, waitFor } from "../realtime-helpers";
import { addTrades, addTradesWithVolume, makeMarket, type TestMarket } from "../support/markets";
import { formatUsdCompact } from "@/lib/ui/format";
import { listSlugs, relatedRows, subCategoryCounts } from "../support/page-html";

test.describe.configure({ timeout: 120_000 });

interface View {
  status: number;
  cache: string | undefined;
  headers: http.IncomingHttpHeaders;
  /** The nonce of the CSP header. */
  nonce: string;
  html: string;
  /** When the request was sent (this machine's clock, the server's too). */
  sentAt: number;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

/** GET as a browser's document request would, gunzipping a gzip body. */
function view(path: string, headers: Record<string, string> = {}): Promise<View> {
  const { hostname, port } = new URL(testRun().baseURL);
  const sentAt = Date.now();
  return new Promise((resolve, reject) => {
    const req = http.get({ hostname, port, path, agent, headers: { accept: "text/html", ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const raw = Buffer.concat(chunks);
        const html = (res.headers["content-encoding"] === "gzip" ? zlib.gunzipSync(raw) : raw).toString("utf8");
        const csp = String(res.headers["content-security-policy"] ?? "");
        const cache = res.headers["x-render-cache"];
        resolve({
          status: res.statusCode ?? 0,
          cache: cache as string | undefined,
          headers: res.headers,
          nonce: /'nonce-([^']+)'/.exec(csp)?.[1] ?? "",
          html,
          sentAt,
        });
      });
      res.on("error", reject);
    });
    req.setTimeout(30_000, () => req.destroy(new Error(`GET ${path}: no answer in 30 s`)));
    req.on("error", reject);
  });
}

/** Views `path` until one comes from memory; returns it and the view before it. */
async function viewUntilHit(path: string, headers: Record<string, string> = {}) {
  let before = await view(path, headers);
  for (let i = 0; i < 30; i++) {
    const v = await view(path, headers);
    if (v.cache === "HIT") return { before, hit: v };
    before = v;
  }
  throw new Error(`${path}: never served from memory (last: ${before.cache})`);
}

/** Every script of the page carries the nonce of its own CSP header, and no other nonce is in it. */
function expectOwnNonce(v: View) {
  expect(v.nonce).toMatch(/^[A-Za-z0-9+/=]{16,}$/);
  const scripts = [...v.html.matchAll(/<script\b[^>]*>/g)].map((s) => s[0]);
  expect(scripts.length).toBeGreaterThan(0);
  for (const tag of scripts) expect(tag).toContain(`nonce="${v.nonce}"`);
  expect([...new Set([...v.html.matchAll(/nonce="([^"]*)"/g)].map((m) => m[1]))]).toEqual([v.nonce]);
}

const withoutNonce = (v: View, text: string) => text.replaceAll(v.nonce, "NONCE");

/** The star of market `id` on a page: on, off, or absent. */
function starOf(html: string, id: string): "on" | "off" | "absent" {
  const m = new RegExp(`name="id" value="${id}"/><input type="hidden" name="want" value="(on|off)"`).exec(html);
  return m ? (m[1] === "off" ? "on" : "off") : "absent"; // the form offers the opposite of the state
}

/**
 * Resolves once the market's price channel has signalled `write` (the cache dropped the change's tags
 * before). A signal still held back by the channel's coalescing window for an earlier write of this
 * market would go out to a socket that joins within it, before `write` is heard: the socket waits out
 * the window first, and the signal waited for is one that came after.
 */
async function priceSignal(m: TestMarket, write: () => Promise<unknown>) {
  const socket = await connectClient(testRun().baseURL);
  try {
    const got = collect(socket);
    expect(await join(socket, `market:${m.slug}:price`)).toEqual({ ok: true });
    await new Promise((resolve) => setTimeout(resolve, COALESCE_MS * 2));
    got.length = 0;
    await write();
    await waitFor(() => got.length > 0, 15_000, `a price signal of ${m.slug}`);
  } finally {
    socket.close();
  }
}

/**
 * Whether a view of `path` after `write` (heard on `m`'s price channel) came from memory, in one of five
 * attempts: a write of another spec may change the page meanwhile.
 */
async function keptAfter(path: string, m: TestMarket, write: () => Promise<unknown>) {
  for (let attempt = 1; attempt <= 5; attempt++) {
    await viewUntilHit(path);
    await priceSignal(m, write);
    if ((await view(path)).cache === "HIT") return true;
  }
  return false;
}

/** A market no other page relates to (its own sub-category, no tags), ending in 60 days: nothing on its pages ticks soon. */
const quietMarket = (sql: postgres.Sql, prefix: string, extra: Parameters<typeof makeMarket>[1] = {}) =>
  makeMarket(sql, { prefix, status: "ACTIVE", subCategory: `${prefix}-${Date.now().toString(36)}`, endsAt: new Date(Date.now() + 60 * 86_400_000), ...extra });

test("page cache – a second view of a market page comes from memory, with a fresh nonce in its CSP and on every script", async ({ sql }) => {
  const m = await quietMarket(sql, "pc-hit");
  const path = `/markets/${m.slug}`;
  const first = await view(path);
  expect(first.status).toBe(200);
  expect(first.cache).toBe("MISS");
  // A first view is not kept (a page asked once would only take the budget): the second renders again.
  const second = await view(path);
  expect(second.cache).toBe("MISS");

  const { before, hit } = await viewUntilHit(path, { "accept-encoding": "gzip" });
  expect(hit.headers["content-encoding"]).toBe("gzip");
  for (const v of [first, before, hit]) expectOwnNonce(v);
  expect(new Set([first.nonce, before.nonce, hit.nonce]).size).toBe(3);
  // The same render (only the nonce differs), with every header of the render it came from.
  expect(withoutNonce(hit, hit.html) === withoutNonce(before, before.html), "the same render, but for the nonce").toBe(true);
  for (const name of ["content-type", "cache-control", "vary", "x-content-type-options", "x-frame-options", "referrer-policy", "permissions-policy"]) {
    expect(hit.headers[name], name).toBe(before.headers[name]);
    expect(hit.headers[name], name).toBeTruthy();
  }
  expect(withoutNonce(hit, String(hit.headers["content-security-policy"]))).toBe(withoutNonce(before, String(before.headers["content-security-policy"])));
});

test("page cache – after a trade on a market, its next page view is rendered again and shows the trade", async ({ sql }) => {
  const m = await quietMarket(sql, "pc-trade");
  const path = `/markets/${m.slug}`;
  // The page shows the second of its read ("Updated …"), so a render holds until the next whole second
  // at least: a view sent before then, after the write, is fresh only if the write dropped the render.
  for (let attempt = 1; attempt <= 10; attempt++) {
    const { hit } = await viewUntilHit(path);
    const heldUntil = Math.ceil((hit.sentAt + 1) / 1000) * 1000;
    const price = `0.${(170 + attempt).toString().padStart(3, "0")}`; // 17.1¢, 17.2¢ …
    const shown = `${(Number(price) * 100).toFixed(1)}¢`;
    expect(hit.html.includes(shown), `the cached page shows ${shown} before the trade`).toBe(false);
    await priceSignal(m, () => addTrades(sql, m, [{ price }]));
    const after = await view(path);
    expect(after.html.includes(shown), `the view after the trade shows ${shown}`).toBe(true);
    if (after.sentAt < heldUntil) {
      expect(after.cache).toBe("MISS");
      return;
    }
  }
  throw new Error("no attempt viewed the page while its cached render would still have held");
});

test("page cache – a cached list page is rendered again when a time it shows reads differently (a card's time left)", async ({ sql }) => {
  // Its card reads "2m left" until two minutes before the end, then "1m left": the tick comes ~10 s after
  // the market is made. No page calls for it; the time-left helper tells the page cache (lib/ui/clock.ts).
  const token = `pcclock${Date.now().toString(36)}`;
  const endsAt = new Date(Math.ceil(Date.now() / 1000) * 1000 + 130_000);
  await quietMarket(sql, "pc-clock", { question: `Will ${token} hold?`, endsAt });
  const path = `/?q=${token}`;
  const tick = endsAt.getTime() - 120_000;
  const { hit } = await viewUntilHit(path);
  expect(hit.sentAt, "a view from memory before the tick").toBeLessThan(tick);
  expect(hit.html).toContain("2m left");
  await new Promise((r) => setTimeout(r, Math.max(0, tick - Date.now()) + 250));
  const after = await view(path);
  expect(after.html, "the view after the tick shows the new time left").toContain("1m left");
  expect(after.html).not.toContain("2m left");
});

/**
 * A list page at `path` showing market `m` ("Will {token} hold?") is served from memory; once the market's
 * question changes and the change is heard, the next view is rendered again and shows the new question.
 */
async function expectRenameShown(sql: postgres.Sql, m: TestMarket, token: string, path: string) {
  const { hit } = await viewUntilHit(path);
  expect(hit.html.includes(`Will ${token} hold?`), "the cached list shows the question").toBe(true);
  await priceSignal(m, () => sql`UPDATE markets SET question = ${`Will ${token} change?`} WHERE id = ${m.id}`);
  const after = await view(path);
  expect(after.cache).toBe("MISS");
  expect(after.html.includes(`Will ${token} change?`), "the next view shows the new question").toBe(true);
  expect(after.html.includes(`Will ${token} hold?`), "the next view shows the old question").toBe(false);
}

test("page cache – a change to a market on a cached list page makes the list's next view fresh", async ({ sql }) => {
  const token = `pclist${Date.now().toString(36)}`;
  const m = await quietMarket(sql, "pc-list", { question: `Will ${token} hold?` });
  await expectRenameShown(sql, m, token, `/?q=${token}`);
});

test("page cache – a list page from the in-memory order (list-index.ts) is fresh after a change to a market it shows", async ({ sql }) => {
  // Newest first: created in a far future, the market leads the first page of the sort by creation
  // (no search, no sub-category: the order in memory answers it, not a cached SQL page).
  const token = `pcidx${Date.now().toString(36)}`;
  const m = await quietMarket(sql, "pc-index", { question: `Will ${token} hold?`, createdAt: new Date("2199-01-01T00:00:00Z") });
  try {
    const path = "/?sort=created";
    await expectRenameShown(sql, m, token, path);
    // Out of the lists (LOCKED is never listed): the page that showed it is dropped.
    const { hit: again } = await viewUntilHit(path);
    expect(again.html.includes(`Will ${token} change?`)).toBe(true);
    await priceSignal(m, () => sql`UPDATE markets SET status = 'LOCKED' WHERE id = ${m.id}`);
    const gone = await view(path);
    expect(gone.cache).toBe("MISS");
    expect(gone.html.includes(token), "a market out of the lists is off the page").toBe(false);
  } finally {
    // Its far-future creation date would lead every list by creation: out of the lists for the other specs.
    await sql`UPDATE markets SET status = 'LOCKED' WHERE id = ${m.id}`;
  }
});

test("page cache – a reader's watchlist cookie is never cached nor shown to another reader", async ({ sql }) => {
  const m = await quietMarket(sql, "pc-star");
  const other = await quietMarket(sql, "pc-star-other");
  const path = `/markets/${m.slug}`;
  const anonymous = (await viewUntilHit(path)).hit;
  expect(starOf(anonymous.html, m.id)).toBe("off");

  const starred = await view(path, { cookie: `watchlist=${m.id}` });
  expect(starred.cache).toBe("BYPASS");
  expect(starOf(starred.html, m.id)).toBe("on");
  expectOwnNonce(starred);

  const elsewhere = await view(path, { cookie: `theme=dark; watchlist=${other.id}` });
  expect(elsewhere.cache).toBe("BYPASS");
  expect(starOf(elsewhere.html, m.id)).toBe("off");

  // The starred render was not stored: anonymous readers still get the unstarred page, from memory or not.
  for (let i = 0; i < 3; i++) expect(starOf((await view(path)).html, m.id)).toBe("off");
  // Nor does a reader with a watchlist ever get the shared page.
  for (let i = 0; i < 3; i++) expect(starOf((await view(path, { cookie: `watchlist=${m.id}` })).html, m.id)).toBe("on");
});

test("page cache – a request cannot choose the nonce of its page (the render's own header is stripped)", async () => {
  const chosen = "0123456789abcdef0123456789abcdef";
  for (const path of ["/", "/docs", "/no-such-page"]) {
    const v = await view(path, { "x-render-nonce": chosen });
    expect(v.nonce, path).not.toBe("");
    expect(v.nonce, path).not.toBe(chosen);
    expect(v.html.includes(chosen), `${path} carries the chosen nonce`).toBe(false);
  }
});

test("page cache – HEAD, RSC and prefetch requests and other paths pass through to Next untouched", async ({ sql }) => {
  const m = await quietMarket(sql, "pc-pass");
  await viewUntilHit(`/markets/${m.slug}`);
  const passing: Record<string, string>[] = [{ rsc: "1" }, { "next-router-prefetch": "1", rsc: "1" }, { purpose: "prefetch" }, { "sec-fetch-dest": "image" }];
  for (const headers of passing) {
    const v = await view(`/markets/${m.slug}`, headers);
    expect(v.cache, JSON.stringify(headers)).toBeUndefined();
  }
  expect((await view(`/markets/${m.slug}?_rsc=abc`)).cache).toBeUndefined();
  for (const path of ["/watchlist", "/docs", `/embed/markets/${m.slug}`, "/no-such-page"]) expect((await view(path)).cache, path).toBeUndefined();
  const head = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const { hostname, port } = new URL(testRun().baseURL);
    http
      .request({ hostname, port, path: `/markets/${m.slug}`, method: "HEAD", agent }, resolve)
      .on("error", reject)
      .end();
  });
  head.resume();
  expect(head.statusCode).toBe(200);
  expect(head.headers["x-render-cache"]).toBeUndefined();
});

test("page cache – an unknown market's 404 is never kept", async () => {
  const path = `/markets/no-such-market-${Date.now().toString(36)}`;
  for (let i = 0; i < 3; i++) {
    const v = await view(path);
    expect(v.status).toBe(404);
    expect(v.cache).toBe("MISS");
    expectOwnNonce(v);
  }
});

test("page cache – a market page's related list: a trade elsewhere leaves the page in memory, a change in a related market makes its next view fresh", async ({
  sql,
}) => {
  const token = `pcrel${Date.now().toString(36)}`;
  const group = `${token}-group`;
  const tag = `${token}-tag`;
  const make = (name: string, extra: Parameters<typeof makeMarket>[1]) =>
    makeMarket(sql, {
      prefix: name,
      status: "ACTIVE",
      category: "FINANCE",
      question: `Will ${token} ${name} hold?`,
      endsAt: new Date(Date.now() + 60 * 86_400_000),
      ...extra,
    });
  const q = (name: string) => `Will ${token} ${name} hold?`;
  // a's related list: its sub-category's markets and those sharing its tag, by volume.
  const a = await make("a", { subCategory: group, columns: { tags: [tag] } });
  const r = await make("r", { subCategory: group, totalVolume: "300" });
  const t = await make("t", { subCategory: `${token}-own`, totalVolume: "200", columns: { tags: [tag] } });
  // Same category, another sub-category, no tags: not in a's related list (until it takes the tag).
  const u = await make("u", { subCategory: `${token}-else`, totalVolume: "100" });
  const path = `/markets/${a.slug}`;
  const questions = async () => relatedRows((await view(path)).html).map((row) => row.question);
  expect(relatedRows((await viewUntilHit(path)).hit.html).map((row) => row.question)).toEqual([q("r"), q("t")]);

  // A trade in u, heard (its signal went out after the cache dropped what it touched), while a's render
  // still holds by the clock (its "Updated …" second): a's page is still served from memory.
  let kept = false;
  for (let attempt = 1; attempt <= 10 && !kept; attempt++) {
    const { hit } = await viewUntilHit(path);
    const heldUntil = Math.ceil((hit.sentAt + 1) / 1000) * 1000;
    await priceSignal(u, () => addTradesWithVolume(sql, u, [{ price: "0.420" }]));
    const after = await view(path);
    kept = after.sentAt < heldUntil && after.cache === "HIT";
  }
  expect(kept, "a view after an unrelated trade, inside its render's second, came from memory").toBe(true);

  // A trade in r: a's next view shows r's new volume.
  await viewUntilHit(path);
  await priceSignal(r, () => addTradesWithVolume(sql, r, [{ price: "0.500", shares: "1000000" }]));
  const [{ volume }] = await sql<{ volume: string }[]>`SELECT total_volume::text AS volume FROM markets WHERE id = ${r.id}`;
  expect(relatedRows((await view(path)).html)[0]).toEqual({ question: q("r"), volume: formatUsdCompact(Number(volume)) });

  // Moves out of and into the group, by sub-category and by tag: each shows at a's next view.
  await viewUntilHit(path);
  await priceSignal(r, () => sql`UPDATE markets SET sub_category = ${`${token}-left`} WHERE id = ${r.id}`);
  expect(await questions()).toEqual([q("t")]);
  await viewUntilHit(path);
  await priceSignal(t, () => sql`UPDATE markets SET tags = '{}' WHERE id = ${t.id}`);
  expect(await questions()).toEqual([]);
  await viewUntilHit(path);
  await priceSignal(u, () => sql`UPDATE markets SET tags = ${sql.array([tag])} WHERE id = ${u.id}`);
  expect(await questions()).toEqual([q("u")]);
});

test("page cache – a list page from the in-memory order stays in memory while trades move no market past it, and is fresh when one does", async ({ sql }) => {
  // At the top of the category's list by volume, far above the demo markets.
  const token = `pcord${Date.now().toString(36)}`;
  const make = (name: string, volume: string) =>
    makeMarket(sql, { prefix: `${token}-${name}`, status: "ACTIVE", category: "ENTERTAINMENT", subCategory: `${token}-sub`, totalVolume: volume });
  const first = await make("first", "3000000000000");
  const second = await make("second", "2000000000000");
  const low = await make("low", "0"); // at the bottom of the order
  const mine = [first, second, low];
  const path = "/?category=entertainment&sort=volume";
  try {
    expect(listSlugs((await viewUntilHit(path)).hit.html).slice(0, 2)).toEqual([first.slug, second.slug]);

    // A trade at the bottom of the order, heard: the page's slice is what it was, so it is served from memory.
    const kept = await keptAfter(path, low, () => addTradesWithVolume(sql, low, [{ price: "0.500", shares: "2" }]));
    expect(kept, "a view after a trade that moved no market past the page came from memory").toBe(true);

    // A trade that moves the second market past the first: the next view is rendered again, in the new order.
    await viewUntilHit(path);
    await priceSignal(second, () => addTradesWithVolume(sql, second, [{ price: "0.500", shares: "10000000000000" }]));
    const volumes = await sql<{ id: string }[]>`SELECT id FROM markets WHERE id IN (${first.id}, ${second.id}) ORDER BY total_volume DESC`;
    expect(
      volumes.map((r) => r.id),
      "the trade made the second market's volume the larger",
    ).toEqual([second.id, first.id]);
    const reordered = await view(path);
    expect(reordered.cache).toBe("MISS");
    expect(listSlugs(reordered.html).slice(0, 2)).toEqual([second.slug, first.slug]);

    // One from the bottom to the top.
    await viewUntilHit(path);
    await priceSignal(low, () => addTradesWithVolume(sql, low, [{ price: "0.500", shares: "40000000000000" }]));
    expect(listSlugs((await view(path)).html).slice(0, 3)).toEqual([low.slug, second.slug, first.slug]);

    // Out of the list, and into another sub-category: the page and its sub-category counts follow.
    const before = subCategoryCounts((await viewUntilHit(path)).hit.html);
    expect(before[`${token}-sub`]).toBe(3);
    await priceSignal(low, () => sql`UPDATE markets SET status = 'LOCKED' WHERE id = ${low.id}`);
    await priceSignal(first, () => sql`UPDATE markets SET sub_category = ${`${token}-other`} WHERE id = ${first.id}`);
    const after = await view(path);
    expect(listSlugs(after.html).slice(0, 2)).toEqual([second.slug, first.slug]);
    expect(subCategoryCounts(after.html)).toMatchObject({ [`${token}-sub`]: 1, [`${token}-other`]: 1 });
  } finally {
    // Their volumes would lead the category's list for every other spec.
    await sql`UPDATE markets SET status = 'LOCKED' WHERE id = ANY(${mine.map((m) => m.id)})`;
  }
});

test("page cache – a search page from memory stays while trades move no match past another, and is fresh when one does, or a rename adds a match", async ({
  sql,
}) => {
  const token = `pcsrch${Date.now().toString(36)}`;
  const make = (name: string, volume: string) =>
    makeMarket(sql, { prefix: `${token}-${name}`, status: "ACTIVE", category: "ENTERTAINMENT", question: `${token} ${name}?`, totalVolume: volume });
  const first = await make("first", "3000");
  const second = await make("second", "2000");
  const low = await make("low", "0");
  const outside = await makeMarket(sql, { prefix: `${token}-outside`, status: "ACTIVE", category: "ENTERTAINMENT", question: "Not found by the search?" });
  const mine = [first, second, low, outside];
  const path = `/?q=${token}&sort=volume`;
  try {
    expect(listSlugs((await viewUntilHit(path)).hit.html)).toEqual([first.slug, second.slug, low.slug]);

    // A trade in a market the search does not find: the page comes from memory (any trade used to drop it).
    const kept = await keptAfter(path, outside, () => addTradesWithVolume(sql, outside, [{ price: "0.500", shares: "2" }]));
    expect(kept, "a view after a trade in a market the search does not find came from memory").toBe(true);

    // A trade in a match that moves it past no other: its row shows the trade.
    await viewUntilHit(path);
    await priceSignal(second, () => addTradesWithVolume(sql, second, [{ price: "0.500", shares: "1000" }]));
    const traded = await view(path);
    expect(listSlugs(traded.html)).toEqual([first.slug, second.slug, low.slug]);
    expect(traded.html).toContain(formatUsdCompact(2500));

    // The bottom match trades past both others: rendered again, in the new order.
    await viewUntilHit(path);
    await priceSignal(low, () => addTradesWithVolume(sql, low, [{ price: "0.500", shares: "20000" }]));
    const moved = await view(path);
    expect(moved.cache).toBe("MISS");
    expect(listSlugs(moved.html)).toEqual([low.slug, first.slug, second.slug]);

    // Renamed into the search, and out of it.
    await viewUntilHit(path);
    await priceSignal(outside, () => sql`UPDATE markets SET question = ${`Now ${token.toUpperCase()} too?`}, total_volume = 100000 WHERE id = ${outside.id}`);
    expect(listSlugs((await view(path)).html)).toEqual([outside.slug, low.slug, first.slug, second.slug]);
    await viewUntilHit(path);
    await priceSignal(first, () => sql`UPDATE markets SET question = 'Renamed away?' WHERE id = ${first.id}`);
    expect(listSlugs((await view(path)).html)).toEqual([outside.slug, low.slug, second.slug]);
  } finally {
    await sql`UPDATE markets SET status = 'LOCKED' WHERE id = ANY(${mine.map((m) => m.id)})`;
  }
});
