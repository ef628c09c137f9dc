// No input makes the API answer 500; errors are JSON in the NestJS-style shape and leak nothing.
import { expect, test } from "../fixtures";
import { errorBodySchema } from "@/lib/markets/schemas";

const NASTY = [
  "'",
  '"',
  "%00",
  "%27%20OR%201=1--",
  "%F0%9F%92%A5",
  "%E2%80%AE",
  "a".repeat(3000),
  "%25",
  "%5C",
  "null",
  "undefined",
  "%C0%AF",
  "%FF",
  "[]",
  "{}",
  "1e309",
  "-0",
  "0x10",
  "9".repeat(40),
];

test.describe("robustness", () => {
  test("no query value on the list answers 500", async ({ request }) => {
    for (const key of ["status", "category", "subCategory", "q", "sortBy", "sortOrder", "limit", "offset"]) {
      for (const value of NASTY) {
        const res = await request.get(`/v1/markets?${key}=${value}`);
        expect([200, 400], `${key}=${value.slice(0, 40)}`).toContain(res.status());
        if (res.status() === 400) errorBodySchema.parse(await res.json());
      }
    }
  });

  test("no path or outcomeId answers 500 on the single-market, book and history routes", async ({ request, sql }) => {
    const [m] = await sql`SELECT m.id, m.slug, o.id AS outcome_id FROM markets m JOIN outcomes o ON o.market_id = m.id LIMIT 1`;
    for (const value of NASTY) {
      for (const url of [
        `/v1/markets/${value}`,
        `/v1/markets/slug/${value}`,
        `/v1/markets/${value}/orderbook?outcomeId=${m.outcome_id}`,
        `/v1/markets/${m.id}/orderbook?outcomeId=${value}`,
        `/v1/markets/slug/${m.slug}/prices-history?outcomeId=${value}`,
        `/v1/markets/${m.id}/prices-history?outcomeId=${m.outcome_id}&startTs=${value}`,
        `/v1/markets/${m.id}/prices-history?outcomeId=${m.outcome_id}&fidelity=${value}`,
      ]) {
        const res = await request.get(url);
        expect(res.status(), url.slice(0, 120)).toBeLessThan(500);
        const body = await res.json();
        if (res.status() >= 400) {
          errorBodySchema.parse(body);
          expect(JSON.stringify(body)).not.toMatch(/postgres|SELECT|stack|at \w+ \(/i);
        }
      }
    }
  });

  test("an offset far beyond any bigint still answers 200 with no markets", async ({ request }) => {
    const res = await request.get(`/v1/markets?offset=${"9".repeat(30)}`);
    expect(res.status()).toBe(200);
    expect((await res.json()).markets).toEqual([]);
  });

  test("unknown /v1 paths answer a JSON 404", async ({ request }) => {
    for (const path of ["/v1", "/v1/nothing", "/v1/markets/slug", "/v1/markets/a/b/c"]) {
      const res = await request.get(path);
      expect(res.status(), path).toBe(404);
      errorBodySchema.parse(await res.json());
    }
  });
});
