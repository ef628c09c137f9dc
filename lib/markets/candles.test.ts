import { describe, expect, it } from "vitest";
import { CANDLE_INTERVALS, CANDLE_LIMIT, INTERVALS, alignDown, candleWindow, nextEndTs, windowExpiresAt } from "./candles";

const utc = (iso: string) => Date.parse(iso) / 1000;

describe("candle intervals", () => {
  it.each([
    ["1m", "2025-03-12T10:17:42.5Z", "2025-03-12T10:17:00Z"],
    ["5m", "2025-03-12T10:17:42Z", "2025-03-12T10:15:00Z"],
    ["15m", "2025-03-12T10:17:42Z", "2025-03-12T10:15:00Z"],
    ["1h", "2025-03-12T10:17:42Z", "2025-03-12T10:00:00Z"],
    ["4h", "2025-03-12T10:17:42Z", "2025-03-12T08:00:00Z"],
    ["1d", "2025-03-12T23:59:59Z", "2025-03-12T00:00:00Z"],
    // 2025-03-12 is a Wednesday: its week began on Monday 2025-03-10 00:00 UTC.
    ["1w", "2025-03-12T10:17:42Z", "2025-03-10T00:00:00Z"],
    ["1w", "2025-03-10T00:00:00Z", "2025-03-10T00:00:00Z"],
    ["1w", "2025-03-09T23:59:59Z", "2025-03-03T00:00:00Z"],
  ] as const)("%s: %s starts at %s (UTC)", (interval, at, start) => {
    expect(alignDown(utc(at), interval)).toBe(utc(start));
  });

  it("weeks start on Mondays, also before the first Monday after the epoch (1970-01-05)", () => {
    expect(new Date(alignDown(utc("2025-06-01T12:00:00Z"), "1w") * 1000).getUTCDay()).toBe(1);
    expect(alignDown(0, "1w")).toBe(utc("1969-12-29T00:00:00Z"));
  });

  it("every interval is a whole number of its stored width, at most 15 of them", () => {
    for (const interval of CANDLE_INTERVALS) {
      const { seconds, width } = INTERVALS[interval];
      expect(seconds % width, interval).toBe(0);
      expect(seconds / width, interval).toBeLessThanOrEqual(15);
    }
  });
});

describe("candle window", () => {
  const now = utc("2025-03-12T10:17:42Z");

  it("defaults to the last 1,000 intervals ending now, the current one included", () => {
    const w = candleWindow({}, "1h", now);
    expect(w.last).toBe(utc("2025-03-12T10:00:00Z"));
    expect(w.first).toBe(w.last - (CANDLE_LIMIT - 1) * 3600);
    expect(w).toMatchObject({ from: w.first, cut: false, seconds: 3600 });
  });

  it("without startTs, counts 1,000 intervals back from endTs", () => {
    const w = candleWindow({ endTs: utc("2025-01-01T00:30:00Z") }, "1d", now);
    expect(w.last).toBe(utc("2025-01-01T00:00:00Z"));
    expect(w.first).toBe(w.last - 999 * 86400);
  });

  it("covers every interval that overlaps [startTs, endTs], each whole", () => {
    const w = candleWindow({ startTs: utc("2025-03-12T08:30:00Z"), endTs: utc("2025-03-12T09:10:00Z") }, "1h", now);
    expect(w).toMatchObject({ from: utc("2025-03-12T08:00:00Z"), first: utc("2025-03-12T08:00:00Z"), last: utc("2025-03-12T09:00:00Z"), cut: false });
  });

  it("keeps the newest 1,000 intervals of a longer window and says it was cut", () => {
    const start = utc("2025-01-01T00:00:00Z");
    const w = candleWindow({ startTs: start }, "1m", now);
    expect(w.from).toBe(start);
    expect(w.cut).toBe(true);
    expect((w.last - w.first) / 60 + 1).toBe(CANDLE_LIMIT);
    // Exactly 1,000 intervals are not cut.
    expect(candleWindow({ startTs: w.first, endTs: now }, "1m", now).cut).toBe(false);
    expect(candleWindow({ startTs: w.first - 1, endTs: now }, "1m", now).cut).toBe(true);
  });

  it("a startTs after endTs gives an empty window", () => {
    const w = candleWindow({ startTs: now + 7200 }, "1h", now);
    expect(w.first).toBeGreaterThan(w.last);
  });

  it("clamps huge timestamps", () => {
    const w = candleWindow({ startTs: 0, endTs: 1e30 }, "1d", now);
    expect(Number.isFinite(w.last)).toBe(true);
    expect(w.last).toBeLessThanOrEqual(100_000_000_000);
  });

  it("the next page ends with the newest older interval that has a candle, or not at all", () => {
    const w = candleWindow({ startTs: 0 }, "1h", now);
    expect(nextEndTs(w, utc("2020-05-05T05:05:00Z"))).toBe(utc("2020-05-05T05:59:59Z"));
    expect(nextEndTs(w, null)).toBeNull();
    expect(nextEndTs(candleWindow({}, "1h", now), utc("2020-05-05T05:05:00Z"))).toBeNull();
  });

  it("a default window expires at the next interval boundary; one with endTs never", () => {
    expect(windowExpiresAt({}, candleWindow({}, "4h", now))).toBe(utc("2025-03-12T12:00:00Z") * 1000);
    expect(windowExpiresAt({ endTs: now }, candleWindow({ endTs: now }, "4h", now))).toBeUndefined();
  });
});
