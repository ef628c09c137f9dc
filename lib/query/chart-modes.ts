// The query options of the chart modes that load only when shown (candles, every outcome's line): a module
// apart from lib/query/markets.ts so that the live chunk, which holds that one, does not carry them.
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import type { Candle, Candles, PriceHistory, PricePoint } from "@/lib/markets/schemas";
import type { CandleRange, HistoryRange } from "@/lib/ui/chart-ranges";
import { marketKeys } from "./keys";
import { getJson, walkBack } from "./markets";

/** Every outcome's history over one range, in one batch request (GET /v1/prices-history?outcomeIds=…); "All" walks back per outcome. */
export const outcomeHistoriesOptions = (slug: string, outcomeIds: readonly string[], range: HistoryRange) =>
  queryOptions({
    queryKey: marketKeys.outcomeHistories(slug, outcomeIds, range),
    queryFn: async ({ signal }): Promise<Record<string, PricePoint[]>> => {
      const p = new URLSearchParams({ outcomeIds: outcomeIds.join(","), startTs: String(range.startTs), fidelity: String(range.fidelity) });
      const { items } = await getJson<{ items: { outcome_id: string; prices_history: PriceHistory | null }[] }>(`/v1/prices-history?${p}`, signal);
      const lines = await Promise.all(
        items.map(async (item) => [item.outcome_id, await walkBack(slug, item.outcome_id, range, item.prices_history?.history ?? [], signal)] as const),
      );
      return Object.fromEntries(lines);
    },
    placeholderData: keepPreviousData,
  });

export const candlesOptions = (slug: string, outcomeId: string, range: CandleRange) =>
  queryOptions({
    queryKey: marketKeys.candle(slug, outcomeId, range),
    queryFn: async ({ signal }): Promise<Candle[]> => {
      const p = new URLSearchParams({ outcomeId, interval: range.interval, startTs: String(range.startTs) });
      return (await getJson<Candles>(`/v1/markets/slug/${encodeURIComponent(slug)}/candles?${p}`, signal)).candles;
    },
    placeholderData: keepPreviousData,
  });
