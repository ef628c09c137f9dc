// The book of an outcome (docs/api.md "Order book", "Book versions"), one outcome's or many outcomes'
// (docs/api.md "Batches") through the same entries, tagged with the outcome's book and the market's books.
import "server-only";
import * as booksSql from "@/lib/markets/sql/books";
import type { MarketKey } from "@/lib/markets/sql/fragments";
import { keyOf, loaded, read, readEach } from "./cache";
import { bookTags } from "./tags";

/** The book of one outcome with its version and checksum (one entry: the header never disagrees with the body). */
export function getVersionedOrderBook(params: MarketKey & { outcomeId: string }) {
  const key = keyOf(params);
  return read(["markets", "orderbook", key, params.outcomeId], bookTags(params, params.outcomeId), () =>
    loaded(booksSql.getOrderBook({ ...key, outcomeId: params.outcomeId })),
  );
}

export async function getOrderBook(params: MarketKey & { outcomeId: string }) {
  return (await getVersionedOrderBook(params)).book;
}

/** The book of each outcome, as getOrderBook({id: its market, outcomeId}) reads it. */
export function orderBookReader(outcomeIds: readonly string[]) {
  return readEach(
    outcomeIds,
    (o) => ({ key: ["markets", "orderbook", { id: o.market_id }, o.outcome_id], tags: bookTags({ id: o.market_id }, o.outcome_id) }),
    async (outcomes) => new Map([...(await booksSql.getOrderBooks(outcomes))].map(([id, value]) => [id, { value }])),
  );
}
