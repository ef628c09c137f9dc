// The reads of /v1 and of the pages' server prefetch, answered from memory when nothing they depend on
// changed since: the one module between lib/markets/queries.ts and its callers. Entries are keyed like
// the react-query keys and tagged by what they show; the NOTIFY stream that drives the push channels
// (lib/events/market-events.ts) says what changed, and `cacheInvalidation` turns that into tags.
// Readers never know whether an answer came from memory.
import "server-only";
import { LRUCache } from "lru-cache";
import { config } from "@/lib/config";
import { withDatabase } from "@/lib/db/breaker";
import { isDatabaseUnavailable } from "@/lib/db/errors";
import { batchLoads } from "@/lib/cache/batch-loads";
import { packJson } from "@/lib/cache/json-shapes";
import type { Json } from "@/lib/cache/representation";
import { recordCheck, recordResult, recordTags, recordUnfit } from "@/lib/cache/render-record";
import { reportCacheResult } from "@/lib/cache/request-status";
import { ResponseCache, type CacheResult, type CacheStatus, type Loaded } from "@/lib/cache/response-cache";
import type { ChangeSubscriber } from "@/lib/events/change-stream";
import type { MarketEvent, MarketGroup } from "@/lib/events/market-events";
import { shared } from "@/lib/process-state";
import { type CandleWindow, candleWindow, windowExpiresAt } from "./candles";
import { ListIndex, listIndex, type ListSlice } from "./list-index";
import { listPageOf } from "./list-page";
import * as queries from "./queries";
import { OutcomeNotFound } from "./errors";
import {
  HISTORY_DEFAULT_WINDOW_S,
  isUuid,
  type CandlesBatchQuery,
  type CandlesQuery,
  type MarketListItem,
  type MarketListQuery,
  type MarketListResponse,
  type Outcome,
  type PriceHistory,
  type PriceHistoryQuery,
} from "./schemas";
import { leadingOutcome, moveOf, type Move } from "@/lib/ui/moves";

type MarketKey = queries.MarketKey;

// One cache per process (lib/process-state.ts): Next bundles route handlers and pages apart from server.ts, which feeds it.
// Its budget is CACHE_MAX_MB of JSON (CACHE=off: none); CACHE_STALE_IF_ERROR_S bounds serving stale (lib/config.ts).
export function marketCache(): ResponseCache {
  return shared("marketsCache", () => {
    const { CACHE, CACHE_MAX_MB, CACHE_STALE_IF_ERROR_S, CACHE_CHECK_JSON } = config();
    return new ResponseCache({
      maxBytes: CACHE ? Math.floor(CACHE_MAX_MB * 1024 * 1024 * (1 - KEPT_PAGES_SHARE)) : 0,
      checkJson: CACHE_CHECK_JSON,
      staleIfErrorMs: CACHE_STALE_IF_ERROR_S * 1000,
      canServeStale: isDatabaseUnavailable,
    });
  });
}

// ------------------------------------------------------------------ tags: what an entry shows

const LIST = "list"; // every list SQL answered (TRENDING, sub-category, searches) and the watchlist's: any market's visible change
const LIST_BY_LIQUIDITY = "list:LIQUIDITY"; // lists ordered by a value that resting orders move
const RELATED = "related"; // every related-markets list: a change whose market's group is not known
const LIST_MEMBERS = "list:members"; // which markets each list holds (the sub-category counts): a market moved, added or removed

/**
 * The tags of a related-markets group (listRelatedGroup: its category, and its sub-category or any of its
 * tags), and of the changes that can touch it: a market's change drops the groups it matches, by the
 * groups the change announces (migration 0017: before and after, when it moved), as the same tags.
 */
export function relatedTags(g: MarketGroup): string[] {
  const tags = g.subCategory ? [`rel:${g.category}:s:${g.subCategory}`] : [];
  for (const t of g.tags) tags.push(`rel:${g.category}:t:${t}`);
  return tags;
}
const marketTag = (key: MarketKey) => ("id" in key ? `market:m:${key.id}` : `market:s:${key.slug}`);
const bookTags = (key: MarketKey, outcomeId: string) => [`book:o:${outcomeId}`, `book:${marketTag(key)}`];
const historyTags = (key: MarketKey, outcomeId: string) => [`hist:o:${outcomeId}`, `hist:${marketTag(key)}`];
const keyOf = (key: MarketKey) => ("id" in key ? { id: key.id } : { slug: key.slug });

