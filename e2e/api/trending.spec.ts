// TRENDING from the stored rolling 24 h volume (migration 0003): the list stays exact while trades
// age out between sweeps, trade writes keep the stored value, and a sweep never races a writer.
// Markets here are CANCELLED in a sub-category of their own, so no other list sees them.
import postgres from "postgres";
import { sleep } from "@/lib/dev/tools";
import { marketListResponseSchema } from "@/lib/markets/schemas";
import { expect, test, testRun } from "../fixtures";
import { waitFor } from "../realtime-helpers";
import { addTrades, makeMarket, uniqueSlug, type TestMarket } from "../support/markets";

const HOUR = 3600e3;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(Date.now() - ms);

async function trendingIds(request: import("@playwright/test").APIRequestContext, sub: string, order: "ASC" | "DESC", extra = "") {
  const res = await request.get(`/v1/markets?status=CANCELLED&subCategory=${encodeURIComponent(sub)}&sortBy=TRENDING&sortOrder=${order}${extra}`);
  expect(res.status(), await res.text()).toBe(200);
  return marketListResponseSchema.parse(await res.json()).markets.map((m) => m.id);
}

/** The order docs/api.md "Sorting" defines, straight from the trades. */
async function expectedIds(sql: postgres.Sql, sub: string, order: "ASC" | "DESC") {
  const dir = order === "ASC" ? sql`ASC` : sql`DESC`;
  const rows = await sql`
    SELECT m.id FROM markets m
    LEFT JOIN (SELECT market_id, sum(price * shares) AS v FROM trades WHERE executed_at > now() - interval '24 hours' GROUP BY market_id) t
      ON t.market_id = m.id
    WHERE m.status = 'CANCELLED' AND m.sub_category = ${sub}
    ORDER BY coalesce(t.v, 0) ${dir}, m.id ${dir}`;
  return rows.map((r) => r.id as string);
}

/** Markets whose stored volume breaks the invariant: Σ price × shares after watermark − 24 h. */
async function drifted(sql: postgres.Sql, ids?: string[]) {
  return sql`
    SELECT m.id, m.volume_24h::text AS stored, coalesce(t.v, 0)::text AS expected
      FROM markets m
      LEFT JOIN (SELECT market_id, sum(price * shares) AS v FROM trades, trending_watermark w
                  WHERE executed_at > w.swept_at - interval '24 hours' GROUP BY market_id) t ON t.market_id = m.id
     WHERE m.volume_24h <> coalesce(t.v, 0) ${ids ? sql`AND m.id = ANY(${ids}::uuid[])` : sql``}`;
}

/** A sweep that ran: other workers' trade writes may make one skip, so try until one runs. */
async function sweep(sql: postgres.Sql): Promise<Date> {
  for (let i = 0; i < 100; i++) {
    const [{ swept }] = await sql`SELECT sweep_volume_24h() AS swept`;
    if (swept) return swept;
    await sleep(100);
  }
  throw new Error("no sweep ran in 10 s");
}

const cancelled = (sql: postgres.Sql, sub: string) => makeMarket(sql, { status: "CANCELLED", subCategory: sub });

