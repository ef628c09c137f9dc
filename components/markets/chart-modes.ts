// The chart modes that load only when shown (the candle and all-outcomes charts), and what has loaded.
// A module of its own with no imports of its own, so that LiveSwap can start loading the URL's mode
// beside the live view without pulling the chart code into its chunk twice.
type Candles = typeof import("./candle-chart").CandleChart;
type Lines = typeof import("./outcome-lines-chart").OutcomeLinesChart;

export const loadedChartModes: { candles?: Candles; all?: Lines } = {};

/** Loads the code of a chart mode (nothing for the line, which the live chunk holds). */
export function preloadChartMode(mode: string | null): Promise<unknown> {
  if (mode === "candles") return import("./candle-chart").then((m) => (loadedChartModes.candles = m.CandleChart));
  if (mode === "all") return import("./outcome-lines-chart").then((m) => (loadedChartModes.all = m.OutcomeLinesChart));
  return Promise.resolve();
}
