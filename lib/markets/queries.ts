// Every read of the public API, one function per query, each taking one params object and
// returning typed rows (lib/markets/rows.ts). Server side only: route handlers and server
// components call these directly. "No such market" is null or a domain error (./errors).
import "server-only";
import type postgres from "postgres";
import { readDb } from "@/lib/db/client";
import { type CandleWindow, INTERVALS as CANDLE_WIDTHS, originOf } from "./candles";
import { SLUG_RE } from "./constants";
import { BookNotRecorded, InvalidCursor, MarketNotFound, OutcomeMismatch, OutcomeNotFound } from "./errors";
import { bookChecksum } from "./book-checksum";
import { changeOf, rebuildBook, type BookChange } from "./book-log";
import { buildNativeBook, formatExternalBook } from "./order-book";
import { bucketTrades, historyWindow } from "./price-history";
import {
  ISO_TIME_COLUMNS,
  MARKET_COLUMNS,
  MARKET_DETAIL_COLUMNS,
  OUTCOME_COLUMNS,
  type CandleRow,
  type CommentRow,
  type JsonRow,
  type MarketDetailPartsRow,
  type MarketRow,
  type OutcomeRow,
  type SubCategories,
  type TradeRow,
} from "./rows";
import {
  HISTORY_DEFAULT_WINDOW_S,
  HISTORY_TRADE_CAP,
  isUuid,
  type Candle,
  type Candles,
  type Category,
  type ListStatus,
  type MarketDetail,
  type MarketListItem,
  type MarketListQuery,
  type MarketListResponse,
  type OrderBook,
  type PriceHistory,
  type PriceHistoryQuery,
  type SortBy,
  type SortOrder,
  type TradeTape,
} from "./schemas";
import { candleFromRow, candlesOf, commentFromRow, marketDetailFromRow, marketListItemFromRow, outcomeFromRow, tradeFromRow } from "./serialize";
import { decodeTradeCursor, encodeTradeCursor, type TradeCursor } from "./trade-cursor";

type Sql = postgres.Sql;
type Fragment = postgres.Fragment;

const MAX_TS = 100_000_000_000; // year 5138: keeps to_timestamp() in range for any integer a client sends
const MAX_OFFSET = 2 ** 53;

/**
 * A select list of `columns` (of `alias`, if given), each named as itself, the timestamps among them
 * (ISO_TIME_COLUMNS) as the API's ISO text (rows.ts, IsoTime): "Z" and milliseconds, truncated as
 * Date.toISOString() truncates; years outside 1-9999 as PostgreSQL's own text, which
 * lib/markets/serialize.ts reads through Date as before. Column names come from the lists in rows.ts,
 * never from input.
 */
function columnsSql(sql: Sql, columns: readonly string[], alias?: string) {
  return sql.unsafe(
    columns
      .map((c) => {
        const col = alias ? `${alias}.${c}` : c;
        if (!ISO_TIME_COLUMNS.has(c)) return col;
        return `CASE WHEN ${col} >= '0001-01-01T00:00:00Z' AND ${col} < '10000-01-01T00:00:00Z' THEN to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') ELSE ${col}::text END AS ${c}`;
      })
      .join(", "),
  );
}

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

