// Book versions and past books (docs/api.md "Book versions", "Past books"). The versions of a market's
// books change with any of its books: the market's tags (every orderbook, trade and market event names
// them). A past book at a time before its outcome's latest version never changes; it is still tagged with
// its book, because whether it is final is learnt only when it is read.
import "server-only";
import * as bookLogSql from "@/lib/markets/sql/book-log";
import type { MarketKey } from "@/lib/markets/sql/fragments";
import { keyOf, loaded, read } from "./cache";
import { bookTags, marketTag } from "./tags";

/** Every outcome's book version of a market: what a heartbeat on its orderbook channel carries. */
export function getBookVersions(params: { slug: string }) {
  return read(["markets", "book-versions", params.slug], [marketTag(params)], () => loaded(bookLogSql.getBookVersions(params)));
}

export function getBookAt(params: MarketKey & { outcomeId: string; ts: string }) {
  const key = keyOf(params);
  return read(["markets", "orderbook-at", key, params.outcomeId, params.ts], bookTags(params, params.outcomeId), () =>
    loaded(bookLogSql.getBookAt({ ...key, outcomeId: params.outcomeId, ts: params.ts })),
  );
}

export function getBookChanges(params: MarketKey & { outcomeId: string; fromVersion?: number; startTs?: string; endTs?: string; limit: number }) {
  const key = keyOf(params);
  const { outcomeId, fromVersion, startTs, endTs, limit } = params;
  return read(["markets", "orderbook-changes", key, outcomeId, { fromVersion, startTs, endTs, limit }], bookTags(params, outcomeId), () =>
    loaded(bookLogSql.getBookChanges({ ...key, outcomeId, fromVersion, startTs, endTs, limit })),
  );
}
