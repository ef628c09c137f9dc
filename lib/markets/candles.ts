// Candle intervals and the window of a candles request (docs/api.md "Candles"): which stored width an
// interval is rolled up from, how interval starts align in UTC, and which intervals a request covers.
// Pure and unit-tested; no zod and no server-only imports (lib/markets/schemas/ and client code import it).

export const CANDLE_INTERVALS = ["1m", "5m", "15m", "1h", "4h", "1d", "1w"] as const;
export type CandleInterval = (typeof CANDLE_INTERVALS)[number];

/** At most this many candles (intervals) per answer; the default window is this many intervals. */
export const CANDLE_LIMIT = 1000;

const MINUTE = 60;
const HOUR = 3600;
const DAY = 86400;

/** The widths migration 0009 stores: minutes, hours and days. */
export type CandleWidth = typeof MINUTE | typeof HOUR | typeof DAY;

/** Length of each interval in seconds, and the stored width it is rolled up from (≤ 15 rows per candle). */
export const INTERVALS: Record<CandleInterval, { seconds: number; width: CandleWidth }> = {
  "1m": { seconds: MINUTE, width: MINUTE },
  "5m": { seconds: 5 * MINUTE, width: MINUTE },
  "15m": { seconds: 15 * MINUTE, width: MINUTE },
  "1h": { seconds: HOUR, width: HOUR },
  "4h": { seconds: 4 * HOUR, width: HOUR },
  "1d": { seconds: DAY, width: DAY },
  "1w": { seconds: 7 * DAY, width: DAY },
};

/** Weeks start on Monday 00:00 UTC: 1970-01-05, four days after the epoch (a Thursday). */
export const WEEK_ORIGIN_S = 4 * DAY;

/** Where an interval's grid starts: the unix epoch, or for weeks the first Monday after it (UTC throughout). */
export const originOf = (interval: CandleInterval) => (interval === "1w" ? WEEK_ORIGIN_S : 0);

/** The start of the interval holding `ts` (unix seconds, any real number): minutes, hours and days from the epoch in UTC. */
export function alignDown(ts: number, interval: CandleInterval): number {
  const { seconds } = INTERVALS[interval];
  const origin = originOf(interval);
  return origin + Math.floor((ts - origin) / seconds) * seconds;
}

/** Timestamps beyond this (year 5138) are clamped: they stay in range of PostgreSQL's to_timestamp. */
export const MAX_CANDLE_TS = 100_000_000_000;

export interface CandleWindow {
  interval: CandleInterval;
  seconds: number;
  /** Start of the oldest interval the request's window covers. */
  from: number;
  /** Start of the oldest interval answered: `from`, or later when the window holds more than CANDLE_LIMIT intervals. */
  first: number;
  /** Start of the newest interval answered (the one holding endTs). */
  last: number;
  /** The window was cut at its old end to CANDLE_LIMIT intervals. */
  cut: boolean;
}

/**
 * The intervals a request covers: every interval that overlaps [startTs, endTs], each whole. endTs
 * defaults to now; startTs to the start of the (CANDLE_LIMIT − 1)th interval before the one holding
 * endTs, so the default window is the last CANDLE_LIMIT intervals, the current one included. A window
 * of more than CANDLE_LIMIT intervals keeps the newest CANDLE_LIMIT (`cut`); the caller says where the
 * rest continues. A startTs after endTs gives an empty window (first > last).
 */
export function candleWindow(q: { startTs?: number; endTs?: number }, interval: CandleInterval, nowS: number): CandleWindow {
  const { seconds } = INTERVALS[interval];
  const last = alignDown(Math.min(q.endTs ?? nowS, MAX_CANDLE_TS), interval);
  const oldestKept = last - (CANDLE_LIMIT - 1) * seconds;
  const from = q.startTs === undefined ? oldestKept : alignDown(Math.min(q.startTs, MAX_CANDLE_TS), interval);
  const first = Math.max(from, oldestKept);
  return { interval, seconds, from, first, last, cut: first > from };
}

/**
 * Where the next page of a cut window ends (unix seconds): the last second of the newest interval
 * before `first` that holds trades, given the newest stored bucket before it; null when none does.
 */
export function nextEndTs(window: CandleWindow, newestOlderBucket: number | null): number | null {
  if (!window.cut || newestOlderBucket === null) return null;
  return alignDown(newestOlderBucket, window.interval) + window.seconds - 1;
}

/**
 * Until when an answer stays right without a new trade (unix ms): a default window (endTs from now)
 * moves at the next interval boundary; a window with a given endTs never moves.
 */
export function windowExpiresAt(q: { endTs?: number }, window: CandleWindow): number | undefined {
  return q.endTs === undefined ? (window.last + window.seconds) * 1000 : undefined;
}
