// The lists of GET /v1/markets when the in-memory order cannot answer them (lib/markets/list-index.ts),
// their sub-category counts, when a TRENDING order next changes by itself, and list items by id
// (docs/api.md "Sorting", "Search").
import "server-only";
import { readDb } from "@/lib/db/client";
import { MARKET_COLUMNS, type SubCategories } from "../rows";
import type { Category, ListStatus, MarketListItem, MarketListQuery, MarketListResponse, SortBy, SortOrder } from "../schemas";
import { isUuid } from "../schemas";
import { columnsSql, type Fragment, type ListedRow, listedRowSql, listItemOf, outcomesJson, type Sql } from "./fragments";

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

/** status, category and subCategory: what market_counts counts and the sort indexes lead with (`on`: markets m, or market_search s). */
function filterSql(sql: Sql, f: ListFilter, on: "m" | "s" = "m"): Fragment {
  const c = (column: string) => sql(`${on}.${column}`);
  return sql`${c("status")} = ${f.status}
    ${f.category ? sql`AND ${c("category")} = ${f.category}` : sql``}
    ${f.subCategory !== undefined ? sql`AND ${c("sub_category")} = ${f.subCategory}` : sql``}`;
}

/** Whether the market row `m` matches: for a walk of a sort index, which reads each row anyway. */
const matchSql = (sql: Sql, pattern: string): Fragment => sql`(m.question ILIKE ${pattern} OR m.description ILIKE ${pattern})`;

/**
 * Every market of the filters matching, from market_search (migration 0026: the text and the filters, kept apart
 * from the totals), through its trigram indexes, or its filters' index where no trigram narrows the pattern.
 */
const matchesSql = (sql: Sql, f: ListFilter, pattern: string): Fragment =>
  sql`m.id IN (SELECT s.market_id FROM market_search s
                WHERE ${filterSql(sql, f, "s")} AND (s.question ILIKE ${pattern} OR s.description ILIKE ${pattern}))`;

const direction = (sql: Sql, order: SortOrder) => sql.unsafe(order === "ASC" ? "ASC" : "DESC");

/** Markets matching status, category and subCategory, from the counters of migrations 0005 and 0027 (a key's slots summed): no rows read. */
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
    SELECT count(*)::int AS total FROM markets m WHERE ${filterSql(sql, f)} AND ${matchesSql(sql, f, f.pattern)}`;
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
        SELECT m.id, ${k} AS k FROM markets m WHERE ${filterSql(sql, filter)} AND ${matchesSql(sql, filter, filter.pattern)})
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

/** Distinct sub-categories with their market counts, for the list's sub-category choice: from market_counts. */
export async function listSubCategories(params: { status: string; category?: string }) {
  const sql = await readDb();
  return sql<SubCategories>`
    SELECT sub_category, sum(n)::int AS count FROM market_counts
    WHERE status = ${params.status} ${params.category ? sql`AND category = ${params.category}` : sql``}
      AND sub_category <> ''
    GROUP BY sub_category HAVING sum(n) > 0 ORDER BY sum(n) DESC, sub_category`;
}

/** When the next trade turns 24 h old and so changes a TRENDING order (unix ms), or null if none will. */
export async function nextTrendingChange(): Promise<number | null> {
  const sql = await readDb();
  const [row] = await sql<{ at: number | null }[]>`
    SELECT (extract(epoch FROM min(executed_at) + interval '24 hours') * 1000)::float8 AS at
      FROM trades WHERE executed_at > now() - interval '24 hours'`;
  return row?.at ?? null;
}

/**
 * The list item of each market of `ids` that exists, handed to `each` as its row arrives, in no order.
 * One statement, the outcomes as JSON (getMarket's outcomesJson): the misses of the long tail are one
 * round trip, not two in a row. The rows are not kept (postgres.js forEach): a batch of hundreds of
 * items arrives over many turns of a busy loop, and rows kept until the last one came survived two
 * scavenges and were copied into the old generation (docs/performance.md, "List pages assembled from items").
 */
export async function eachMarketListItem(ids: string[], each: (item: MarketListItem) => void): Promise<void> {
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return;
  const sql = await readDb();
  await sql<ListedRow[]>`
    SELECT ${listedRowSql(sql)} FROM markets m WHERE m.id = ANY(${valid}::uuid[])`.forEach((r) => {
    each(listItemOf(r));
  });
}
