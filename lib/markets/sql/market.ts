// One market's detail (GET /v1/markets/{id}, the market page) in one statement, and whether a slug exists.
import "server-only";
import { readDb } from "@/lib/db/client";
import { SLUG_RE } from "../constants";
import { type CommentRow, type JsonRow, MARKET_DETAIL_COLUMNS, type MarketDetailPartsRow } from "../rows";
import type { MarketDetail } from "../schemas";
import { commentFromRow, marketDetailFromRow, outcomeFromRow } from "../serialize";
import { columnsSql, keySql, type MarketKey, outcomesJson, type Sql, validKey } from "./fragments";

/** Whether a market has this slug: one index probe, for the market page's 404 before it streams. */
export async function marketSlugExists(slug: string): Promise<boolean> {
  if (!SLUG_RE.test(slug)) return false;
  const sql = await readDb();
  const [row] = await sql<{ one: number }[]>`SELECT 1 AS one FROM markets WHERE slug = ${slug}`;
  return Boolean(row);
}

// The parts of a market's detail beside its outcomes (outcomesJson), each one subquery of getMarket's
// statement on the market `m`, handed over as a JSON array already in order (numerics as text, so
// nothing passes through a float).

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
