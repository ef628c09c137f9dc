// The camelCase variant (docs/api.md "The camelCase variant"): same data as the primary shape, compared field by field
// under the mapping rules — never against hard-coded bodies.
import { expect, test } from "../fixtures";
import { CAMEL } from "../support/api";
import { makeFullMarket, type FullMarket } from "../support/markets";

type Json = Record<string, any>;

const camelCase = (k: string) => k.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const DECIMAL = /^-?\d+(\.\d+)?$/;
/** Primary numbers that the variant carries as decimal strings. */
const QUANTITIES = new Set(["spread", "total_volume", "total_liquidity", "platform_fee"]);
/** Opaque objects whose inner fields are not defined by the API: passed through as they are. */
const OPAQUE = new Set(["price_market", "predict_market"]);

function expectKeysCamelOf(primary: Json, camel: Json, where: string) {
  expect(Object.keys(camel).sort(), where).toEqual(Object.keys(primary).map(camelCase).sort());
}

function expectQuantity(primary: number, camel: unknown, where: string) {
  expect(typeof camel, where).toBe("string");
  expect(camel as string, where).toMatch(DECIMAL);
  expect(Number(camel), where).toBe(primary);
}

function expectOutcome(primary: Json, camel: Json, where: string) {
  expectKeysCamelOf(primary, camel, where);
  for (const [k, v] of Object.entries(primary)) {
    if (k === "probability") {
      // 0..100 with two decimals → a 0..1 string (63.45 → "0.6345").
      expect(camel.probability, where).toMatch(/^[01]\.\d{4}$/);
      expect(Math.round(Number(camel.probability) * 1e6), where).toBe(Math.round(v * 1e4));
    } else {
      expect(camel[camelCase(k)], `${where}.${k}`).toEqual(v);
    }
  }
}

function expectMarket(primary: Json, camel: Json, where: string) {
  expectKeysCamelOf(primary, camel, where);
  for (const [k, v] of Object.entries(primary)) {
    const c = camel[camelCase(k)];
    const at = `${where}.${k}`;
    if (QUANTITIES.has(k)) expectQuantity(v, c, at);
    else if (k === "outcomes") {
      expect(c).toHaveLength(v.length);
      for (const [i, o] of (v as Json[]).entries()) expectOutcome(o, c[i], `${at}[${i}]`);
    } else if (k === "winning_outcome") v === null ? expect(c, at).toBeNull() : expectOutcome(v, c, at);
    else if (k === "top_traders") {
      expect(c).toHaveLength(v.length);
      v.forEach((t: Json, i: number) => {
        expect(Object.keys(c[i]).sort(), at).toEqual(["profileImageUrl", "username", "volume"]);
        expect(c[i].username, at).toBe(t.username);
        expect(c[i].profileImageUrl, at).toBe(t.profile_image_url);
        expectQuantity(t.volume, c[i].volume, `${at}[${i}].volume`);
      });
    } else if (k === "comments") {
      expect(c).toHaveLength(v.length);
      v.forEach((cm: Json, i: number) => {
        const cc = c[i];
        expect(Object.keys(cc).sort(), at).toEqual(["id", "userId", "content", "parentId", "likesCount", "isLiked", "replyCount", "createdAt", "user"].sort());
        expect(cc).toEqual({
          id: cm.id,
          userId: cm.user_id,
          content: cm.content,
          parentId: cm.parent_id,
          likesCount: cm.likes_count,
          isLiked: cm.is_liked,
          replyCount: cm.reply_count,
          createdAt: cm.created_at,
          user: { id: cm.user.id, username: cm.user.username, profileImageUrl: cm.user.profile_image_url },
        });
      });
    } else if (k === "creator") {
      expect(c, at).toEqual({ id: v.id, username: v.username, profileImageUrl: v.profile_image_url });
    } else if (OPAQUE.has(k)) {
      expect(c, at).toEqual(v);
    } else {
      expect(c, at).toEqual(v);
    }
  }
}

async function both(request: import("@playwright/test").APIRequestContext, url: string) {
  const [p, c] = await Promise.all([request.get(url), request.get(url, { headers: { Accept: CAMEL } })]);
  expect(p.status(), url).toBe(200);
  expect(c.status(), url).toBe(200);
  expect(p.headers()["content-type"]).toContain("application/json");
  expect(c.headers()["content-type"]).toContain(CAMEL);
  return { primary: (await p.json()) as Json, camel: (await c.json()) as Json };
}

let markets: FullMarket[];
test.beforeAll(async ({ sql }) => {
  markets = [await makeFullMarket(sql), await makeFullMarket(sql, { status: "RESOLVED" }), await makeFullMarket(sql, { external: true })];
});

