// Market page view state kept in the URL (?outcome=<id>&range=1d) and its defaults.
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

export function marketSearch(params: { outcome?: string; range: ChartRange }, defaults: { outcome?: string }) {
  const p = new URLSearchParams();
  if (params.outcome && params.outcome !== defaults.outcome) p.set("outcome", params.outcome);
  if (params.range !== parseRange(undefined)) p.set("range", params.range);
  const s = p.toString();
  return s ? `?${s}` : "";
}

/** The market page's URL for a view: the path plus marketSearch against the market's default outcome. */
export function marketHref(path: string, market: Pick<MarketDetail, "type" | "outcomes">, view: { outcome?: string; range: ChartRange }) {
  return `${path}${marketSearch(view, { outcome: defaultOutcomeId(market) })}`;
}
