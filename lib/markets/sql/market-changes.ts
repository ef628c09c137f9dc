// The markets feed (GET /v1/markets/changes, docs/api.md "Markets feed"): a keyset over market_positions
// (migration 0021), each market as the list shows it, and the head, all read in one statement.
import "server-only";
import { readDb } from "@/lib/db/client";
import type { MarketChanges, MarketChangesQuery } from "../schemas";
import { type ListedRow, listedRowSql, listItemOf } from "./fragments";

/** One change of the page, its market's columns null when the market is gone; or, on an empty page, the head alone. */
type ChangeRow = { head: string | null; feed_position: string | null; feed_id: string; feed_slug: string } & Omit<ListedRow, "id"> & { id: string | null };

/**
 * The `limit` markets whose last change comes after `since`, in position order, each with its list item
 * (the list's own select list, lib/markets/sql/fragments.ts) or none when it was deleted, and the newest
 * position of any change. One statement, so one snapshot: an item is the market as of its position or
 * later, never earlier, and positions become visible in commit order (migration 0021), so no position
 * can appear later at or below the last one of a page. The head is the greatest position committed
 * (change_log, market_positions, or the retention horizon when both were emptied), not the sequence's
 * last value, which a writer that has not committed yet may already have taken.
 */
export async function listMarketChanges({ since, limit }: MarketChangesQuery): Promise<MarketChanges> {
  const sql = await readDb();
  const rows = await sql<ChangeRow[]>`
    SELECT greatest((SELECT max(position) FROM change_log), (SELECT max(position) FROM market_positions),
                    (SELECT horizon FROM change_log_state)) AS head, c.*
      FROM (SELECT) one
      LEFT JOIN LATERAL (
        SELECT p.position AS feed_position, p.market_id AS feed_id, p.slug AS feed_slug, ${listedRowSql(sql)}
          FROM (SELECT position, market_id, slug FROM market_positions WHERE position > ${since} ORDER BY position LIMIT ${limit}) p
          LEFT JOIN markets m ON m.id = p.market_id
      ) c ON true`;
  // In position order here: an ORDER BY in the statement sorted the wide rows (~3 MB a page), a quarter of its time.
  rows.sort((a, b) => Number(a.feed_position) - Number(b.feed_position));
  // A market's slug is its row's (the one its list item shows); market_positions keeps the last one for a deleted market.
  const changes = rows
    .filter((r) => r.feed_position !== null)
    .map((r) =>
      r.id === null
        ? { position: Number(r.feed_position), id: r.feed_id, slug: r.feed_slug, deleted: true, market: null }
        : { position: Number(r.feed_position), id: r.feed_id, slug: r.slug, deleted: false, market: listItemOf(r as ListedRow) },
    );
  return {
    changes,
    next: changes.length ? changes[changes.length - 1].position : since,
    more: changes.length === limit,
    head: Number(rows[0]?.head ?? 0),
  };
}
