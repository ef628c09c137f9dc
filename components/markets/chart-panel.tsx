"use client";
// The live view's price chart in the URL's mode: the chosen outcome's line (price-chart.tsx) or candles
// (candle-chart.tsx), or every outcome's line (outcome-lines-chart.tsx), with the mode buttons beside the
// range buttons. Mode and range changes are pushed to the URL. The line is in the live chunk; the candle
// and all-outcomes charts load only when their mode is shown: LiveSwap loads the URL's mode beside the live
// view (chart-modes.ts), so the swap shows it at once, and a mode chosen later keeps the current chart
// on screen until its code is in.
import { useEffect, useState } from "react";
import type { MarketDetail, Outcome } from "@/lib/markets/schemas";
import { chartModesOf, type MarketViewParams, type parseMarketView } from "@/lib/ui/market-view";
import { ChartModeToggle } from "./chart-mode-toggle";
import { loadedChartModes, preloadChartMode } from "./chart-modes";
import { PriceChart } from "./price-chart";

const loaded = loadedChartModes;

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
  const mode = view.chart;
  const ready = mode === "line" || loaded[mode] !== undefined;
  // The mode last drawn: shown while a newly chosen mode's code loads.
  const [shown, setShown] = useState(ready ? mode : "line");
  useEffect(() => {
    let on = true;
    void preloadChartMode(mode).then(() => on && setShown(mode));
    return () => {
      on = false;
    };
  }, [mode]);
  const draw = ready ? mode : shown;
  const common = {
    slug,
    tradingStartsAt: market.trading_starts_at,
    range: view.range,
    onRangeChange: (range: MarketViewParams["range"]) => navigate({ range }),
    rangeHref: (range: MarketViewParams["range"]) => hrefOf({ range }),
    notTradingYet: market.status === "PENDING",
    initialNowS,
    modes: <ChartModeToggle modes={chartModesOf(market)} mode={mode} hrefFor={(chart) => hrefOf({ chart })} onChange={(chart) => navigate({ chart })} />,
  };
  if (draw === "candles" && loaded.candles) return <loaded.candles {...common} outcomeId={outcome.id} outcomeName={outcome.name} />;
  if (draw === "all" && loaded.all) return <loaded.all {...common} outcomes={market.outcomes} />;
  return <PriceChart {...common} outcomeId={outcome.id} outcomeName={outcome.name} />;
}