export const stripNul = (s: string) => s.replace(/\u0000/g, "");

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
  const page = (plan: "walk" | "all") => sql<ListedRow[]>`
    SELECT ${columnsSql(sql, MARKET_COLUMNS, "m")}, (${outcomesJson(sql)}) AS outcomes
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
    const page = (candidates: Fragment) => sql<ListedRow[]>`
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
      SELECT ${columnsSql(sql, MARKET_COLUMNS, "m")}, (${outcomesJson(sql)}) AS outcomes FROM page p JOIN markets m ON m.id = p.id
       ORDER BY p.k ${dir}, p.id ${dir}`;
    const stored = (plan: "walk" | "all") => storedOrderPage(sql, { filter: f, key: SORT_KEYS.TRENDING, dir, take, skip: 0, plan });
    if (!f.pattern || take > SEARCH_WALK_ROWS) return page(stored("all"));
    // The walk's candidates, fetched first: the page is exact only if the walk found all `take` of them.
    const walked = await sql<{ id: string; k: string }[]>`${stored("walk")}`;
    if (!(await walkSettles(walked.length, take, f))) return page(stored("all"));
    return page(sql`SELECT * FROM unnest(${walked.map((w) => w.id)}::uuid[], ${walked.map((w) => w.k)}::numeric[]) AS w (id, k)`);
  });
}

/** A market as a list shows it, its outcomes read in the same statement as JSON (outcomesJson). */
type ListedRow = MarketRow & { outcomes: OutcomeRow[] };
const listItemOf = (r: ListedRow) => marketListItemFromRow(r, r.outcomes.map(outcomeFromRow));

export async function listMarkets(query: MarketListQuery): Promise<MarketListResponse> {
  const { sortBy, sortOrder, limit, offset } = query;
  const f = listFilter(query);
  const skip = Math.min(offset, MAX_OFFSET);
  const [rows, total] = await Promise.all([
    sortBy === "TRENDING" ? listTrending(f, sortOrder, limit, skip) : listByStoredKey(f, sortBy, sortOrder, limit, skip),
    f.pattern ? countMatches({ ...f, pattern: f.pattern }) : countMarkets(f),
  ]);
  return { markets: rows.map(listItemOf), total, limit, offset };
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

// The parts of a market's detail, each one subquery of getMarket's statement on the market `m`, handed
// over as a JSON array already in order (numerics as text, so nothing passes through a float).

const OUTCOME_COLUMNS_BUT_PROBABILITY = OUTCOME_COLUMNS.filter((c) => c !== "probability");

/** Its outcomes in index order. */
const outcomesJson = (sql: Sql) => sql`
  SELECT coalesce(json_agg(o ORDER BY o.index), '[]') FROM (
    SELECT ${columnsSql(sql, OUTCOME_COLUMNS_BUT_PROBABILITY)}, probability::text AS probability
      FROM outcomes WHERE market_id = m.id) o`;

/** The 50 newest comments with their authors; reply counts are maintained (migration 0005). */
const newestCommentsJson = (sql: Sql) => sql`
  SELECT coalesce(json_agg(c ORDER BY c.created_at DESC, c.id DESC), '[]') FROM (
    SELECT c.id, c.user_id, c.content, c.parent_id, c.likes_count, c.reply_count, c.created_at, u.username, u.profile_image_url
      FROM comments c JOIN users u ON u.id = c.user_id
     WHERE c.market_id = m.id
     ORDER BY c.created_at DESC, c.id DESC
     LIMIT 50) c`;

/**
 * The ten users with the most volume, from market_traders (migration 0005), username breaking ties.
 * Every row at or above the tenth volume is read, so ties at the cut are ordered right; both walks
 * are index-only scans of market_traders_top_cover_idx (migration 0014).
 */
const topTradersJson = (sql: Sql) => sql`
  SELECT coalesce(json_agg(json_build_object('username', x.username, 'profile_image_url', x.profile_image_url, 'volume', round(x.volume, 6)::text)
                           ORDER BY x.volume DESC, x.username), '[]') FROM (
    SELECT u.username, u.profile_image_url, t.volume
      FROM market_traders t JOIN users u ON u.id = t.user_id
     WHERE t.market_id = m.id AND t.trades > 0
       AND t.volume >= (SELECT min(y.volume) FROM (SELECT volume FROM market_traders
                          WHERE market_id = m.id AND trades > 0 ORDER BY volume DESC LIMIT 10) y)
     ORDER BY t.volume DESC, u.username
     LIMIT 10) x`;

/** Its creator, null when it has none. */
const creatorJson = (sql: Sql) => sql`
  SELECT json_build_object('id', u.id, 'username', u.username, 'profile_image_url', u.profile_image_url) FROM users u WHERE u.id = m.creator_id`;

const commentRowOf = (c: JsonRow<CommentRow>): CommentRow => ({ ...c, created_at: new Date(c.created_at) });

/**
 * One market with its outcomes, comments, top traders and creator, in one statement (a miss of the
 * detail is one round trip, not two in a row and five statements); null when no market has this id or slug.
 */
export async function getMarket(key: MarketKey): Promise<MarketDetail | null> {
  const sql = await readDb();
  if (!validKey(key)) return null;
  const [m] = await sql<MarketDetailPartsRow[]>`
    SELECT ${columnsSql(sql, MARKET_DETAIL_COLUMNS, "m")},
           (${outcomesJson(sql)}) AS outcomes,
           (${newestCommentsJson(sql)}) AS comments,
           (${topTradersJson(sql)}) AS top_traders,
           (${creatorJson(sql)}) AS creator
      FROM markets m
     WHERE ${keySql(sql, key, "m.")}`;
  if (!m) return null;
  return marketDetailFromRow(m, {
    outcomes: m.outcomes.map(outcomeFromRow),
    comments: m.comments.map((c) => commentFromRow(commentRowOf(c))),
    topTraders: m.top_traders,
    creator: m.creator,
  });
}

export interface OutcomeOfMarket {
  market_id: string;
  external_source: string | null;
  outcome_id: string;
  name: string;
  side: string;
}

/** A resolution as its statement returns it: the market, and the outcome asked for if it exists (of any market). */
type ResolutionRow = Omit<OutcomeOfMarket, "outcome_id" | "name" | "side"> & {
  outcome_id: string | null;
  outcome_market_id: string | null;
  name: string | null;
  side: string | null;
};

/**
 * The market and outcome a request names, as one row (none when no market has the key): the start of
 * every statement that reads something of one outcome, so that a miss is one round trip.
 */
function resolutionSql(sql: Sql, key: MarketKey, outcomeId: string): Fragment {
  const outcomeKey = isUuid(outcomeId) ? outcomeId : null;
  return sql`
    SELECT m.id AS market_id, m.external_source, o.id AS outcome_id, o.market_id AS outcome_market_id, o.name, o.side
      FROM markets m LEFT JOIN outcomes o ON o.id = ${outcomeKey}::uuid
     WHERE ${keySql(sql, key, "m.")}`;
}

/** A resolution checked in the order of the spec's errors: unknown market, then unknown or malformed outcome, then an outcome of another market. */
function resolved(key: MarketKey, row: ResolutionRow | undefined): OutcomeOfMarket {
  if (!row) throw new MarketNotFound(describeKey(key));
  if (!row.outcome_id || row.name === null || row.side === null) throw new OutcomeNotFound();
  if (row.outcome_market_id !== row.market_id) throw new OutcomeMismatch();
  return { market_id: row.market_id, external_source: row.external_source, outcome_id: row.outcome_id, name: row.name, side: row.side };
}

/** The market and outcome a candles or past-book request names (resolved above). */
async function resolveOutcome(key: MarketKey, outcomeId: string): Promise<OutcomeOfMarket> {
  if (!validKey(key)) throw new MarketNotFound(describeKey(key));
  const sql = await readDb();
  const [row] = await sql<ResolutionRow[]>`${resolutionSql(sql, key, outcomeId)}`;
  return resolved(key, row);
}

/**
 * The resolution of a request with what `read` reads of its outcome (a LATERAL subquery on r.outcome_id
 * and r.external_source), read only when the outcome belongs to the market: one statement.
 */
async function readResolved<R extends object>(key: MarketKey, outcomeId: string, read: (sql: Sql) => Fragment): Promise<{ o: OutcomeOfMarket; row: R }> {
  if (!validKey(key)) throw new MarketNotFound(describeKey(key));
  const sql = await readDb();
  const [row] = await sql<(ResolutionRow & R)[]>`
    SELECT r.*, x.* FROM (${resolutionSql(sql, key, outcomeId)}) r
      LEFT JOIN LATERAL (${read(sql)}) x ON r.outcome_market_id = r.market_id`;
  return { o: resolved(key, row), row };
}

/** The book of one outcome with its version and checksum (docs/api.md "Book versions"). */
export async function getOrderBook(params: MarketKey & { outcomeId: string }): Promise<VersionedBook> {
  const { o, row } = await readResolved<BookRow>(params, params.outcomeId, (sql) => bookSql(sql, sql`r.outcome_id`, sql`r.external_source IS NOT NULL`));
  return bookOf(o, row);
}

// The default end is the current instant, not the current whole second: a trade committed a few ms
// ago (announced by a push signal) must already be in the answer.
export async function getPriceHistory(params: MarketKey & PriceHistoryQuery, nowS = Date.now() / 1000): Promise<PriceHistory> {
  const window = historyWindow(params, nowS, HISTORY_DEFAULT_WINDOW_S);
  const { row } = await readResolved<HistoryRow>(params, params.outcomeId, (sql) => historySql(sql, sql`r.outcome_id`, window));
  return historyOf(row, params.fidelity);
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

// ================================================================ books and histories of many outcomes (the batches)
// The single book and history above read the same fragments (bookSql, historySql), joined to their
// resolution in one statement: one definition of each answer.

/** The outcomes among these ids that exist, with their market: one primary-key probe per id, unknown ids absent. */
export async function outcomesById(ids: readonly string[]): Promise<Map<string, OutcomeOfMarket>> {
  const sql = await readDb();
  const rows = ids.length
    ? await sql<OutcomeOfMarket[]>`
        SELECT o.id AS outcome_id, o.market_id, m.external_source, o.name, o.side
          FROM outcomes o JOIN markets m ON m.id = o.market_id
         WHERE o.id = ANY(${ids as string[]}::uuid[])`
    : [];
  return new Map(rows.map((r) => [r.outcome_id, r]));
}

type VenueLevel = { price: string; shares: string };

/** What bookSql reads of one outcome: its resting orders or its venue's book, and its version (null: 0). */
interface BookRow {
  orders: string | null;
  bids: VenueLevel[] | null;
  asks: VenueLevel[] | null;
  version: number | null;
}

/**
 * The book of the outcome `id` as one row, for a LATERAL join: a native outcome's resting LIMIT orders
 * (an index-only scan of orders_resting_idx) as one text, "SIDE price remaining" joined by commas and
 * summed per price by buildNativeBook (50 outcomes are 50 rows to parse, not one per level), or a
 * mirrored one's venue book; and its version (migration 0011), from the same snapshot as the book.
 */
function bookSql(sql: Sql, id: Fragment, mirrored: Fragment): Fragment {
  return sql`
    SELECT (SELECT string_agg(concat(o.side, ' ', o.price, ' ', o.shares - o.filled_shares), ',') FROM orders o
             WHERE NOT (${mirrored}) AND o.outcome_id = ${id} AND o.type = 'LIMIT' AND o.status IN ('OPEN', 'PARTIALLY_FILLED')) AS orders,
           eb.bids, eb.asks,
           (SELECT h.version::float8 FROM book_heads h WHERE h.outcome_id = ${id}) AS version
      FROM (SELECT) one LEFT JOIN external_books eb ON (${mirrored}) AND eb.outcome_id = ${id}`;
}

function bookOf(o: OutcomeOfMarket, row: BookRow | undefined): VersionedBook {
  const sides = o.external_source
    ? row?.bids && row.asks
      ? formatExternalBook(row.bids, row.asks)
      : { bids: [], asks: [] }
    : buildNativeBook(
        (row?.orders ? row.orders.split(",") : []).map((l) => {
          const [side, price, remaining] = l.split(" ");
          return { side: side as "BUY" | "SELL", price, remaining };
        }),
      );
  const book: OrderBook = { outcome_id: o.outcome_id, outcome_side: `${o.name} - ${o.side}`, ...sides };
  return { book, version: row?.version ?? 0, checksum: bookChecksum(book) };
}

/** The books of these outcomes in one round trip, each exactly what getOrderBook answers. */
export async function getOrderBooks(outcomes: readonly OutcomeOfMarket[]): Promise<Map<string, VersionedBook>> {
  const sql = await readDb();
  const mirrored = outcomes.filter((o) => o.external_source !== null).map((o) => o.outcome_id);
  const rows = outcomes.length
    ? await sql<(BookRow & { outcome_id: string })[]>`
        SELECT k.outcome_id, b.*
          FROM unnest(${outcomes.map((o) => o.outcome_id)}::uuid[]) AS k (outcome_id)
         CROSS JOIN LATERAL (${bookSql(sql, sql`k.outcome_id`, sql`k.outcome_id = ANY(${mirrored}::uuid[])`)}) b`
    : [];
  const byOutcome = new Map(rows.map((r) => [r.outcome_id, r]));
  return new Map(outcomes.map((o) => [o.outcome_id, bookOf(o, byOutcome.get(o.outcome_id))]));
}

/** What historySql reads of one outcome: its trades as [id, unix seconds, price] (JSON: one row per outcome). */
interface HistoryRow {
  trades: [string, number, number][] | null;
}

/**
 * The HISTORY_TRADE_CAP most recent trades of the outcome `id` in the window (a walk of
 * trades_outcome_tape_idx), as one row for a LATERAL join; none for an empty window.
 */
function historySql(sql: Sql, id: Fragment, w: { startTs: number; endTs: number }): Fragment {
  if (w.startTs > w.endTs) return sql`SELECT NULL::json AS trades`;
  return sql`
    SELECT json_agg(json_build_array(t.id, t.ts, t.price)) AS trades FROM (
      SELECT id, extract(epoch FROM executed_at)::float8 AS ts, price::float8 AS price
        FROM trades
       WHERE outcome_id = ${id}
         AND executed_at >= to_timestamp(${Math.min(w.startTs, MAX_TS)})
         AND executed_at <= to_timestamp(${Math.min(w.endTs, MAX_TS)})
       ORDER BY executed_at DESC, id DESC
       LIMIT ${HISTORY_TRADE_CAP}) t`;
}

const historyOf = (row: HistoryRow | undefined, fidelity: number): PriceHistory => ({
  history: bucketTrades(
    (row?.trades ?? []).map(([id, executedAt, price]) => ({ id, executedAt, price })),
    fidelity,
  ),
});

/** The histories of these outcomes over one window in one round trip, each exactly what getPriceHistory answers. */
export async function getPriceHistories(
  outcomeIds: readonly string[],
  params: Pick<PriceHistoryQuery, "startTs" | "endTs" | "fidelity">,
  nowS = Date.now() / 1000,
): Promise<Map<string, PriceHistory>> {
  const sql = await readDb();
  const window = historyWindow(params, nowS, HISTORY_DEFAULT_WINDOW_S);
  const rows = outcomeIds.length
    ? await sql<(HistoryRow & { outcome_id: string })[]>`
        SELECT x.outcome_id, h.trades
          FROM unnest(${outcomeIds as string[]}::uuid[]) AS x (outcome_id)
         CROSS JOIN LATERAL (${historySql(sql, sql`x.outcome_id`, window)}) h`
    : [];
  const byOutcome = new Map(rows.map((r) => [r.outcome_id, r]));
  return new Map(outcomeIds.map((id) => [id, historyOf(byOutcome.get(id), params.fidelity)]));
}

// ================================================================ trade tape (docs/api.md "Trades")

export interface TradesParams {
  outcomeId?: string;
  limit: number;
  /** Cursors as clients send them (lib/markets/trade-cursor.ts); at most one of the two. */
  before?: string;
  after?: string;
}

function cursorOf(param: "before" | "after", value: string | undefined): TradeCursor | undefined {
  if (value === undefined) return undefined;
  const c = decodeTradeCursor(value);
  if (!c) throw new InvalidCursor(param);
  return c;
}

/** A cursor's executed_at as SQL, exact to the microsecond (whole seconds and the rest: each product fits a double). */
function cursorTime(sql: Sql, c: TradeCursor): Fragment {
  const secs = c.us / 1_000_000n;
  return sql`(timestamptz 'epoch' + ${String(secs)}::int8 * interval '1 second' + ${String(c.us - secs * 1_000_000n)}::int8 * interval '1 microsecond')`;
}

/**
 * One page of a market's trades (or one outcome's), newest first, ordered by (executed_at, id) and
 * walked by keyset, so every page is one index descent (trades_market_time_idx, or
 * trades_outcome_tape_idx for one outcome) whatever its depth. `after` reads the `limit` oldest
 * trades newer than the cursor (a backward scan), answered newest first too. The market, the
 * outcome check and the page are one round trip; errors as for the book (unknown market, unknown
 * outcome, outcome of another market).
 */
export async function listTrades(params: MarketKey & TradesParams): Promise<TradeTape> {
  const sql = await readDb();
  if (!validKey(params)) throw new MarketNotFound(describeKey(params));
  const before = cursorOf("before", params.before);
  const after = cursorOf("after", params.after);
  const outcomeKey = params.outcomeId === undefined ? undefined : isUuid(params.outcomeId) ? params.outcomeId : null;
  if (outcomeKey === null) {
    // Malformed: 404 like an unknown outcome, once the market is known to exist (docs/api.md "Ids").
    if (!(await marketExists(params))) throw new MarketNotFound(describeKey(params));
    throw new OutcomeNotFound();
  }
  const newer = after !== undefined;
  const dir = sql.unsafe(newer ? "ASC" : "DESC");
  const cursor = before ?? after;
  // An outcome's trades all belong to its market (the (outcome_id, market_id) foreign key): its own index alone.
  const scope = outcomeKey ? sql`t.outcome_id = ${outcomeKey}::uuid` : sql`t.market_id = m.id`;
  const rows = await sql<(Partial<TradeRow> & { market_id: string; outcome_market_id: string | null })[]>`
    SELECT m.id AS market_id,
           ${outcomeKey ? sql`(SELECT market_id FROM outcomes WHERE id = ${outcomeKey}::uuid)` : sql`NULL::uuid`} AS outcome_market_id,
           t.id, t.outcome_id, t.price::text AS price, t.shares::text AS shares, round(t.price * t.shares, 6)::text AS notional,
           t.executed_at, (extract(epoch FROM t.executed_at) * 1000000)::int8::text AS us,
           mk.id AS maker_id, mk.username AS maker_username, tk.id AS taker_id, tk.username AS taker_username
      FROM markets m
      LEFT JOIN LATERAL (
        SELECT t.* FROM trades t
         WHERE ${scope}
           ${cursor ? sql`AND (t.executed_at, t.id) ${sql.unsafe(newer ? ">" : "<")} (${cursorTime(sql, cursor)}, ${cursor.id}::uuid)` : sql``}
         ORDER BY t.executed_at ${dir}, t.id ${dir}
         LIMIT ${params.limit + 1}
      ) t ON true
      LEFT JOIN users mk ON mk.id = t.maker_user_id
      LEFT JOIN users tk ON tk.id = t.taker_user_id
     WHERE ${keySql(sql, params, "m.")}
     ORDER BY t.executed_at ${dir}, t.id ${dir}`;
  if (!rows.length) throw new MarketNotFound(describeKey(params));
  if (outcomeKey) {
    if (rows[0].outcome_market_id === null) throw new OutcomeNotFound();
    if (rows[0].outcome_market_id !== rows[0].market_id) throw new OutcomeMismatch();
  }
  const found = rows.filter((r) => r.id !== null && r.id !== undefined) as TradeRow[];
  const more = found.length > params.limit;
  const page = found.slice(0, params.limit);
  if (newer) page.reverse();
  const at = (r: TradeRow | undefined) => (r ? encodeTradeCursor({ us: BigInt(r.us), id: r.id }) : null);
  return {
    trades: page.map(tradeFromRow),
    // Older: the last row of a newest-first page; newer: its first row (the page was read oldest first).
    next_cursor: more ? at(newer ? page[0] : page[page.length - 1]) : null,
    newest_cursor: at(page[0]),
  };
}

async function marketExists(key: MarketKey): Promise<boolean> {
  const sql = await readDb();
  const [row] = await sql<{ one: number }[]>`SELECT 1 AS one FROM markets WHERE ${keySql(sql, key)}`;
  return Boolean(row);
}

/**
 * What a push signal attaches: the trades of market `marketId` (of one outcome when `outcomeId` is
 * given) newer than the cursor `after`, at most `limit`, newest first. Continue with `next_cursor`
 * while it is not null; `newest_cursor` is the position to remember.
 */
export function listTradesAfter(params: { marketId: string; outcomeId?: string; after: string; limit: number }): Promise<TradeTape> {
  return listTrades({ id: params.marketId, outcomeId: params.outcomeId, after: params.after, limit: params.limit });
}

// ================================================================ candles (docs/api.md "Candles")

/**
 * The candles of these outcomes over one window in one round trip, each exactly what getCandles
 * answers, from the rollup of migration 0009: the window's rows of the interval's stored width, rolled
 * up in SQL to the interval (at most 15 rows per candle, so at most 15,000 rows per outcome). Exact
 * numeric throughout; prices and sums leave as text.
 */
export async function getCandleSets(outcomeIds: readonly string[], window: CandleWindow): Promise<Map<string, Candles>> {
  const sql = await readDb();
  const { width } = CANDLE_WIDTHS[window.interval];
  const inWindow = sql`c.outcome_id = k.id AND c.width = ${width}
    AND c.bucket >= to_timestamp(${window.first}) AND c.bucket < to_timestamp(${window.last + window.seconds})`;
  const candles =
    window.seconds === width
      ? sql`SELECT extract(epoch FROM c.bucket)::float8 AS start, c.open::text AS open, c.high::text AS high, c.low::text AS low,
               c.close::text AS close, round(c.volume, 6)::text AS volume, round(c.notional, 9)::text AS notional, c.trades
          FROM candles c WHERE ${inWindow}`
      : sql`SELECT extract(epoch FROM date_bin(make_interval(secs => ${window.seconds}), c.bucket, to_timestamp(${originOf(window.interval)})))::float8 AS start,
               (array_agg(c.open ORDER BY c.bucket))[1]::text AS open, max(c.high)::text AS high, min(c.low)::text AS low,
               (array_agg(c.close ORDER BY c.bucket))[count(*)]::text AS close,
               round(sum(c.volume), 6)::text AS volume, round(sum(c.notional), 9)::text AS notional, sum(c.trades)::int AS trades
          FROM candles c WHERE ${inWindow} GROUP BY 1`;
  // Only a cut window has older candles in it to point at: one index probe per outcome.
  const older = window.cut
    ? sql`LEFT JOIN LATERAL (
        SELECT extract(epoch FROM max(c.bucket))::float8 AS older FROM candles c
         WHERE c.outcome_id = k.id AND c.width = ${width}
           AND c.bucket >= to_timestamp(${window.from}) AND c.bucket < to_timestamp(${window.first})) nx ON true`
    : sql`CROSS JOIN (SELECT NULL::float8 AS older) nx`;
  const rows = outcomeIds.length
    ? await sql<CandleRow[]>`
        SELECT k.id::text AS outcome_id, nx.older, c.*
          FROM unnest(${outcomeIds as string[]}::uuid[]) WITH ORDINALITY AS k (id, n)
          LEFT JOIN LATERAL (${candles}) c ON true
          ${older}
         ORDER BY k.n, c.start`
    : [];
  const found = new Map<string, { candles: Candle[]; older: number | null }>();
  for (const r of rows) {
    let entry = found.get(r.outcome_id);
    if (!entry) found.set(r.outcome_id, (entry = { candles: [], older: r.older }));
    if (r.start !== null) entry.candles.push(candleFromRow(r));
  }
  return new Map(
    outcomeIds.map((id) => {
      const f = found.get(id);
      return [id, candlesOf(id, window, f?.candles ?? [], f?.older ?? null)];
    }),
  );
}

/** The candles of one outcome of a market, checked like the book and the history (unknown market, outcome, mismatch). */
export async function getCandles(params: MarketKey & { outcomeId: string; window: CandleWindow }): Promise<Candles> {
  const o = await resolveOutcome(params, params.outcomeId);
  return (await getCandleSets([o.outcome_id], params.window)).get(o.outcome_id)!;
}

// ================================================================ book versions and past books (issue #22, migration 0011)
// docs/api.md "Book versions" and "Past books". Every version of a book is recorded in book_changes; a
// whole book is in book_snapshots every BOOK_SNAPSHOT_EVERY versions, so a past book is one snapshot
// and fewer than that many changes, read in one statement.

/** A book with its version (book_heads, the same snapshot) and the checksum of its top levels. */
export interface VersionedBook {
  book: OrderBook;
  version: number;
  checksum: number;
}

/** A past book: the book, the version in force at the asked time, that version's time, whether it can still change. */
export interface PastBook extends VersionedBook {
  /** ISO 8601 with microseconds, UTC; null for version 0 (the book was empty and never changed). */
  versionAt: string | null;
  /** True when a later version exists: nothing committed later can change this answer. */
  final: boolean;
}

export interface BookChangesPage {
  changes: BookChange[];
  next_version: number | null;
}

/** Must match book_snapshot_every() in migration 0011. */
export const BOOK_SNAPSHOT_EVERY = 200;

/** A time as the log prints it: ISO 8601 in UTC with microseconds. */
const isoMicros = (sql: Sql, column: string) => sql.unsafe(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`);

