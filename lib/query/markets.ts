// queryOptions factories for the web app: one per resource, keyed by marketKeys, fetching /v1 from the
// browser. Bodies are typed by the shared zod schemas but not parsed here: the server builds every
// response from those schemas (and its tests parse them), so zod stays out of the browser entirely.
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { marketKeys } from "./keys";
import type { Candle, Candles, MarketDetail, OrderBook, PriceHistory, PricePoint, TradeTape } from "@/lib/markets/schemas";
import { type HeldTape, heldTape } from "@/lib/markets/tape-follow";
import { ALL_RANGE_MAX_REQUESTS, type CandleRange, type HistoryRange } from "@/lib/ui/chart-ranges";

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The message of an error body ({statusCode, message: string | string[], error}), if it is one. */
function errorMessage(body: unknown): string | undefined {
  const message = (body as { message?: unknown } | null)?.message;
  const parts = [message].flat().filter((m): m is string => typeof m === "string");
  return parts.length ? parts.join("; ") : undefined;
}

/** A /v1 answer's body and headers; an error status or a body that is not JSON throws HttpError. */
export async function getJsonWithHeaders<T>(url: string, signal?: AbortSignal, cache: RequestCache = "no-cache"): Promise<{ body: T; headers: Headers }> {
  // /v1 responses allow short HTTP caching (for CDNs); the app refetches after push signals, so it
  // revalidates every time instead (a 304 on an unchanged ETag keeps that cheap).
  const res = await fetch(url, { signal, cache, headers: { accept: "application/json" } });
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) throw new HttpError(res.status, errorMessage(body) ?? (res.statusText || `HTTP ${res.status}`));
  // A body that is not JSON on a 200 (a proxy's page) is an error, not data.
  if (typeof body !== "object" || body === null) throw new HttpError(res.status, "Malformed response");
  return { body: body as T, headers: res.headers };
}

export async function getJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  return (await getJsonWithHeaders<T>(url, signal)).body;
}

const enc = encodeURIComponent;

export const marketDetailOptions = (slug: string) =>
  queryOptions({
    queryKey: marketKeys.detail(slug),
    queryFn: ({ signal }) => getJson<MarketDetail>(`/v1/markets/slug/${enc(slug)}`, signal),
  });

export const orderBookOptions = (slug: string, outcomeId: string) =>
  queryOptions({
    queryKey: marketKeys.orderBook(slug, outcomeId),
    queryFn: ({ signal }) => getJson<OrderBook>(`/v1/markets/slug/${enc(slug)}/orderbook?outcomeId=${enc(outcomeId)}`, signal),
  });

function historyUrl(slug: string, outcomeId: string, q: { startTs: number; endTs?: number; fidelity: number }) {
  const p = new URLSearchParams({ outcomeId, startTs: String(q.startTs), fidelity: String(q.fidelity) });
  if (q.endTs !== undefined) p.set("endTs", String(q.endTs));
  return `/v1/markets/slug/${enc(slug)}/prices-history?${p}`;
}

export const priceHistoryOptions = (slug: string, outcomeId: string, range: HistoryRange) =>
  queryOptions({
    queryKey: marketKeys.history(slug, outcomeId, range),
    queryFn: async ({ signal }) => walkBack(slug, outcomeId, range, (await getJson<PriceHistory>(historyUrl(slug, outcomeId, range), signal)).history, signal),
    placeholderData: keepPreviousData,
  });

/** "All": a request reads at most the 1,000 latest trades, so while the earliest point is later than the market's start plus one bucket, the old end was probably cut: ask again before it. */
export async function walkBack(slug: string, outcomeId: string, range: HistoryRange, first: PricePoint[], signal: AbortSignal): Promise<PricePoint[]> {
  let history = first;
  if (range.walkBackTo === undefined) return history;
  const bucketS = range.fidelity * 60;
  for (let i = 1; i < ALL_RANGE_MAX_REQUESTS && history.length > 0; i++) {
    const earliest = history[0].t;
    if (earliest <= range.walkBackTo + bucketS || earliest - 1 < range.startTs) break;
    const older = (await getJson<PriceHistory>(historyUrl(slug, outcomeId, { ...range, endTs: earliest - 1 }), signal)).history.filter((pt) => pt.t < earliest);
    if (older.length === 0) break;
    history = [...older, ...history];
  }
  return history;
}

/** Trades on the Activity panel's first page (in the server's response: twice the rows its box shows) and per older page. */
export const TAPE_FIRST_PAGE = 15;
export const TAPE_PAGE = 30;

export function tradesUrl(slug: string, q: { outcomeId?: string | null; before?: string; after?: string; limit?: number }) {
  const p = new URLSearchParams({ limit: String(q.limit ?? TAPE_PAGE) });
  if (q.outcomeId) p.set("outcomeId", q.outcomeId);
  if (q.before) p.set("before", q.before);
  if (q.after) p.set("after", q.after);
  return `/v1/markets/slug/${enc(slug)}/trades?${p}`;
}

export const getTradesPage = (url: string, signal?: AbortSignal) => getJson<TradeTape>(url, signal);

/**
 * The Activity panel's tape (one outcome's, or the market's with null): its first page, then kept by the
 * trades channel (lib/realtime/use-trades-channel.ts), which appends; never refetched on its own, which
 * would drop the older pages the reader loaded.
 */
export const tapeOptions = (slug: string, outcomeId: string | null) =>
  queryOptions({
    queryKey: marketKeys.tape(slug, outcomeId),
    queryFn: async ({ signal }): Promise<HeldTape> => heldTape(await getTradesPage(tradesUrl(slug, { outcomeId, limit: TAPE_FIRST_PAGE }), signal)),
    staleTime: Number.POSITIVE_INFINITY,
  });
