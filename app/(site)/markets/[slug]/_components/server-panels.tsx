// The price chart (in the URL's mode) and the Activity panel of the market page's first response: read
// through lib (memory, not HTTP), put into the query cache the live view starts from, and rendered as
// their server frames (SVGs, the tape's first page). A read that fails leaves that panel to the live
// view, which fetches it with its error state and Retry.
import type { QueryClient } from "@tanstack/react-query";
import { getCandles, getPriceHistory, getTrades, priceHistoryReader } from "@/lib/markets/cache";
import type { Candle, MarketDetail, Outcome, PricePoint, TradeTape } from "@/lib/markets/schemas";
import { candlesOptions, outcomeHistoriesOptions } from "@/lib/query/chart-modes";
import { priceHistoryOptions, TAPE_FIRST_PAGE, tapeOptions } from "@/lib/query/markets";
import { heldTape } from "@/lib/realtime/tape-follow";
import { marketCandleRange, marketHistoryRange } from "@/lib/ui/chart-ranges";
import { chartModesOf, type MarketViewParams, type parseMarketView } from "@/lib/ui/market-view";
import { ActivityPanelView } from "@/components/markets/activity-panel-view";
import { CandleChartFrame } from "@/components/markets/candle-chart-frame";
import { ChartModeToggle } from "@/components/markets/chart-mode-toggle";
import { OutcomeLinesFrame } from "@/components/markets/outcome-lines-frame";
import { PriceChartFrame } from "@/components/markets/price-chart-frame";

type View = ReturnType<typeof parseMarketView>;

const orUndefined = <T,>(p: Promise<T>) => p.catch(() => undefined);

export async function serverPanels({
  slug,
  market,
  outcome,
  view,
  nowS,
  queryClient,
  hrefOf,
}: {
  slug: string;
  market: MarketDetail;
  outcome: Outcome;
  view: View;
  nowS: number;
  queryClient: QueryClient;
  /** The page's URL with these view parameters changed. */
  hrefOf: (v: Partial<MarketViewParams>) => string;
}) {
  const notTradingYet = market.status === "PENDING";
  const history = marketHistoryRange(view.range, market.trading_starts_at, nowS);
  const candleRange = marketCandleRange(view.range, market.trading_starts_at, nowS);
  const outcomes = [...market.outcomes].sort((a, b) => a.index - b.index);
  const ids = outcomes.map((o) => o.id);
  const tapeOutcome = view.trades === "all" ? null : outcome.id;
  // "All" walks back over several requests in the browser, so the server leaves its history to the live view.
  const readsHistory = !notTradingYet && history.walkBackTo === undefined;

  const [points, candles, lines, tape] = await Promise.all([
    view.chart === "line" && readsHistory
      ? orUndefined(getPriceHistory({ slug, outcomeId: outcome.id, startTs: history.startTs, fidelity: history.fidelity }).then((h) => h.history))
      : undefined,
    view.chart === "candles" && !notTradingYet
      ? orUndefined(getCandles({ slug, outcomeId: outcome.id, ...candleRange }).then((c) => c.candles as Candle[]))
      : undefined,
    view.chart === "all" && readsHistory
      ? orUndefined(
          priceHistoryReader(ids, { startTs: history.startTs, fidelity: history.fidelity }).then(async (read) =>
            Object.fromEntries(await Promise.all(ids.map(async (id) => [id, (await read(id)).history] as const))),
          ),
        )
      : undefined,
    orUndefined(getTrades({ slug, outcomeId: tapeOutcome ?? undefined, limit: TAPE_FIRST_PAGE }) as Promise<TradeTape>),
  ]);
  if (points) queryClient.setQueryData(priceHistoryOptions(slug, outcome.id, history).queryKey, points as PricePoint[]);
  if (candles) queryClient.setQueryData(candlesOptions(slug, outcome.id, candleRange).queryKey, candles);
  if (lines) queryClient.setQueryData(outcomeHistoriesOptions(slug, ids, history).queryKey, lines as Record<string, PricePoint[]>);
  if (tape) queryClient.setQueryData(tapeOptions(slug, tapeOutcome).queryKey, heldTape(tape));

  const frame = {
    range: view.range,
    notTradingYet,
    rangeHref: (r: MarketViewParams["range"]) => hrefOf({ range: r }),
    modes: <ChartModeToggle modes={chartModesOf(market)} mode={view.chart} hrefFor={(c) => hrefOf({ chart: c })} />,
  };
  const chart =
    view.chart === "candles" ? (
      <CandleChartFrame {...frame} outcomeName={outcome.name} candles={candles ?? []} pending={!candles && !notTradingYet} empty={candles?.length === 0} />
    ) : view.chart === "all" ? (
      <OutcomeLinesFrame {...frame} outcomes={outcomes} lines={lines ?? {}} hidden={[]} pending={!lines && !notTradingYet} />
    ) : (
      <PriceChartFrame {...frame} outcomeName={outcome.name} points={points ?? []} pending={!points && !notTradingYet} empty={points?.length === 0} />
    );

  const activity = (
    <ActivityPanelView
      trades={tape?.trades ?? []}
      outcomes={outcomes}
      scope={view.trades}
      outcomeName={outcome.name}
      hasOlder={!!tape?.next_cursor}
      scopeHref={(s) => hrefOf({ trades: s })}
      pending={!tape}
    />
  );
  return { chart, activity };
}
