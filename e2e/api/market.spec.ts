// GET /v1/markets/{id} and /v1/markets/slug/{slug} (docs/api.md "One market"; docs/import.md "Market values").
import { randomUUID } from "node:crypto";
import { expect, test } from "../fixtures";
import { addOrders, addTrades, makeMarket, makeUsers } from "../support/markets";
import { marketDetailSchema } from "@/lib/markets/schemas";

test.describe("GET /v1/markets/{id} and /slug/{slug}", () => {
  test("by id and by slug answer the same superset of the list item, without comments_count", async ({ request, sql }) => {
    const [row] = await sql`SELECT id, slug FROM markets WHERE status = 'ACTIVE' AND external_source IS NULL ORDER BY total_volume DESC LIMIT 1`;
    const byId = await request.get(`/v1/markets/${row.id}`);
    const bySlug = await request.get(`/v1/markets/slug/${row.slug}`);
    expect(byId.status()).toBe(200);
    expect(bySlug.status()).toBe(200);
    const a = marketDetailSchema.parse(await byId.json());
    expect(await bySlug.json()).toEqual(a);
    expect(a).not.toHaveProperty("comments_count");
    for (const key of ["total_liquidity", "top_traders", "comments", "external_market_id", "outcomes", "winning_outcome"]) expect(a).toHaveProperty(key);
    const listed = (await (await request.get(`/v1/markets?limit=100&sortBy=VOLUME`)).json()).markets.find((m: { id: string }) => m.id === row.id);
    const { comments_count, ...rest } = listed;
    void comments_count;
    for (const [key, value] of Object.entries(rest)) expect(a[key as keyof typeof a], key).toEqual(value);
  });

  test("answers 404 'Market not found: <id>' for an unknown or malformed id", async ({ request }) => {
    const id = randomUUID();
    for (const bad of [id, "not-a-uuid", "123", "00000000-0000-0000-0000-00000000000g"]) {
      const res = await request.get(`/v1/markets/${bad}`);
      expect(res.status(), bad).toBe(404);
      expect(await res.json()).toEqual({ statusCode: 404, message: `Market not found: ${bad}`, error: "Not Found" });
    }
  });

  test("answers 404 for an unknown slug", async ({ request }) => {
    for (const slug of ["no-such-market", "UPPER", "x".repeat(300)]) {
      const res = await request.get(`/v1/markets/slug/${slug}`);
      expect(res.status()).toBe(404);
      expect(await res.json()).toEqual({ statusCode: 404, message: `Market not found: ${slug}`, error: "Not Found" });
    }
  });

  test("fetches markets in every one of the five states", async ({ request, sql }) => {
    for (const status of ["PENDING", "ACTIVE", "LOCKED", "RESOLVED", "CANCELLED"]) {
      const [row] = await sql`SELECT slug FROM markets WHERE status = ${status} LIMIT 1`;
      expect(row, `demo data has a ${status} market`).toBeTruthy();
      const res = await request.get(`/v1/markets/slug/${row.slug}`);
      expect(res.status()).toBe(200);
      expect((await res.json()).status).toBe(status);
    }
  });

  test("a resolved market: winning outcome object, payout_wei set, probability 100/0", async ({ request, sql }) => {
    const m = await makeMarket(sql, { status: "RESOLVED" });
    const body = marketDetailSchema.parse(await (await request.get(`/v1/markets/${m.id}`)).json());
    expect(body.winning_outcome_id).toBe(m.yes);
    expect(body.winning_outcome).toEqual(body.outcomes[0]);
    expect(body.outcomes.map((o) => [o.probability, o.payout_wei])).toEqual([
      [100, "1000000000000000000"],
      [0, "0"],
    ]);
    expect(body.resolved_at).not.toBeNull();
  });

  test("a cancelled market: settled_at set, resolved_at null, probability shows the payout ratio", async ({ request, sql }) => {
    const m = await makeMarket(sql, { status: "CANCELLED" });
    const body = marketDetailSchema.parse(await (await request.get(`/v1/markets/slug/${m.slug}`)).json());
    expect(body.settled_at).not.toBeNull();
    expect(body.resolved_at).toBeNull();
    expect(body.winning_outcome).toBeNull();
    expect(body.outcomes.map((o) => o.probability)).toEqual([50, 50]);
  });

  test("returns at most 50 comments, newest first, each with its user", async ({ request, sql }) => {
    const m = await makeMarket(sql);
    const base = Date.now() - 3600e3;
    const rows = Array.from({ length: 55 }, (_, i) => ({
      id: randomUUID(),
      market_id: m.id,
      user_id: m.users[i % 2],
      content: `comment ${i}`,
      parent_id: null,
      likes_count: i,
      created_at: new Date(base + i * 1000),
    }));
    await sql`INSERT INTO comments ${sql(rows)}`;
    const reply = {
      id: randomUUID(),
      market_id: m.id,
      user_id: m.users[1],
      content: "a reply",
      parent_id: rows[54].id,
      likes_count: 0,
      created_at: new Date(base + 100e3),
    };
    await sql`INSERT INTO comments ${sql(reply)}`;
    await sql`SELECT refresh_market_derived(${[m.id]}::uuid[])`;
    const body = marketDetailSchema.parse(await (await request.get(`/v1/markets/${m.id}`)).json());
    expect(body.comments).toHaveLength(50);
    expect(body.comments[0]).toMatchObject({ id: reply.id, parent_id: rows[54].id, content: "a reply" });
    expect(body.comments[1]).toMatchObject({ id: rows[54].id, reply_count: 1, likes_count: 54, parent_id: null });
    expect(body.comments.slice(1).map((c) => c.content)).toEqual(Array.from({ length: 49 }, (_, i) => `comment ${54 - i}`));
    const [user] = await sql`SELECT id, username, profile_image_url FROM users WHERE id = ${m.users[1]}`;
    expect(body.comments[0].user).toEqual({ id: user.id, username: user.username, profile_image_url: user.profile_image_url });
    const listed = await sql`SELECT comments_count FROM markets WHERE id = ${m.id}`;
    expect(listed[0].comments_count).toBe(56);
  });

  test("top_traders: at most 10 users by maker-or-taker volume, largest first; a self-trade counts once", async ({ request, sql }) => {
    const m = await makeMarket(sql);
    const users = await makeUsers(sql, 12);
    const at = new Date(Date.now() - 60e3);
    // user i trades (i+1) shares at 0.5 as maker with a taker who trades nothing else.
    const trades: Parameters<typeof addTrades>[2] = users.map((u, i) => ({ at, price: "0.500", shares: String(i + 1), maker: u, taker: null }));
    trades.push({ at, price: "0.250", shares: "7", maker: users[0], taker: users[0] });
    await addTrades(sql, m, trades);
    const body = marketDetailSchema.parse(await (await request.get(`/v1/markets/${m.id}`)).json());
    expect(body.top_traders).toHaveLength(10);
    const volumes = body.top_traders.map((t) => t.volume);
    expect(volumes).toEqual([...volumes].sort((a, b) => b - a));
    expect(volumes[0]).toBe(6); // 12 × 0.5
    const names = await sql`SELECT id, username FROM users WHERE id = ANY(${users}::uuid[])`;
    const nameOf = new Map(names.map((r) => [r.id, r.username]));
    expect(body.top_traders[0].username).toBe(nameOf.get(users[11]));
    // users[0]: 1 × 0.5 + 7 × 0.25 (self-trade counted once) = 2.25 → 9th, between users[4] (2.5) and users[3] (2.0);
    // users[2] (1.5), users[1] (1.0) and users[0]'s double count (4.0) would all show up here.
    expect(body.top_traders.map((t) => t.username)).toEqual([11, 10, 9, 8, 7, 6, 5, 4, 0, 3].map((i) => nameOf.get(users[i])));
    expect(body.top_traders[8].volume).toBe(2.25);
    expect(Object.keys(body.top_traders[0]).sort()).toEqual(["profile_image_url", "username", "volume"]);
  });

  test("total_liquidity sums price × resting shares of LIMIT orders over all outcomes", async ({ request, sql }) => {
    const m = await makeMarket(sql);
    await addOrders(sql, m, [
      { side: "BUY", price: "0.400", shares: "10" }, // 4.00
      { side: "SELL", price: "0.600", shares: "5", filled: "2" }, // 1.80
      { outcome: m.no, side: "BUY", price: "0.300", shares: "10" }, // 3.00
      { side: "BUY", price: "0.500", shares: "100", type: "MARKET" }, // not resting
      { side: "BUY", price: "0.450", shares: "7", filled: "7", status: "FILLED" },
      { side: "BUY", price: "0.450", shares: "7", status: "CANCELLED" },
    ]);
    const body = marketDetailSchema.parse(await (await request.get(`/v1/markets/${m.id}`)).json());
    expect(body.total_liquidity).toBeCloseTo(8.8, 9);
  });

  test("a mirrored market names its venue and sums its liquidity over the venue's books", async ({ request, sql }) => {
    const m = await makeMarket(sql, { externalSource: "Polymarket" });
    await sql`INSERT INTO external_books (outcome_id, bids, asks, updated_at) VALUES
      (${m.yes}, ${sql.json([{ price: "0.41", shares: "100" }])}, ${sql.json([{ price: "0.45", shares: "20" }])}, now())`;
    await sql`SELECT refresh_market_derived(${[m.id]}::uuid[])`;
    const body = marketDetailSchema.parse(await (await request.get(`/v1/markets/${m.id}`)).json());
    expect(body.external_source).toBe("Polymarket");
    expect(body.total_liquidity).toBeCloseTo(41 + 9, 9);
  });
});
