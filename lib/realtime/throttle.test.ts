import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createThrottle } from "./throttle";

describe("createThrottle", () => {
  let sent: Array<[string, number, number]>;
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
    sent = [];
  });
  afterEach(() => vi.useRealTimers());
  const collect = (key: string, value: number) => sent.push([key, value, Date.now()]);

  it("throttle – emits the first value at once", () => {
    const t = createThrottle(100, collect);
    t.push("a", 1);
    expect(sent).toEqual([["a", 1, 0]]);
  });

  it("throttle – collapses a burst into the leading and the last value", () => {
    const t = createThrottle(100, collect);
    for (let i = 1; i <= 50; i++) {
      t.push("a", i);
      vi.advanceTimersByTime(1);
    }
    vi.advanceTimersByTime(1000);
    expect(sent).toEqual([
      ["a", 1, 0],
      ["a", 50, 100],
    ]);
  });

  it("throttle – a long burst emits at most once per interval and ends with the last value", () => {
    const t = createThrottle(100, collect);
    for (let i = 1; i <= 350; i++) {
      t.push("a", i);
      vi.advanceTimersByTime(1);
    }
    vi.advanceTimersByTime(1000);
    expect(sent.map((s) => s[2])).toEqual([0, 100, 200, 300, 400]);
    expect(sent.at(-1)?.[1]).toBe(350);
    for (let i = 1; i < sent.length; i++) expect(sent[i][2] - sent[i - 1][2]).toBeGreaterThanOrEqual(100);
  });

  it("throttle – keeps keys apart", () => {
    const t = createThrottle(100, collect);
    t.push("a", 1);
    t.push("b", 2);
    t.push("a", 3);
    vi.advanceTimersByTime(100);
    expect(sent).toEqual([
      ["a", 1, 0],
      ["b", 2, 0],
      ["a", 3, 100],
    ]);
  });

  it("throttle – emits at once again after a quiet interval and forgets idle keys", () => {
    const t = createThrottle(100, collect);
    t.push("a", 1);
    vi.advanceTimersByTime(150);
    expect(t.size()).toBe(0);
    t.push("a", 2);
    expect(sent).toEqual([
      ["a", 1, 0],
      ["a", 2, 150],
    ]);
  });

  it("throttle – folds pending values with merge", () => {
    const t = createThrottle<number>(100, collect, { merge: (a, b) => a + b });
    t.push("a", 1);
    t.push("a", 2);
    t.push("a", 3);
    vi.advanceTimersByTime(100);
    expect(sent).toEqual([
      ["a", 1, 0],
      ["a", 5, 100],
    ]);
  });

  it("throttle – close drops pending values and timers", () => {
    const t = createThrottle(100, collect);
    t.push("a", 1);
    t.push("a", 2);
    t.close();
    vi.advanceTimersByTime(1000);
    expect(sent).toEqual([["a", 1, 0]]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
