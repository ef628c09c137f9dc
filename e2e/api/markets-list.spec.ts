// GET /v1/markets (docs/api.md "GET /v1/markets", "Sorting", "Errors"), compared with independent SQL.
import { expect, test } from "../fixtures";
import { errorBodySchema, marketListItemSchema, marketListResponseSchema, outcomeSchema } from "@/lib/markets/schemas";

// The documented fields (lib/markets/schemas.ts, the source of /v1/openapi.json), no more and no fewer.
const LIST_ITEM_KEYS = Object.keys(marketListItemSchema.shape).sort();
const OUTCOME_KEYS = Object.keys(outcomeSchema.shape).sort();

async function list(request: import("@playwright/test").APIRequestContext, qs = "") {
  const res = await request.get(`/v1/markets${qs ? `?${qs}` : ""}`);
  expect(res.status(), await res.text()).toBe(200);
  return marketListResponseSchema.parse(await res.json());
}

async function expectBadRequest(request: import("@playwright/test").APIRequestContext, qs: string, message: string[]) {
  const res = await request.get(`/v1/markets?${qs}`);
  expect(res.status()).toBe(400);
  expect(res.headers()["content-type"]).toContain("json");
  const body = errorBodySchema.parse(await res.json());
  expect(body).toEqual({ statusCode: 400, message, error: "Bad Request" });
}

