// The reads of /v1 and of the pages' server prefetch, answered from memory when nothing they depend on
// changed since: the one module between lib/markets/queries.ts and its callers. Entries are keyed like
// the react-query keys and tagged by what they show; the NOTIFY stream that drives the push channels
// (migrations 0002 and 0006) says what changed, and `invalidateFromNotification` turns that into tags.
// Readers never know whether an answer came from memory.
import { withDatabase } from "@/lib/db/breaker";
import { isDatabaseUnavailable } from "@/lib/db/errors";
import { reportCacheResult } from "@/lib/cache/request-status";
import { ResponseCache, type Loaded } from "@/lib/cache/response-cache";
import { answerEach } from "@/lib/api/batch";
import { type CandleWindow, candleWindow, windowExpiresAt } from "./candles";
import { OutcomeNotFound } from "./errors";
import * as queries from "./queries";
import {
  HISTORY_DEFAULT_WINDOW_S,
  isUuid,
  type Candles,
  type CandlesBatch,
  type CandlesBatchQuery,
  type CandlesQuery,
  type MarketListQuery,
  type PriceHistoryQuery,
} from "./schemas";
import { candlesOf } from "./serialize";

type MarketKey = queries.MarketKey;

/** Budget of the values held, in bytes of JSON (`CACHE_MAX_MB`, default 64). */
const MAX_BYTES = Number(process.env.CACHE_MAX_MB ?? 64) * 1024 * 1024;
/** How long an invalidated answer may still be served while the database is away (`CACHE_STALE_IF_ERROR_S`). */
export const STALE_IF_ERROR_S = Number(process.env.CACHE_STALE_IF_ERROR_S ?? 300);

// One cache per process: Next bundles route handlers and pages apart from server.ts, which feeds it.
const g = globalThis as unknown as { __marketsCache?: ResponseCache };
export function marketCache(): ResponseCache {
  g.__marketsCache ??= new ResponseCache({
    maxBytes: process.env.CACHE === "off" ? 0 : MAX_BYTES,
    staleIfErrorMs: STALE_IF_ERROR_S * 1000,
    canServeStale: isDatabaseUnavailable,
  });
  return g.__marketsCache;
}

// ------------------------------------------------------------------ tags: what an entry shows

const LIST = "list"; // every list and sub-category count: any market's visible change
const LIST_BY_LIQUIDITY = "list:LIQUIDITY"; // lists ordered by a value that resting orders move
const marketTag = (key: MarketKey) => ("id" in key ? `market:m:${key.id}` : `market:s:${key.slug}`);
const bookTags = (key: MarketKey, outcomeId: string) => [`book:o:${outcomeId}`, `book:${marketTag(key)}`];
const historyTags = (key: MarketKey, outcomeId: string) => [`hist:o:${outcomeId}`, `hist:${marketTag(key)}`];
const keyOf = (key: MarketKey) => ("id" in key ? { id: key.id } : { slug: key.slug });

async function read<T>(key: unknown[], tags: string[], load: () => Promise<Loaded<T>>): Promise<T> {
  // Loads go through the breaker (fast 503s while the database is away, a deadline per load); a load
  // that fails for an outage may be answered by the entry it would have replaced (stale-if-error).
  const result = await marketCache().get(JSON.stringify(key), tags, () => withDatabase(load));
  reportCacheResult(result);
  return result.value;
}

const loaded = async <T>(value: Promise<T>): Promise<Loaded<T>> => ({ value: await value });

// ------------------------------------------------------------------ reads

export function listMarkets(query: MarketListQuery) {
  const tags = query.sortBy === "LIQUIDITY" ? [LIST, LIST_BY_LIQUIDITY] : [LIST];
  return read(["markets", "list", query], tags, async () => {
    if (query.sortBy !== "TRENDING") return loaded(queries.listMarkets(query));
    // TRENDING subtracts trades as they turn 24 h old: the answer holds until the next one does.
    const [value, nextAging] = await Promise.all([queries.listMarkets(query), queries.nextTrendingChange()]);
    return { value, expiresAt: nextAging ?? undefined };
  });
}

export function listSubCategories(params: { status: string; category?: string }) {
  return read(["markets", "sub-categories", params], [LIST], () => loaded(queries.listSubCategories(params)));
}

export function getMarket(key: MarketKey) {
  return read(["markets", "detail", keyOf(key)], [marketTag(key)], async () => {
    const value = await queries.getMarket(key);
    // "No such market" is not kept: a market created later announces itself only to the lists.
    return { value, expiresAt: value === null ? 0 : undefined };
  });
}

export function getOrderBook(params: MarketKey & { outcomeId: string }) {
  const key = keyOf(params);
  return read(["markets", "orderbook", key, params.outcomeId], bookTags(params, params.outcomeId), () =>
    loaded(queries.getOrderBook({ ...key, outcomeId: params.outcomeId })),
  );
}