test("GET /v1/markets (camel) – envelope keys unchanged, every item mapped field by field", async ({ request }) => {
  for (const m of markets) {
    const { primary, camel } = await both(request, `/v1/markets?q=${m.token}&status=${m.status}`);
    expect(Object.keys(camel).sort()).toEqual(["limit", "markets", "offset", "total"]);
    expect({ total: camel.total, limit: camel.limit, offset: camel.offset }).toEqual({ total: 1, limit: 20, offset: 0 });
    expect(camel.markets).toHaveLength(1);
    expect(Object.keys(camel.markets[0])).toEqual(expect.arrayContaining(["subCategory", "commentsCount", "externalSource", "videoUrl", "videoPosterUrl"]));
    expectMarket(primary.markets[0], camel.markets[0], "markets[0]");
  }
});

test("GET /v1/markets (camel) – a whole default page maps item by item", async ({ request }) => {
  const { primary, camel } = await both(request, "/v1/markets?limit=100&sortBy=VOLUME");
  // Other tests insert markets meanwhile: compare the items both pages hold, matched by id.
  const camelById = new Map(camel.markets.map((m: Json) => [m.id, m]));
  const common = primary.markets.filter((m: Json) => camelById.has(m.id));
  expect(common.length).toBeGreaterThanOrEqual(Math.min(primary.markets.length, 1));
  for (const m of common) expectMarket(m, camelById.get(m.id) as Json, `markets[${m.id}]`);
});

test("GET /v1/markets/{id} and /slug/{slug} (camel) – detail mapped field by field, comments as listed in 2.7", async ({ request }) => {
  for (const m of markets) {
    for (const url of [`/v1/markets/${m.id}`, `/v1/markets/slug/${m.slug}`]) {
      const { primary, camel } = await both(request, url);
      expect(primary.comments.length).toBe(3);
      expect(primary.top_traders.length).toBe(3);
      expectMarket(primary, camel, url);
      expect(camel.totalLiquidity).toMatch(DECIMAL);
      if (m.status === "RESOLVED") expect(camel.winningOutcome.probability).toBe("1.0000");
    }
  }
});

test("GET /v1/markets/{id} (camel) – probability is the stored percent divided by 100, exactly", async ({ request, sql }) => {
  const m = markets[0];
  const rows = await sql<{ id: string; unit: string }[]>`
    SELECT id, (probability / 100)::numeric(5,4)::text AS unit FROM outcomes WHERE market_id = ${m.id} ORDER BY index`;
  const camel = await (await request.get(`/v1/markets/${m.id}`, { headers: { Accept: CAMEL } })).json();
  expect(camel.outcomes.map((o: Json) => [o.id, o.probability])).toEqual(rows.map((r) => [r.id, r.unit]));
});

test("GET …/orderbook (camel) – outcomeId and outcomeSide, levels unchanged", async ({ request }) => {
  for (const m of [markets[0], markets[2]]) {
    for (const url of [`/v1/markets/${m.id}/orderbook`, `/v1/markets/slug/${m.slug}/orderbook`]) {
      const { primary, camel } = await both(request, `${url}?outcomeId=${m.outcomes[0]}`);
      expect(primary.bids.length + primary.asks.length).toBeGreaterThan(0);
      expect(camel).toEqual({ outcomeId: primary.outcome_id, outcomeSide: primary.outcome_side, bids: primary.bids, asks: primary.asks });
    }
  }
});

test("GET …/orderbook/at and …/orderbook/changes (camel) – the book's keys, nextVersion; levels and changes unchanged", async ({ request }) => {
  const m = markets[0];
  const at = await both(request, `/v1/markets/slug/${m.slug}/orderbook/at?outcomeId=${m.outcomes[0]}&ts=253402300799`);
  expect(at.primary.bids.length + at.primary.asks.length).toBeGreaterThan(0);
  expect(at.camel).toEqual({ outcomeId: at.primary.outcome_id, outcomeSide: at.primary.outcome_side, bids: at.primary.bids, asks: at.primary.asks });
  const changes = await both(request, `/v1/markets/${m.id}/orderbook/changes?outcomeId=${m.outcomes[0]}&fromVersion=1`);
  expect(changes.primary.changes.length).toBeGreaterThan(0);
  expect(changes.camel).toEqual({ changes: changes.primary.changes, nextVersion: changes.primary.next_version });
});

test("GET …/prices-history (camel) – unchanged", async ({ request }) => {
  const m = markets[0];
  for (const url of [`/v1/markets/${m.id}/prices-history`, `/v1/markets/slug/${m.slug}/prices-history`]) {
    const { primary, camel } = await both(request, `${url}?outcomeId=${m.outcomes[0]}&fidelity=1`);
    expect(primary.history.length).toBe(3);
    expect(camel).toEqual(primary);
  }
});

