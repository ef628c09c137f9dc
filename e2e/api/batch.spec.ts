// GET /v1/orderbooks and GET /v1/prices-history?outcomeIds=… (docs/api.md "Batches"): each item is what the
// single endpoint answers for its outcome, an unknown id is reported in its item, the list's rules are 400s.
// (The rate limit's charge by size is in e2e/api/rate-limit.spec.ts.)
import { randomUUID } from "node:crypto";
import { CAMEL_MEDIA_TYPE, errorBodySchema, orderBooksResponseSchema, pricesHistoryBatchResponseSchema } from "@/lib/markets/schemas";
import { expect, test } from "../fixtures";
import { makeFullMarket, type FullMarket } from "../support/markets";

let native: FullMarket;
let mirrored: FullMarket;
test.beforeAll(async ({ sql }) => {
  native = await makeFullMarket(sql);
  mirrored = await makeFullMarket(sql, { external: true });
});

const json = async (request: import("@playwright/test").APIRequestContext, url: string, accept = "application/json") => {
  const res = await request.get(url, { headers: { Accept: accept } });
  expect(res.status(), url).toBe(200);
  return res.json();
};

test("GET /v1/orderbooks – each item is the single endpoint's answer, in request order, duplicates once, unknown ids per item", async ({ request }) => {
  const unknown = randomUUID();
  const ids = [native.outcomes[0], mirrored.outcomes[0], unknown, native.outcomes[1], native.outcomes[0].toUpperCase(), mirrored.outcomes[1]];
  for (const accept of ["application/json", CAMEL_MEDIA_TYPE]) {
    const body = await json(request, `/v1/orderbooks?outcomeIds=${ids.join(",")}`, accept);
    if (accept === "application/json") orderBooksResponseSchema.strict().parse(body);
    const idKey = accept === "application/json" ? "outcome_id" : "outcomeId";
    expect(body.items.map((i: Record<string, string>) => i[idKey])).toEqual([
      native.outcomes[0],
      mirrored.outcomes[0],
      unknown,
      native.outcomes[1],
      mirrored.outcomes[1],
    ]);
    for (const item of body.items) {
      const id = item[idKey];
      if (id === unknown) {
        expect(item).toEqual({ [idKey]: unknown, book: null, error: { statusCode: 404, message: "Outcome not found" }, version: null, checksum: null });
        continue;
      }
      const m = native.outcomes.includes(id) ? native : mirrored;
      const res = await request.get(`/v1/markets/${m.id}/orderbook?outcomeId=${id}`, { headers: { Accept: accept } });
      const single = await res.json();
      // Additive: the single endpoint's Book-Version and Book-Checksum headers (docs/api.md "Book versions").
      const version = Number(res.headers()["book-version"]);
      const checksum = Number(res.headers()["book-checksum"]);
      expect(item, id).toEqual({ [idKey]: id, book: single, error: null, version, checksum });
    }
  }
  // Not empty: the batch really holds books.
  const body = await json(request, `/v1/orderbooks?outcomeIds=${native.outcomes[0]},${mirrored.outcomes[0]}`);
  for (const item of body.items) expect(item.book.bids.length + item.book.asks.length).toBeGreaterThan(0);
});

test("GET /v1/prices-history – each item is the single endpoint's answer for the same window", async ({ request }) => {
  const unknown = randomUUID();
  for (const qs of ["", "&fidelity=5", `&startTs=${Math.floor(Date.now() / 1000) - 3600}&fidelity=1`, "&startTs=0&endTs=1"]) {
    for (const accept of ["application/json", CAMEL_MEDIA_TYPE]) {
      const body = await json(request, `/v1/prices-history?outcomeIds=${native.outcomes.join(",")},${unknown}${qs}`, accept);
      if (accept === "application/json") pricesHistoryBatchResponseSchema.strict().parse(body);
      const [idKey, field] = accept === "application/json" ? ["outcome_id", "prices_history"] : ["outcomeId", "pricesHistory"];
      expect(body.items).toHaveLength(3);
      for (const [i, id] of native.outcomes.entries()) {
        const single = await json(request, `/v1/markets/slug/${native.slug}/prices-history?outcomeId=${id}${qs}`, accept);
        expect(body.items[i], `${id}${qs}`).toEqual({ [idKey]: id, [field]: single, error: null });
      }
      expect(body.items[2]).toEqual({ [idKey]: unknown, [field]: null, error: { statusCode: 404, message: "Outcome not found" } });
    }
  }
  const body = await json(request, `/v1/prices-history?outcomeIds=${native.outcomes[0]}&fidelity=1`);
  expect(body.items[0].prices_history.history).toHaveLength(3);
});

