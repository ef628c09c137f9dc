// Every read of the public API, one function per query, each taking one params object.
// Server side only: route handlers and server components call these directly.
import type postgres from "postgres";
import { readDb } from "@/lib/db/client";
import { badQuery, notFound } from "@/lib/api/errors";
import { buildNativeBook, formatExternalBook } from "./order-book";
import { bucketTrades, historyWindow } from "./price-history";
import {
  HISTORY_DEFAULT_WINDOW_S,
  HISTORY_TRADE_CAP,
  isUuid,
  type MarketDetail,
  type MarketListQuery,
  type MarketListResponse,
  type OrderBook,
  type PriceHistory,
  type PriceHistoryQuery,
} from "./schemas";
import { commentFromRow, marketDetailFromRow, marketListItemFromRow, outcomeFromRow, type Row } from "./serialize";

const SLUG_RE = /^[a-z0-9-]{1,200}$/;
const MAX_TS = 100_000_000_000; // year 5138: keeps to_timestamp() in range for any integer a client sends
const MAX_OFFSET = 2 ** 53;

const MARKET_COLUMNS = [
  "id", "slug", "question", "description", "category", "sub_category", "type", "status",
  "trading_starts_at", "trading_ends_at", "resolution_date", "winning_outcome_id", "resolved_at", "settled_at",
  "resolved_by", "resolution_source", "resolution_note", "platform_fee", "spread", "total_volume", "image_url",
  "video_url", "video_poster_url", "video_source_url", "video_provider", "video_status", "external_source",
  "tags", "views", "verified", "featured", "created_at", "updated_at", "comments_count",
] as const;
const DETAIL_COLUMNS = [...MARKET_COLUMNS, "total_liquidity", "external_market_id", "price_market", "predict_market", "creator_id"] as const;

/** ORDER BY expressions by sortBy (decisions.md); never interpolated from input. */
const SORT_COLUMNS = {
  VOLUME: "m.total_volume",
  LIQUIDITY: "m.total_liquidity",
  CREATED: "m.created_at",
  ENDING: "m.trading_ends_at",
} as const;

/**
 * TRENDING, exact at this moment: the stored rolling volume (migration 0003) less what aged out
 * since the last sweep. Aging only lowers a value, so the page is among the first offset+limit
 * markets by stored volume plus one per market that aged, or (ascending) the first offset+limit
 * plus the markets that aged: a short index scan instead of a day of trades per request.
 * One snapshot for both steps, so that a sweep in between cannot subtract twice.
 */
async function listTrending(where: postgres.Fragment, dir: postgres.Fragment, limit: number, offset: number) {
  return (await readDb()).begin("ISOLATION LEVEL REPEATABLE READ READ ONLY", async (tx) => {
    // At most a sweep interval's worth of trades (a minute), from trades_time_idx.
    const aged = await tx<{ market_id: string; v: string }[]>`
      SELECT market_id, sum(price * shares)::text AS v FROM trades
       WHERE executed_at > (SELECT swept_at FROM trending_watermark) - interval '24 hours'
         AND executed_at <= now() - interval '24 hours'
       GROUP BY market_id`;
    const ids = aged.map((a) => a.market_id);
    return tx`
      WITH aged AS (SELECT * FROM unnest(${ids}::uuid[], ${aged.map((a) => a.v)}::numeric[]) AS a (market_id, v)),
      candidates AS (
        (SELECT m.id FROM markets m WHERE ${where}
          ORDER BY m.volume_24h ${dir}, m.id ${dir}
          LIMIT ${limit + offset + ids.length}::bigint)
        UNION
        SELECT m.id FROM markets m WHERE m.id = ANY(${ids}::uuid[]) AND ${where}
      )
      SELECT ${tx(MARKET_COLUMNS.map((c) => `m.${c}`))}
        FROM markets m LEFT JOIN aged a ON a.market_id = m.id
       WHERE m.id IN (SELECT id FROM candidates)
       ORDER BY m.volume_24h - coalesce(a.v, 0) ${dir}, m.id ${dir}
       LIMIT ${limit} OFFSET ${offset}`;
  });
}