/** A cache answer, told to the request's X-Cache status and to the page render in progress (if any). */
function noteResult(result: CacheResult<unknown>) {
  reportCacheResult(result);
  recordResult(result);
}

async function read<T>(key: unknown[], tags: string[], load: () => Promise<Loaded<T>>): Promise<T> {
  // A page render in progress learns what it shows (lib/cache/render-record.ts): the tags before the read
  // starts, so a change announced while it loads keeps the rendered page from being stored.
  recordTags(tags);
  // Loads go through the breaker (fast 503s while the database is away, a deadline per load); a load
  // that fails for an outage may be answered by the entry it would have replaced (stale-if-error).
  const result = await marketCache()
    .get(JSON.stringify(key), tags, () => withDatabase(load))
    .catch((err) => {
      recordUnfit("a failed read");
      throw err;
    });
  noteResult(result);
  return result.value;
}

const loaded = async <T>(value: Promise<T>): Promise<Loaded<T>> => ({ value: await value });

// ------------------------------------------------------------------ reads

export async function listMarkets(query: MarketListQuery): Promise<MarketListResponse> {
  const fromMemory = ListIndex.covers(query) ? await listFromIndex(query) : null;
  if (fromMemory) return fromMemory;
  const tags = query.sortBy === "LIQUIDITY" ? [LIST, LIST_BY_LIQUIDITY] : [LIST];
  return read(["markets", "list", query], tags, async () => {
    if (query.sortBy !== "TRENDING") return loaded(queries.listMarkets(query));
    // TRENDING subtracts trades as they turn 24 h old: the answer holds until the next one does.
    const [value, nextAging] = await Promise.all([queries.listMarkets(query), queries.nextTrendingChange()]);
    return { value, expiresAt: nextAging ?? undefined };
  });
}

/**
 * A stored-order list of any key: the in-memory order's slice (lib/markets/list-index.ts) and items shared
 * by every page, each an entry of its own, fresh with its market. Not kept as a page: with thousands of
 * keys (crawlers, the long tail) pages would only push the items out, and a page costs no more to put
 * together than to look up. Null when the order cannot answer (being built, stream lost): SQL does.
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

/**
 * The pages put together lately, by the items they were made of: asked again with the same items (the
 * same Buffers, compared by identity) and total, the same Json is handed out, so its body and ETag are
 * not made again (lib/cache/representation.ts). Validated on every read, so never staler than
 * its parts. A page is kept only once its key comes back: the long tail's keys, asked once, must not keep
 * their pages alive (each would survive into the old generation and cost the collector twice). A page kept
 * holds its JSON as UTF-8 bytes (lib/markets/list-page.ts), weighed in KEPT_PAGES_SHARE of the budget.
 */
function composePage(query: MarketListQuery, total: number, results: CacheResult<Buffer | null>[]): Json<MarketListResponse> {
  const composed = keptPages();
  const key = JSON.stringify(query);
  const parts = results.map((r) => r.value);
  const last = composed.get(key);
  const same = last !== undefined && last.total === total && last.parts.length === parts.length && last.parts.every((p, i) => p === parts[i]);
  if (same && last.page) return last.page;
  const page = listPageOf(parts, total, query.limit, query.offset, same);
  composed.set(key, { parts, total, page: same ? page : null });
  return page;
}

/** The share of CACHE_MAX_MB for the list pages kept (the response cache has the rest): 4.7 MB of 150, ~80 pages of 20 items. */
export const KEPT_PAGES_SHARE = 1 / 32;

/** A list key's last page: the items it was made of, and the page itself once the key came back with them. */
export interface KeptPage {
  parts: (Buffer | null)[];
  total: number;
  page: Json<MarketListResponse> | null;
}

/** The list pages kept, per process (lib/process-state.ts: its bytes are stated with the caches'). */
export function keptPages(): LRUCache<string, KeptPage> {
  return shared("listPages", () => {
    const { CACHE, CACHE_MAX_MB } = config();
    return new LRUCache<string, KeptPage>({
      max: 512,
      maxSize: Math.max(1, Math.floor((CACHE ? CACHE_MAX_MB * 1024 * 1024 : 0) * KEPT_PAGES_SHARE)),
      // Its key, record and parts (~400 bytes), and a kept page's bytes, made now (it is asked for them next).
      sizeCalculation: (e) => 400 + e.parts.length * 8 + (e.page ? e.page.text.length : 0),
    });
  });
}

