// queryOptions factories for the web app: one per resource, keyed by marketKeys, fetching /v1 from the
// browser. Bodies are typed by the shared zod schemas but not parsed here: the server builds every
// response from those schemas (and its tests parse them), so zod stays out of the browser entirely.
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { marketKeys } from "./keys";
import type { MarketDetail, OrderBook, PriceHistory, PricePoint } from "@/lib/markets/schemas";
import { ALL_RANGE_MAX_REQUESTS, type HistoryRange } from "@/lib/ui/chart-ranges";

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

async function getJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  // /v1 responses allow short HTTP caching (for CDNs); the app refetches after push signals, so it
  // revalidates every time instead (a 304 on an unchanged ETag keeps that cheap).
  const res = await fetch(url, { signal, cache: "no-cache", headers: { accept: "application/json" } });
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) throw new HttpError(res.status, errorMessage(body) ?? (res.statusText || `HTTP ${res.status}`));
  // A body that is not JSON on a 200 (a proxy's page) is an error, not data.
  if (typeof body !== "object" || body === null) throw new HttpError(res.status, "Malformed response");
  return body as T;
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

/** A past book with its version and that version's time (headers Book-Version, Book-Version-Time). */
export interface PastBook {
  book: OrderBook;
  version: number;
  /** ISO 8601; null for version 0 */
  versionAt: string | null;
}

/** The book of one outcome as it was at `ts` (unix seconds): docs/api.md "Past books". Immutable once later versions exist. */
export const bookAtOptions = (slug: string, outcomeId: string, ts: number) =>
  queryOptions({
    queryKey: marketKeys.bookAt(slug, outcomeId, ts),
    queryFn: async ({ signal }): Promise<PastBook> => {
      const res = await fetch(`/v1/markets/slug/${enc(slug)}/orderbook/at?outcomeId=${enc(outcomeId)}&ts=${ts}`, {
        signal,
        headers: { accept: "application/json" },
      });
      const body: unknown = await res.json().catch(() => null);
      if (!res.ok) throw new HttpError(res.status, errorMessage(body) ?? (res.statusText || `HTTP ${res.status}`));
      if (typeof body !== "object" || body === null) throw new HttpError(res.status, "Malformed response");
      return { book: body as OrderBook, version: Number(res.headers.get("Book-Version") ?? 0), versionAt: res.headers.get("Book-Version-Time") };
    },
    staleTime: Number.POSITIVE_INFINITY,
    retry: (count, err) => !(err instanceof HttpError && err.status < 500) && count < 2,
    placeholderData: keepPreviousData,
  });

/**
 * The versions and times (unix seconds) of a book's changes from startTs to endTs: docs/api.md "Past books"
 * (…/orderbook/changes). One page of up to 1,000, the earliest; enough to mark a scrubber.
 */
export const bookChangeTimesOptions = (slug: string, outcomeId: string, startTs: number, endTs: number) =>
  queryOptions({
    queryKey: marketKeys.bookChanges(slug, outcomeId, startTs, endTs),
    queryFn: async ({ signal }) => {
      const q = new URLSearchParams({ outcomeId, startTs: String(startTs), endTs: String(endTs), limit: "1000" });
      const body = await getJson<{ changes: Array<{ version: number; at: string }> }>(`/v1/markets/slug/${enc(slug)}/orderbook/changes?${q}`, signal);
      return body.changes.map((c) => ({ version: c.version, at: Date.parse(c.at) / 1000 }));
    },
    staleTime: Number.POSITIVE_INFINITY,
  });

function historyUrl(slug: string, outcomeId: string, q: { startTs: number; endTs?: number; fidelity: number }) {
  const p = new URLSearchParams({ outcomeId, startTs: String(q.startTs), fidelity: String(q.fidelity) });
  if (q.endTs !== undefined) p.set("endTs", String(q.endTs));
  return `/v1/markets/slug/${enc(slug)}/prices-history?${p}`;
}

export const priceHistoryOptions = (slug: string, outcomeId: string, range: HistoryRange) =>
  queryOptions({
    queryKey: marketKeys.history(slug, outcomeId, range),
    queryFn: async ({ signal }) => {
      let history: PricePoint[] = (await getJson<PriceHistory>(historyUrl(slug, outcomeId, range), signal)).history;
      if (range.walkBackTo === undefined) return history;
      // A request reads at most the 1,000 latest trades: when the earliest point is later than the
      // market's start plus one bucket, the old end was probably cut, so ask again before it.
      const bucketS = range.fidelity * 60;
      for (let i = 1; i < ALL_RANGE_MAX_REQUESTS && history.length > 0; i++) {
        const earliest = history[0].t;
        if (earliest <= range.walkBackTo + bucketS || earliest - 1 < range.startTs) break;
        const older = (await getJson<PriceHistory>(historyUrl(slug, outcomeId, { ...range, endTs: earliest - 1 }), signal)).history.filter(
          (pt) => pt.t < earliest,
        );
        if (older.length === 0) break;
        history = [...older, ...history];
      }
      return history;
    },
    placeholderData: keepPreviousData,
  });
