// Market page view state kept in the URL (?outcome=<id>&range=1d&chart=candles&trades=all) and its defaults.
import type { MarketDetail } from "@/lib/markets/schemas";
import { parseRange, type ChartRange } from "./chart-ranges";

/** Binary markets open on their first (Yes) outcome, multi-outcome markets on the leading one. */
export function defaultOutcomeId(market: Pick<MarketDetail, "type" | "outcomes">): string | undefined {
  const sorted = [...market.outcomes].sort((a, b) => a.index - b.index);
  if (market.type === "BINARY") return sorted[0]?.id;
  return [...sorted].sort((a, b) => b.probability - a.probability)[0]?.id;
}

export function selectedOutcomeId(market: Pick<MarketDetail, "type" | "outcomes">, raw: string | null | undefined) {
  return market.outcomes.some((o) => o.id === raw) ? (raw as string) : defaultOutcomeId(market);
}

/** The price chart's modes: the chosen outcome's line or candles, or every outcome's line (markets of 3+ outcomes). */
export const CHART_MODES = ["line", "candles", "all"] as const;
export type ChartMode = (typeof CHART_MODES)[number];

/** The modes a market offers: "All outcomes" only where there are more than two. */
export const chartModesOf = (market: Pick<MarketDetail, "outcomes">): ChartMode[] => (market.outcomes.length > 2 ? [...CHART_MODES] : ["line", "candles"]);

export function parseChartMode(market: Pick<MarketDetail, "outcomes">, raw: string | null | undefined): ChartMode {
  return chartModesOf(market).includes(raw as ChartMode) ? (raw as ChartMode) : "line";
}

/** Whose trades the Activity panel lists: the chosen outcome's (default) or the whole market's (?trades=all). */
export type TapeScope = "outcome" | "all";
export const parseTapeScope = (raw: string | null | undefined): TapeScope => (raw === "all" ? "all" : "outcome");

export interface MarketViewParams {
  outcome?: string;
  range: ChartRange;
  chart?: ChartMode;
  trades?: TapeScope;
}

export function marketSearch(params: MarketViewParams, defaults: { outcome?: string }) {
  const p = new URLSearchParams();
  if (params.outcome && params.outcome !== defaults.outcome) p.set("outcome", params.outcome);
  if (params.range !== parseRange(undefined)) p.set("range", params.range);
  if (params.chart && params.chart !== "line") p.set("chart", params.chart);
  if (params.trades === "all") p.set("trades", "all");
  const s = p.toString();
  return s ? `?${s}` : "";
}

/** The market page's URL for a view: the path plus marketSearch against the market's default outcome. */
export function marketHref(path: string, market: Pick<MarketDetail, "type" | "outcomes">, view: MarketViewParams) {
  return `${path}${marketSearch(view, { outcome: defaultOutcomeId(market) })}`;
}

/** The whole view from the URL's parameters (a bad value falls back to its default). */
export function parseMarketView(market: Pick<MarketDetail, "type" | "outcomes">, get: (name: string) => string | null | undefined) {
  return {
    outcome: selectedOutcomeId(market, get("outcome")),
    range: parseRange(get("range")),
    chart: parseChartMode(market, get("chart")),
    trades: parseTapeScope(get("trades")),
  };
}
