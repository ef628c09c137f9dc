"use client";
// The live view's price chart in the URL's mode: the chosen outcome's line (price-chart.tsx) or candles
// (candle-chart.tsx), or every outcome's line (outcome-lines-chart.tsx), with the mode buttons beside the
// range buttons. Mode and range changes are pushed to the URL. The candle and all-outcomes charts are
// chunks of their own, loaded for the mode that shows them (the page's cold load carries the line's
// code only): before the live view swaps in when the URL names them (prepareChartMode, market-live.tsx),
// and before the URL changes when the reader picks one.
import { useEffect, useState } from "react";
import type { MarketDetail, Outcome } from "@/lib/markets/schemas";
import { type ChartMode, chartModesOf, type MarketViewParams, type parseMarketView } from "@/lib/ui/market-view";
import { ChartModeToggle } from "./chart-mode-toggle";
import { PriceChart } from "./price-chart";

type Lazy = {
  candles: typeof import("./candle-chart").CandleChart;
  all: typeof import("./outcome-lines-chart").OutcomeLinesChart;
};
const loaded: Partial<Lazy> = {};
const loading = new Map<keyof Lazy, Promise<void>>();
const importers: { [K in keyof Lazy]: () => Promise<void> } = {
  candles: () => import("./candle-chart").then((m) => void (loaded.candles = m.CandleChart)),
  all: () => import("./outcome-lines-chart").then((m) => void (loaded.all = m.OutcomeLinesChart)),
};

/** Loads the chart of a mode (any other value: nothing to load). */
export function prepareChartMode(mode: string | null): Promise<void> {
  if (mode !== "candles" && mode !== "all") return Promise.resolve();
  let p = loading.get(mode);
  if (!p) {
    p = importers[mode]().catch(() => void loading.delete(mode));
    loading.set(mode, p);
  }
  return p;
}

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
  const [, setLoaded] = useState(0);
  const mode: ChartMode = view.chart;
  const missing = mode !== "line" && !loaded[mode];
  // Only when the URL changed without a pick (back and forward): the line shows until the mode's chart is in.
  useEffect(() => {
    if (missing) void prepareChartMode(mode).then(() => setLoaded((n) => n + 1));
  }, [missing, mode]);

  const common = {
    slug,
    tradingStartsAt: market.trading_starts_at,
    range: view.range,
    onRangeChange: (range: MarketViewParams["range"]) => navigate({ range }),
    rangeHref: (range: MarketViewParams["range"]) => hrefOf({ range }),
    notTradingYet: market.status === "PENDING",
    initialNowS,
    modes: (
      <ChartModeToggle
        modes={chartModesOf(market)}
        mode={mode}
        hrefFor={(chart) => hrefOf({ chart })}
        onChange={(chart) => void prepareChartMode(chart).then(() => navigate({ chart }))}
      />
    ),
  };
  const Candles = loaded.candles;
  const Lines = loaded.all;
  if (mode === "candles" && Candles) return <Candles {...common} outcomeId={outcome.id} outcomeName={outcome.name} />;
  if (mode === "all" && Lines) return <Lines {...common} outcomes={market.outcomes} />;
  return <PriceChart {...common} outcomeId={outcome.id} outcomeName={outcome.name} />;
}
