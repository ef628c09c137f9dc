// Builds markets for API tests straight in the test database, so each test knows its data exactly
// and never disturbs the demo data or another test's rows.
import { randomUUID } from "node:crypto";
import type postgres from "postgres";

type Sql = postgres.Sql;

export interface Made {
  marketId: string;
  slug: string;
  yes: string;
  no: string;
  users: string[];
}

let counter = 0;
export const uniqueSlug = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${process.pid}-${++counter}`;

export async function makeUsers(sql: Sql, n: number): Promise<string[]> {
  const ids = Array.from({ length: n }, () => randomUUID());
  const rows = ids.map((id, i) => ({ id, username: `${uniqueSlug("user")}-${i}`.slice(0, 64), profile_image_url: `/avatars/${i % 8}.svg` }));
  await sql`INSERT INTO users ${sql(rows)}`;
  return ids;
}

export async function makeMarket(
  sql: Sql,
  opts: {
    prefix?: string;
    status?: "PENDING" | "ACTIVE" | "LOCKED" | "RESOLVED" | "CANCELLED";
    category?: string;
    subCategory?: string;
    question?: string;
    description?: string;
    externalSource?: string | null;
    totalVolume?: string;
    createdAt?: Date;
    endsAt?: Date;
    users?: number;
  } = {},
): Promise<Made> {
  const marketId = randomUUID();
  const yes = randomUUID();
  const no = randomUUID();
  const slug = uniqueSlug(opts.prefix ?? "t");
  // LOCKED by default: lists never return LOCKED markets, so tests that write cannot disturb list totals.
  const status = opts.status ?? "LOCKED";
  const now = new Date();
  await sql.begin(async (tx) => {
    await tx`
      INSERT INTO markets (id, slug, question, description, category, sub_category, type, status,
        trading_starts_at, trading_ends_at, winning_outcome_id, resolved_at, settled_at, platform_fee, spread,
        total_volume, image_url, external_source, created_at, updated_at)
      VALUES (${marketId}, ${slug}, ${opts.question ?? `Will test ${slug} pass?`}, ${opts.description ?? "A market made by a test."},
        ${opts.category ?? "OTHER"}, ${opts.subCategory ?? "Tests"}, 'BINARY', ${status},
        ${new Date(now.getTime() - 86400e3)}, ${opts.endsAt ?? new Date(now.getTime() + 86400e3 * 30)},
        ${status === "RESOLVED" ? yes : null}, ${status === "RESOLVED" ? now : null},
        ${status === "RESOLVED" || status === "CANCELLED" ? now : null},
        0.02, 1, ${opts.totalVolume ?? "0"}, '/market-images/other-1.svg', ${opts.externalSource ?? null},
        ${opts.createdAt ?? now}, ${now})`;
    const settled = status === "RESOLVED" || status === "CANCELLED";
    await tx`
      INSERT INTO outcomes (id, market_id, name, side, index, probability, payout_wei) VALUES
        (${yes}, ${marketId}, 'Yes', 'YES', 0, ${status === "RESOLVED" ? 100 : status === "CANCELLED" ? 50 : 61.27},
         ${status === "RESOLVED" ? "1000000000000000000" : status === "CANCELLED" ? "500000000000000000" : null}),
        (${no}, ${marketId}, 'No', 'NO', 1, ${status === "RESOLVED" ? 0 : status === "CANCELLED" ? 50 : 38.73},
         ${status === "RESOLVED" ? "0" : status === "CANCELLED" ? "500000000000000000" : null})`;
    void settled;
  });
  const users = await makeUsers(sql, opts.users ?? 2);
  return { marketId, slug, yes, no, users };
}

export async function addOrders(
  sql: Sql,
  m: Made,
  orders: Array<{ outcome?: string; side: "BUY" | "SELL"; price: string; shares: string; filled?: string; type?: "LIMIT" | "MARKET"; status?: string }>,
) {
  const rows = orders.map((o) => {
    const filled = o.filled ?? "0";
    return {
      id: randomUUID(),
      market_id: m.marketId,
      outcome_id: o.outcome ?? m.yes,
      user_id: m.users[0],
      side: o.side,
      type: o.type ?? "LIMIT",
      price: o.price,
      shares: o.shares,
      filled_shares: filled,
      status: o.status ?? (Number(filled) > 0 ? "PARTIALLY_FILLED" : "OPEN"),
      created_at: new Date(),
    };
  });
  await sql`INSERT INTO orders ${sql(rows)}`;
  await sql`SELECT refresh_market_derived(${[m.marketId]}::uuid[])`;
}

export async function addTrades(
  sql: Sql,
  m: Made,
  trades: Array<{ at: Date; price: string; shares?: string; outcome?: string; maker?: string | null; taker?: string | null; id?: string }>,
) {
  const rows = trades.map((t) => ({
    id: t.id ?? randomUUID(),
    market_id: m.marketId,
    outcome_id: t.outcome ?? m.yes,
    price: t.price,
    shares: t.shares ?? "1",
    maker_user_id: t.maker === undefined ? m.users[0] : t.maker,
    taker_user_id: t.taker === undefined ? m.users[1] : t.taker,
    executed_at: t.at,
  }));
  for (let i = 0; i < rows.length; i += 2000) await sql`INSERT INTO trades ${sql(rows.slice(i, i + 2000))}`;
}
