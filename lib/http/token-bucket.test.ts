import { describe, expect, it } from "vitest";
import { createTokenBucket, takeTokens, type TokenBucket, TokenBuckets } from "./token-bucket";

function bucket(burst: number, ratePerS: number) {
  // Milliseconds, handed to the bucket as seconds.
  const clock = { t: 0 };
  return { clock, b: createTokenBucket({ burst, ratePerS }, () => clock.t / 1000) };
}

const takeN = (b: TokenBucket, n: number) => Array.from({ length: n }, () => b.take()).filter(Boolean).length;

describe("createTokenBucket – one bucket", () => {
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

  it("token bucket – takes n tokens at once, or none of them", () => {
    const { b, clock } = bucket(10, 1);
    expect(b.take(7)).toBe(true);
    expect(b.take(4)).toBe(false); // 3 left: a batch of 4 is refused whole
    expect(b.take(3)).toBe(true);
    clock.t += 2_000;
    expect(b.take(3)).toBe(false);
    expect(b.take(2)).toBe(true);
  });
});

function clock() {
  let t = 1000;
  return { now: () => t, advance: (s: number) => (t += s) };
}

describe("TokenBuckets – one bucket per key: burst, then the sustained rate", () => {
  it("allows a burst, refuses the next request with the wait for one token, refills at ratePerS", () => {
    const c = clock();
    const b = new TokenBuckets({ ratePerS: 2, burst: 3, maxKeys: 10 }, c.now);
    expect([1, 2, 3].map(() => b.take("a").allowed)).toEqual([true, true, true]);
    const refused = b.take("a");
    expect(refused).toEqual({ allowed: false, remaining: 0, resetS: 2, retryAfterS: 1 });
    expect(b.take("b").allowed).toBe(true); // another client has its own bucket
    c.advance(0.5);
    expect(b.take("a")).toMatchObject({ allowed: true, remaining: 0 });
    c.advance(10);
    expect(b.take("a")).toMatchObject({ allowed: true, remaining: 2, resetS: 1 });
  });

  it("rounds Retry-After up to whole seconds for slow rates", () => {
    const c = clock();
    const b = new TokenBuckets({ ratePerS: 0.1, burst: 1, maxKeys: 10 }, c.now);
    b.take("a");
    expect(b.take("a").retryAfterS).toBe(10);
  });

  it("a preflight (cost 0) reads the state without spending", () => {
    const c = clock();
    const b = new TokenBuckets({ ratePerS: 1, burst: 1, maxKeys: 10 }, c.now);
    expect(b.take("a", 0)).toMatchObject({ allowed: true, remaining: 1 });
    expect(b.take("a")).toMatchObject({ allowed: true, remaining: 0 });
    expect(b.take("a", 0)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it("stays bounded: refilled buckets are swept once per refill period, and past maxKeys the first seen are forgotten", () => {
    const c = clock();
    const b = new TokenBuckets({ ratePerS: 10, burst: 10, maxKeys: 100 }, c.now);
    for (let i = 0; i < 1000; i++) b.take(`c${i}`);
    expect(b.size).toBe(100);
    expect(b.take("c999", 0).remaining).toBe(9); // the latest clients are the ones kept
    c.advance(0.5);
    b.take("busy");
    expect(b.size).toBe(100); // nobody has refilled yet
    c.advance(1);
    b.take("busy");
    expect(b.size).toBe(1); // everyone but the busy client had refilled: swept
  });
});

describe("takeTokens – a batch is charged by its size", () => {
  it("refuses a take larger than what is left, with the wait for all of it", () => {
    const state = { tokens: 2, at: 0 };
    expect(takeTokens(state, { burst: 10, ratePerS: 2 }, 0, 5)).toEqual({ allowed: false, remaining: 2, resetS: 4, retryAfterS: 2 });
    expect(takeTokens(state, { burst: 10, ratePerS: 2 }, 1.5, 5)).toEqual({ allowed: true, remaining: 0, resetS: 5, retryAfterS: 0 });
  });
});

describe("TokenBuckets.charge – what was already spent, even past empty", () => {
  it("charges past empty and answers the whole seconds until the bucket is positive again", () => {
    const c = clock();
    const b = new TokenBuckets({ ratePerS: 10, burst: 100, maxKeys: 10 }, c.now);
    expect(b.charge("a", 0)).toBe(0); // a new client: a full bucket
    expect(b.charge("a", 60)).toBe(0); // 40 left
    expect(b.charge("a", 340)).toBe(31); // 300 in debt: (300 + 1) / 10 s
    expect(b.take("a", 0).allowed).toBe(false); // the debt refuses takes too
    c.advance(30);
    expect(b.charge("a", 0)).toBe(1); // 0: not positive yet
    c.advance(0.1);
    expect(b.charge("a", 0)).toBe(0);
    c.advance(1000);
    expect(b.take("a", 0).remaining).toBe(100); // refilled to the burst, no further
  });

  it("a debt deeper than the burst is not swept before it is paid back", () => {
    const c = clock();
    const b = new TokenBuckets({ ratePerS: 1, burst: 2, maxKeys: 10 }, c.now);
    b.charge("a", 10); // 8 in debt: full again after 10 s
    c.advance(5);
    b.take("other");
    expect(b.charge("a", 0)).toBe(4);
    c.advance(5);
    b.take("other");
    expect(b.size).toBe(1); // "a" refilled and swept; "other" kept
    expect(b.take("a", 0).remaining).toBe(2);
  });

  it("refilled buckets are swept whether they were taken from or charged", () => {
    const c = clock();
    const b = new TokenBuckets({ ratePerS: 10, burst: 10, maxKeys: 10 }, c.now);
    b.take("a", 5);
    b.charge("b", 15);
    expect(b.size).toBe(2);
    c.advance(1);
    b.take("c");
    expect(b.size).toBe(2); // "a" idle for a full refill, "b" 5 short still
    c.advance(1);
    b.take("d");
    expect(b.size).toBe(1);
  });
});