export function getPriceHistory(params: MarketKey & PriceHistoryQuery) {
  const key = keyOf(params);
  const { outcomeId, startTs, endTs, fidelity } = params;
  return read(["markets", "history", key, outcomeId, { startTs, endTs, fidelity }], historyTags(params, outcomeId), async () => {
    const value = await queries.getPriceHistory({ ...key, outcomeId, startTs, endTs, fidelity });
    // Without startTs the window starts 7 days before now, so its oldest point leaves it as time passes.
    // (Points carry their bucket's start, never later than the trade: this expires early, never late.)
    const oldest = value.history[0]?.t;
    return { value, expiresAt: startTs === undefined && oldest !== undefined ? (oldest + HISTORY_DEFAULT_WINDOW_S) * 1000 : undefined };
  });
}

// ------------------------------------------------------------------ invalidation: what a change touches

/** A `market_events` payload: kind, slug, market id, outcome id (or null for the whole market). */
export interface MarketEvent {
  k: string;
  s?: string | null;
  m?: string | null;
  o?: string | null;
}

/** The tags one announced change makes stale, or "all" when it does not say what it touched. */
export function tagsOf(event: MarketEvent): string[] | "all" {
  const markets = [event.s && `market:s:${event.s}`, event.m && `market:m:${event.m}`].filter(Boolean) as string[];
  const outcome = event.o;
  switch (event.k) {
    case "price": // trades and probabilities or names of one outcome; without one, a market's visible fields
      return [LIST, ...markets, ...(outcome ? [`hist:o:${outcome}`, `book:o:${outcome}`] : [])];
    case "orderbook": // resting orders or a venue's book: the book, the market's liquidity, lists by liquidity
      return [LIST_BY_LIQUIDITY, ...markets, ...(outcome ? [`book:o:${outcome}`] : markets.map((t) => `book:${t}`))];
    case "detail": // comments, counters: what the market and the lists show, not its books or histories
      return [LIST, ...markets];
    case "market": // outcomes added or removed, a renamed, re-sourced or deleted market: everything of it
      return [LIST, ...markets, ...markets.flatMap((t) => [`book:${t}`, `hist:${t}`])];
    case "list": // markets added: no existing entry shows them but the lists
      return [LIST];
    case "ping": // another instance's listener heartbeat
      return [];
    default: // "flush" (users, truncations) and anything unknown
      return "all";
  }
}

export function invalidateFromNotification(payload: Record<string, unknown>) {
  if (typeof payload.k !== "string") return;
  const tags = tagsOf(payload as unknown as MarketEvent);
  if (tags === "all") marketCache().invalidateAll();
  else marketCache().invalidate(tags);
}

// ------------------------------------------------------------------ candles (docs/api.md "Candles")
// Tagged like the history: a trade announces "price" with its outcome, which drops hist:o:<outcome>
// (tagsOf above). Keyed by the window the request resolves to, so a default window (endTs = now)
// moves to a new key at each interval boundary, and expires then.

const candleWindowKey = (w: CandleWindow) => ({ interval: w.interval, from: w.from, first: w.first, last: w.last });
/** Tags and keys hold ids as PostgreSQL prints them (lowercase), whatever case the request used. */
const idOf = (id: string) => (isUuid(id) ? id.toLowerCase() : id);

export function getCandles(params: MarketKey & CandlesQuery) {
  const key = "id" in params ? { id: idOf(params.id) } : { slug: params.slug };
  const outcomeId = idOf(params.outcomeId);
  const window = candleWindow(params, params.interval, Date.now() / 1000);
  return read(["markets", "candles", key, outcomeId, candleWindowKey(window)], historyTags(key, outcomeId), async () => ({
    value: await queries.getCandles({ ...key, outcomeId, window }),
    expiresAt: windowExpiresAt(params, window),
  }));
}

/**
 * Each outcome's candles as the single endpoint would answer them (without the market check), from
 * memory where it can; the misses in one query. An unknown or malformed id is its item's 404.
 */
export async function getCandlesBatch(query: Omit<CandlesBatchQuery, "outcomeIds"> & { outcomeIds: string[] }): Promise<CandlesBatch> {
  const window = candleWindow(query, query.interval, Date.now() / 1000);
  const misses: { id: string; done: (loaded: Promise<Loaded<Candles | null>>) => void }[] = [];
  const results = answerEach(query.outcomeIds, async (requested) => {
    if (!isUuid(requested)) throw new OutcomeNotFound();
    const id = idOf(requested);
    const value = await read(
      ["candles", id, candleWindowKey(window)],
      [`hist:o:${id}`],
      () =>
        new Promise<Loaded<Candles | null>>((resolve) => {
          misses.push({ id, done: resolve });
        }),
    );
    if (value === null) throw new OutcomeNotFound();
    return value;
  });
  // The cache starts a miss's load synchronously, so every miss has registered by now.
  if (misses.length) {
    const all = queries.getCandlesOfOutcomes(
      misses.map((m) => m.id),
      window,
    );
    for (const m of misses)
      m.done(
        all.then((found) => {
          const f = found.get(m.id);
          // "No such outcome" is not kept: an outcome created later announces itself only to its market's tags.
          if (!f) return { value: null, expiresAt: 0 };
          return { value: candlesOf(m.id, window, f.candles, f.olderBucket), expiresAt: windowExpiresAt(query, window) };
        }),
      );
  }
  const items = await results;
  return {
    items: items.map((r) => (r.error ? { outcome_id: r.id, candles: null, error: r.error } : (r.value as Candles))),
  };
}