test("batches – 400 for a missing, repeated or malformed list, more than 50 ids, bad window, unknown parameters", async ({ request }) => {
  const ids = (n: number) => Array.from({ length: n }, () => randomUUID()).join(",");
  const cases: [string, string[]][] = [
    ["/v1/orderbooks", ["outcomeIds is required"]],
    [`/v1/orderbooks?outcomeIds=${ids(51)}`, ["outcomeIds must not hold more than 50 distinct ids"]],
    [`/v1/orderbooks?outcomeIds=${ids(2)},nope`, ["outcomeIds[2] must be a UUID"]],
    ["/v1/orderbooks?outcomeIds=", ["outcomeIds[0] is empty"]],
    [`/v1/orderbooks?outcomeIds=${ids(1)}&outcomeIds=${ids(1)}`, ["outcomeIds must be given once, as comma-separated ids"]],
    [`/v1/orderbooks?outcomeIds=${ids(1)}&outcomeId=${ids(1)}`, ["property outcomeId should not exist"]],
    [`/v1/orderbooks?outcomeIds=${ids(1)}&__proto__=1`, ["property __proto__ should not exist"]],
    [`/v1/prices-history?outcomeIds=${ids(51)}`, ["outcomeIds must not hold more than 50 distinct ids"]],
    [`/v1/prices-history?outcomeIds=${ids(1)}&fidelity=0`, ["fidelity must not be less than 1"]],
    [`/v1/prices-history?outcomeIds=${ids(1)}&startTs=10&endTs=5`, ["startTs must not be greater than endTs"]],
    [`/v1/prices-history?outcomeIds=${ids(1)}&limit=5`, ["property limit should not exist"]],
  ];
  for (const [url, message] of cases) {
    const res = await request.get(url);
    expect(res.status(), url).toBe(400);
    expect(res.headers()["cache-control"]).toBe("no-store");
    expect(errorBodySchema.parse(await res.json()), url).toEqual({ statusCode: 400, message, error: "Bad Request" });
  }
  // 50 distinct ids (60 with repeats) are fine, each unknown one reported in its item.
  const fifty = Array.from({ length: 50 }, () => randomUUID());
  const body = await json(request, `/v1/orderbooks?outcomeIds=${[...fifty, ...fifty.slice(0, 10)].join(",")}`);
  expect(body.items).toHaveLength(50);
  expect(body.items.every((i: { error: { statusCode: number } }) => i.error.statusCode === 404)).toBe(true);
});

test("batches – weak ETag and 304, the single reads' Cache-Control, a new order changes the answer", async ({ request, sql }) => {
  const url = `/v1/orderbooks?outcomeIds=${native.outcomes.join(",")}`;
  const first = await request.get(url);
  const etag = first.headers()["etag"];
  expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
  const single = await request.get(`/v1/markets/${native.id}/orderbook?outcomeId=${native.outcomes[0]}`);
  expect(first.headers()["cache-control"]).toBe(single.headers()["cache-control"]);
  expect((await request.get(url, { headers: { "If-None-Match": etag } })).status()).toBe(304);
  const history = await request.get(`/v1/prices-history?outcomeIds=${native.outcomes.join(",")}`);
  const singleHistory = await request.get(`/v1/markets/${native.id}/prices-history?outcomeId=${native.outcomes[0]}`);
  expect(history.headers()["cache-control"]).toBe(singleHistory.headers()["cache-control"]);
  expect(
    (await request.get(`/v1/prices-history?outcomeIds=${native.outcomes.join(",")}`, { headers: { "If-None-Match": history.headers()["etag"] } })).status(),
  ).toBe(304);
  await sql`INSERT INTO orders (id, market_id, outcome_id, user_id, side, type, price, shares, filled_shares, status, created_at)
    VALUES (${randomUUID()}, ${native.id}, ${native.outcomes[1]}, ${native.users[0]}, 'BUY', 'LIMIT', 0.333, 7, 0, 'OPEN', now())`;
  await expect.poll(async () => (await request.get(url, { headers: { "If-None-Match": etag } })).status(), { timeout: 5_000 }).toBe(200);
  const after = await json(request, url);
  expect(after.items[1].book.bids).toContainEqual({ price: "0.333", shares: "7.00" });
});
