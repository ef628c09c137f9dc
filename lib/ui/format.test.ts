import { describe, expect, it } from "vitest";
import { formatRelative, formatTimeLeft, relativeChangesAt, timeLeftChangesAt } from "./format";

const NOW = Date.UTC(2026, 5, 15, 12, 0, 0, 0);
const S = 1000;
const MIN = 60 * S;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/**
 * The rule a cached page relies on: the text reads the same from `now` until 1 ms before the instant
 * returned, and differently 1 ms after it (so the instant is at most 1 ms early, never late).
 */
function holdsUntilChange(format: (now: number) => string, changesAt: number, now: number) {
  const text = format(now);
  if (changesAt === Infinity) {
    for (const later of [now + S, now + DAY, now + 400 * DAY]) expect(format(later), `at +${later - now} ms`).toBe(text);
    return;
  }
  expect(changesAt).toBeGreaterThanOrEqual(now);
  const span = changesAt - now;
  for (const f of [0.1, 0.5, 0.9]) expect(format(now + Math.floor(span * f)), `at ${f} of the span`).toBe(text);
  if (changesAt - 1 >= now) expect(format(changesAt - 1), "1 ms before").toBe(text);
  expect(format(changesAt + 1), "1 ms after").not.toBe(text);
}

// Offsets of the shown time from now: past and future, around each unit's edges and half-unit roundings.
const OFFSETS = [
  0,
  1,
  -1,
  59 * S,
  -59 * S,
  -60 * S,
  -89 * S - 999,
  -90 * S,
  -150 * S + 1,
  -59 * MIN - 30 * S,
  -59 * MIN - 31 * S,
  -HOUR,
  -1.5 * HOUR,
  -23.6 * HOUR,
  -2.5 * DAY,
  -6.7 * DAY,
  -20 * DAY,
  -29.9 * DAY,
  -200 * DAY,
  -400 * DAY,
  -3.5 * 365 * DAY,
  61 * S,
  90 * S + 1,
  3 * HOUR + 17 * MIN,
  1.2 * DAY,
  9 * DAY,
  40 * DAY,
  800 * DAY,
];

describe("relativeChangesAt – until when a relative time reads the same", () => {
  it.each(OFFSETS)("shown time %d ms from now", (offset) => {
    const at = NOW + offset;
    holdsUntilChange((now) => formatRelative(at, now), relativeChangesAt(at, NOW), NOW);
  });

  it("holds for random times and nows", () => {
    let x = 7;
    const rand = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32;
    for (let i = 0; i < 2000; i++) {
      const at = NOW + Math.round((rand() - 0.7) * 3 * 365 * DAY * rand() ** 3);
      const now = NOW + Math.round(rand() * 1000);
      holdsUntilChange((n) => formatRelative(at, n), relativeChangesAt(at, now), now);
    }
  });
});

describe("timeLeftChangesAt – until when a time left reads the same", () => {
  it.each(OFFSETS.filter((o) => o > -2 * S))("end %d ms from now", (offset) => {
    const end = new Date(NOW + offset).toISOString();
    holdsUntilChange((now) => formatTimeLeft(end, now), timeLeftChangesAt(end, NOW), NOW);
  });

  it("holds for random ends and nows, and never changes once ended", () => {
    let x = 11;
    const rand = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32;
    for (let i = 0; i < 2000; i++) {
      const end = new Date(NOW + Math.round((rand() - 0.05) * 90 * DAY * rand() ** 3)).toISOString();
      const now = NOW + Math.round(rand() * 1000);
      holdsUntilChange((n) => formatTimeLeft(end, n), timeLeftChangesAt(end, now), now);
    }
  });

  it.each([
    [30 * DAY + HOUR, 30 * DAY],
    [3 * DAY + 30 * MIN, 3 * DAY],
    [2 * HOUR + 90 * S, 2 * HOUR + MIN],
    [119 * S, S],
  ])("%d ms left: the next change is %d ms before the end", (left, before) => {
    const end = new Date(NOW + left).toISOString();
    expect(timeLeftChangesAt(end, NOW)).toBe(NOW + left - before);
  });
});
