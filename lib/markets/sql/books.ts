// The book of an outcome (docs/api.md "Order book", "Book versions"): one outcome's, or many outcomes' in
// one round trip (docs/api.md "Batches"), both from the one fragment bookSql.
import "server-only";
import { readDb } from "@/lib/db/client";
import { bookChecksum } from "../book-checksum";
import { buildNativeBook, formatExternalBook } from "../order-book";
import type { OrderBook } from "../schemas";
import type { Fragment, MarketKey, Sql } from "./fragments";
import { type OutcomeOfMarket, readResolved } from "./resolve";

/** A book with its version (book_heads, the same snapshot) and the checksum of its top levels. */
export interface VersionedBook {
  book: OrderBook;
  version: number;
  checksum: number;
}

/** The book of one outcome with its version and checksum (docs/api.md "Book versions"). */
export async function getOrderBook(params: MarketKey & { outcomeId: string }): Promise<VersionedBook> {
  const { o, row } = await readResolved<BookRow>(params, params.outcomeId, (sql) => bookSql(sql, sql`r.outcome_id`, sql`r.external_source IS NOT NULL`));
  return bookOf(o, row);
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
