// The one factory of test markets: rows written straight to the test database, so each test knows its
// data exactly and never disturbs the demo data or another test's rows. `makeMarket` writes a bare
// market (users, outcomes), `addOrders`/`addOrder`/`addTrades` add activity, `makeFullMarket` a market
// with every field, comments, a book and trades.
import { randomUUID } from "node:crypto";
import type postgres from "postgres";

type Sql = postgres.Sql | postgres.TransactionSql;
export type TestStatus = "PENDING" | "ACTIVE" | "LOCKED" | "RESOLVED" | "CANCELLED";

export interface TestMarket {
  id: string;
  slug: string;
  status: TestStatus;
  /** Outcome ids in index order. */
  outcomes: string[];
  /** The first two outcomes (Yes and No of a binary market). */
  yes: string;
  no: string;
  /** User ids; the first is the creator when `creator` was asked for. */
  users: string[];
}

export interface MarketOptions {
  prefix?: string;
  slug?: string;
  /** LOCKED by default: lists never return LOCKED markets, so tests that write cannot disturb list totals. */
  status?: TestStatus;
  /** 2 (default) makes a BINARY Yes/No market, more a MULTI one. */
  outcomes?: number;
  /** Per outcome, in percent; defaults follow the status (resolved 100/0, cancelled an even split). */
  probability?: Array<number | string>;
  category?: string;
  subCategory?: string;
  question?: string;
  description?: string;
  externalSource?: string | null;
  totalVolume?: string;
  createdAt?: Date;
  startsAt?: Date;
  endsAt?: Date;
  /** How many users to make (default 2), or the users themselves. */
  users?: number | Array<{ username: string; profile_image_url: string | null }>;
  /** Sets creator_id to the first user. */
  creator?: boolean;
  /** Further market columns, as stored; they win over the defaults. */
  columns?: Record<string, unknown>;
  /** Further columns of outcome `index`. */
  outcomeColumns?: (index: number) => Record<string, unknown>;
}

