// Walking the paged endpoints: the market list by offset (paginate) and any cursor-paged answer (walkCursor).

export interface PaginateOptions {
  /** Markets per request, 1..100 (default 100). */
  pageSize?: number;
  /**
   * How many already-seen markets each request re-reads before its new ones (default a quarter of the page, at
   * most 10): where the last seen
   * market turns up again tells how far the list moved since the previous page, so a market that slid back across
   * the page boundary is not skipped.
   */
  overlap?: number;
  signal?: AbortSignal;
}

interface ListPage<T> {
  markets: T[];
  total: number;
}

interface ListReader<Q, T> {
  listMarkets: (options: { query: Q & { limit?: number; offset?: number }; signal?: AbortSignal }) => Promise<ListPage<T>>;
}

/**
 * Every market the filters select, once each, in the list's order, as an async iterator; stops at `total`.
 * Works on `api` and on `api.camel`. The list's order is total (every sort ends with the id), and markets
 * inserted or moved meanwhile shift the offsets: each request reads from `overlap` markets before the end of
 * the last page, finds the last market it yielded in the answer and carries on right after it; ids already
 * yielded are never yielded again. A 429 is waited out by the client as Retry-After says.
 */
export async function* paginate<Q extends object, T extends { id: string }>(
  api: ListReader<Q, T>,
  filters: Omit<Q, "limit" | "offset"> = {} as Omit<Q, "limit" | "offset">,
  options: PaginateOptions = {},
): AsyncGenerator<T, void, undefined> {
  const limit = Math.min(100, Math.max(1, options.pageSize ?? 100));
  const overlap = Math.min(limit - 1, Math.max(0, options.overlap ?? Math.min(10, Math.floor(limit / 4))));
  const seen = new Set<string>();
  const recent: string[] = []; // the last yielded ids, newest last: anchors to find in the next page
  let next = 0; // where the market after the last yielded one is believed to be
  let stuck = 0; // rounds in a row that neither yielded nor moved on
  for (;;) {
    // Re-read `overlap` markets before `next` to see where the last yielded ones are now; if none of them is
    // there, the list moved back further: look further back (at most three times). After three rounds without
    // progress (a list in upheaval), read on from `next` and rely on the seen ids alone.
    const anchored = overlap > 0 && recent.length > 0 && stuck < 3;
    let back = anchored ? overlap : 0;
    let start = next;
    let page: ListPage<T>;
    let from = 0; // index in the page where the new markets begin
    for (let widen = 0; ; widen++) {
      start = Math.max(0, next - back);
      page = await api.listMarkets({ query: { ...filters, limit, offset: start } as Q & { limit: number; offset: number }, signal: options.signal });
      if (!anchored || !page.markets.length) break;
      const ids = page.markets.map((m) => m.id);
      const anchor = recent.reduce((found, id) => Math.max(found, ids.indexOf(id)), -1);
      if (anchor >= 0) {
        from = anchor + 1;
        break;
      }
      if (start === 0 || widen === 3) break;
      back = Math.min(next, back * 2 + limit);
    }
    for (const market of page.markets.slice(from)) {
      if (seen.has(market.id)) continue;
      seen.add(market.id);
      recent.push(market.id);
      if (recent.length > overlap + 1) recent.shift();
      yield market;
    }
    const end = start + page.markets.length;
    if (!page.markets.length || end >= page.total) return;
    if (end > next) {
      stuck = 0;
      next = end;
    } else {
      // A window that ended before `next`: it found the list slid back (go on from the anchor) or found nothing.
      stuck++;
      if (from > 0) next = end;
    }
  }
}

export interface CursorPage<T, C> {
  items: T[];
  /** Where the next page starts, or null when this was the last. */
  next: C | null;
}

export interface WalkOptions<T> {
  /**
   * A key per item: an item whose key was yielded already is skipped. Off by default: keyset cursors neither
   * repeat nor skip, and remembering every key of a long walk costs memory.
   */
  key?: (item: T) => string | number;
}

/**
 * Every item of a cursor-paged endpoint, page after page, until its cursor is null: the trade tape
 * (`before` / `after` with `next_cursor`), candles (`endTs` with `next_end_ts`), any future one.
 *
 *     walkCursor((before) => api.listTradesBySlug({ path: { slug }, query: { before, limit: 100 } }),
 *                (page) => ({ items: page.trades, next: page.next_cursor }))
 */
export async function* walkCursor<P, T, C>(
  read: (cursor: C | undefined) => Promise<P>,
  pick: (page: P) => CursorPage<T, C>,
  options: WalkOptions<T> = {},
): AsyncGenerator<T, void, undefined> {
  const { key } = options;
  const seen = new Set<string | number>();
  let cursor: C | undefined;
  for (;;) {
    const { items, next } = pick(await read(cursor));
    for (const item of items) {
      if (key) {
        const k = key(item);
        if (seen.has(k)) continue;
        seen.add(k);
      }
      yield item;
    }
    if (next === null || next === undefined || next === cursor || !items.length) return;
    cursor = next;
  }
}
