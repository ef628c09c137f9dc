// The market page's first view: the market, its chosen outcome's book, the chart (an SVG) and the tape's
// first page, drawn from the reads the server put into the query cache, with no hooks. The server renders
// it inside LiveSwap (a client component), so the RSC payload carries those reads once, as data (one JSON text: page-data.ts), instead
// of the whole rendered tree beside them (half the page's bytes and most of its render time before);
// the browser hydrates the same markup from the same data and then swaps in the live view.
import type { Candle, MarketDetail, OrderBook, PricePoint } from "@/lib/markets/schemas";
import type { HeldTape } from "@/lib/markets/tape-follow";
import { chartModesOf, marketHref, type MarketViewParams, type parseMarketView } from "@/lib/ui/market-view";
import type { DayAgoPrices } from "@/lib/markets/moves";
import { ActivityPanelView } from "@/components/markets/activity-panel-view";
import { CandleChartFrame } from "@/components/markets/candle-chart-frame";
import { ChartModeToggle } from "@/components/markets/chart-mode-toggle";
import { OrderBookView } from "@/components/markets/order-book-view";
import { OutcomeLinesFrame } from "@/components/markets/outcome-lines-frame";
import { PriceChartFrame } from "@/components/markets/price-chart-frame";
import { LiveStatusView } from "./live-status-view";
import { MarketBody } from "./market-body";

/** What the server read for the first view; each an object also in the query cache (sent once). */
export interface FirstReads {
  market: MarketDetail;
  view: ReturnType<typeof parseMarketView>;
  /** The page's path (links keep the view's other parameters, as the live view's do). */
  path: string;
  /** When the market was read (Unix ms): the status row's "Updated" time. */
  updatedAt: number;
  book?: OrderBook;
  /** The chart's data in the view's mode; undefined where the read failed or was left to the live view ("All"). */
  points?: PricePoint[];
  candles?: Candle[];
  lines?: Record<string, PricePoint[]>;
  tape?: HeldTape;
}

export function MarketFirst({ reads, dayAgo, actions }: { reads: FirstReads; dayAgo?: DayAgoPrices; actions?: React.ReactNode }) {
  const { market, view, path, book, points, candles, lines, tape } = reads;
  const outcome = market.outcomes.find((o) => o.id === view.outcome);
  const hrefOf = (next: Partial<MarketViewParams>) => marketHref(path, market, { ...view, ...next });
  const notTradingYet = market.status === "PENDING";
  const outcomes = [...market.outcomes].sort((a, b) => a.index - b.index);
  const frame = {
    range: view.range,
    notTradingYet,
    rangeHref: (r: MarketViewParams["range"]) => hrefOf({ range: r }),
    modes: <ChartModeToggle modes={chartModesOf(market)} mode={view.chart} hrefFor={(c) => hrefOf({ chart: c })} />,
  };
  const chart =
    outcome &&
    (view.chart === "candles" ? (
      <CandleChartFrame {...frame} outcomeName={outcome.name} candles={candles ?? []} pending={!candles && !notTradingYet} empty={candles?.length === 0} />
    ) : view.chart === "all" ? (
      <OutcomeLinesFrame {...frame} outcomes={outcomes} lines={lines ?? {}} hidden={[]} pending={!lines && !notTradingYet} />
    ) : (
      <PriceChartFrame {...frame} outcomeName={outcome.name} points={points ?? []} pending={!points && !notTradingYet} empty={points?.length === 0} />
    ));
  return (
    <MarketBody
      market={market}
      outcomeId={view.outcome}
      dayAgo={dayAgo}
      actions={actions}
      status={<LiveStatusView slug={market.slug} status="connecting" updatedAt={reads.updatedAt} fetching={false} />}
      chart={chart}
      activity={
        outcome && (
          <ActivityPanelView
            trades={tape?.trades ?? []}
            outcomes={outcomes}
            scope={view.trades}
            outcomeName={outcome.name}
            hasOlder={!!tape?.older}
            scopeHref={(s) => hrefOf({ trades: s })}
            pending={!tape}
          />
        )
      }
      book={outcome && <OrderBookView outcomeName={outcome.name} venue={market.external_source} book={book} />}
      hrefFor={(id) => hrefOf({ outcome: id })}
    />
  );
}