test("GET …/trades (camel) – keys camelCased (outcomeId, executedAt, nextCursor, newestCursor), values unchanged", async ({ request }) => {
  const m = markets[0];
  for (const url of [`/v1/markets/${m.id}/trades?limit=2`, `/v1/markets/slug/${m.slug}/trades?outcomeId=${m.outcomes[0]}`]) {
    const { primary, camel } = await both(request, url);
    expect(primary.trades.length).toBeGreaterThan(0);
    expect(Object.keys(camel).sort()).toEqual(["newestCursor", "nextCursor", "trades"]);
    expect(camel.nextCursor).toBe(primary.next_cursor);
    expect(camel.newestCursor).toBe(primary.newest_cursor);
    primary.trades.forEach((t: Json, i: number) => {
      expectKeysCamelOf(t, camel.trades[i], `trades[${i}]`);
      for (const [k, v] of Object.entries(t)) expect(camel.trades[i][camelCase(k)], `trades[${i}].${k}`).toEqual(v);
    });
  }
});

test("GET /v1/orderbooks and /v1/prices-history (camel) – items' outcomeId, each value the single endpoint's camel answer", async ({ request }) => {
  const m = markets[0];
  const ids = m.outcomes.join(",");
  const books = await both(request, `/v1/orderbooks?outcomeIds=${ids}`);
  const histories = await both(request, `/v1/prices-history?outcomeIds=${ids}&fidelity=1`);
  for (const [i, id] of m.outcomes.entries()) {
    const book = (await both(request, `/v1/markets/${m.id}/orderbook?outcomeId=${id}`)).camel;
    expect(books.camel.items[i]).toEqual({
      outcomeId: id,
      book,
      error: null,
      version: books.primary.items[i].version,
      checksum: books.primary.items[i].checksum,
    });
    expect(books.primary.items[i].outcome_id).toBe(id);
    const history = (await both(request, `/v1/markets/${m.id}/prices-history?outcomeId=${id}&fidelity=1`)).camel;
    expect(histories.camel.items[i]).toEqual({ outcomeId: id, pricesHistory: history, error: null });
  }
});

test("GET …/candles and /v1/candles (camel) – keys camelCased, prices as three-decimal strings, volume and notional unchanged", async ({ request }) => {
  const priced = (c: Json) => ({ ...c, open: c.open.toFixed(3), high: c.high.toFixed(3), low: c.low.toFixed(3), close: c.close.toFixed(3) });
  const single = (p: Json) => ({
    outcomeId: p.outcome_id,
    interval: p.interval,
    startTs: p.start_ts,
    endTs: p.end_ts,
    nextEndTs: p.next_end_ts,
    candles: p.candles.map(priced),
  });
  for (const m of markets) {
    for (const url of [`/v1/markets/${m.id}/candles`, `/v1/markets/slug/${m.slug}/candles`]) {
      const { primary, camel } = await both(request, `${url}?outcomeId=${m.outcomes[0]}&interval=1m`);
      expect(primary.candles.length).toBe(3);
      expect(camel).toEqual(single(primary));
      for (const c of camel.candles) for (const k of ["open", "high", "low", "close", "volume", "notional"]) expect(c[k]).toMatch(DECIMAL);
    }
  }
  const ids = [...markets.map((m) => m.outcomes[0]), "00000000-0000-4000-8000-000000000000"];
  const { primary, camel } = await both(request, `/v1/candles?interval=1h&outcomeIds=${ids.join(",")}`);
  expect(camel.items).toEqual(
    primary.items.map((i: Json) => ({ outcomeId: i.outcome_id, candles: i.candles === null ? null : single(i.candles), error: i.error })),
  );
  expect(camel.items.at(-1).error).toEqual({ statusCode: 404, message: "Outcome not found" });
});

test("camel variant – error bodies unchanged and served as application/json", async ({ request }) => {
  const m = markets[0];
  for (const url of [
    "/v1/markets?limit=0",
    "/v1/markets/not-a-uuid",
    `/v1/markets/${m.id}/orderbook?outcomeId=nope`,
    "/v1/nothing-here",
    `/v1/markets/${m.id}/trades?before=nope`,
    "/v1/orderbooks?outcomeIds=nope",
  ]) {
    const [p, c] = await Promise.all([request.get(url), request.get(url, { headers: { Accept: CAMEL } })]);
    expect(c.status(), url).toBe(p.status());
    expect(c.headers()["content-type"], url).toContain("application/json");
    expect(await c.json(), url).toEqual(await p.json());
  }
});

test("camel variant – chosen only when Accept names it with a non-zero quality", async ({ request }) => {
  const url = `/v1/markets/${markets[0].id}`;
  const cases: [string, boolean][] = [
    [CAMEL, true],
    [`application/json;q=0.5, ${CAMEL}`, true],
    [`${CAMEL}; q=0.8`, true],
    [`${CAMEL};q=0`, false],
    ["application/json", false],
    ["*/*", false],
    ["application/vnd.markets.other+json", false],
  ];
  for (const [accept, camel] of cases) {
    const res = await request.get(url, { headers: { Accept: accept } });
    const body = await res.json();
    expect(res.headers()["content-type"], accept).toContain(camel ? CAMEL : "application/json");
    expect("tradingStartsAt" in body, accept).toBe(camel);
    expect("trading_starts_at" in body, accept).toBe(!camel);
  }
});
