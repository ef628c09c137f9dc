// GET /v1/markets/{id}/orderbook and /slug/{slug}/orderbook (docs/api.md "Order book", "Errors", "Ids"; docs/import.md "Native order book").
import { randomUUID } from "node:crypto";
import { expect, test } from "../fixtures";
import { addOrders, makeMarket } from "../support/markets";
import { orderBookSchema } from "@/lib/markets/schemas";

test.describe("GET /v1/markets/{id}/orderbook", () => {
  test("native book: resting LIMIT orders only, crossing levels netted, dust dropped, sorted and formatted", async ({ request, sql }) => {
    const m = await makeMarket(sql);
    await addOrders(sql, m, [
      { side: "BUY", price: "0.450", shares: "10" },
      { side: "BUY", price: "0.450", shares: "5", filled: "2.5" }, // partially filled: 2.50 rests
      { side: "BUY", price: "0.400", shares: "20" },
      { side: "BUY", price: "0.620", shares: "4" }, // crosses the 0.55 and 0.60 asks
      { side: "SELL", price: "0.550", shares: "3" },
      { side: "SELL", price: "0.600", shares: "2" },
      { side: "SELL", price: "0.700", shares: "8" },
      { side: "SELL", price: "0.800", shares: "0.05" }, // dust
      { side: "SELL", price: "0.810", shares: "0.06" },
      { side: "BUY", price: "0.500", shares: "50", type: "MARKET" }, // never shown
      { side: "BUY", price: "0.300", shares: "9", filled: "9", status: "FILLED" },
      { side: "SELL", price: "0.900", shares: "9", status: "CANCELLED" },
      { outcome: m.no, side: "BUY", price: "0.350", shares: "12" }, // other outcome's book
    ]);
    // 0.62×4 vs 0.55×3 → bid 1 left, ask gone; 0.62×1 vs 0.60×2 → bid gone, ask 1 left.
    for (const url of [`/v1/markets/${m.id}/orderbook?outcomeId=${m.yes}`, `/v1/markets/slug/${m.slug}/orderbook?outcomeId=${m.yes}`]) {
      const res = await request.get(url);
      expect(res.status()).toBe(200);
      const body = orderBookSchema.strict().parse(await res.json());
      expect(body).toEqual({
        outcome_id: m.yes,
        outcome_side: "Yes - YES",
        bids: [
          { price: "0.450", shares: "12.50" },
          { price: "0.400", shares: "20.00" },
        ],
        asks: [
          { price: "0.600", shares: "1.00" },
          { price: "0.700", shares: "8.00" },
          { price: "0.810", shares: "0.06" },
        ],
      });
    }
    const no = orderBookSchema.parse(await (await request.get(`/v1/markets/${m.id}/orderbook?outcomeId=${m.no}`)).json());
    expect(no).toEqual({ outcome_id: m.no, outcome_side: "No - NO", bids: [{ price: "0.350", shares: "12.00" }], asks: [] });
  });

  test("an outcome without resting orders has empty sides", async ({ request, sql }) => {
    const m = await makeMarket(sql);
    const body = await (await request.get(`/v1/markets/${m.id}/orderbook?outcomeId=${m.yes}`)).json();
    expect(body).toEqual({ outcome_id: m.yes, outcome_side: "Yes - YES", bids: [], asks: [] });
  });

  test("mirrored book: the venue's book passed through, sorted, 3 and 2 decimals, no netting and no dust rule", async ({ request, sql }) => {
    const m = await makeMarket(sql, { externalSource: "Kalshi" });
    await addOrders(sql, m, [{ side: "BUY", price: "0.990", shares: "100" }]); // native orders are not the venue's book
    await sql`INSERT INTO external_books (outcome_id, bids, asks, updated_at) VALUES (${m.yes},
      ${sql.json([
        { price: "0.4", shares: "10" },
        { price: "0.52", shares: "0.01" },
      ])},
      ${sql.json([
        { price: "0.6", shares: "3.5" },
        { price: "0.51", shares: "2" },
      ])}, now())`;
    const body = await (await request.get(`/v1/markets/slug/${m.slug}/orderbook?outcomeId=${m.yes}`)).json();
    expect(body).toEqual({
      outcome_id: m.yes,
      outcome_side: "Yes - YES",
      bids: [
        { price: "0.520", shares: "0.01" },
        { price: "0.400", shares: "10.00" },
      ],
      asks: [
        { price: "0.510", shares: "2.00" },
        { price: "0.600", shares: "3.50" },
      ],
    });
    const empty = await (await request.get(`/v1/markets/${m.id}/orderbook?outcomeId=${m.no}`)).json();
    expect(empty).toEqual({ outcome_id: m.no, outcome_side: "No - NO", bids: [], asks: [] });
  });

  test("the demo data's native books obey the rules (no crossing, no dust, sorted)", async ({ request, sql }) => {
    const rows = await sql`
      SELECT m.id, o.id AS outcome_id FROM markets m JOIN outcomes o ON o.market_id = m.id
      WHERE m.status = 'ACTIVE' AND m.external_source IS NULL ORDER BY m.total_liquidity DESC LIMIT 5`;
    for (const r of rows) {
      const book = orderBookSchema.parse(await (await request.get(`/v1/markets/${r.id}/orderbook?outcomeId=${r.outcome_id}`)).json());
      const bids = book.bids.map((l) => Number(l.price));
      const asks = book.asks.map((l) => Number(l.price));
      expect(bids).toEqual([...bids].sort((a, b) => b - a));
      expect(asks).toEqual([...asks].sort((a, b) => a - b));
      if (bids.length && asks.length) expect(bids[0]).toBeLessThan(asks[0]);
      for (const l of [...book.bids, ...book.asks]) expect(Number(l.shares)).toBeGreaterThan(0.05);
    }
  });

  for (const kind of ["orderbook", "prices-history"]) {
    test(`${kind}: 400 'outcomeId is required' when missing, empty or given as an array`, async ({ request, sql }) => {
      const m = await makeMarket(sql);
      for (const qs of ["", "?outcomeId=", `?outcomeId=${m.yes}&outcomeId=${m.no}`, "?outcomeId[]=x", "?outcomeid=x"]) {
        for (const base of [`/v1/markets/${m.id}`, `/v1/markets/slug/${m.slug}`]) {
          const res = await request.get(`${base}/${kind}${qs}`);
          expect(res.status(), `${base}/${kind}${qs}`).toBe(400);
          expect(await res.json()).toEqual({ statusCode: 400, message: ["outcomeId is required"], error: "Bad Request" });
        }
      }
    });

    test(`${kind}: 400 'Outcome does not belong to this market' for another market's outcome`, async ({ request, sql }) => {
      const a = await makeMarket(sql);
      const b = await makeMarket(sql);
      for (const base of [`/v1/markets/${a.id}`, `/v1/markets/slug/${a.slug}`]) {
        const res = await request.get(`${base}/${kind}?outcomeId=${b.yes}`);
        expect(res.status()).toBe(400);
        expect(await res.json()).toEqual({ statusCode: 400, message: ["Outcome does not belong to this market"], error: "Bad Request" });
      }
    });

    test(`${kind}: 404 'Outcome not found' for an unknown or malformed outcomeId`, async ({ request, sql }) => {
      const m = await makeMarket(sql);
      for (const outcomeId of [randomUUID(), "not-a-uuid", "1"]) {
        const res = await request.get(`/v1/markets/${m.id}/${kind}?outcomeId=${outcomeId}`);
        expect(res.status()).toBe(404);
        expect(await res.json()).toEqual({ statusCode: 404, message: "Outcome not found", error: "Not Found" });
      }
    });

    test(`${kind}: 404 'Market not found: <id>' for an unknown market, by id and by slug`, async ({ request, sql }) => {
      const m = await makeMarket(sql);
      const id = randomUUID();
      for (const [path, key] of [
        [`/v1/markets/${id}`, id],
        ["/v1/markets/not-a-uuid", "not-a-uuid"],
        ["/v1/markets/slug/no-such-slug", "no-such-slug"],
      ]) {
        const res = await request.get(`${path}/${kind}?outcomeId=${m.yes}`);
        expect(res.status()).toBe(404);
        expect(await res.json()).toEqual({ statusCode: 404, message: `Market not found: ${key}`, error: "Not Found" });
      }
    });

    test(`${kind}: ignores unknown query parameters`, async ({ request, sql }) => {
      const m = await makeMarket(sql);
      const res = await request.get(`/v1/markets/${m.id}/${kind}?outcomeId=${m.yes}&foo=bar&limit=7`);
      expect(res.status()).toBe(200);
    });
  }
});
