// Every read of the public API, one function per query, each taking one params object and
// returning typed rows (lib/markets/rows.ts). Server side only: route handlers and server
// components call these directly. "No such market" is null or a domain error (./errors).
import "server-only";
import type postgres from "postgres";
import { readDb } from "@/lib/db/client";
import { SLUG_RE } from "./constants";
import { MarketNotFound, OutcomeMismatch, OutcomeNotFound } from "./errors";
import { buildNativeBook, formatExternalBook } from "./order-book";
import { bucketTrades, historyWindow } from "./price-history";
import {
  MARKET_COLUMNS,
  MARKET_DETAIL_COLUMNS,
  OUTCOME_COLUMNS,
  type CommentRow,
  type MarketDetailRow,
  type MarketRow,
  type OutcomeRow,
  type SubCategories,
  type TopTraderRow,
  type UserRefRow,
} from "./rows";
import {
  HISTORY_DEFAULT_WINDOW_S,
  HISTORY_TRADE_CAP,
  isUuid,
  type Category,
  type ListStatus,
  type MarketDetail,
  type MarketListQuery,
  type MarketListResponse,
  type OrderBook,
  type Outcome,
  type PriceHistory,
  type PriceHistoryQuery,
  type SortBy,
  type SortOrder,
} from "./schemas";
import { commentFromRow, marketDetailFromRow, marketListItemFromRow, outcomeFromRow } from "./serialize";

type Sql = postgres.Sql;
type Fragment = postgres.Fragment;

const MAX_TS = 100_000_000_000; // year 5138: keeps to_timestamp() in range for any integer a client sends
const MAX_OFFSET = 2 ** 53;

/**
 * The stored column each sortBy orders by (docs/api.md, "Sorting"), never interpolated from input. Each has a
 * (status, column, id) and a (status, category, column, id) index. TRENDING's stored value is the
 * rolling volume as of the last sweep (migration 0003); listTrending corrects it to this moment.
 */
const SORT_KEYS = {
  VOLUME: "total_volume",
  LIQUIDITY: "total_liquidity",
  CREATED: "created_at",
  ENDING: "trading_ends_at",
  TRENDING: "volume_24h",
} as const satisfies Record<SortBy, string>;

/**
 * A search first walks the sort index and filters, stopping after the page: for common words the
 * page is among the first rows. It gives up after this many rows (a rare word, or a page too deep to
 * reach that way) and collects every match instead, through the trigram indexes.
 */
const SEARCH_WALK_ROWS = 2_000;

