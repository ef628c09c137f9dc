// The lists (GET /v1/markets, the list page): from the in-memory order (lib/markets/list-index.ts) with
// items shared by every page when it covers the query (its shape, and a status it keeps), else from SQL as one entry per key; and the
// sub-category counts.
import "server-only";
import { config } from "@/lib/config";
import { isDatabaseUnavailable } from "@/lib/db/errors";
import { recordCheck } from "@/lib/cache/render-record";
import type { CacheStatus } from "@/lib/cache/response-cache";
import { listIndex, type ListSlice } from "@/lib/markets/list-index";
import type { MarketListQuery, MarketListResponse } from "@/lib/markets/schemas";
import * as listsSql from "@/lib/markets/sql/lists";
import { loaded, noteResult, read } from "../cache";
import { LIST, LIST_BY_LIQUIDITY, LIST_MEMBERS } from "../tags";
import { listItems } from "./items";
import { composePage } from "./kept-pages";

export async function listMarkets(query: MarketListQuery): Promise<MarketListResponse> {
  const fromMemory = listIndex().covers(query) ? await listFromIndex(query) : null;
  if (fromMemory) return fromMemory;
  const tags = query.sortBy === "LIQUIDITY" ? [LIST, LIST_BY_LIQUIDITY] : [LIST];
  return read(["markets", "list", query], tags, async () => {
    if (query.sortBy !== "TRENDING") return loaded(listsSql.listMarkets(query));
    // TRENDING subtracts trades as they turn 24 h old: the answer holds until the next one does.
    const [value, nextAging] = await Promise.all([listsSql.listMarkets(query), listsSql.nextTrendingChange()]);
    return { value, expiresAt: nextAging ?? undefined };
  });
}

/**
 * A stored-order list of any key: the in-memory order's slice (lib/markets/list-index.ts) and items shared
 * by every page, each an entry of its own, fresh with its market. Not kept as a page: with thousands of
 * keys (crawlers, the long tail) pages would only push the items out, and a page costs no more to put
 * together than to look up. Null when the order cannot answer (being built, stream lost, the status no longer kept): SQL does.
 */
async function listFromIndex(query: MarketListQuery): Promise<MarketListResponse | null> {
  let slice: ListSlice | null;
  let status: CacheStatus;
  try {
    slice = await listIndex().slice(query);
    status = slice?.refreshed ? "MISS" : "HIT";
  } catch (err) {
    // The changed markets could not be read: while the database is away, the order as it is (bounded like any stale answer).
    slice = isDatabaseUnavailable(err) ? listIndex().staleSlice(query, config().CACHE_STALE_IF_ERROR_S * 1000) : null;
    if (!slice) throw err;
    status = "STALE";
  }
  if (!slice) return null;
  // A page render records what it shows (lib/cache/render-record.ts): the page is shown again while its
  // slice is still the order's (a trade moves one market, and the pages it did not move past hold),
  // checked before each reuse with the changes announced by then read first; each item by its tags. A
  // search's slice too: its matches are kept while markets only move (list-index.ts), so the check is a
  // pass over them, and a change of a text or a status, which may change the matches, is read like any other.
  recordCheck(() => sliceCheck(query, slice));
  const results = await listItems(slice.markets);
  const page = composePage(query, slice.total, results);
  noteResult({ value: page.value, json: page, status, ageS: 0, expiresAt: Infinity });
  for (const result of results) noteResult(result);
  return page.value;
}

const sliceText = (slice: ListSlice) => `${slice.total} ${slice.markets.map((m) => m.id).join(" ")}`;

/** Whether the order still gives `query` the slice it gave (its ids and total), as of every change announced before the call. */
function sliceCheck(query: MarketListQuery, slice: ListSlice): () => Promise<boolean> {
  const seen = sliceText(slice);
  return async () => {
    const now = await listIndex()
      .slice(query)
      .catch(() => null);
    return now !== null && sliceText(now) === seen;
  };
}

export function listSubCategories(params: { status: string; category?: string }) {
  return read(["markets", "sub-categories", params], [LIST_MEMBERS], () => loaded(listsSql.listSubCategories(params)));
}
