// Past books from the record of changes (migration 0011; docs/api.md "Past books"): the stored text form of
// levels, a change as the API shows it, and the rebuild of a book from one snapshot and the changes after
// it. Pure, so it is unit-tested on its own; lib/markets/sql/book-log.ts only fetches the rows.
import { fixed } from "./decimal";
import type { BookLevel } from "./schemas";

export interface BookSides {
  bids: BookLevel[];
  asks: BookLevel[];
}

/** One version of a book as GET …/orderbook/changes lists it: the levels it changed, or (replace) the whole book. */
export interface BookChange extends BookSides {
  version: number;
  at: string;
  replace: boolean;
}

const byPriceDesc = (x: BookLevel, y: BookLevel) => Number(y.price) - Number(x.price);
const byPriceAsc = (x: BookLevel, y: BookLevel) => Number(x.price) - Number(y.price);

/**
 * "b 0.500 12.00,a 0.510 0.00" (side b or a, price, shares; bids first, each side in the served order)
 * as bids and asks, in the order stored. '' is no level.
 */
export function parseLevels(text: string): BookSides {
  const bids: BookLevel[] = [];
  const asks: BookLevel[] = [];
  if (!text) return { bids, asks };
  for (const item of text.split(",")) {
    const [side, price, shares] = item.split(" ");
    (side === "b" ? bids : asks).push({ price: fixed(price, 3), shares: fixed(shares, 2) });
  }
  return { bids, asks };
}

/** A stored change as the API lists it: levels in the served order (shares "0.00": the level is gone). */
export function changeOf(row: { version: number; at: string; replace: boolean; levels: string }): BookChange {
  const { bids, asks } = parseLevels(row.levels);
  return { version: row.version, at: row.at, replace: row.replace, bids: bids.sort(byPriceDesc), asks: asks.sort(byPriceAsc) };
}

/**
 * A book after one change: a replacement is the whole new book; otherwise each listed level takes its new
 * shares, "0.00" removing it. What a client replaying GET …/orderbook/changes does (docs/api.md).
 */
export function applyChange(book: BookSides, change: BookSides & { replace: boolean }): BookSides {
  if (change.replace) return { bids: [...change.bids], asks: [...change.asks] };
  const side = (levels: BookLevel[], changed: BookLevel[], order: (x: BookLevel, y: BookLevel) => number) => {
    const byPrice = new Map(levels.map((l) => [l.price, l]));
    for (const l of changed) {
      if (Number(l.shares) === 0) byPrice.delete(l.price);
      else byPrice.set(l.price, l);
    }
    return [...byPrice.values()].sort(order);
  };
  return { bids: side(book.bids, change.bids, byPriceDesc), asks: side(book.asks, change.asks, byPriceAsc) };
}

/** The book a snapshot and the changes after it (in version order) make. */
export function rebuildBook(snapshot: string, changes: readonly { replace: boolean; levels: string }[]): BookSides {
  let book = parseLevels(snapshot);
  for (const c of changes) book = applyChange(book, { replace: c.replace, ...parseLevels(c.levels) });
  return book;
}
