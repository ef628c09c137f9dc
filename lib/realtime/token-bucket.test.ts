import { describe, expect, it } from "vitest";
import { createTokenBucket } from "./token-bucket";

function bucket(burst: number, ratePerS: number) {
  const clock = { t: 1_000_000 };
  return { clock, b: createTokenBucket({ burst, ratePerS }, () => clock.t) };
}

const takeN = (b: { take: () => boolean }, n: number) => Array.from({ length: n }, () => b.take()).filter(Boolean).length;

describe("createTokenBucket", () => {
  it("token bucket – allows a full burst at once, then refuses", () => {
    const { b } = bucket(5, 1);
    expect(takeN(b, 5)).toBe(5);
    expect(b.take()).toBe(false);
  });

  it("token bucket – refills at the rate: 100/s gives one token per 10 ms", () => {
    const { b, clock } = bucket(3, 100);
    expect(takeN(b, 4)).toBe(3);
    clock.t += 5;
    expect(b.take()).toBe(false);
    clock.t += 5;
    expect(b.take()).toBe(true);
    expect(b.take()).toBe(false);
  });

  it("token bucket – keeps fractions of a token between takes", () => {
    const { b, clock } = bucket(1, 2);
    expect(b.take()).toBe(true);
    clock.t += 250; // half a token
    expect(b.take()).toBe(false);
    clock.t += 250; // the other half
    expect(b.take()).toBe(true);
  });

  it("token bucket – never holds more than the burst after a long quiet time", () => {
    const { b, clock } = bucket(4, 100);
    expect(takeN(b, 4)).toBe(4);
    clock.t += 3_600_000;
    expect(takeN(b, 10)).toBe(4);
  });

  it("token bucket – sustains the rate under a steady flood", () => {
    const { b, clock } = bucket(200, 100);
    let granted = 0;
    for (let ms = 0; ms < 10_000; ms++) {
      clock.t += 1;
      granted += takeN(b, 5);
    }
    // 200 at once plus 100/s for 10 s (one fewer when the summed fractions round down).
    expect(granted).toBeGreaterThanOrEqual(1199);
    expect(granted).toBeLessThanOrEqual(1200);
  });
});
