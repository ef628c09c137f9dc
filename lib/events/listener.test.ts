import { describe, expect, it } from "vitest";
import { retryDelay } from "./listener";

describe("retryDelay", () => {
  const mid = () => 0.5; // no jitter
  it.each([
    [1, 500],
    [2, 1_000],
    [3, 2_000],
    [6, 16_000],
    [7, 30_000], // 32 s capped
    [50, 30_000], // no overflow into Infinity or NaN
  ])("attempt %i waits %i ms (min 500, max 30 000)", (n, ms) => {
    expect(retryDelay(n, 500, 30_000, mid)).toBe(ms);
  });

  it("jitters by ±20 % so that instances do not reconnect in step", () => {
    expect(retryDelay(3, 500, 30_000, () => 0)).toBe(1_600);
    expect(retryDelay(3, 500, 30_000, () => 0.999999)).toBe(2_400);
  });
});