/**
 * Unix seconds with up to six decimals (a validated string) as an ISO timestamp PostgreSQL reads exactly.
 * Sent as text (`::text::timestamptz`): postgres.js serialises a timestamptz parameter through Date, to the ms.
 */
export function isoOfUnix(ts: string): string {
  const [sec, frac = ""] = ts.split(".");
  const base = new Date(Number(sec) * 1000).toISOString().slice(0, 19);
  return `${base}.${frac.padEnd(6, "0")}Z`;
}

/** The versions of every outcome of a market, by outcome id (0: never changed): what book heartbeats carry. */
export async function getBookVersions(params: { slug: string }): Promise<Record<string, number>> {
  const sql = await readDb();
  const rows = await sql<{ id: string; version: number }[]>`
    SELECT oc.id, coalesce(h.version, 0)::float8 AS version
      FROM markets m JOIN outcomes oc ON oc.market_id = m.id LEFT JOIN book_heads h ON h.outcome_id = oc.id
     WHERE m.slug = ${params.slug}`;
  return Object.fromEntries(rows.map((r) => [r.id, r.version]));
}

/** The book of one outcome as it was at `ts` (unix seconds, up to six decimals), with the version then in force. */
export async function getBookAt(params: MarketKey & { outcomeId: string; ts: string }): Promise<PastBook> {
  const o = await resolveOutcome(params, params.outcomeId);
  const sql = await readDb();
  const at = isoOfUnix(params.ts);
  const id = o.outcome_id;
  type Row = { k: "h" | "s" | "d" | "n" | "l"; version: number | null; at: string | null; le: boolean | null; replace: boolean | null; levels: string | null };
  const rows = await sql<Row[]>`
    WITH h AS (SELECT version, changed_at FROM book_heads WHERE outcome_id = ${id}),
    s AS (SELECT version, at, version_at, levels FROM book_snapshots
           WHERE outcome_id = ${id} AND at <= ${at}::text::timestamptz ORDER BY at DESC, version DESC LIMIT 1),
    d AS (SELECT c.version, c.at, c.replace, c.levels FROM book_changes c, s
           WHERE c.outcome_id = ${id} AND c.version > s.version AND c.version < s.version + ${BOOK_SNAPSHOT_EVERY} AND c.at <= ${at}::text::timestamptz),
    n AS (SELECT c.version, c.at FROM book_changes c
           WHERE c.outcome_id = ${id} AND c.version > coalesce((SELECT max(version) FROM d), (SELECT version FROM s), 0)
           ORDER BY c.version LIMIT 1)
    SELECT 'h' AS k, version::float8 AS version, ${isoMicros(sql, "changed_at")} AS at, changed_at <= ${at}::text::timestamptz AS le, NULL::boolean AS replace,
           CASE WHEN changed_at <= ${at}::text::timestamptz THEN (SELECT coalesce(served, book_levels_text(${id})) FROM book_heads WHERE outcome_id = ${id}) END AS levels
      FROM h
    UNION ALL SELECT 's', version::float8, ${isoMicros(sql, "version_at")}, NULL, NULL, levels FROM s
    UNION ALL SELECT 'd', version::float8, ${isoMicros(sql, "at")}, NULL, replace, levels FROM d
    UNION ALL SELECT 'n', version::float8, NULL, NULL, NULL, NULL FROM n
    UNION ALL SELECT 'l', NULL, NULL, started_at <= ${at}::text::timestamptz, NULL, NULL FROM book_log_state`;
  const head = rows.find((r) => r.k === "h");
  const snapshot = rows.find((r) => r.k === "s");
  const deltas = rows.filter((r) => r.k === "d").sort((x, y) => x.version! - y.version!);
  const next = rows.find((r) => r.k === "n");
  const logStarted = rows.find((r) => r.k === "l")?.le ?? false;
  const notRecorded = () => new BookNotRecorded(`The book of this outcome is not recorded at ${params.ts}`);
  const answer = (sides: { bids: OrderBook["bids"]; asks: OrderBook["asks"] }, version: number, versionAt: string | null, final: boolean): PastBook => {
    const book: OrderBook = { outcome_id: id, outcome_side: `${o.name} - ${o.side}`, bids: sides.bids, asks: sides.asks };
    return { book, version, checksum: bookChecksum(book), versionAt, final };
  };
  // Unchanged since before ts: the current book, which a write committed later may still supersede.
  if (head?.le) return answer(rebuildBook(head.levels ?? "", []), head.version!, head.at, false);
  if (snapshot) {
    let version = snapshot.version!;
    let versionAt = snapshot.at;
    for (const d of deltas) {
      if (d.version !== version + 1) throw notRecorded();
      version = d.version;
      versionAt = d.at;
    }
    // The next version must be recorded too, or ts may fall in a stretch the log did not see.
    if (next ? next.version !== version + 1 : (head?.version ?? 0) !== version) throw notRecorded();
    return answer(rebuildBook(snapshot.levels ?? "", deltas as { replace: boolean; levels: string }[]), version, versionAt, true);
  }
  // Before the first version: an empty book, if the log was running then and saw every version since.
  if (logStarted && (next ? next.version === 1 : (head?.version ?? 0) === 0)) return answer({ bids: [], asks: [] }, 0, null, head !== undefined);
  throw notRecorded();
}