/** ILIKE pattern for a case-insensitive substring match, with the wildcards of the input escaped. */
export function substringPattern(q: string) {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const stripNul = (s: string) => s.replace(/\u0000/g, "");

/** The list's filters as the SQL sees them: NULs stripped (PostgreSQL text cannot hold them), q as a pattern. */
interface ListFilter {
  status: ListStatus;
  category?: Category;
  subCategory?: string;
  /** ILIKE pattern over question or description; absent: no search. */
  pattern?: string;
}

function listFilter(query: MarketListQuery): ListFilter {
  return {
    status: query.status,
    category: query.category,
    subCategory: query.subCategory === undefined ? undefined : stripNul(query.subCategory),
    pattern: query.q ? substringPattern(stripNul(query.q)) : undefined,
  };
}

/** status, category and subCategory: what market_counts counts and the sort indexes lead with. */
function filterSql(sql: Sql, f: ListFilter): Fragment {
  return sql`m.status = ${f.status}
    ${f.category ? sql`AND m.category = ${f.category}` : sql``}
    ${f.subCategory !== undefined ? sql`AND m.sub_category = ${f.subCategory}` : sql``}`;
}

const matchSql = (sql: Sql, pattern: string): Fragment => sql`(m.question ILIKE ${pattern} OR m.description ILIKE ${pattern})`;

const direction = (sql: Sql, order: SortOrder) => sql.unsafe(order === "ASC" ? "ASC" : "DESC");

/** Markets matching status, category and subCategory, from the counters of migration 0005: no rows read. */
async function countMarkets(f: ListFilter): Promise<number> {
  const sql = await readDb();
  const [{ total }] = await sql<{ total: number }[]>`
    SELECT coalesce(sum(c.n), 0)::int AS total FROM market_counts c
     WHERE c.status = ${f.status}
       ${f.category ? sql`AND c.category = ${f.category}` : sql``}
       ${f.subCategory !== undefined ? sql`AND c.sub_category = ${f.subCategory}` : sql``}`;
  return total;
}

/** Markets matching the filters and the search pattern: a count of the matching rows. */
async function countMatches(f: ListFilter & { pattern: string }): Promise<number> {
  const sql = await readDb();
  const [{ total }] = await sql<{ total: number }[]>`
    SELECT count(*)::int AS total FROM markets m WHERE ${filterSql(sql, f)} AND ${matchSql(sql, f.pattern)}`;
  return total;
}

/**
 * One page in stored sort order, as (id, k) rows, for the deferred joins below. Without a search,
 * an index-only scan of the sort index. With one, either the walk (the sort index, filtered, stopping
 * after the page, but reading at most SEARCH_WALK_ROWS rows) or every match (MATERIALIZED: the
 * planner collects them the cheapest way, the trigram indexes for a rare word, then sorts them).
 */
function storedOrderPage(sql: Sql, p: { filter: ListFilter; key: string; dir: Fragment; take: number; skip: number; plan: "walk" | "all" }): Fragment {
  const { filter, dir, take, skip } = p;
  const k = sql(`m.${p.key}`);
  if (!filter.pattern)
    return sql`SELECT m.id, ${k} AS k FROM markets m WHERE ${filterSql(sql, filter)} ORDER BY ${k} ${dir}, m.id ${dir} LIMIT ${take} OFFSET ${skip}`;
  if (p.plan === "walk")
    return sql`
      SELECT w.id, w.k FROM (
        SELECT m.id, ${k} AS k, ${matchSql(sql, filter.pattern)} AS hit FROM markets m
         WHERE ${filterSql(sql, filter)} ORDER BY ${k} ${dir}, m.id ${dir} LIMIT ${SEARCH_WALK_ROWS}
      ) w WHERE w.hit ORDER BY w.k ${dir}, w.id ${dir} LIMIT ${take} OFFSET ${skip}`;
  return sql`
    SELECT h.id, h.k FROM (
      WITH hits AS MATERIALIZED (
        SELECT m.id, ${k} AS k FROM markets m WHERE ${filterSql(sql, filter)} AND ${matchSql(sql, filter.pattern)})
      SELECT id, k FROM hits ORDER BY k ${dir}, id ${dir} LIMIT ${take} OFFSET ${skip}
    ) h`;
}

/** The walk is exact when it found the whole page, or when it read every market of the filters. */
async function walkSettles(found: number, take: number, f: ListFilter): Promise<boolean> {
  return found >= take || (await countMarkets(f)) <= SEARCH_WALK_ROWS;
}

/** VOLUME, LIQUIDITY, CREATED, ENDING: the page's ids from the sort index, then its 20 rows (a deferred join). */
async function listByStoredKey(f: ListFilter, sortBy: Exclude<SortBy, "TRENDING">, order: SortOrder, limit: number, skip: number) {
  const sql = await readDb();
  const dir = direction(sql, order);
  const page = (plan: "walk" | "all") => sql<MarketRow[]>`
    SELECT ${sql(MARKET_COLUMNS.map((c) => `m.${c}`))}
      FROM (${storedOrderPage(sql, { filter: f, key: SORT_KEYS[sortBy], dir, take: limit, skip, plan })}) p
      JOIN markets m ON m.id = p.id
     ORDER BY p.k ${dir}, p.id ${dir}`;
  if (!f.pattern || skip + limit > SEARCH_WALK_ROWS) return page("all");
  const rows = await page("walk");
  return (await walkSettles(rows.length, limit, f)) ? rows : page("all");
}

/**
 * TRENDING, exact at this moment: the stored rolling volume (migration 0003) less what aged out
 * since the last sweep. Aging only lowers a value, so the page is among the first offset+limit
 * markets by stored volume plus one per market that aged, or (ascending) the first offset+limit
 * plus the markets that aged: a short index scan instead of a day of trades per request. The order
 * comes from (id, volume_24h) alone; only the page's rows are read in full.
 * One snapshot for every step, so that a sweep in between cannot subtract twice.
 */
async function listTrending(f: ListFilter, order: SortOrder, limit: number, skip: number) {
  return (await readDb()).begin("ISOLATION LEVEL REPEATABLE READ READ ONLY", async (tx) => {
    const sql = tx as unknown as Sql;
    const dir = direction(sql, order);
    // At most a sweep interval's worth of trades (a minute), from trades_time_idx.
    const aged = await sql<{ market_id: string; v: string }[]>`
      SELECT market_id, sum(price * shares)::text AS v FROM trades
       WHERE executed_at > (SELECT swept_at FROM trending_watermark) - interval '24 hours'
         AND executed_at <= now() - interval '24 hours'
       GROUP BY market_id`;
    const ids = aged.map((a) => a.market_id);
    const take = limit + skip + ids.length;
    const page = (candidates: Fragment) => sql<MarketRow[]>`
      WITH aged AS (SELECT * FROM unnest(${ids}::uuid[], ${aged.map((a) => a.v)}::numeric[]) AS a (market_id, v)),
      candidates AS (
        (${candidates})
        UNION
        SELECT m.id, m.volume_24h AS k FROM markets m
         WHERE m.id = ANY(${ids}::uuid[]) AND ${filterSql(sql, f)} ${f.pattern ? sql`AND ${matchSql(sql, f.pattern)}` : sql``}
      ),
      page AS (
        SELECT c.id, c.k - coalesce(a.v, 0) AS k FROM candidates c LEFT JOIN aged a ON a.market_id = c.id
         ORDER BY 2 ${dir}, 1 ${dir} LIMIT ${limit} OFFSET ${skip}
      )
      SELECT ${sql(MARKET_COLUMNS.map((c) => `m.${c}`))} FROM page p JOIN markets m ON m.id = p.id
       ORDER BY p.k ${dir}, p.id ${dir}`;
    const stored = (plan: "walk" | "all") => storedOrderPage(sql, { filter: f, key: SORT_KEYS.TRENDING, dir, take, skip: 0, plan });
    if (!f.pattern || take > SEARCH_WALK_ROWS) return page(stored("all"));
    // The walk's candidates, fetched first: the page is exact only if the walk found all `take` of them.
    const walked = await sql<{ id: string; k: string }[]>`${stored("walk")}`;
    if (!(await walkSettles(walked.length, take, f))) return page(stored("all"));
    return page(sql`SELECT * FROM unnest(${walked.map((w) => w.id)}::uuid[], ${walked.map((w) => w.k)}::numeric[]) AS w (id, k)`);
  });
}

async function outcomesByMarket(marketIds: string[]): Promise<Map<string, Outcome[]>> {
  const sql = await readDb();
  const rows = marketIds.length
    ? await sql<OutcomeRow[]>`SELECT ${sql(OUTCOME_COLUMNS)} FROM outcomes WHERE market_id = ANY(${marketIds}::uuid[]) ORDER BY market_id, index`
    : [];
  const byMarket = new Map<string, Outcome[]>();
  for (const r of rows) {
    const list = byMarket.get(r.market_id) ?? [];
    list.push(outcomeFromRow(r));
    byMarket.set(r.market_id, list);
  }
  return byMarket;
}

export async function listMarkets(query: MarketListQuery): Promise<MarketListResponse> {
  const { sortBy, sortOrder, limit, offset } = query;
  const f = listFilter(query);
  const skip = Math.min(offset, MAX_OFFSET);
  const [rows, total] = await Promise.all([
    sortBy === "TRENDING" ? listTrending(f, sortOrder, limit, skip) : listByStoredKey(f, sortBy, sortOrder, limit, skip),
    f.pattern ? countMatches({ ...f, pattern: f.pattern }) : countMarkets(f),
  ]);
  const outcomes = await outcomesByMarket(rows.map((r) => r.id));
  return { markets: rows.map((r) => marketListItemFromRow(r, outcomes.get(r.id) ?? [])), total, limit, offset };
}

export type MarketKey = { id: string } | { slug: string };

const describeKey = (key: MarketKey) => ("id" in key ? key.id : key.slug);

function validKey(key: MarketKey) {
  return "id" in key ? isUuid(key.id) : SLUG_RE.test(key.slug);
}

const keySql = (sql: Sql, key: MarketKey, alias = "") =>
  "id" in key ? sql`${sql(`${alias}id`)} = ${key.id}::uuid` : sql`${sql(`${alias}slug`)} = ${key.slug}`;

/** Whether a market has this slug: one index probe, for the market page's 404 before it streams. */
export async function marketSlugExists(slug: string): Promise<boolean> {
  if (!SLUG_RE.test(slug)) return false;
  const sql = await readDb();
  const [row] = await sql<{ one: number }[]>`SELECT 1 AS one FROM markets WHERE slug = ${slug}`;
  return Boolean(row);
}

/** The 50 newest comments of a market with their authors; reply counts are maintained (migration 0005). */
async function newestComments(marketId: string) {
  const sql = await readDb();
  return sql<CommentRow[]>`
    SELECT c.id, c.user_id, c.content, c.parent_id, c.likes_count, c.reply_count, c.created_at, u.username, u.profile_image_url
      FROM comments c JOIN users u ON u.id = c.user_id
     WHERE c.market_id = ${marketId}
     ORDER BY c.created_at DESC, c.id DESC
     LIMIT 50`;
}

/**
 * The ten users with the most volume on a market, from market_traders (migration 0005), username
 * breaking ties. Every row at or above the tenth volume is read, so ties at the cut are ordered right.
 */
async function topTraders(marketId: string) {
  const sql = await readDb();
  return sql<TopTraderRow[]>`
    SELECT u.username, u.profile_image_url, round(t.volume, 6)::text AS volume
      FROM market_traders t JOIN users u ON u.id = t.user_id
     WHERE t.market_id = ${marketId} AND t.trades > 0
       AND t.volume >= (SELECT min(x.volume) FROM (SELECT volume FROM market_traders
                          WHERE market_id = ${marketId} AND trades > 0 ORDER BY volume DESC LIMIT 10) x)
     ORDER BY t.volume DESC, u.username
     LIMIT 10`;
}

async function userRef(id: string) {
  const sql = await readDb();
  return sql<UserRefRow[]>`SELECT id, username, profile_image_url FROM users WHERE id = ${id}`;
}

/** One market with its outcomes, comments, top traders and creator; null when no market has this id or slug. */
export async function getMarket(key: MarketKey): Promise<MarketDetail | null> {
  const sql = await readDb();
  if (!validKey(key)) return null;
  const [m] = await sql<MarketDetailRow[]>`SELECT ${sql(MARKET_DETAIL_COLUMNS)} FROM markets WHERE ${keySql(sql, key)}`;
  if (!m) return null;
  const [outcomes, comments, traders, [creator]] = await Promise.all([
    outcomesByMarket([m.id]),
    newestComments(m.id),
    topTraders(m.id),
    m.creator_id ? userRef(m.creator_id) : Promise.resolve([]),
  ]);
  return marketDetailFromRow(m, {
    outcomes: outcomes.get(m.id) ?? [],
    comments: comments.map(commentFromRow),
    topTraders: traders,
    creator: creator ?? null,
  });
}

interface OutcomeOfMarket {
  market_id: string;
  external_source: string | null;
  outcome_id: string;
  name: string;
  side: string;
}

/**
 * The market and outcome a book or history request names, checked in the order of the spec's errors:
 * unknown market, then unknown or malformed outcome, then an outcome of another market.
 */
async function resolveOutcome(key: MarketKey, outcomeId: string): Promise<OutcomeOfMarket> {
  const sql = await readDb();
  if (!validKey(key)) throw new MarketNotFound(describeKey(key));
  const outcomeKey = isUuid(outcomeId) ? outcomeId : null;
  const [row] = await sql<
    (Omit<OutcomeOfMarket, "outcome_id" | "name" | "side"> & {
      outcome_id: string | null;
      outcome_market_id: string | null;
      name: string | null;
      side: string | null;
    })[]
  >`
    SELECT m.id AS market_id, m.external_source, o.id AS outcome_id, o.market_id AS outcome_market_id, o.name, o.side
    FROM markets m LEFT JOIN outcomes o ON o.id = ${outcomeKey}::uuid
    WHERE ${keySql(sql, key, "m.")}`;
  if (!row) throw new MarketNotFound(describeKey(key));
  if (!row.outcome_id || row.name === null || row.side === null) throw new OutcomeNotFound();
  if (row.outcome_market_id !== row.market_id) throw new OutcomeMismatch();
  return { market_id: row.market_id, external_source: row.external_source, outcome_id: row.outcome_id, name: row.name, side: row.side };
}

export async function getOrderBook(params: MarketKey & { outcomeId: string }): Promise<OrderBook> {
  const sql = await readDb();
  const o = await resolveOutcome(params, params.outcomeId);
  const head = { outcome_id: o.outcome_id, outcome_side: `${o.name} - ${o.side}` };
  if (o.external_source) {
    type Level = { price: string; shares: string };
    const [book] = await sql<{ bids: Level[]; asks: Level[] }[]>`SELECT bids, asks FROM external_books WHERE outcome_id = ${o.outcome_id}`;
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
  return {
    history: bucketTrades(
      trades.map((t) => ({ id: t.id, executedAt: t.ts, price: t.price })),
      params.fidelity,
    ),
  };
}

/** Distinct sub-categories with their market counts, for the list's sub-category choice: from market_counts. */
export async function listSubCategories(params: { status: string; category?: string }) {
  const sql = await readDb();
  return sql<SubCategories>`
    SELECT sub_category, sum(n)::int AS count FROM market_counts
    WHERE status = ${params.status} ${params.category ? sql`AND category = ${params.category}` : sql``}
      AND sub_category <> '' AND n > 0
    GROUP BY sub_category ORDER BY sum(n) DESC, sub_category`;
}

/** When the next trade turns 24 h old and so changes a TRENDING order (unix ms), or null if none will. */
export async function nextTrendingChange(): Promise<number | null> {
  const sql = await readDb();
  const [row] = await sql<{ at: number | null }[]>`
    SELECT (extract(epoch FROM min(executed_at) + interval '24 hours') * 1000)::float8 AS at
      FROM trades WHERE executed_at > now() - interval '24 hours'`;
  return row?.at ?? null;
}

// ------------------------------------------------------------------ follow, share and embed (#24)
// The pages' extra reads: the watchlist's markets, the day-ago prices behind "what moved", related
// markets. None of them is a /v1 answer; the pages read them through lib/markets/cache.ts.

/** The markets with these ids as the list shows them (any status); ids of deleted markets are simply absent. */
export async function listMarketsByIds(ids: string[]): Promise<MarketListResponse["markets"]> {
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return [];
  const sql = await readDb();
  const rows = await sql<MarketRow[]>`SELECT ${sql(MARKET_COLUMNS)} FROM markets WHERE id = ANY(${valid}::uuid[])`;
  const outcomes = await outcomesByMarket(rows.map((r) => r.id));
  return rows.map((r) => marketListItemFromRow(r, outcomes.get(r.id) ?? []));
}

/**
 * Per outcome: the price (0..1) of its last trade at or before now − 24 h (absent when it has none),
 * and when the answer changes by itself (unix ms: its first trade after now − 24 h turns a day old).
 * Two probes of trades_outcome_time_idx per outcome, index-only.
 */
export async function getDayAgoPrices(outcomeIds: string[]): Promise<{ prices: Record<string, number>; changesAt: number | null }> {
  const valid = outcomeIds.filter(isUuid);
  if (valid.length === 0) return { prices: {}, changesAt: null };
  const sql = await readDb();
  const rows = await sql<{ id: string; then: number | null; next_at: number | null }[]>`
    SELECT o.id,
           (SELECT t.price::float8 FROM trades t
             WHERE t.outcome_id = o.id AND t.executed_at <= now() - interval '24 hours'
             ORDER BY t.executed_at DESC, t.id DESC LIMIT 1) AS then,
           (SELECT (extract(epoch FROM t.executed_at + interval '24 hours') * 1000)::float8 FROM trades t
             WHERE t.outcome_id = o.id AND t.executed_at > now() - interval '24 hours'
             ORDER BY t.executed_at, t.id LIMIT 1) AS next_at
      FROM unnest(${valid}::uuid[]) AS o (id)`;
  const prices: Record<string, number> = {};
  let changesAt: number | null = null;
  for (const r of rows) {
    if (r.then !== null) prices[r.id] = r.then;
    if (r.next_at !== null) changesAt = changesAt === null ? r.next_at : Math.min(changesAt, r.next_at);
  }
  return { prices, changesAt };
}

export const RELATED_MAX = 6;

/**
 * Up to six other markets of the same category that share the sub-category or a tag: active ones first,
 * then resolved and cancelled, each by volume. The active branch walks markets_cat_volume_idx and stops
 * at six; the second runs only when the first found fewer.
 */
export async function listRelatedMarkets(m: { id: string; category: Category; sub_category: string; tags: string[] }): Promise<MarketListResponse["markets"]> {
  if (!m.sub_category && m.tags.length === 0) return [];
  const sql = await readDb();
  const related = sql`m.category = ${m.category} AND m.id <> ${m.id}::uuid
    AND (${m.sub_category ? sql`m.sub_category = ${m.sub_category}` : sql`false`} OR m.tags && ${m.tags}::text[])`;
  const rows = await sql<(MarketRow & { g: number })[]>`
    SELECT * FROM (
      (SELECT ${sql(MARKET_COLUMNS.map((c) => `m.${c}`))}, 0 AS g FROM markets m
        WHERE m.status = 'ACTIVE' AND ${related} ORDER BY m.total_volume DESC, m.id DESC LIMIT ${RELATED_MAX})
      UNION ALL
      (SELECT ${sql(MARKET_COLUMNS.map((c) => `m.${c}`))}, 1 AS g FROM markets m
        WHERE m.status IN ('RESOLVED', 'CANCELLED') AND ${related} ORDER BY m.total_volume DESC, m.id DESC LIMIT ${RELATED_MAX})
    ) r ORDER BY g, total_volume DESC, id DESC LIMIT ${RELATED_MAX}`;
  const outcomes = await outcomesByMarket(rows.map((r) => r.id));
  return rows.map((r) => marketListItemFromRow(r, outcomes.get(r.id) ?? []));
}
