// GET /v1/markets/{id} reads a market, its outcomes, comments, top traders and creator in one statement
// (lib/markets/sql/market.ts getMarket, the parts as JSON). Its answer must be byte for byte what the five
// separate reads it replaced answered: those reads are kept here, verbatim, as the reference, and
// serialised by the same functions (lib/markets/serialize.ts). Their timestamps are read as postgres.js
// reads them, as Dates, and printed by Date.toISOString(), as the API printed them before PostgreSQL
// formatted them itself (lib/markets/rows.ts, IsoTime).
import { randomUUID } from "node:crypto";
import type postgres from "postgres";
import {
  MARKET_DETAIL_COLUMNS,
  OUTCOME_COLUMNS,
  type CommentRow,
  type MarketDetailRow,
  type OutcomeRow,
  type TopTraderRow,
  type UserRefRow,
} from "@/lib/markets/rows";
import { commentFromRow, marketDetailFromRow, outcomeFromRow } from "@/lib/markets/serialize";
import { expect, test } from "../fixtures";
import { addTrades, makeFullMarket, makeMarket, makeUsers } from "../support/markets";

type Row = Record<string, unknown>;

/** A row with its Dates as Date.toISOString() prints them. */
const dated = <R>(row: Row): R => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : v])) as R;

/** The detail as the separate reads built it: the market row, then outcomes, comments, traders and creator. */
async function separateReads(sql: postgres.Sql, id: string) {
  const [m] = (await sql<Row[]>`SELECT ${sql(MARKET_DETAIL_COLUMNS)} FROM markets WHERE id = ${id}::uuid`).map(dated<MarketDetailRow>);
  const outcomes = (await sql<Row[]>`SELECT ${sql(OUTCOME_COLUMNS)} FROM outcomes WHERE market_id = ANY(${[m.id]}::uuid[]) ORDER BY market_id, index`).map(
    dated<OutcomeRow>,
  );
  const comments = await sql<CommentRow[]>`
    SELECT c.id, c.user_id, c.content, c.parent_id, c.likes_count, c.reply_count, c.created_at, u.username, u.profile_image_url
      FROM comments c JOIN users u ON u.id = c.user_id
     WHERE c.market_id = ${m.id}
     ORDER BY c.created_at DESC, c.id DESC
     LIMIT 50`;
  const traders = await sql<TopTraderRow[]>`
    SELECT u.username, u.profile_image_url, round(t.volume, 6)::text AS volume
      FROM market_traders t JOIN users u ON u.id = t.user_id
     WHERE t.market_id = ${m.id} AND t.trades > 0
       AND t.volume >= (SELECT min(x.volume) FROM (SELECT volume FROM market_traders
                          WHERE market_id = ${m.id} AND trades > 0 ORDER BY volume DESC LIMIT 10) x)
     ORDER BY t.volume DESC, u.username
     LIMIT 10`;
  const [creator] = m.creator_id ? await sql<UserRefRow[]>`SELECT id, username, profile_image_url FROM users WHERE id = ${m.creator_id}` : [];
  return marketDetailFromRow(m, {
    outcomes: outcomes.map(outcomeFromRow),
    comments: comments.map(commentFromRow),
    topTraders: traders,
    creator: creator ?? null,
  });
}

async function expectSameAnswer(request: import("@playwright/test").APIRequestContext, sql: postgres.Sql, m: { id: string; slug: string }) {
  const expected = JSON.stringify(await separateReads(sql, m.id));
  for (const path of [`/v1/markets/${m.id}`, `/v1/markets/slug/${m.slug}`]) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(200);
    expect(await res.text(), path).toBe(expected);
  }
}