/**
 * One page of an outcome's changes in version order, from `fromVersion` (inclusive) or from the first
 * version at or after `startTs`, up to `endTs`; `next_version` continues, null when the range is read.
 */
export async function getBookChanges(
  params: MarketKey & { outcomeId: string; fromVersion?: number; startTs?: string; endTs?: string; limit: number },
): Promise<BookChangesPage> {
  const o = await resolveOutcome(params, params.outcomeId);
  const sql = await readDb();
  const id = o.outcome_id;
  const end = params.endTs === undefined ? sql`` : sql`AND c.at <= ${isoOfUnix(params.endTs)}::text::timestamptz`;
  const from =
    params.fromVersion !== undefined
      ? sql`${params.fromVersion}::bigint`
      : sql`(SELECT coalesce(min(c.version), 9223372036854775807) FROM book_changes c, s
              WHERE c.outcome_id = ${id} AND c.version > s.v AND c.version <= s.v + ${BOOK_SNAPSHOT_EVERY}
                AND c.at >= ${isoOfUnix(params.startTs ?? "0")}::text::timestamptz)`;
  type Row = { version: number; at: string; replace: boolean; levels: string; head: number };
  const rows = await sql<Row[]>`
    WITH s AS (SELECT coalesce((SELECT version FROM book_snapshots
                                 WHERE outcome_id = ${id} AND at < ${isoOfUnix(params.startTs ?? "0")}::text::timestamptz
                                 ORDER BY at DESC, version DESC LIMIT 1),
                               -- none before startTs (it is before the kept days): the oldest kept snapshot's
                               -- version, or the next, is the oldest kept change
                               (SELECT version - 1 FROM book_snapshots WHERE outcome_id = ${id} ORDER BY at, version LIMIT 1), 0) AS v),
    f AS (SELECT ${from} AS v)
    SELECT c.version::float8 AS version, ${isoMicros(sql, "c.at")} AS at, c.replace, c.levels,
           coalesce((SELECT version FROM book_heads WHERE outcome_id = ${id}), 0)::float8 AS head
      FROM book_changes c, f
     WHERE c.outcome_id = ${id} AND c.version >= f.v ${end}
     ORDER BY c.version LIMIT ${params.limit + 1}`;
  if (params.fromVersion !== undefined && rows.length && rows[0].version !== params.fromVersion) {
    throw new BookNotRecorded(`Changes of this book from version ${params.fromVersion} are not recorded (the oldest kept is ${rows[0].version})`);
  }
  // A page stops before a version the log did not see: asking for it is then the 404 above.
  const page: Row[] = [];
  for (const r of rows.slice(0, params.limit)) {
    if (page.length && r.version !== page[page.length - 1].version + 1) return { changes: page.map(changeOf), next_version: page[page.length - 1].version + 1 };
    page.push(r);
  }
  const more = rows.length > params.limit;
  return { changes: page.map(changeOf), next_version: more ? rows[params.limit].version : null };
}