/** ILIKE pattern for a case-insensitive substring match, with the wildcards of the input escaped. */
export function substringPattern(q: string) {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const stripNul = (s: string) => s.replace(/\u0000/g, "");

async function outcomesByMarket(marketIds: string[]) {
  const sql = await readDb();
  const rows = marketIds.length
    ? await sql`SELECT * FROM outcomes WHERE market_id = ANY(${marketIds}::uuid[]) ORDER BY market_id, index`
    : [];
  const byMarket = new Map<string, ReturnType<typeof outcomeFromRow>[]>();
  for (const r of rows) {
    const list = byMarket.get(r.market_id) ?? [];
    list.push(outcomeFromRow(r));
    byMarket.set(r.market_id, list);
  }
  return byMarket;
}

export async function listMarkets(query: MarketListQuery): Promise<MarketListResponse> {
  const sql = await readDb();
  const { status, category, subCategory, q, sortBy, sortOrder, limit, offset } = query;
  const where = sql`
    m.status = ${status}
    ${category ? sql`AND m.category = ${category}` : sql``}
    ${subCategory !== undefined ? sql`AND m.sub_category = ${stripNul(subCategory)}` : sql``}
    ${q ? sql`AND (m.question ILIKE ${substringPattern(stripNul(q))} OR m.description ILIKE ${substringPattern(stripNul(q))})` : sql``}`;
  const dir = sql.unsafe(sortOrder === "ASC" ? "ASC" : "DESC");
  const skip = Math.min(offset, MAX_OFFSET);
  const [rows, [{ total }]] = await Promise.all([
    sortBy === "TRENDING"
      ? listTrending(where, dir, limit, skip)
      : sql`SELECT ${sql(MARKET_COLUMNS.map((c) => `m.${c}`))} FROM markets m
            WHERE ${where}
            ORDER BY ${sql.unsafe(SORT_COLUMNS[sortBy])} ${dir}, m.id ${dir}
            LIMIT ${limit} OFFSET ${skip}`,
    sql<{ total: number }[]>`SELECT count(*)::int AS total FROM markets m WHERE ${where}`,
  ]);
  const outcomes = await outcomesByMarket(rows.map((r) => r.id));
  return { markets: rows.map((r) => marketListItemFromRow(r, outcomes.get(r.id) ?? [])), total, limit, offset };
}

export type MarketKey = { id: string } | { slug: string };

const describeKey = (key: MarketKey) => ("id" in key ? key.id : key.slug);

function validKey(key: MarketKey) {
  return "id" in key ? isUuid(key.id) : SLUG_RE.test(key.slug);
}

/** Whether a market has this slug: one index probe, for the market page's 404 before it streams. */
export async function marketSlugExists(slug: string): Promise<boolean> {
  if (!SLUG_RE.test(slug)) return false;
  const [row] = await (await readDb())`SELECT 1 AS one FROM markets WHERE slug = ${slug}`;
  return Boolean(row);
}

export async function getMarket(key: MarketKey): Promise<MarketDetail> {
  const sql = await readDb();
  if (!validKey(key)) throw notFound(`Market not found: ${describeKey(key)}`);
  const [m] = await sql`
    SELECT ${sql([...DETAIL_COLUMNS])} FROM markets
    WHERE ${"id" in key ? sql`id = ${key.id}::uuid` : sql`slug = ${key.slug}`}`;
  if (!m) throw notFound(`Market not found: ${describeKey(key)}`);
  const [outcomes, comments, topTraders, [creator]] = await Promise.all([
    outcomesByMarket([m.id]),
    sql`
      SELECT c.id, c.user_id, c.content, c.parent_id, c.likes_count, c.created_at, u.username, u.profile_image_url,
             (SELECT count(*)::int FROM comments r WHERE r.parent_id = c.id) AS reply_count
      FROM comments c JOIN users u ON u.id = c.user_id
      WHERE c.market_id = ${m.id}
      ORDER BY c.created_at DESC, c.id DESC
      LIMIT 50`,
    // A trade counts once per user even when the user is both maker and taker (UNION dedups).
    sql`
      SELECT u.username, u.profile_image_url, round(sum(x.v), 6)::text AS volume
      FROM (
        SELECT id, maker_user_id AS user_id, price * shares AS v FROM trades WHERE market_id = ${m.id}
        UNION
        SELECT id, taker_user_id, price * shares FROM trades WHERE market_id = ${m.id}
      ) x JOIN users u ON u.id = x.user_id
      GROUP BY u.id
      ORDER BY sum(x.v) DESC, u.username
      LIMIT 10`,
    m.creator_id ? sql`SELECT id, username, profile_image_url FROM users WHERE id = ${m.creator_id}` : Promise.resolve([]),
  ]);
  return marketDetailFromRow(m, {
    outcomes: outcomes.get(m.id) ?? [],
    comments: comments.map(commentFromRow),
    topTraders: topTraders as Row[],
    creator: (creator as Row) ?? null,
  });
}

/**
 * The market and outcome a book or history request names, checked in the order of the spec's errors:
 * unknown market → 404, unknown or malformed outcome → 404, outcome of another market → 400.
 */
async function resolveOutcome(key: MarketKey, outcomeId: string) {
  const sql = await readDb();
  if (!validKey(key)) throw notFound(`Market not found: ${describeKey(key)}`);
  const outcomeKey = isUuid(outcomeId) ? outcomeId : null;
  const [row] = await sql`
    SELECT m.id AS market_id, m.external_source, o.id AS outcome_id, o.market_id AS outcome_market_id, o.name, o.side
    FROM markets m LEFT JOIN outcomes o ON o.id = ${outcomeKey}::uuid
    WHERE ${"id" in key ? sql`m.id = ${key.id}::uuid` : sql`m.slug = ${key.slug}`}`;
  if (!row) throw notFound(`Market not found: ${describeKey(key)}`);
  if (!row.outcome_id) throw notFound("Outcome not found");
  if (row.outcome_market_id !== row.market_id) throw badQuery("Outcome does not belong to this market");
  return row as { market_id: string; external_source: string | null; outcome_id: string; name: string; side: string };
}

export async function getOrderBook(params: MarketKey & { outcomeId: string }): Promise<OrderBook> {
  const sql = await readDb();
  const o = await resolveOutcome(params, params.outcomeId);
  const head = { outcome_id: o.outcome_id, outcome_side: `${o.name} - ${o.side}` };
  if (o.external_source) {
    const [book] = await sql`SELECT bids, asks FROM external_books WHERE outcome_id = ${o.outcome_id}`;
    return { ...head, ...(book ? formatExternalBook(book.bids, book.asks) : { bids: [], asks: [] }) };
  }
  const levels = await sql<{ side: "BUY" | "SELL"; price: string; remaining: string }[]>`
    SELECT side, price::text AS price, sum(shares - filled_shares)::text AS remaining
    FROM orders
    WHERE outcome_id = ${o.outcome_id} AND type = 'LIMIT' AND status IN ('OPEN', 'PARTIALLY_FILLED')
    GROUP BY side, price`;
  return { ...head, ...buildNativeBook(levels) };
}

// The default end is the current instant, not the current whole second: a trade committed a few ms
// ago (announced by a push signal) must already be in the answer.
export async function getPriceHistory(params: MarketKey & PriceHistoryQuery, nowS = Date.now() / 1000): Promise<PriceHistory> {
  const sql = await readDb();
  const o = await resolveOutcome(params, params.outcomeId);
  const { startTs, endTs } = historyWindow(params, nowS, HISTORY_DEFAULT_WINDOW_S);
  if (startTs > endTs) return { history: [] };
  const trades = await sql<{ id: string; ts: number; price: number }[]>`
    SELECT id, extract(epoch FROM executed_at)::float8 AS ts, price::float8 AS price
    FROM trades
    WHERE outcome_id = ${o.outcome_id}
      AND executed_at >= to_timestamp(${Math.min(startTs, MAX_TS)})
      AND executed_at <= to_timestamp(${Math.min(endTs, MAX_TS)})
    ORDER BY executed_at DESC, id DESC
    LIMIT ${HISTORY_TRADE_CAP}`;
  return { history: bucketTrades(trades.map((t) => ({ id: t.id, executedAt: t.ts, price: t.price })), params.fidelity) };
}

/** Distinct sub-categories with their market counts, for the list's sub-category choice. */
export async function listSubCategories(params: { status: string; category?: string }) {
  const sql = await readDb();
  return sql<{ sub_category: string; count: number }[]>`
    SELECT sub_category, count(*)::int AS count FROM markets
    WHERE status = ${params.status} ${params.category ? sql`AND category = ${params.category}` : sql``}
      AND sub_category <> ''
    GROUP BY sub_category ORDER BY count(*) DESC, sub_category`;
}

/** When the next trade turns 24 h old and so changes a TRENDING order (unix ms), or null if none will. */
export async function nextTrendingChange(): Promise<number | null> {
  const sql = await readDb();
  const [row] = await sql<{ at: number | null }[]>`
    SELECT (extract(epoch FROM min(executed_at) + interval '24 hours') * 1000)::float8 AS at
      FROM trades WHERE executed_at > now() - interval '24 hours'`;
  return row?.at ?? null;
}
