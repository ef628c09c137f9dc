// Chart ranges of the price chart: each maps to a startTs (seconds back from now) and a bucket size in
// minutes chosen to give roughly 60–300 points. "All" starts at 0 and walks back past the trade cap.
// The candle mode reads candles of a length chosen the same way (candleRange).
import { CANDLE_INTERVALS, type CandleInterval, INTERVALS } from "@/lib/markets/candles";
import { readNow } from "./clock";

export const CHART_RANGES = ["1h", "6h", "1d", "1w", "1m", "all"] as const;
export type ChartRange = (typeof CHART_RANGES)[number];
export const DEFAULT_RANGE: ChartRange = "1w";

export const RANGE_SPECS: Record<Exclude<ChartRange, "all">, { label: string; spanS: number; fidelity: number }> = {
  "1h": { label: "1H", spanS: 3600, fidelity: 1 },
  "6h": { label: "6H", spanS: 6 * 3600, fidelity: 5 },
  "1d": { label: "1D", spanS: 86400, fidelity: 15 },
  "1w": { label: "1W", spanS: 7 * 86400, fidelity: 60 },
  "1m": { label: "1M", spanS: 30 * 86400, fidelity: 240 },
};
export const RANGE_LABELS: Record<ChartRange, string> = {
  ...Object.fromEntries(Object.entries(RANGE_SPECS).map(([k, v]) => [k, v.label])),
  all: "All",
} as Record<ChartRange, string>;

const NICE_FIDELITIES = [1, 5, 15, 60, 240, 720, 1440, 10080];

/** Bucket minutes for "All": the smallest nice size giving at most ~300 buckets over the market's life. */
export function allRangeFidelity(tradingStartsAtS: number, nowS: number) {
  const minutes = Math.max(1, (nowS - tradingStartsAtS) / 60);
  return NICE_FIDELITIES.find((f) => minutes / f <= 300) ?? NICE_FIDELITIES[NICE_FIDELITIES.length - 1];
}

export function parseRange(v: string | null | undefined): ChartRange {
  return (CHART_RANGES as readonly string[]).includes(v ?? "") ? (v as ChartRange) : DEFAULT_RANGE;
}

/** Max requests the "All" range makes while walking back past the 1,000-trade cap. */
export const ALL_RANGE_MAX_REQUESTS = 10;

/** The history request of a range: startTs and bucket size; "All" also walks back to the market's start. */
export interface HistoryRange {
  startTs: number;
  fidelity: number;
  /** "All": keep walking back with smaller endTs while the start looks cut by the trade cap. */
  walkBackTo?: number;
}

export function historyRange(range: ChartRange, tradingStartsAtS: number, nowS: number): HistoryRange {
  if (range === "all") return { startTs: 0, fidelity: allRangeFidelity(tradingStartsAtS, nowS), walkBackTo: tradingStartsAtS };
  const spec = RANGE_SPECS[range];
  return { startTs: Math.max(0, nowS - spec.spanS), fidelity: spec.fidelity };
}

/** historyRange for a market whose trading starts at an ISO time. */
export const marketHistoryRange = (range: ChartRange, tradingStartsAt: string, nowS: number) =>
  historyRange(range, Math.floor(Date.parse(tradingStartsAt) / 1000), nowS);

/** Now in unix seconds, rounded down to the minute: a range's startTs (and its query key) holds for a minute (a page showing it, too: lib/ui/clock.ts). */
export const nowMinute = () => Math.floor(readNow(60_000) / 60_000) * 60;

// ---------------------------------------------------------------- candles (the chart's candle mode)

/** Candle length of each range: 60–180 candles, as many as the line has buckets. */
export const RANGE_CANDLE_INTERVALS: Record<Exclude<ChartRange, "all">, CandleInterval> = {
  "1h": "1m",
  "6h": "5m",
  "1d": "15m",
  "1w": "1h",
  "1m": "4h",
};

/** The candles request of a range: its length and window start (the answer holds at most 1,000 candles). */
export interface CandleRange {
  interval: CandleInterval;
  startTs: number;
}

/** For "All": the shortest interval giving at most ~300 candles over the market's life, from its start (0: trades before it count too). */
export function candleRange(range: ChartRange, tradingStartsAtS: number, nowS: number): CandleRange {
  if (range !== "all") return { interval: RANGE_CANDLE_INTERVALS[range], startTs: Math.max(0, nowS - RANGE_SPECS[range].spanS) };
  const lifeS = Math.max(60, nowS - tradingStartsAtS);
  const interval = CANDLE_INTERVALS.find((i) => lifeS / INTERVALS[i].seconds <= 300) ?? "1w";
  return { interval, startTs: 0 };
}

export const marketCandleRange = (range: ChartRange, tradingStartsAt: string, nowS: number) =>
  candleRange(range, Math.floor(Date.parse(tradingStartsAt) / 1000), nowS);