test.describe("GET /v1/markets", () => {
  test("returns the envelope with defaults: ACTIVE, newest first, limit 20, offset 0", async ({ request, sql }) => {
    const body = await list(request);
    const [{ n }] = await sql`SELECT count(*)::int AS n FROM markets WHERE status = 'ACTIVE'`;
    const expected = await sql`SELECT id FROM markets WHERE status = 'ACTIVE' ORDER BY created_at DESC, id DESC LIMIT 20`;
    expect(n).toBeGreaterThan(20);
    expect(body.total).toBe(n);
    expect(body.limit).toBe(20);
    expect(body.offset).toBe(0);
    expect(body.markets.map((m) => m.id)).toEqual(expected.map((r) => r.id));
    expect(body.markets.every((m) => m.status === "ACTIVE")).toBe(true);
  });

  test("list items carry exactly the fields of a market list item with their types", async ({ request, sql }) => {
    const body = await list(request, "limit=100");
    for (const m of body.markets) {
      expect(Object.keys(m).sort()).toEqual(LIST_ITEM_KEYS);
      marketListItemSchema.strict().parse(m);
      for (const o of m.outcomes) expect(Object.keys(o).sort()).toEqual(OUTCOME_KEYS);
      expect(m.outcomes.map((o) => o.index)).toEqual([...m.outcomes.keys()]);
      expect(Date.parse(m.trading_starts_at)).not.toBeNaN();
      expect(m.trading_starts_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/);
    }
    const counts = await sql`SELECT market_id::text AS id, count(*)::int AS n FROM comments GROUP BY market_id`;
    const byId = new Map(counts.map((r) => [r.id, r.n]));
    for (const m of body.markets) expect(m.comments_count).toBe(byId.get(m.id) ?? 0);
    // probability is a number with at most two decimals
    for (const o of body.markets.flatMap((m) => m.outcomes)) expect(Math.round(o.probability * 100) / 100).toBe(o.probability);
  });

  for (const status of ["ACTIVE", "RESOLVED", "CANCELLED"] as const) {
    test(`filters on status ${status}, and total counts after filters`, async ({ request, sql }) => {
      const body = await list(request, `status=${status}&limit=100`);
      const [{ n }] = await sql`SELECT count(*)::int AS n FROM markets WHERE status = ${status}`;
      expect(n).toBeGreaterThan(0);
      expect(body.total).toBe(n);
      expect(body.markets.length).toBe(Math.min(100, n));
      expect(body.markets.every((m) => m.status === status)).toBe(true);
    });
  }

  test("a resolved list item carries winning_outcome, payouts, and probabilities that follow the payout", async ({ request }) => {
    const body = await list(request, "status=RESOLVED&limit=100");
    for (const m of body.markets) {
      expect(m.winning_outcome_id).not.toBeNull();
      expect(m.winning_outcome).toEqual(m.outcomes.find((o) => o.id === m.winning_outcome_id));
      expect(m.resolved_at).not.toBeNull();
      for (const o of m.outcomes) {
        expect(o.payout_wei).not.toBeNull();
        expect(o.probability).toBe(o.id === m.winning_outcome_id ? 100 : 0);
      }
    }
  });

  test("a cancelled list item has settled_at and no resolved_at", async ({ request }) => {
    const body = await list(request, "status=CANCELLED&limit=100");
    for (const m of body.markets) {
      expect(m.settled_at).not.toBeNull();
      expect(m.resolved_at).toBeNull();
      expect(m.winning_outcome).toBeNull();
    }
  });

  for (const status of ["LOCKED", "PENDING", "active", "ALL", ""]) {
    test(`rejects status ${JSON.stringify(status)} with 400`, async ({ request }) => {
      await expectBadRequest(request, `status=${status}`, ["status must be one of the following values: ACTIVE, RESOLVED, CANCELLED"]);
    });
  }

  test("filters on category", async ({ request, sql }) => {
    for (const category of ["CRYPTO", "SPORTS", "POLITICS", "ENTERTAINMENT", "SCIENCE", "FINANCE", "OTHER"]) {
      const body = await list(request, `category=${category}&limit=5`);
      const [{ n }] = await sql`SELECT count(*)::int AS n FROM markets WHERE status = 'ACTIVE' AND category = ${category}`;
      expect(body.total, category).toBe(n);
      expect(body.markets.every((m) => m.category === category)).toBe(true);
    }
  });

  test("matches subCategory exactly against the stored raw value", async ({ request }) => {
    const upper = await list(request, "subCategory=Edge%20Cases&sortOrder=ASC");
    expect(upper.markets.map((m) => m.slug).sort()).toEqual(["fixture-edge-1", "fixture-edge-2", "fixture-edge-3", "fixture-edge-4"]);
    const lower = await list(request, "subCategory=edge%20cases");
    expect(lower.markets.map((m) => m.slug)).toEqual(["fixture-edge-5"]);
    expect((await list(request, "subCategory=Edge")).total).toBe(0);
  });

  test("subCategory of 50 characters is accepted, 51 rejected", async ({ request }) => {
    expect((await list(request, `subCategory=${"a".repeat(50)}`)).total).toBe(0);
    await expectBadRequest(request, `subCategory=${"a".repeat(51)}`, ["subCategory must be shorter than or equal to 50 characters"]);
  });

  test("q is a case-insensitive substring match over question and description", async ({ request, sql }) => {
    const byDescription = await list(request, "q=zephyrQUARTZ");
    expect(byDescription.markets.map((m) => m.slug)).toEqual(["fixture-edge-3"]);
    const [{ word }] =
      await sql`SELECT split_part(question, ' ', 3) AS word FROM markets WHERE status = 'ACTIVE' AND slug NOT LIKE 'fixture-%' ORDER BY id LIMIT 1`;
    const body = await list(request, `q=${encodeURIComponent(word.toUpperCase())}&limit=100`);
    const [{ n }] = await sql`
      SELECT count(*)::int AS n FROM markets
      WHERE status = 'ACTIVE' AND (position(lower(${word}) IN lower(question)) > 0 OR position(lower(${word}) IN lower(description)) > 0)`;
    expect(body.total).toBe(n);
    expect(n).toBeGreaterThan(0);
  });

  test("q treats % and _ literally", async ({ request }) => {
    expect((await list(request, "q=100%25")).markets.map((m) => m.slug)).toEqual(["fixture-edge-1"]);
    expect((await list(request, "q=fixture_markets")).markets.map((m) => m.slug)).toEqual(["fixture-edge-1"]);
    expect((await list(request, "q=%5C")).total).toBe(0);
  });

  const SORTS = {
    VOLUME: "total_volume",
    LIQUIDITY: "total_liquidity",
    CREATED: "created_at",
    ENDING: "trading_ends_at",
  } as const;
  for (const [sortBy, column] of Object.entries(SORTS)) {
    for (const order of ["ASC", "DESC"] as const) {
      test(`sortBy ${sortBy} ${order} orders by ${column} with id as tie-breaker`, async ({ request, sql }) => {
        const body = await list(request, `sortBy=${sortBy}&sortOrder=${order}&limit=100&status=ACTIVE`);
        const expected = await sql`
          SELECT id FROM markets WHERE status = 'ACTIVE'
          ORDER BY ${sql(column)} ${order === "ASC" ? sql`ASC` : sql`DESC`}, id ${order === "ASC" ? sql`ASC` : sql`DESC`} LIMIT 100`;
        expect(body.markets.map((m) => m.id)).toEqual(expected.map((r) => r.id));
      });
    }
  }

  test("sortBy TRENDING orders by traded volume of the last 24 hours, id breaking ties", async ({ request, sql }) => {
    for (const order of ["DESC", "ASC"] as const) {
      // The app's answer and this query each hold at their own moment: a trade that turns 24 h old between
      // them reorders the two. Asked again, both agree unless the app's order is wrong.
      await expect(async () => {
        const body = await list(request, `sortBy=TRENDING&sortOrder=${order}&limit=100`);
        const expected = await sql`
          SELECT m.id FROM markets m
          LEFT JOIN (SELECT market_id, sum(price * shares) AS v FROM trades WHERE executed_at > now() - interval '24 hours' GROUP BY market_id) t
            ON t.market_id = m.id
          WHERE m.status = 'ACTIVE'
          ORDER BY coalesce(t.v, 0) ${order === "ASC" ? sql`ASC` : sql`DESC`}, m.id ${order === "ASC" ? sql`ASC` : sql`DESC`} LIMIT 100`;
        expect(body.markets.map((m) => m.id)).toEqual(expected.map((r) => r.id));
      }).toPass({ intervals: [100, 250, 500], timeout: 5_000 });
    }
    const [{ n }] = await sql`SELECT count(DISTINCT market_id)::int AS n FROM trades WHERE executed_at > now() - interval '24 hours'`;
    expect(n, "the demo data trades in the last 24 hours").toBeGreaterThan(0);
  });

  test("ties on the sort key are broken by id in the sort direction", async ({ request }) => {
    const desc = await list(request, "subCategory=Edge%20Cases&sortBy=CREATED&sortOrder=DESC");
    const asc = await list(request, "subCategory=Edge%20Cases&sortBy=VOLUME&sortOrder=ASC");
    const ids = desc.markets.map((m) => m.id);
    expect(ids).toEqual([...ids].sort().reverse());
    expect(asc.markets.map((m) => m.id)).toEqual([...ids].sort());
  });

  test("offset pages cover the filtered list without repeats or gaps; the client stops at offset + limit >= total", async ({ request }) => {
    const all = await list(request, "status=RESOLVED&sortBy=VOLUME&limit=100");
    const seen: string[] = [];
    for (let offset = 0; offset < all.total; offset += 7) {
      const page = await list(request, `status=RESOLVED&sortBy=VOLUME&limit=7&offset=${offset}`);
      expect(page.offset).toBe(offset);
      expect(page.limit).toBe(7);
      expect(page.total).toBe(all.total);
      seen.push(...page.markets.map((m) => m.id));
    }
    expect(seen).toEqual(all.markets.map((m) => m.id).slice(0, all.total));
    expect(new Set(seen).size).toBe(seen.length);
  });

  test("an offset past the end returns no markets and the same total", async ({ request }) => {
    const first = await list(request);
    const past = await list(request, `offset=${first.total + 5}`);
    expect(past.markets).toEqual([]);
    expect(past.total).toBe(first.total);
    expect(past.offset).toBe(first.total + 5);
  });

  test("limit 1 and 100 are accepted; the envelope echoes them", async ({ request }) => {
    expect((await list(request, "limit=1")).markets).toHaveLength(1);
    const hundred = await list(request, "limit=100");
    expect(hundred.limit).toBe(100);
    expect(hundred.markets.length).toBe(Math.min(100, hundred.total));
  });

  for (const [qs, message] of [
    ["limit=0", "limit must not be less than 1"],
    ["limit=101", "limit must not be greater than 100"],
    ["limit=-5", "limit must not be less than 1"],
    ["limit=ten", "limit must be an integer number"],
    ["offset=-1", "offset must not be less than 0"],
    ["offset=1.5", "offset must be an integer number"],
    ["sortBy=PRICE", "sortBy must be one of the following values: VOLUME, LIQUIDITY, CREATED, TRENDING, ENDING"],
    ["sortOrder=desc", "sortOrder must be one of the following values: ASC, DESC"],
    ["category=crypto", "category must be one of the following values: CRYPTO, SPORTS, POLITICS, ENTERTAINMENT, SCIENCE, FINANCE, OTHER"],
  ] as const) {
    test(`rejects ${qs} with 400`, async ({ request }) => {
      await expectBadRequest(request, qs, [message]);
    });
  }

  test("rejects any unlisted query parameter: property <name> should not exist", async ({ request }) => {
    await expectBadRequest(request, "foo=bar", ["property foo should not exist"]);
    await expectBadRequest(request, "page=2&limit=10", ["property page should not exist"]);
    await expectBadRequest(request, "sub_category=NBA", ["property sub_category should not exist"]);
    await expectBadRequest(request, "a=1&b=2", ["property a should not exist", "property b should not exist"]);
  });

  test("reports every problem at once, one message each", async ({ request }) => {
    const res = await request.get("/v1/markets?limit=0&status=LOCKED&x=1");
    expect(res.status()).toBe(400);
    const body = errorBodySchema.parse(await res.json());
    expect([...(body.message as string[])].sort()).toEqual([
      "limit must not be less than 1",
      "property x should not exist",
      "status must be one of the following values: ACTIVE, RESOLVED, CANCELLED",
    ]);
  });
});
