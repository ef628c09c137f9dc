// queryOptions factories for the web app: one per resource, keyed by marketKeys, fetching /v1 from the
// browser and parsing every response with the shared zod schemas (responses are parsed, not trusted).
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import type { z } from "zod";
import { marketKeys } from "./keys";
import type { MarketListQuery, PricePoint } from "@/lib/markets/schemas";
import { queryToApiSearch } from "@/lib/ui/list-params";
import { ALL_RANGE_MAX_REQUESTS } from "@/lib/ui/chart-ranges";
import { LIST_REFRESH_MS } from "@/lib/markets/constants";

// The zod schemas load on the first client fetch, not with the page: first pages arrive hydrated
// (already parsed on the server), so zod stays out of the first-load JavaScript.
const schemas = () => import("./schemas-client");

export class HttpError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

type Schemas = Awaited<ReturnType<typeof schemas>>;

async function getJson<S extends z.ZodType>(url: string, pick: (s: Schemas) => S, signal?: AbortSignal): Promise<z.output<S>> {
  // /v1 responses allow short HTTP caching (for CDNs); the app refetches after push signals, so it
  // revalidates every time instead (a 304 on an unchanged ETag keeps that cheap).
  const [res, mod] = await Promise.all([fetch(url, { signal, cache: "no-cache", headers: { accept: "application/json" } }), schemas()]);
  const schema = pick(mod);
  const body = await res.json().catch(() => null);
  if (!res.ok) {
    const err = mod.errorBodySchema.safeParse(body);
    const msg = err.success ? [err.data.message].flat().join("; ") : res.statusText;
    throw new HttpError(res.status, msg || `HTTP ${res.status}`);
  }
  return schema.parse(body);
}

const enc = encodeURIComponent;

export const marketListOptions = (query: MarketListQuery) =>
  queryOptions({
    queryKey: marketKeys.list(query),
    queryFn: ({ signal }) => getJson(`/v1/markets?${queryToApiSearch(query)}`, (m) => m.marketListResponseSchema, signal),
    placeholderData: keepPreviousData,
    // The visible page follows trading on a slow cadence; pushes cover the market page.
    refetchInterval: LIST_REFRESH_MS,
  });

export const subCategoriesOptions = (params: { status: string; category?: string }) =>
  queryOptions({
    queryKey: marketKeys.subCategories(params),
    queryFn: ({ signal }) => {
      const p = new URLSearchParams({ status: params.status, ...(params.category ? { category: params.category } : {}) });
      return getJson(`/api/sub-categories?${p}`, (m) => m.subCategoriesSchema, signal);
    },
    staleTime: 5 * 60_000,
  });

export const marketDetailOptions = (slug: string) =>
  queryOptions({
    queryKey: marketKeys.detail(slug),
    queryFn: ({ signal }) => getJson(`/v1/markets/slug/${enc(slug)}`, (m) => m.marketDetailSchema, signal),
  });

export const orderBookOptions = (slug: string, outcomeId: string) =>
  queryOptions({
    queryKey: marketKeys.orderBook(slug, outcomeId),
    queryFn: ({ signal }) =>
      getJson(`/v1/markets/slug/${enc(slug)}/orderbook?outcomeId=${enc(outcomeId)}`, (m) => m.orderBookSchema, signal),
  });

export interface HistoryRange {
  startTs: number;
  fidelity: number;
  /** "All": keep walking back with smaller endTs while the start looks cut by the trade cap. */
  walkBackTo?: number;
}

function historyUrl(slug: string, outcomeId: string, q: { startTs: number; endTs?: number; fidelity: number }) {
  const p = new URLSearchParams({ outcomeId, startTs: String(q.startTs), fidelity: String(q.fidelity) });
  if (q.endTs !== undefined) p.set("endTs", String(q.endTs));
  return `/v1/markets/slug/${enc(slug)}/prices-history?${p}`;
}

export const priceHistoryOptions = (slug: string, outcomeId: string, range: HistoryRange) =>
  queryOptions({
    queryKey: marketKeys.history(slug, outcomeId, range),
    queryFn: async ({ signal }) => {
      let history: PricePoint[] = (await getJson(historyUrl(slug, outcomeId, range), (m) => m.priceHistorySchema, signal)).history;
      if (range.walkBackTo === undefined) return history;
      // A request reads at most the 1,000 latest trades: when the earliest point is later than the
      // market's start plus one bucket, the old end was probably cut, so ask again before it.
      const bucketS = range.fidelity * 60;
      for (let i = 1; i < ALL_RANGE_MAX_REQUESTS && history.length > 0; i++) {
        const earliest = history[0].t;
        if (earliest <= range.walkBackTo + bucketS || earliest - 1 < range.startTs) break;
        const older = (await getJson(historyUrl(slug, outcomeId, { ...range, endTs: earliest - 1 }), (m) => m.priceHistorySchema, signal)).history
          .filter((pt) => pt.t < earliest);
        if (older.length === 0) break;
        history = [...older, ...history];
      }
      return history;
    },
    placeholderData: keepPreviousData,
  });
