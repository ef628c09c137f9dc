// Inserts one complete market of its own (users, outcomes, comments, resting orders, trades, optionally a
// mirrored venue book) so API tests can assert every field without depending on, or disturbing, seed data.
import { randomUUID } from "node:crypto";
import type postgres from "postgres";

export interface InsertedMarket {
  id: string;
  status: "ACTIVE" | "RESOLVED" | "CANCELLED" | "LOCKED";
  slug: string;
  /** A word found only in this market's question: `?q=<token>` lists it alone. */
  token: string;
  outcomes: { id: string; name: string; side: "YES" | "NO" }[];
  users: { id: string; username: string }[];
}

export interface MarketOptions {
  status?: "ACTIVE" | "RESOLVED" | "CANCELLED" | "LOCKED";
  /** A mirrored market: external_source set and the venue's book stored for the first outcome. */
  external?: boolean;
}

export async function insertMarket(sql: postgres.Sql, options: MarketOptions = {}): Promise<InsertedMarket> {
  const status = options.status ?? "ACTIVE";
  const token = `tok${randomUUID().replace(/-/g, "").slice(0, 12)}`;
  const id = randomUUID();
  const slug = `test-${token}`;
  const users = [0, 1, 2].map((i) => ({ id: randomUUID(), username: `${token}-user${i}` }));
  const outcomes = [
    { id: randomUUID(), name: "Yes", side: "YES" as const, probability: status === "RESOLVED" ? "100.00" : "63.45" },
    { id: randomUUID(), name: "No", side: "NO" as const, probability: status === "RESOLVED" ? "0.00" : "36.55" },
  ];
  const now = Date.now();
  const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000);

  await sql.begin(async (tx) => {
    for (const u of users) {
      await tx`INSERT INTO users (id, username, profile_image_url) VALUES (${u.id}, ${u.username}, ${u.username === users[1].username ? null : `https://img.example/${u.username}.png`})`;
    }
    await tx`
      INSERT INTO markets (
        id, slug, question, description, category, sub_category, type, status, trading_starts_at, trading_ends_at,
        resolution_date, winning_outcome_id, resolved_at, settled_at, resolved_by, resolution_source, resolution_note,
        platform_fee, spread, total_volume, image_url, video_url, video_poster_url, video_source_url, video_provider,
        video_status, external_source, external_market_id, tags, views, verified, featured, creator_id,
        price_market, predict_market, created_at, updated_at)
      VALUES (
        ${id}, ${slug}, ${`Will ${token} close above 100k?`}, ${"A market inserted by an API test."}, 'CRYPTO', 'Bitcoin',
        'BINARY', ${status}, ${at(60 * 24 * 3)}, ${new Date(now + 86_400_000 * 30)},
        ${new Date(now + 86_400_000 * 31)},
        ${status === "RESOLVED" ? outcomes[0].id : null},
        ${status === "RESOLVED" ? at(5) : null},
        ${status === "RESOLVED" || status === "CANCELLED" ? at(4) : null},
        ${status === "RESOLVED" ? "oracle" : null}, ${status === "RESOLVED" ? "https://example.org/source" : null}, null,
        0.02, 1, 12345.678901, ${`https://img.example/${slug}.png`},
        'https://video.example/v.mp4', 'https://video.example/poster.jpg', 'https://video.example/source', 'example', 'READY',
        ${options.external ? "venue" : null}, ${options.external ? `ext-${token}` : null},
        ${["crypto", token]}, 42, true, false, ${users[0].id},
        ${sql.json({ symbol: "BTC", strike_price: 100000 })}, ${options.external ? sql.json({ venue_url: "https://venue.example" }) : null},
        ${at(60 * 24 * 3)}, ${at(1)})`;
    for (const [index, o] of outcomes.entries()) {
      await tx`
        INSERT INTO outcomes (id, market_id, name, side, index, probability, color, question_id, condition_id, position_id, payout_wei)
        VALUES (${o.id}, ${id}, ${o.name}, ${o.side}, ${index}, ${o.probability}, ${index === 0 ? "#16a34a" : "#dc2626"},
                ${`0xq${token}`}, ${`0xc${token}${index}`}, ${`${1000 + index}`},
                ${status === "RESOLVED" ? (index === 0 ? "1000000000000000000" : "0") : null})`;
    }
    const parent = randomUUID();
    await tx`INSERT INTO comments (id, market_id, user_id, content, parent_id, likes_count, created_at) VALUES
      (${parent}, ${id}, ${users[1].id}, 'First!', null, 3, ${at(30)}),
      (${randomUUID()}, ${id}, ${users[2].id}, 'A reply', ${parent}, 0, ${at(20)}),
      (${randomUUID()}, ${id}, ${users[0].id}, 'Another thought', null, 1, ${at(10)})`;
    const yes = outcomes[0].id;
    const order = (user: string, side: "BUY" | "SELL", price: string, shares: string) =>
      tx`INSERT INTO orders (id, market_id, outcome_id, user_id, side, type, price, shares, status, created_at)
         VALUES (${randomUUID()}, ${id}, ${yes}, ${user}, ${side}, 'LIMIT', ${price}, ${shares}, 'OPEN', ${at(15)})`;
    await order(users[1].id, "BUY", "0.550", "100.00");
    await order(users[2].id, "BUY", "0.540", "50.25");
    await order(users[1].id, "SELL", "0.600", "80.00");
    const trade = (price: string, shares: string, maker: string, taker: string, minutesAgo: number) =>
      tx`INSERT INTO trades (id, market_id, outcome_id, price, shares, maker_user_id, taker_user_id, executed_at)
         VALUES (${randomUUID()}, ${id}, ${yes}, ${price}, ${shares}, ${maker}, ${taker}, ${at(minutesAgo)})`;
    await trade("0.550", "10", users[1].id, users[2].id, 50);
    await trade("0.570", "20.5", users[2].id, users[0].id, 40);
    await trade("0.560", "7.25", users[0].id, users[1].id, 35);
    if (options.external) {
      await tx`INSERT INTO external_books (outcome_id, bids, asks, updated_at) VALUES (
        ${yes}, ${sql.json([{ price: "0.61", shares: "120.5" }, { price: "0.6", shares: "10" }])},
        ${sql.json([{ price: "0.63", shares: "40" }])}, now())`;
    }
    await tx`SELECT refresh_market_derived(${[id]}::uuid[])`;
  });
  return { id, status, slug, token, outcomes: outcomes.map(({ probability: _, ...o }) => o), users };
}
