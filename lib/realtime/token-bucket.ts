// A token bucket: `burst` takes at once, refilled continuously at `ratePerS`; the clock is passed in,
// so the arithmetic is pure and testable without timers.

export interface TokenBucket {
  /** Takes one token if there is one; false means the request should be refused. */
  take: () => boolean;
}

export function createTokenBucket({ burst, ratePerS }: { burst: number; ratePerS: number }, now: () => number = Date.now): TokenBucket {
  let tokens = burst;
  let refilled = now();
  return {
    take() {
      const t = now();
      tokens = Math.min(burst, tokens + ((t - refilled) / 1000) * ratePerS);
      refilled = t;
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
  };
}
