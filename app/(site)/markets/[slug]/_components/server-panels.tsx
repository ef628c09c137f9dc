// The reads of the market page's first response beyond the market: the price chart's data in the URL's
// mode and the Activity panel's first page, through lib (memory, not HTTP), put into the query cache the
// live view starts from. The first view (market-first.tsx) draws them as their server frames (SVGs, the
// tape's first page). A read that fails leaves that panel to the live view, which fetches it with its
// error state and Retry.
import type { QueryClient } from "@tanstack/react-query";
import { getCandles } from "@/lib/markets/reads/candles";
import { getPriceHistory, priceHistoryReader } from "@/lib/markets/reads/history";
import { getTrades } from "@/lib/markets/reads/trades";
import type { Candle, MarketDetail, Outcome, PricePoint, TradeTape } from "@/lib/markets/schemas";
import { candlesOptions, outcomeHistoriesOptions } from "@/lib/query/chart-modes";
import { priceHistoryOptions, TAPE_FIRST_PAGE, tapeOptions } from "@/lib/query/markets";
import { heldTape } from "@/lib/markets/tape-follow";
import { marketCandleRange, marketHistoryRange } from "@/lib/ui/chart-ranges";
import type { parseMarketView } from "@/lib/ui/market-view";
import type { FirstReads } from "./market-first";

type View = ReturnType<typeof parseMarketView>;

const orUndefined = <T,>(p: Promise<T>) => p.catch(() => undefined);

export async function serverPanels({
  slug,
  market,
  outcome,
  view,
  nowS,
  queryClient,
}: {
  slug: string;
  market: MarketDetail;
  outcome: Outcome;
  view: View;
  nowS: number;
  queryClient: QueryClient;
}): Promise<Pick<FirstReads, "points" | "candles" | "lines" | "tape">> {
  const notTradingYet = market.status === "PENDING";
  const history = marketHistoryRange(view.range, market.trading_starts_at, nowS);
  const candleRange = marketCandleRange(view.range, market.trading_starts_at, nowS);
  const ids = [...market.outcomes].sort((a, b) => a.index - b.index).map((o) => o.id);
  const tapeOutcome = view.trades === "all" ? null : outcome.id;
  // "All" walks back over several requests in the browser, so the server leaves its history to the live view.
  const readsHistory = !notTradingYet && history.walkBackTo === undefined;

  const [points, candles, lines, page] = await Promise.all([
    view.chart === "line" && readsHistory
      ? orUndefined(
          getPriceHistory({ slug, outcomeId: outcome.id, startTs: history.startTs, fidelity: history.fidelity }).then((h) => h.history as PricePoint[]),
        )
      : undefined,
    view.chart === "candles" && !notTradingYet
      ? orUndefined(getCandles({ slug, outcomeId: outcome.id, ...candleRange }).then((c) => c.candles as Candle[]))
      : undefined,
    view.chart === "all" && readsHistory
      ? orUndefined(
          priceHistoryReader(ids, { startTs: history.startTs, fidelity: history.fidelity }).then(
            async (read) =>
              Object.fromEntries(await Promise.all(ids.map(async (id) => [id, (await read(id)).history] as const))) as Record<string, PricePoint[]>,
          ),
        )
      : undefined,
    orUndefined(getTrades({ slug, outcomeId: tapeOutcome ?? undefined, limit: TAPE_FIRST_PAGE }) as Promise<TradeTape>),
  ]);
  const tape = page && heldTape(page);
  if (points) queryClient.setQueryData(priceHistoryOptions(slug, outcome.id, history).queryKey, points);
  if (candles) queryClient.setQueryData(candlesOptions(slug, outcome.id, candleRange).queryKey, candles);
  if (lines) queryClient.setQueryData(outcomeHistoriesOptions(slug, ids, history).queryKey, lines);
  if (tape) queryClient.setQueryData(tapeOptions(slug, tapeOutcome).queryKey, tape);
  return { points, candles, lines, tape };
}
