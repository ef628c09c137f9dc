// The schema makes bad rows impossible: enums, price and share ranges, foreign keys that tie
// outcomes, orders, trades, winners and replies to the right market, unique slugs.
import { randomUUID } from "node:crypto";
import { expect, test } from "../fixtures";
import { makeMarket } from "../support/markets";

test.describe("schema constraints", () => {
  test("reject bad rows", async ({ sql }) => {
    const a = await makeMarket(sql);
    const b = await makeMarket(sql);
    const order = (o: Record<string, unknown>) => ({
      id: randomUUID(),
      market_id: a.id,
      outcome_id: a.yes,
      user_id: a.users[0],
      side: "BUY",
      type: "LIMIT",
      price: "0.500",
      shares: "10",
      filled_shares: "0",
      status: "OPEN",
      created_at: new Date(),
      ...o,
    });
    const trade = (t: Record<string, unknown>) => ({
      id: randomUUID(),
      market_id: a.id,
      outcome_id: a.yes,
      price: "0.500",
      shares: "1",
      executed_at: new Date(),
      ...t,
    });
    const cases: Array<[string, () => Promise<unknown>, RegExp]> = [
      ["order price above 0.999", () => sql`INSERT INTO orders ${sql(order({ price: "1.000" }))}`, /check constraint/],
      ["order price below 0.001", () => sql`INSERT INTO orders ${sql(order({ price: "0" }))}`, /check constraint/],
      ["zero shares", () => sql`INSERT INTO orders ${sql(order({ shares: "0" }))}`, /check constraint/],
      ["filled beyond shares", () => sql`INSERT INTO orders ${sql(order({ filled_shares: "11", status: "PARTIALLY_FILLED" }))}`, /check constraint/],
      ["FILLED with shares left", () => sql`INSERT INTO orders ${sql(order({ filled_shares: "3", status: "FILLED" }))}`, /check constraint/],
      ["unknown order side", () => sql`INSERT INTO orders ${sql(order({ side: "HOLD" }))}`, /invalid input value for enum/],
      ["order on another market's outcome", () => sql`INSERT INTO orders ${sql(order({ outcome_id: b.yes }))}`, /foreign key/],
      ["trade price above 1", () => sql`INSERT INTO trades ${sql(trade({ price: "1.5" }))}`, /check constraint|numeric field overflow/],
      ["trade on another market's outcome", () => sql`INSERT INTO trades ${sql(trade({ outcome_id: b.no }))}`, /foreign key/],
      ["probability above 100", () => sql`UPDATE outcomes SET probability = 100.01 WHERE id = ${a.yes}`, /check constraint/],
      ["duplicate slug", () => sql`UPDATE markets SET slug = ${b.slug} WHERE id = ${a.id}`, /unique/],
      ["slug with upper case", () => sql`UPDATE markets SET slug = 'Not-Valid' WHERE id = ${a.id}`, /check constraint/],
      ["unknown status", () => sql`UPDATE markets SET status = 'OPEN' WHERE id = ${a.id}`, /invalid input value for enum/],
      [
        "winner from another market",
        () => sql`UPDATE markets SET status = 'RESOLVED', resolved_at = now(), winning_outcome_id = ${b.yes} WHERE id = ${a.id}`,
        /foreign key/,
      ],
      ["resolved without a winner", () => sql`UPDATE markets SET status = 'RESOLVED', resolved_at = now() WHERE id = ${a.id}`, /check constraint/],
      [
        "cancelled with resolved_at",
        () => sql`UPDATE markets SET status = 'CANCELLED', settled_at = now(), resolved_at = now() WHERE id = ${a.id}`,
        /check constraint/,
      ],
      ["two outcomes at one index", () => sql`UPDATE outcomes SET index = 0 WHERE id = ${a.no}`, /unique|duplicate/],
      [
        "reply to a comment of another market",
        async () => {
          const parent = { id: randomUUID(), market_id: b.id, user_id: b.users[0], content: "parent", created_at: new Date() };
          await sql`INSERT INTO comments ${sql(parent)}`;
          return sql`INSERT INTO comments ${sql({ id: randomUUID(), market_id: a.id, user_id: a.users[0], content: "reply", parent_id: parent.id, created_at: new Date() })}`;
        },
        /foreign key/,
      ],
      [
        "empty comment",
        () => sql`INSERT INTO comments ${sql({ id: randomUUID(), market_id: a.id, user_id: a.users[0], content: "", created_at: new Date() })}`,
        /check constraint/,
      ],
      [
        "duplicate username",
        async () => {
          const [u] = await sql`SELECT username FROM users WHERE id = ${a.users[0]}`;
          return sql`INSERT INTO users (id, username) VALUES (${randomUUID()}, ${u.username})`;
        },
        /unique/,
      ],
    ];
    for (const [name, run, error] of cases) {
      const message = await run().then(
        () => "(accepted)",
        (e: Error) => e.message,
      );
      expect(message, name).toMatch(error);
    }
  });
});