test.describe
  .serial("TRENDING – stored rolling volume", () => {
    let admin: postgres.Sql;
    test.beforeAll(() => {
      admin = postgres(testRun().databaseUrl, { max: 3, onnotice: () => {} });
    });
    test.afterAll(async () => {
      await admin.end();
    });

    test("GET /v1/markets?sortBy=TRENDING – exact while trades age out and no sweep has run, on every page", async ({ request }) => {
      const sub = uniqueSlug("trending");
      const [a, b, c, d, e] = [
        await cancelled(admin, sub),
        await cancelled(admin, sub),
        await cancelled(admin, sub),
        await cancelled(admin, sub),
        await cancelled(admin, sub),
      ];
      // A transaction that wrote trades holds the watermark: no sweep can run while this one is open,
      // from before the trades exist until the last check.
      const writer = await admin.reserve();
      try {
        await writer`BEGIN`;
        await writer`SELECT swept_at FROM trending_watermark FOR SHARE`;
        expect(await admin`SELECT sweep_volume_24h() AS swept`).toEqual([{ swept: null }]);
        // a and d lead now and fall once their big trades age out, a few seconds from now.
        const agesAt = Date.now() + 6_000;
        await addTrades(admin, a, [
          { at: new Date(agesAt - DAY), price: "0.900", shares: "1000" },
          { at: ago(HOUR), price: "0.500", shares: "20" },
        ]);
        await addTrades(admin, d, [{ at: new Date(agesAt - DAY), price: "0.800", shares: "1000" }]);
        await addTrades(admin, b, [{ at: ago(2 * HOUR), price: "0.250", shares: "400" }]);
        await addTrades(admin, c, [{ at: ago(DAY + HOUR), price: "0.990", shares: "9000" }]); // never counts
        await addTrades(admin, e, [{ at: ago(10 * HOUR), price: "0.100", shares: "3" }]);
        for (const order of ["DESC", "ASC"] as const) {
          expect(await trendingIds(request, sub, order)).toEqual(await expectedIds(admin, sub, order));
        }
        expect((await trendingIds(request, sub, "DESC")).slice(0, 2)).toEqual([a.id, d.id]);

        await sleep(agesAt + 1_000 - Date.now());
        const [stale] = await admin`SELECT volume_24h::text AS v FROM markets WHERE id = ${a.id}`;
        expect(stale.v, "not swept yet: the stored value still holds the aged trade").toBe("910.000000000");
        for (const order of ["DESC", "ASC"] as const) {
          const expected = await expectedIds(admin, sub, order);
          expect(await trendingIds(request, sub, order)).toEqual(expected);
          // Page by page as well: the candidate set must hold for every offset.
          const paged: string[] = [];
          for (let offset = 0; offset < 5; offset += 2) paged.push(...(await trendingIds(request, sub, order, `&limit=2&offset=${offset}`)));
          expect(paged).toEqual(expected);
        }
        expect(await trendingIds(request, sub, "DESC")).toEqual([b.id, a.id, e.id, ...[c.id, d.id].sort().reverse()]);
      } finally {
        await writer`COMMIT`;
        writer.release();
      }

      await sweep(admin);
      const [fresh] = await admin`SELECT volume_24h::text AS v FROM markets WHERE id = ${a.id}`;
      expect(fresh.v).toBe("10.000000000");
      expect(
        await drifted(
          admin,
          [a, b, c, d, e].map((m) => m.id),
        ),
      ).toEqual([]);
    });

    test("trade updates and deletes keep the stored volume", async () => {
      const m: TestMarket = await cancelled(admin, uniqueSlug("trending"));
      const ids = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
      await addTrades(admin, m, [
        { id: ids[0], at: ago(HOUR), price: "0.400", shares: "10" },
        { id: ids[1], at: ago(3 * HOUR), price: "0.600", shares: "5" },
        { id: ids[2], at: ago(2 * DAY), price: "0.700", shares: "50" },
      ]);
      const stored = async () => (await admin`SELECT volume_24h::text AS v FROM markets WHERE id = ${m.id}`)[0].v;
      expect(await stored()).toBe("7.000000000");
      await admin`UPDATE trades SET shares = 20 WHERE id = ${ids[0]}`; // 8 + 3
      expect(await stored()).toBe("11.000000000");
      await admin`UPDATE trades SET executed_at = now() - interval '1 hour' WHERE id = ${ids[2]}`; // ages in: + 35
      expect(await stored()).toBe("46.000000000");
      await admin`UPDATE trades SET executed_at = now() - interval '30 hours' WHERE id = ${ids[1]}`; // ages out: − 3
      expect(await stored()).toBe("43.000000000");
      await admin`DELETE FROM trades WHERE id = ${ids[0]}`;
      expect(await stored()).toBe("35.000000000");
      expect(await drifted(admin, [m.id])).toEqual([]);
    });

    test("a sweep skips while a trade-writing transaction is open, and nothing drifts after it commits", async () => {
      const m = await cancelled(admin, uniqueSlug("trending"));
      await sweep(admin);
      await sleep(1_500);
      // A trade that counts under the watermark the writer sees, and ages out before the next sweep's now().
      const writer = await admin.reserve();
      try {
        await writer`BEGIN`;
        await addTrades(writer as unknown as postgres.Sql, m, [{ at: ago(DAY - 500), price: "0.500", shares: "100" }]);
        await sleep(1_000);
        expect(await admin`SELECT sweep_volume_24h() AS swept`).toEqual([{ swept: null }]);
        await writer`COMMIT`;
      } finally {
        writer.release();
      }
      expect((await admin`SELECT volume_24h::text AS v FROM markets WHERE id = ${m.id}`)[0].v).toBe("50.000000000");
      await sweep(admin);
      expect((await admin`SELECT volume_24h::text AS v FROM markets WHERE id = ${m.id}`)[0].v).toBe("0.000000000");
    });

    test("a sweep in bounded steps moves the watermark at most one step at a time and catches up exactly", async () => {
      const m = await cancelled(admin, uniqueSlug("trending"));
      // A trade that ages out a second from now: the steps must subtract it once, and only once.
      await addTrades(admin, m, [{ at: ago(DAY - 1_000), price: "0.500", shares: "100" }]);
      await sleep(3_000);
      // The server's sweeper (once a minute) may have caught the watermark up meanwhile: then wait until it is 3 s behind again.
      let from: Date;
      for (;;) {
        const [w] = await admin<
          { swept_at: Date; lag: number }[]
        >`SELECT swept_at, extract(epoch FROM now() - swept_at)::float8 AS lag FROM trending_watermark`;
        from = w.swept_at;
        if (w.lag >= 3) break;
        await sleep((3 - w.lag) * 1_000 + 50);
      }
      const steps: { swept_at: Date; behind: boolean }[] = [];
      for (let i = 0; i < 10_000; i++) {
        const [step] = await admin<{ swept_at: Date; behind: boolean }[]>`SELECT * FROM sweep_volume_24h_step(interval '250 milliseconds')`;
        if (!step) {
          await sleep(50); // a writer of another test holds the watermark
          continue;
        }
        steps.push(step);
        if (!step.behind) break;
      }
      expect(steps.length).toBeGreaterThan(3); // at least the 3 s slept, in steps of 250 ms
      expect(steps.at(-1)!.behind).toBe(false);
      let previous = from;
      for (const { swept_at } of steps) {
        expect(swept_at.getTime() - previous.getTime()).toBeLessThanOrEqual(250);
        expect(swept_at.getTime()).toBeGreaterThan(previous.getTime());
        previous = swept_at;
      }
      expect((await admin`SELECT volume_24h::text AS v FROM markets WHERE id = ${m.id}`)[0].v).toBe("0.000000000");
      expect(await drifted(admin)).toEqual([]);
    });

    test("a sweep announces nothing: the aged volume is no visible change, so no price signal and no cache drop (migration 0019)", async () => {
      const m = await cancelled(admin, uniqueSlug("trending"));
      const listener = postgres(testRun().databaseUrl, { max: 1, onnotice: () => {} });
      const heard: { k: string }[] = [];
      try {
        await listener.listen("market_events", (text) => {
          const p = JSON.parse(text) as { k: string; m?: string };
          if (p.m === m.id) heard.push(p);
        });
        // A trade that counts now and ages out two seconds from now; its own announcement comes first.
        await addTrades(admin, m, [{ at: ago(DAY - 2_000), price: "0.500", shares: "100" }]);
        await waitFor(() => heard.some((p) => p.k === "trade"), 10_000, "the trade's announcement");
        expect((await admin`SELECT volume_24h::text AS v FROM markets WHERE id = ${m.id}`)[0].v).toBe("50.000000000");
        // From here on, a sweep by anyone (the test servers sweep once a minute too) must announce nothing.
        heard.length = 0;
        await sleep(3_000);
        await sweep(admin);
        expect((await admin`SELECT volume_24h::text AS v FROM markets WHERE id = ${m.id}`)[0].v, "the sweep changed the row").toBe("0.000000000");
        // A visible change after the sweep: notifications arrive in commit order, so once it is heard
        // anything the sweep announced would have been too.
        await admin`UPDATE markets SET comments_count = comments_count + 1 WHERE id = ${m.id}`;
        await waitFor(() => heard.some((p) => p.k === "detail"), 10_000, "the marker's announcement");
        expect(heard.map((p) => p.k)).toEqual(["detail"]);
      } finally {
        await listener.end();
      }
    });

    test("every market's stored volume matches its trades after a sweep (demo data, imports, other tests)", async () => {
      await sweep(admin);
      expect(await drifted(admin)).toEqual([]);
    });
  });