// ------------------------------------------------------------------ follow, share and embed (#24)
// The pages' extra reads: the watchlist's markets, the day-ago prices behind "what moved", related
// markets. None of them is a /v1 answer; the pages read them through lib/markets/cache.ts.

/** The markets with these ids as the list shows them (any status); ids of deleted markets are simply absent. */
export async function listMarketsByIds(ids: string[]): Promise<MarketListResponse["markets"]> {
  const items: MarketListResponse["markets"] = [];
  await eachMarketListItem(ids, (item) => items.push(item));
  return items;
}

/**
 * The list item of each market of `ids` that exists, handed to `each` as its row arrives, in no order.
 * One statement, the outcomes as JSON (getMarket's outcomesJson): the misses of the long tail are one
 * round trip, not two in a row. The rows are not kept (postgres.js forEach): a batch of hundreds of
 * items arrives over many turns of a busy loop, and rows kept until the last one came survived two
 * scavenges and were copied into the old generation (README, "Performance at 100,000 markets").
 */
export async function eachMarketListItem(ids: string[], each: (item: MarketListItem) => void): Promise<void> {
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return;
  const sql = await readDb();
  await sql<ListedRow[]>`
    SELECT ${columnsSql(sql, MARKET_COLUMNS, "m")}, (${outcomesJson(sql)}) AS outcomes FROM markets m WHERE m.id = ANY(${valid}::uuid[])`.forEach((r) => {
    each(listItemOf(r));
  });
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
 * The related markets of every market with this category, sub-category and tags: up to seven markets of
 * the category that share the sub-category or a tag, active ones first, then resolved and cancelled,
 * each by volume. One more than a page shows, so that each market of the group leaves itself out of the
 * same answer (lib/markets/cache.ts, listRelatedMarkets): the group's pages share one read. The active
 * branch walks markets_cat_volume_idx and stops at seven; the second is gated on the first having found
 * fewer (a one-time filter: it is not even started otherwise; sorting both branches together ran it
 * always, a scan of the category's settled markets, 270 ms cold at 100,000 markets).
 */
export async function listRelatedGroup(g: { category: Category; sub_category: string; tags: string[] }): Promise<MarketListResponse["markets"]> {
  if (!g.sub_category && g.tags.length === 0) return [];
  const sql = await readDb();
  const related = sql`m.category = ${g.category}
    AND (${g.sub_category ? sql`m.sub_category = ${g.sub_category}` : sql`false`} OR m.tags && ${g.tags}::text[])`;
  const columns = columnsSql(sql, MARKET_COLUMNS, "m");
  const n = RELATED_MAX + 1;
  const rows = await sql<(ListedRow & { g: number })[]>`
    WITH active AS (
      SELECT ${columns}, 0 AS g FROM markets m
       WHERE m.status = 'ACTIVE' AND ${related} ORDER BY m.total_volume DESC, m.id DESC LIMIT ${n})
    SELECT m.*, (${outcomesJson(sql)}) AS outcomes FROM (
      SELECT * FROM active
      UNION ALL
      (SELECT ${columns}, 1 AS g FROM markets m
        WHERE (SELECT count(*) FROM active) < ${n}
          AND m.status IN ('RESOLVED', 'CANCELLED') AND ${related} ORDER BY m.total_volume DESC, m.id DESC LIMIT ${n})
    ) m ORDER BY g, total_volume DESC, id DESC LIMIT ${n}`;
  return rows.map(listItemOf);
}