let counter = 0;
export const uniqueSlug = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${process.pid}-${++counter}`;

export async function makeUsers(sql: Sql, users: number | Array<{ username: string; profile_image_url: string | null }>): Promise<string[]> {
  const list =
    typeof users === "number"
      ? Array.from({ length: users }, (_, i) => ({ username: `${uniqueSlug("user")}-${i}`.slice(0, 64), profile_image_url: `/avatars/${i % 8}.svg` }))
      : users;
  const rows = list.map((u) => ({ id: randomUUID(), ...u }));
  if (rows.length) await sql`INSERT INTO users ${sql(rows)}`;
  return rows.map((r) => r.id);
}

const WEI = 10n ** 18n;

export async function makeMarket(sql: postgres.Sql, opts: MarketOptions = {}): Promise<TestMarket> {
  const id = randomUUID();
  const slug = opts.slug ?? uniqueSlug(opts.prefix ?? "t");
  const status = opts.status ?? "LOCKED";
  const n = opts.outcomes ?? 2;
  const outcomes = Array.from({ length: n }, () => randomUUID());
  const resolved = status === "RESOLVED";
  const settled = resolved || status === "CANCELLED";
  const evenSplit = Number((100 / n).toFixed(2));
  const probability =
    opts.probability ?? outcomes.map((_, i) => (resolved ? (i === 0 ? 100 : 0) : status === "CANCELLED" ? evenSplit : n === 2 ? [61.27, 38.73][i] : evenSplit));
  const payout = (i: number) => (resolved ? String(i === 0 ? WEI : 0n) : status === "CANCELLED" ? String(WEI / BigInt(n)) : null);
  const now = new Date();
  let users: string[] = [];
  await sql.begin(async (tx) => {
    users = await makeUsers(tx, opts.users ?? 2);
    const market = {
      id,
      slug,
      question: opts.question ?? `Will test ${slug} pass?`,
      description: opts.description ?? "A market made by a test.",
      category: opts.category ?? "OTHER",
      sub_category: opts.subCategory ?? "Tests",
      type: n === 2 ? "BINARY" : "MULTI",
      status,
      trading_starts_at: opts.startsAt ?? new Date(now.getTime() - 86400e3),
      trading_ends_at: opts.endsAt ?? new Date(now.getTime() + 86400e3 * 30),
      winning_outcome_id: resolved ? outcomes[0] : null,
      resolved_at: resolved ? now : null,
      settled_at: settled ? now : null,
      platform_fee: 0.02,
      spread: 1,
      total_volume: opts.totalVolume ?? "0",
      image_url: "/market-images/other-1.svg",
      external_source: opts.externalSource ?? null,
      creator_id: opts.creator ? users[0] : null,
      created_at: opts.createdAt ?? now,
      updated_at: now,
      ...opts.columns,
    };
    await tx`INSERT INTO markets ${tx(market)}`;
    const rows = outcomes.map((oid, i) => ({
      id: oid,
      market_id: id,
      name: n === 2 ? ["Yes", "No"][i] : `Option ${i + 1}`,
      side: n === 2 && i === 1 ? "NO" : "YES",
      index: i,
      probability: probability[i],
      payout_wei: payout(i),
      ...opts.outcomeColumns?.(i),
    }));
    await tx`INSERT INTO outcomes ${tx(rows)}`;
  });
  return { id, slug, status, outcomes, yes: outcomes[0], no: outcomes[1], users };
}

export interface OrderSpec {
  /** Outcome id; the first outcome by default. */
  outcome?: string;
  user?: string;
  side?: "BUY" | "SELL";
  price?: string;
  shares?: string;
  filled?: string;
  type?: "LIMIT" | "MARKET";
  status?: string;
}

function orderRow(m: TestMarket, o: OrderSpec) {
  const filled = o.filled ?? "0";
  return {
    id: randomUUID(),
    market_id: m.id,
    outcome_id: o.outcome ?? m.yes,
    user_id: o.user ?? m.users[0],
    side: o.side ?? "BUY",
    type: o.type ?? "LIMIT",
    price: o.price ?? "0.450",
    shares: o.shares ?? "10.00",
    filled_shares: filled,
    status: o.status ?? (Number(filled) > 0 ? "PARTIALLY_FILLED" : "OPEN"),
    created_at: new Date(),
  };
}

/** Orders in one statement, then the market's derived columns (liquidity) brought up to date. */
export async function addOrders(sql: Sql, m: TestMarket, orders: OrderSpec[]): Promise<string[]> {
  const rows = orders.map((o) => orderRow(m, o));
  await sql`INSERT INTO orders ${sql(rows)}`;
  await sql`SELECT refresh_market_derived(${[m.id]}::uuid[])`;
  return rows.map((r) => r.id);
}

/** One order in one statement and nothing else, as a writer would: push tests count the signals it causes. */
export async function addOrder(sql: Sql, m: TestMarket, order: OrderSpec = {}): Promise<string> {
  const row = orderRow(m, order);
  await sql`INSERT INTO orders ${sql(row)}`;
  return row.id;
}

export interface TradeSpec {
  at?: Date;
  price?: string;
  shares?: string;
  /** Outcome id; the first outcome by default. */
  outcome?: string;
  maker?: string | null;
  taker?: string | null;
  id?: string;
}

/** Trades in statements of 2,000 rows (one statement for up to 2,000). */
export async function addTrades(sql: Sql, m: TestMarket, trades: TradeSpec[]): Promise<string[]> {
  const rows = trades.map((t) => ({
    id: t.id ?? randomUUID(),
    market_id: m.id,
    outcome_id: t.outcome ?? m.yes,
    price: t.price ?? "0.550",
    shares: t.shares ?? "1",
    maker_user_id: t.maker === undefined ? m.users[0] : t.maker,
    taker_user_id: t.taker === undefined ? (m.users[1] ?? m.users[0]) : t.taker,
    executed_at: t.at ?? new Date(),
  }));
  for (let i = 0; i < rows.length; i += 2000) await sql`INSERT INTO trades ${sql(rows.slice(i, i + 2000))}`;
  return rows.map((r) => r.id);
}

/** Trades and the volume they add to their market, in one transaction, as the simulator and imports record them. */
export async function addTradesWithVolume(sql: postgres.Sql, m: TestMarket, trades: TradeSpec[]): Promise<string[]> {
  return sql.begin(async (tx) => {
    const ids = await addTrades(tx, m, trades);
    await tx`UPDATE markets SET total_volume = total_volume + (SELECT sum(price * shares) FROM trades WHERE id = ANY(${ids}::uuid[])) WHERE id = ${m.id}`;
    return ids;
  });
}

export interface FullMarket extends TestMarket {
  /** A word found only in this market's question: `?q=<token>` lists it alone. */
  token: string;
}

/**
 * A market with every field set, three users (the second without an image), three comments (one a
 * reply), resting orders and trades on its first outcome and, when `external`, the venue's book.
 */
export async function makeFullMarket(
  sql: postgres.Sql,
  options: { status?: "ACTIVE" | "RESOLVED" | "CANCELLED" | "LOCKED"; external?: boolean } = {},
): Promise<FullMarket> {
  const status = options.status ?? "ACTIVE";
  const resolved = status === "RESOLVED";
  const token = `tok${randomUUID().replace(/-/g, "").slice(0, 12)}`;
  const slug = `test-${token}`;
  const now = Date.now();
  const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000);
  const m = await makeMarket(sql, {
    slug,
    status,
    question: `Will ${token} close above 100k?`,
    description: "A market inserted by an API test.",
    category: "CRYPTO",
    subCategory: "Bitcoin",
    startsAt: at(60 * 24 * 3),
    endsAt: new Date(now + 86_400_000 * 30),
    createdAt: at(60 * 24 * 3),
    probability: resolved ? ["100.00", "0.00"] : ["63.45", "36.55"],
    users: [0, 1, 2].map((i) => ({ username: `${token}-user${i}`, profile_image_url: i === 1 ? null : `https://img.example/${token}-user${i}.png` })),
    creator: true,
    columns: {
      updated_at: at(1),
      resolution_date: new Date(now + 86_400_000 * 31),
      resolved_at: resolved ? at(5) : null,
      settled_at: resolved || status === "CANCELLED" ? at(4) : null,
      resolved_by: resolved ? "oracle" : null,
      resolution_source: resolved ? "https://example.org/source" : null,
      total_volume: 12345.678901,
      image_url: `https://img.example/${slug}.png`,
      video_url: "https://video.example/v.mp4",
      video_poster_url: "https://video.example/poster.jpg",
      video_source_url: "https://video.example/source",
      video_provider: "example",
      video_status: "READY",
      external_source: options.external ? "venue" : null,
      external_market_id: options.external ? `ext-${token}` : null,
      tags: ["crypto", token],
      views: 42,
      verified: true,
      featured: false,
      price_market: sql.json({ symbol: "BTC", strike_price: 100000 }),
      predict_market: options.external ? sql.json({ venue_url: "https://venue.example" }) : null,
    },
    outcomeColumns: (index) => ({
      color: index === 0 ? "#16a34a" : "#dc2626",
      question_id: `0xq${token}`,
      condition_id: `0xc${token}${index}`,
      position_id: `${1000 + index}`,
      payout_wei: resolved ? (index === 0 ? "1000000000000000000" : "0") : null,
    }),
  });
  const [u0, u1, u2] = m.users;
  const parent = randomUUID();
  await sql`INSERT INTO comments (id, market_id, user_id, content, parent_id, likes_count, created_at) VALUES
    (${parent}, ${m.id}, ${u1}, 'First!', null, 3, ${at(30)}),
    (${randomUUID()}, ${m.id}, ${u2}, 'A reply', ${parent}, 0, ${at(20)}),
    (${randomUUID()}, ${m.id}, ${u0}, 'Another thought', null, 1, ${at(10)})`;
  const order = (user: string, side: "BUY" | "SELL", price: string, shares: string) => ({ user, side, price, shares });
  await addOrders(sql, m, [order(u1, "BUY", "0.550", "100.00"), order(u2, "BUY", "0.540", "50.25"), order(u1, "SELL", "0.600", "80.00")]);
  await addTrades(sql, m, [
    { price: "0.550", shares: "10", maker: u1, taker: u2, at: at(50) },
    { price: "0.570", shares: "20.5", maker: u2, taker: u0, at: at(40) },
    { price: "0.560", shares: "7.25", maker: u0, taker: u1, at: at(35) },
  ]);
  if (options.external) {
    await sql`INSERT INTO external_books (outcome_id, bids, asks, updated_at) VALUES (
      ${m.yes}, ${sql.json([
        { price: "0.61", shares: "120.5" },
        { price: "0.6", shares: "10" },
      ])},
      ${sql.json([{ price: "0.63", shares: "40" }])}, now())`;
  }
  await sql`SELECT refresh_market_derived(${[m.id]}::uuid[])`;
  return { ...m, token };
}

/**
 * The market's position in the markets feed, once the server's applier has moved it there (migration
 * 0022, every MARKETS_FEED_APPLY_MS): the position of its last market-level change in the log.
 */
export async function feedPosition(sql: postgres.Sql, marketId: string, timeoutMs = 10_000): Promise<number> {
  const [{ last }] = await sql<{ last: number | null }[]>`
    SELECT max(position)::float8 AS last FROM change_log
     WHERE event->>'m' = ${marketId} AND event->>'k' IN ('list', 'price', 'detail', 'market')`;
  const until = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await sql<{ p: number }[]>`SELECT position::float8 AS p FROM market_positions WHERE market_id = ${marketId}`;
    if (row && (last === null || row.p >= last)) return row.p;
    if (Date.now() > until) throw new Error(`market ${marketId} not in the feed at ${last} after ${timeoutMs} ms (it is at ${row?.p})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