/** At most this many list items in one statement (a flood of pages in one turn becomes several). */
const ITEMS_PER_LOAD = 500;

/**
 * The list items missed by every page read in one turn of the loop, loaded together: under load many
 * requests are read in one turn, and one statement for all of their misses costs the main thread far
 * less than one each (each is a write to the database's socket and a result to parse). The statement
 * starts after every request of the turn asked, so it reads at least as late as each of them would have.
 */
const loadItem = batchLoads(
  async (ids: string[]) => {
    const items = new Map<string, Buffer>();
    await queries.eachMarketListItem(ids, (item) => items.set(item.id, packJson(item)));
    return items;
  },
  (id: string) => id,
  ITEMS_PER_LOAD,
);

/**
 * Markets as list items, each one entry tagged with its market alone (id and slug: every event of the
 * market names one of them), so one change drops one item, not every page that shows it. The misses
 * load together (loadItem). Kept packed (lib/cache/json-shapes.ts: its strings and numbers, the keys
 * once per process), about 60% of its JSON, as bytes outside V8's heap, which the collector never copies
 * or marks: as strings, each item loaded in the long tail survived two scavenges and was copied into the
 * old generation (the `wide` mix promoted ~28 MB per scavenge, whose pauses grew to 30-120 ms, and the
 * heap to 840 MB; README, "Performance at 100,000 markets"). A page unpacks its items into its text
 * (lib/markets/list-page.ts): ~0.15 ms for 20, where a page's misses (a third of its items, when the
 * `wide` mix's did not fit) had cost the main thread ~0.5 ms and the database more.
 */
function listItems(markets: ListSlice["markets"]): Promise<CacheResult<Buffer | null>[]> {
  const loadOne = async (id: string): Promise<Loaded<Buffer | null>> => {
    const bytes = await loadItem(id);
    // Gone since the order was read (its removal is being announced): not shown, not kept.
    return bytes ? { value: bytes } : { value: null, expiresAt: 0 };
  };
  return Promise.all(
    markets.map(({ id, slug }) => {
      const tags = [`market:m:${id}`, `market:s:${slug}`];
      recordTags(tags);
      return marketCache().get(`["markets","item","${id}"]`, tags, () => withDatabase(() => loadOne(id)));
    }),
  ).catch((err) => {
    recordUnfit("a failed read");
    throw err;
  });
}

/**
 * The list items of `markets` in memory, loaded as a page's are (the same entries, tags and batched loads)
 * where they are not: a warm-up (lib/markets/item-warm-up.ts). What is in memory is only looked up, so a
 * market asked last is the most recent in the LRU.
 */
export async function warmListItems(markets: ListSlice["markets"]): Promise<void> {
  await listItems(markets);
}

export function listSubCategories(params: { status: string; category?: string }) {
  return read(["markets", "sub-categories", params], [LIST_MEMBERS], () => loaded(queries.listSubCategories(params)));
}

export function getMarket(key: MarketKey) {
  return read(["markets", "detail", keyOf(key)], [marketTag(key)], async () => {
    const value = await queries.getMarket(key);
    // "No such market" is not kept: a market created later announces itself only to the lists.
    return { value, expiresAt: value === null ? 0 : undefined };
  });
}

/** The book of one outcome with its version and checksum (one entry: the header never disagrees with the body). */
export function getVersionedOrderBook(params: MarketKey & { outcomeId: string }) {
  const key = keyOf(params);
  return read(["markets", "orderbook", key, params.outcomeId], bookTags(params, params.outcomeId), () =>
    loaded(queries.getOrderBook({ ...key, outcomeId: params.outcomeId })),
  );
}

export async function getOrderBook(params: MarketKey & { outcomeId: string }) {
  return (await getVersionedOrderBook(params)).book;
}

export function getPriceHistory(params: MarketKey & PriceHistoryQuery) {
  const key = keyOf(params);
  const { outcomeId, startTs, endTs, fidelity } = params;
  return read(["markets", "history", key, outcomeId, { startTs, endTs, fidelity }], historyTags(params, outcomeId), async () => {
    const value = await queries.getPriceHistory({ ...key, outcomeId, startTs, endTs, fidelity });
    return { value, expiresAt: historyExpiry(value, startTs) };
  });
}

/**
 * Without startTs the window starts 7 days before now, so its oldest point leaves it as time passes.
 * (Points carry their bucket's start, never later than the trade: this expires early, never late.)
 */
