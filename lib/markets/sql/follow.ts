// The pages' own reads (never a /v1 answer): the watchlist's markets, the day-ago prices behind "what
// moved" (docs/api.md "24-hour change"), related markets. The pages read them through
// lib/markets/reads/follow.ts.
import "server-only";
import { readDb } from "@/lib/db/client";
import { MARKET_COLUMNS } from "../rows";
import { type Category, isUuid, type MarketListResponse } from "../schemas";
import { columnsSql, type ListedRow, listItemOf, outcomesJson } from "./fragments";
import { eachMarketListItem } from "./lists";

/** The markets with these ids as the list shows them (any status); ids of deleted markets are simply absent. */
export async function listMarketsByIds(ids: string[]): Promise<MarketListResponse["markets"]> {
  const items: MarketListResponse["markets"] = [];
  await eachMarketListItem(ids, (item) => items.push(item));
  return items;
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
 * same answer (lib/markets/reads/follow.ts, listRelatedMarkets): the group's pages share one read. The active
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