test.describe("GET /v1/markets/{id} – the one-statement read answers what the separate reads answered", () => {
  test("a bare market: no comments, no traders, no creator", async ({ request, sql }) => {
    const m = await makeMarket(sql);
    await expectSameAnswer(request, sql, m);
  });

  test("a market with every field, a creator, comments with a reply, orders and trades; and a mirrored one", async ({ request, sql }) => {
    await expectSameAnswer(request, sql, await makeFullMarket(sql));
    await expectSameAnswer(request, sql, await makeFullMarket(sql, { status: "RESOLVED", external: true }));
  });

  test("more than 50 comments with tied times, odd text and authors without or with an unsafe image", async ({ request, sql }) => {
    const users = await makeUsers(sql, [
      { username: `plain-${randomUUID()}`, profile_image_url: null },
      { username: `unsafe-${randomUUID()}`, profile_image_url: "javascript:alert(1)" },
      { username: `ünï "q" \\ ${randomUUID()}`, profile_image_url: "/avatars/1.svg" },
    ]);
    const m = await makeMarket(sql, { users: 1, creator: true });
    // Comments three to a second: ids break the ties. Half of them get microseconds, which the API drops.
    const base = Date.parse("2026-01-02T03:04:05.000Z");
    const at = (i: number) => new Date(base + Math.floor(i / 3) * 1000);
    const rows = Array.from({ length: 64 }, (_, i) => ({
      id: randomUUID(),
      market_id: m.id,
      user_id: users[i % 3],
      content: ["plain", 'quotes " and \\ backslash', "ünïcödé ✓ \u2028 line", "<script>x</script>", "tab\tnewline\n"][i % 5],
      parent_id: null,
      likes_count: i,
      created_at: at(i),
    }));
    await sql`INSERT INTO comments ${sql(rows)}`;
    await sql`UPDATE comments SET created_at = created_at + interval '123 microseconds' WHERE market_id = ${m.id} AND likes_count % 2 = 0`;
    await sql`SELECT refresh_market_derived(${[m.id]}::uuid[])`;
    await expectSameAnswer(request, sql, m);
  });

  test("timestamps at the edges of a millisecond, in other zones, years 1970 and 10000, and null: the text Date made of them, in the detail and the list", async ({
    request,
    sql,
  }) => {
    const m = await makeMarket(sql, { status: "RESOLVED" });
    await sql`
      UPDATE markets SET trading_starts_at = '1999-12-31 23:59:59.9995-05', trading_ends_at = '2026-05-06 07:08:09.999999+00',
             resolution_date = '10000-01-01 00:00:00+00', resolved_at = '2026-05-06 07:08:10.000001+00', settled_at = '2026-05-06 07:08:10.0009+13:45',
             created_at = '1970-01-01 00:00:00.0005+00', updated_at = '2026-11-27 20:00:00.123456+00'
       WHERE id = ${m.id}`;
    await sql`UPDATE outcomes SET created_at = '2000-02-29 12:00:00.5+00', updated_at = '9999-12-31 23:59:59.999999+00' WHERE market_id = ${m.id}`;
    await expectSameAnswer(request, sql, m);
    const detail = await separateReads(sql, m.id);
    expect(detail.resolution_date).toBe("+010000-01-01T00:00:00.000Z");
    expect(detail.trading_starts_at).toBe("2000-01-01T04:59:59.999Z");
    // The list reads its items apart (lib/markets/sql/lists.ts eachMarketListItem): the same text there.
    const res = await request.get(`/v1/markets?status=RESOLVED&q=${encodeURIComponent(m.slug)}`);
    expect(res.status()).toBe(200);
    const [item] = (await res.json()).markets;
    const times = (x: Record<string, unknown>) => Object.fromEntries(Object.entries(x).filter(([k]) => k.endsWith("_at") || k.endsWith("_date")));
    expect(times(item)).toEqual(times(detail));
    expect(item.outcomes.map(times)).toEqual(detail.outcomes.map(times));
  });

  test("top traders tied at the cut, volumes with more than six decimals, a self-trade", async ({ request, sql }) => {
    const m = await makeMarket(sql, {
      outcomes: 5,
      probability: ["33.33", "16.67", "20.00", "29.99", "0.01"],
      status: "RESOLVED",
      outcomeColumns: (i) => ({ image_url: i === 1 ? "javascript:alert(1)" : `/outcomes/${i}.svg`, description: i === 2 ? null : `outcome ${i}` }),
    });
    const users = await makeUsers(sql, 14);
    const at = new Date(Date.now() - 60e3);
    // Twelve users with the same volume: which ten show, and in which order, is decided by username.
    const trades: Parameters<typeof addTrades>[2] = users.slice(0, 12).map((u) => ({ at, price: "0.333", shares: "3.33", maker: u, taker: null }));
    trades.push(
      { at, price: "0.999", shares: "0.01", maker: users[12], taker: users[13] },
      { at, price: "0.101", shares: "7", maker: users[13], taker: users[13] },
    );
    await addTrades(sql, m, trades);
    await expectSameAnswer(request, sql, m);
  });
});