function historyExpiry(value: PriceHistory, startTs: number | undefined): number | undefined {
  const oldest = value.history[0]?.t;
  return startTs === undefined && oldest !== undefined ? (oldest + HISTORY_DEFAULT_WINDOW_S) * 1000 : undefined;
}

// ------------------------------------------------------------------ invalidation: what a change touches

/** The tags one announced change makes stale, or "all" when it does not say what it touched. */
export function tagsOf(event: MarketEvent): string[] | "all" {
  const markets = [event.slug && `market:s:${event.slug}`, event.marketId && `market:m:${event.marketId}`].filter(Boolean) as string[];
  const outcome = event.outcomeId;
  // What lists show changed: the lists, and the related-markets lists the market is (or was) in.
  const lists = [LIST, ...(event.groups ? event.groups.flatMap(relatedTags) : [RELATED])];
  switch (event.kind) {
    case "trade":
    case "trade_edit": // an outcome's trades: its price, history and book (a fill), the market's volume, the lists
      return [...lists, ...markets, ...(outcome ? [`hist:o:${outcome}`, `book:o:${outcome}`] : [])];
    case "price": // probabilities or names of one outcome; without one, a market's visible fields (its place too: then two groups)
      if (outcome) return [...lists, ...markets, `hist:o:${outcome}`, `book:o:${outcome}`];
      return [...lists, ...(event.groups?.length === 1 ? [] : [LIST_MEMBERS]), ...markets];
    case "orderbook": // resting orders or a venue's book: the book, the market's liquidity, lists by liquidity
      return [LIST_BY_LIQUIDITY, ...markets, ...(outcome ? [`book:o:${outcome}`] : markets.map((t) => `book:${t}`))];
    case "detail": // comments, counters: what the market and the lists show, not its books or histories
      return [...lists, ...markets];
    case "market": // outcomes added or removed, a renamed, re-sourced or deleted market: everything of it
      return [...lists, LIST_MEMBERS, ...markets, ...markets.flatMap((t) => [`book:${t}`, `hist:${t}`])];
    case "list": // markets added: no existing entry shows them but the lists (related ones by the new markets' groups)
      return [...lists, LIST_MEMBERS];
    case "flush": // users, truncations, and kinds this build does not know
      return "all";
  }
}

/**
 * The cache's subscription to the change stream (lib/events/change-stream.ts): it drops what a change
 * touched, and answers from memory only while the stream is heard.
 */
export const cacheInvalidation: ChangeSubscriber = {
  event(event) {
    const tags = tagsOf(event);
    if (tags === "all") marketCache().invalidateAll();
    else marketCache().invalidate(tags);
  },
  listening: () => marketCache().setLive(true),
  lost: () => marketCache().setLive(false),
};
// ================================================================ trade tape and batches (issue #21)
// Same reads, same tags as above: a trade announces "trade" with its market and outcome, which drops
// the market's tags (the tapes of the whole market) and `hist:o:<outcome>` (that outcome's tapes).

/** What a tape shows: the whole market's trades (its market tag), or one outcome's (its history tags). */
const tapeTags = (key: MarketKey, outcomeId: string | undefined) => (outcomeId ? historyTags(key, outcomeId) : [marketTag(key)]);

export function getTrades(params: MarketKey & queries.TradesParams) {
  const key = keyOf(params);
  const { outcomeId, limit, before, after } = params;
  return read(["markets", "trades", key, outcomeId ?? null, { limit, before, after }], tapeTags(params, outcomeId), () =>
    loaded(queries.listTrades({ ...key, outcomeId, limit, before, after })),
  );
}

/**
 * The trades of a market (of one outcome when `outcomeId` is given) newer than the cursor `after`,
 * at most `limit`, newest first, from memory when nothing traded since: what a push signal attaches.
 */
export function getTradesAfter(params: { marketId: string; outcomeId?: string; after: string; limit: number }) {
  return getTrades({ id: params.marketId, outcomeId: params.outcomeId, after: params.after, limit: params.limit });
}

/**
 * Reads many outcomes through the entries their single reads use (the market addressed by id), so
 * a hit costs nothing and a batch warms the single endpoints: one lookup of the outcomes, then the
 * misses loaded together, in one query, by `loadMany`. Returns the read of one id; an unknown id
 * rejects with OutcomeNotFound (the batch reports it in its item).
 */
