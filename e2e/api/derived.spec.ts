// refresh_market_derived() (migration 0004), the one definition of comments_count and
// total_liquidity that import, simulator and seed share: set-based, for some markets or all.
import { randomUUID } from "node:crypto";
import { expect, test } from "../fixtures";
import { addOrders, makeMarket } from "../support/markets";

test.describe("refresh_market_derived", () => {
  async function marketWithRows(sql: import("postgres").Sql) {
    const m = await makeMarket(sql);
    await addOrders(sql, m, [
      { side: "BUY", price: "0.400", shares: "10.00" }, // 4
      { side: "SELL", price: "0.700", shares: "5.00", filled: "2.00", status: "PARTIALLY_FILLED" }, // 2.1
      { side: "BUY", price: "0.300", shares: "8.00", filled: "8.00", status: "FILLED" }, // not resting
      { side: "BUY", price: "0.350", shares: "8.00", status: "CANCELLED" }, // not resting
    ]);
    const parent = randomUUID();
    await sql`
      INSERT INTO comments (id, market_id, user_id, content, parent_id, created_at, updated_at) VALUES
        (${parent}, ${m.id}, ${m.users[0]}, 'First', NULL, now(), now()),
        (${randomUUID()}, ${m.id}, ${m.users[1]}, 'A reply', ${parent}, now(), now())`;
    return m;
  }
  const derived = async (sql: import("postgres").Sql, id: string) =>
    (await sql`SELECT comments_count, total_liquidity::text AS total_liquidity FROM markets WHERE id = ${id}`)[0];

  test("recomputes the named markets from their rows and returns how many it changed", async ({ sql }) => {
    const [a, b] = [await marketWithRows(sql), await marketWithRows(sql)];
    expect(await sql`SELECT refresh_market_derived(${[a.id, b.id]}::uuid[]) AS n`).toEqual([{ n: 2 }]);
    for (const m of [a, b]) expect(await derived(sql, m.id)).toEqual({ comments_count: 2, total_liquidity: "6.100000" });
    // Nothing left to change: a second call rewrites no row.
    expect(await sql`SELECT refresh_market_derived(${[a.id, b.id]}::uuid[]) AS n`).toEqual([{ n: 0 }]);
    // Only the named markets: b drifts but is not named.
    await sql`UPDATE markets SET comments_count = 99, total_liquidity = 0 WHERE id IN ${sql([a.id, b.id])}`;
    expect(await sql`SELECT refresh_market_derived(${[a.id]}::uuid[]) AS n`).toEqual([{ n: 1 }]);
    expect(await derived(sql, a.id)).toEqual({ comments_count: 2, total_liquidity: "6.100000" });
    expect(await derived(sql, b.id)).toEqual({ comments_count: 99, total_liquidity: "0.000000" });
    // NULL: every market.
    const [{ n }] = await sql`SELECT refresh_market_derived(NULL) AS n`;
    expect(n).toBeGreaterThanOrEqual(1);
    expect(await derived(sql, b.id)).toEqual({ comments_count: 2, total_liquidity: "6.100000" });
  });

  test("a venue-mirrored market's liquidity comes from its venue books, not orders", async ({ sql }) => {
    const m = await makeMarket(sql, { externalSource: "polymarket" });
    await addOrders(sql, m, [{ side: "BUY", price: "0.400", shares: "10.00" }]);
    await sql`
      INSERT INTO external_books (outcome_id, bids, asks, updated_at) VALUES
        (${m.yes}, ${sql.json([{ price: "0.45", shares: "100" }])}, ${sql.json([{ price: "0.55", shares: "10.5" }])}, now())`;
    await sql`SELECT refresh_market_derived(${[m.id]}::uuid[])`;
    expect((await derived(sql, m.id)).total_liquidity).toBe("50.775000"); // 45 + 5.775
  });
});
