// GET /v1/markets reads a page through different plans (lib/markets/sql/lists.ts): the sort index
// alone then a deferred join, a search that walks the sort index and stops after the page, the same
// walk giving up after 2,000 rows and collecting every match instead, and counts from market_counts.
// Each must answer exactly what the plain SQL of the spec answers. 2,100 CANCELLED markets in a
// sub-category of their own make all plans run; they are deleted afterwards.
import postgres from "postgres";
import { marketListResponseSchema } from "@/lib/markets/schemas";
import { expect, test, testRun } from "../fixtures";
import { uniqueSlug } from "../support/markets";

const N = 2_100;
const SORTS = { CREATED: "created_at", VOLUME: "total_volume", LIQUIDITY: "total_liquidity", ENDING: "trading_ends_at", TRENDING: "volume_24h" } as const;

test.describe
  .serial("GET /v1/markets – every plan answers what the plain SQL answers", () => {
    const sub = uniqueSlug("plans");
    let admin: postgres.Sql;

    test.beforeAll(async () => {
      admin = postgres(testRun().databaseUrl, { max: 2, onnotice: () => {} });
      // Words by frequency: "common" in every other market, "sparse" in 1 of 100, "Rare%_" in two, one
      // of them in the description only, both far down every sort order. Repeating values make ties.
      await admin`
      INSERT INTO markets (id, slug, question, description, category, sub_category, type, status, trading_starts_at, trading_ends_at,
                           settled_at, platform_fee, spread, total_volume, total_liquidity, image_url, created_at)
      SELECT gen_random_uuid(), ${sub} || '-' || i,
             'Plan market ' || i || CASE WHEN i % 2 = 0 THEN ' common' ELSE '' END || CASE WHEN i % 100 = 7 THEN ' SPARSE' ELSE '' END
               || CASE WHEN i = 2077 THEN ' has Rare%_ in it' ELSE '' END,
             CASE WHEN i = 2091 THEN 'described as rare%_ too' ELSE 'nothing to see' END,
             'OTHER', ${sub}, 'BINARY', 'CANCELLED', now() - interval '2 days', now() + (i % 50) * interval '1 hour',
             now(), 0.02, 1, (i * 37 % 500)::numeric, (i * 11 % 300)::numeric, '/x.svg',
             now() - (i % 700) * interval '1 minute'
        FROM generate_series(1, ${N}) AS i`;
      // One trade each, an hour old: TRENDING's rolling volume comes from the trades, with ties.
      await admin`
      INSERT INTO outcomes (id, market_id, name, side, index, probability)
      SELECT gen_random_uuid(), id, 'Yes', 'YES', 0, 50 FROM markets WHERE sub_category = ${sub}`;
      await admin`
      INSERT INTO trades (id, market_id, outcome_id, price, shares, executed_at)
      SELECT gen_random_uuid(), o.market_id, o.id, 0.5, 1 + (split_part(m.slug, '-', -1)::int * 13 % 200), now() - interval '1 hour'
        FROM outcomes o JOIN markets m ON m.id = o.market_id WHERE m.sub_category = ${sub}`;
      await admin`VACUUM (ANALYZE) markets`;
    });

    test.afterAll(async () => {
      await admin`DELETE FROM markets WHERE sub_category = ${sub}`;
      await admin.end();
    });

    /** The spec's answer in one plain statement: filter, order by the column then id, slice. */
    async function expected(sortBy: keyof typeof SORTS, order: "ASC" | "DESC", q: string | null, offset: number, limit: number) {
      const dir = order === "ASC" ? admin`ASC` : admin`DESC`;
      const pattern = q === null ? null : `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const where = admin`status = 'CANCELLED' AND sub_category = ${sub} ${pattern ? admin`AND (question ILIKE ${pattern} OR description ILIKE ${pattern})` : admin``}`;
      // TRENDING: the stored rolling volume is exact here (no trades), the trending spec covers aging.
      const ids = await admin`SELECT id FROM markets WHERE ${where} ORDER BY ${admin(SORTS[sortBy])} ${dir}, id ${dir} LIMIT ${limit} OFFSET ${offset}`;
      const [{ total }] = await admin`SELECT count(*)::int AS total FROM markets WHERE ${where}`;
      return { ids: ids.map((r) => r.id as string), total };
    }

    async function served(request: import("@playwright/test").APIRequestContext, qs: string) {
      const res = await request.get(`/v1/markets?status=CANCELLED&subCategory=${encodeURIComponent(sub)}&${qs}`);
      expect(res.status(), await res.text()).toBe(200);
      const body = marketListResponseSchema.parse(await res.json());
      return { ids: body.markets.map((m) => m.id), total: body.total };
    }

    const cases: [string, string | null, number, number][] = [
      ["no search, first page", null, 0, 20],
      ["no search, deep page", null, 2_050, 20],
      ["a common word: the walk finds the page", "common", 0, 20],
      ["a common word, deeper than the walk reads", "COMMON", 1_000, 20],
      ["a sparse word: the walk gives up, every match is sorted", "sparse", 0, 20],
      ["a sparse word, second page", "sparse", 20, 20],
      ["a rare word with wildcards, in question or description", "rare%_", 0, 20],
      ["a word nothing has", "zzqx", 0, 20],
      ["a page past the end", "common", 1_100, 20],
    ];
    for (const sortBy of Object.keys(SORTS) as (keyof typeof SORTS)[]) {
      for (const order of ["DESC", "ASC"] as const) {
        test(`sortBy ${sortBy} ${order}: ${cases.length} searches and offsets equal the plain SQL`, async ({ request }) => {
          for (const [name, q, offset, limit] of cases) {
            const qs = `sortBy=${sortBy}&sortOrder=${order}&offset=${offset}&limit=${limit}${q === null ? "" : `&q=${encodeURIComponent(q)}`}`;
            expect(await served(request, qs), `${name} (${qs})`).toEqual(await expected(sortBy, order, q, offset, limit));
          }
        });
      }
    }

    test("total without a search comes from market_counts and equals a count of the rows", async ({ request }) => {
      expect((await served(request, "limit=1")).total).toBe(N);
      expect((await served(request, "limit=1&category=OTHER")).total).toBe(N);
      expect((await served(request, "limit=1&category=SCIENCE")).total).toBe(0);
    });
  });