async function readEach<V>(
  outcomeIds: readonly string[],
  entry: (o: queries.OutcomeOfMarket) => { key: unknown[]; tags: string[] },
  loadMany: (outcomes: queries.OutcomeOfMarket[]) => Promise<Map<string, Loaded<V>>>,
): Promise<(outcomeId: string) => Promise<V>> {
  // The one read here that is not an entry: a render that sees it fail, or an id it does not know, is not kept.
  const outcomes = await withDatabase(() => queries.outcomesById(outcomeIds)).catch((err) => {
    recordUnfit("a failed outcome lookup");
    throw err;
  });
  const loadOne = batchLoads(loadMany, (o: queries.OutcomeOfMarket) => o.outcome_id);
  return (outcomeId) => {
    const o = outcomes.get(outcomeId);
    if (!o) {
      recordUnfit("an unknown outcome");
      return Promise.reject(new OutcomeNotFound());
    }
    const { key, tags } = entry(o);
    return read(key, tags, async () => (await loadOne(o))!);
  };
}

/** The book of each outcome, as getOrderBook({id: its market, outcomeId}) reads it. */
export function orderBookReader(outcomeIds: readonly string[]) {
  return readEach(
    outcomeIds,
    (o) => ({ key: ["markets", "orderbook", { id: o.market_id }, o.outcome_id], tags: bookTags({ id: o.market_id }, o.outcome_id) }),
    async (outcomes) => new Map([...(await queries.getOrderBooks(outcomes))].map(([id, value]) => [id, { value }])),
  );
}

/** The price history of each outcome over one window, as getPriceHistory({id: its market, outcomeId, …}) reads it. */
export function priceHistoryReader(outcomeIds: readonly string[], window: Pick<PriceHistoryQuery, "startTs" | "endTs" | "fidelity">) {
  const { startTs, endTs, fidelity } = window;
  return readEach(
    outcomeIds,
    (o) => ({
      key: ["markets", "history", { id: o.market_id }, o.outcome_id, { startTs, endTs, fidelity }],
      tags: historyTags({ id: o.market_id }, o.outcome_id),
    }),
    async (outcomes) => {
      const histories = await queries.getPriceHistories(
        outcomes.map((o) => o.outcome_id),
        window,
      );
      return new Map([...histories].map(([id, value]) => [id, { value, expiresAt: historyExpiry(value, startTs) }]));
    },
  );
}

// ================================================================ candles (docs/api.md "Candles")
// Tagged like the history: a trade announces "trade" (an edit "trade_edit") with its outcome, which drops
// hist:o:<outcome> (tagsOf above). Keyed by the window the request resolves to, so a default window
// (endTs = now) moves to a new key at each interval boundary, and expires then.

const candleWindowKey = (w: CandleWindow) => ({ interval: w.interval, from: w.from, first: w.first, last: w.last });
/** Keys and tags hold ids as PostgreSQL prints them (lowercase), whatever case the request used. */
const idOf = (id: string) => (isUuid(id) ? id.toLowerCase() : id);
const candlesEntry = (key: MarketKey, outcomeId: string, window: CandleWindow) => ({
  key: ["markets", "candles", key, outcomeId, candleWindowKey(window)],
  tags: historyTags(key, outcomeId),
});

export function getCandles(params: MarketKey & CandlesQuery) {
  const key = "id" in params ? { id: idOf(params.id) } : { slug: params.slug };
  const outcomeId = idOf(params.outcomeId);
  const window = candleWindow(params, params.interval, Date.now() / 1000);
  const entry = candlesEntry(key, outcomeId, window);
  return read(entry.key, entry.tags, async () => ({
    value: await queries.getCandles({ ...key, outcomeId, window }),
    expiresAt: windowExpiresAt(params, window),
  }));
}

/** The candles of each outcome over one window, as getCandles({id: its market, outcomeId, …}) reads them. */
export function candlesReader(outcomeIds: readonly string[], query: Omit<CandlesBatchQuery, "outcomeIds">) {
  const window = candleWindow(query, query.interval, Date.now() / 1000);
  return readEach(
    outcomeIds,
    (o) => candlesEntry({ id: o.market_id }, o.outcome_id, window),
    async (outcomes) => {
      const sets = await queries.getCandleSets(
        outcomes.map((o) => o.outcome_id),
        window,
      );
      return new Map([...sets].map(([id, value]) => [id, { value, expiresAt: windowExpiresAt(query, window) }]));
    },
  );
}

