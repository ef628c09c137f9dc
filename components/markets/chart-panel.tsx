"use client";
// The live view's price chart in the URL's mode: the chosen outcome's line (price-chart.tsx) or candles
// (candle-chart.tsx), or every outcome's line (outcome-lines-chart.tsx), with the mode buttons beside the
// range buttons. Mode and range changes are pushed to the URL. All three are in the live chunk: split
// off, the candle and lines charts (about 1.5 kB) cost the cold load more than they saved, as the chunks
// they share with it compress apart (measured with npm run bench:web).
import type { MarketDetail, Outcome } from "@/lib/markets/schemas";
import { chartModesOf, type MarketViewParams, type parseMarketView } from "@/lib/ui/market-view";
import { CandleChart } from "./candle-chart";
import { ChartModeToggle } from "./chart-mode-toggle";
import { OutcomeLinesChart } from "./outcome-lines-chart";
import { PriceChart } from "./price-chart";

export function ChartPanel({
  slug,
  market,
  outcome,
  view,
  initialNowS,
  hrefOf,
  navigate,
}: {
  slug: string;
  market: MarketDetail;
  outcome: Outcome;
  view: ReturnType<typeof parseMarketView>;
  /** The server's clock minute, so the first query key is the one the server filled. */
  initialNowS: number;
  hrefOf: (next: Partial<MarketViewParams>) => string;
  navigate: (next: Partial<MarketViewParams>) => void;
}) {
  const common = {
    slug,
    tradingStartsAt: market.trading_starts_at,
    range: view.range,
    onRangeChange: (range: MarketViewParams["range"]) => navigate({ range }),
    rangeHref: (range: MarketViewParams["range"]) => hrefOf({ range }),
    notTradingYet: market.status === "PENDING",
    initialNowS,
    modes: <ChartModeToggle modes={chartModesOf(market)} mode={view.chart} hrefFor={(chart) => hrefOf({ chart })} onChange={(chart) => navigate({ chart })} />,
  };
  if (view.chart === "candles") return <CandleChart {...common} outcomeId={outcome.id} outcomeName={outcome.name} />;
  if (view.chart === "all") return <OutcomeLinesChart {...common} outcomes={market.outcomes} />;
  return <PriceChart {...common} outcomeId={outcome.id} outcomeName={outcome.name} />;
}