// ================================================================ book versions and past books (issue #22)
// The versions of a market's books change with any of its books: the market's tags (every orderbook,
// trade and market event names them). A past book at a time before its outcome's latest version never
// changes; it is still tagged with its book, because whether it is final is learnt only when it is read.

/** Every outcome's book version of a market: what a heartbeat on its orderbook channel carries. */
export function getBookVersions(params: { slug: string }) {
  return read(["markets", "book-versions", params.slug], [marketTag(params)], () => loaded(queries.getBookVersions(params)));
}

export function getBookAt(params: MarketKey & { outcomeId: string; ts: string }) {
  const key = keyOf(params);
  return read(["markets", "orderbook-at", key, params.outcomeId, params.ts], bookTags(params, params.outcomeId), () =>
    loaded(queries.getBookAt({ ...key, outcomeId: params.outcomeId, ts: params.ts })),
  );
}

export function getBookChanges(params: MarketKey & { outcomeId: string; fromVersion?: number; startTs?: string; endTs?: string; limit: number }) {
  const key = keyOf(params);
  const { outcomeId, fromVersion, startTs, endTs, limit } = params;
  return read(["markets", "orderbook-changes", key, outcomeId, { fromVersion, startTs, endTs, limit }], bookTags(params, outcomeId), () =>
    loaded(queries.getBookChanges({ ...key, outcomeId, fromVersion, startTs, endTs, limit })),
  );
}

// ------------------------------------------------------------------ follow, share and embed (#24)
// Reads of the pages alone (never /v1): the watchlist's markets, the day-ago prices of "what moved",
// related markets. Same cache, same invalidation as the reads above.

/** The watchlist's markets: shown like the lists, so dropped whenever a list is (any visible change). */
export function listMarketsByIds(ids: string[]) {
  const sorted = [...new Set(ids)].sort();
  return read(["markets", "by-ids", sorted], [LIST], () => loaded(queries.listMarketsByIds(sorted)));
}

/**
 * The day-ago prices of these outcomes (lib/ui/moves.ts turns them into a move). Only trades of these
 * outcomes or markets change them, or time: the answer expires when its next trade turns a day old.
 */
export function getDayAgoPrices(outcomes: { marketId: string; outcomeId: string }[]) {
  const ids = [...new Set(outcomes.map((o) => o.outcomeId))].sort();
  const tags = [...new Set(outcomes.flatMap((o) => [`hist:o:${o.outcomeId}`, `market:m:${o.marketId}`]))];
  return read(["markets", "day-ago", ids], tags, async () => {
    const { prices, changesAt } = await queries.getDayAgoPrices(ids);
    return { value: prices, expiresAt: changesAt ?? undefined };
  });
}

/**
 * Related markets of one market: up to six of its group (queries.listRelatedGroup) besides itself. Every
 * market with the same category, sub-category and tags shares the group's entry, so a page of a market
 * nobody opened before finds it in memory. They show volumes and probabilities of others: dropped with the lists.
 */
export async function listRelatedMarkets(m: { id: string; category: MarketDetailCategory; sub_category: string; tags: string[] }) {
  const tags = [...new Set(m.tags)].sort();
  // Dropped by a change of a market it could show (same category, sub-category or a tag: relatedTags), not by any change.
  const entryTags = [RELATED, ...relatedTags({ category: m.category, subCategory: m.sub_category, tags })];
  const group = await read(["markets", "related", m.category, m.sub_category, tags], entryTags, () =>
    loaded(queries.listRelatedGroup({ category: m.category, sub_category: m.sub_category, tags })),
  );
  return group.filter((r) => r.id !== m.id).slice(0, queries.RELATED_MAX);
}

type MarketDetailCategory = Parameters<typeof queries.listRelatedGroup>[0]["category"];

/** Each market's move (lib/ui/moves.ts), by market id: one cached read for the leading outcomes of the page. */
export async function getMoves(markets: { id: string; outcomes: Outcome[] }[]): Promise<Record<string, Move | null>> {
  const leads = markets.flatMap((m) => {
    const lead = leadingOutcome(m.outcomes);
    return lead ? [{ marketId: m.id, outcomeId: lead.id }] : [];
  });
  const prices = leads.length ? await getDayAgoPrices(leads) : {};
  return Object.fromEntries(markets.map((m) => [m.id, moveOf(m.outcomes, prices)]));
}
