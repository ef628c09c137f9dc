// Token buckets, the one implementation: a bucket holds up to `burst` tokens, refills continuously at
// `ratePerS` tokens a second, and a request takes `n` of them (a batch is charged by its size). The
// clock (seconds) is passed in, so the arithmetic is pure and testable without timers. Used by the /v1
// rate limit (one bucket per client, lib/http/rate-limit.ts), the socket joins (lib/realtime/server.ts)
// and the byte limit of the export files (lib/exports/byte-limit.ts), which charges what was already sent
// and so may leave a bucket in debt.

export interface BucketLimits {
  /** Tokens a bucket holds at most: what may be taken at once after being idle. */
  burst: number;
  /** Tokens added a second. */
  ratePerS: number;
}

export interface Decision {
  allowed: boolean;
  /** Whole tokens left after this take. */
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetS: number;
  /** Seconds until `n` tokens are there, when refused (whole seconds, at least 1). */
  retryAfterS: number;
}

/** A bucket's state: it held `tokens` at time `at` (seconds). */
export interface BucketState {
  tokens: number;
  at: number;
}

/** The default clock: seconds, monotonic. */
export const seconds = () => performance.now() / 1000;

/** Refills `state` up to `now` and takes `n` tokens if they are there (n = 0 only reads it). Updates `state` in place. */
export function takeTokens(state: BucketState, { burst, ratePerS }: BucketLimits, now: number, n = 1): Decision {
  let tokens = Math.min(burst, state.tokens + Math.max(0, now - state.at) * ratePerS);
  const allowed = tokens >= n;
  if (allowed) tokens -= n;
  state.tokens = tokens;
  state.at = now;
  return {
    allowed,
    remaining: Math.floor(tokens),
    resetS: Math.ceil((burst - tokens) / ratePerS),
    retryAfterS: allowed ? 0 : Math.max(1, Math.ceil((n - tokens) / ratePerS)),
  };
}

/** Seconds until a bucket holding `tokens` is positive again (holds a whole token): 0 when it is, else at least 1. */
function untilPositiveS(tokens: number, ratePerS: number): number {
  return tokens > 0 ? 0 : Math.max(1, Math.ceil((1 - tokens) / ratePerS));
}

/** Refills `state` up to `now`, then takes `n` tokens whether or not they are there (the bucket may go into debt). */
function chargeTokens(state: BucketState, { burst, ratePerS }: BucketLimits, now: number, n: number) {
  state.tokens = Math.min(burst, state.tokens + Math.max(0, now - state.at) * ratePerS) - n;
  state.at = now;
}

export interface TokenBucket {
  /** Takes `n` tokens if they are there; false means the request should be refused. */
  take: (n?: number) => boolean;
}

/** One bucket, full to start with. */
export function createTokenBucket(limits: BucketLimits, now: () => number = seconds): TokenBucket {
  const state: BucketState = { tokens: limits.burst, at: now() };
  return { take: (n = 1) => takeTokens(state, limits, now(), n).allowed };
}

export interface KeyedLimits extends BucketLimits {
  /** Buckets kept at most; past it, the keys seen first are forgotten first. */
  maxKeys: number;
}

/**
 * One bucket per key (a client), held in memory. Only keys that spent something are remembered (a full
 * bucket is the same as none), refilled buckets are swept once per refill period, and past `maxKeys`
 * the keys seen first are dropped: a Map lookup and some arithmetic per take, never I/O.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, BucketState>();
  private readonly fillS: number;
  private sweptAt: number;

  constructor(
    readonly limits: KeyedLimits,
    private readonly now: () => number = seconds,
  ) {
    this.fillS = limits.burst / limits.ratePerS;
    this.sweptAt = now();
  }

  get size() {
    return this.buckets.size;
  }

  /** Takes `n` tokens (0 only reads the state, as for preflights) from the key's bucket. */
  take(key: string, n = 1): Decision {
    const now = this.now();
    const bucket = this.buckets.get(key);
    // Updated in place (no delete and re-insert: a Map's deleted slots slow every later scan).
    const state = bucket ?? { tokens: this.limits.burst, at: now };
    const decision = takeTokens(state, this.limits, now, n);
    this.settle(key, state, bucket !== undefined, now);
    return decision;
  }

  /**
   * Charges `n` tokens already spent (bytes already sent) to the key's bucket, even past empty: a debt that
   * the refill pays back. Answers the seconds until the bucket is positive again, 0 when it is (n = 0 only
   * reads it).
   */
  charge(key: string, n: number): number {
    const now = this.now();
    const bucket = this.buckets.get(key);
    const state = bucket ?? { tokens: this.limits.burst, at: now };
    chargeTokens(state, this.limits, now, n);
    this.settle(key, state, bucket !== undefined, now);
    return untilPositiveS(state.tokens, this.limits.ratePerS);
  }

  /** Remembers a new key's bucket once it is no longer full, and sweeps when a refill period has passed. */
  private settle(key: string, state: BucketState, known: boolean, now: number) {
    if (!known && state.tokens < this.limits.burst) {
      this.buckets.set(key, state);
      if (this.buckets.size > this.limits.maxKeys) this.evict(now, true);
    }
    if (now - this.sweptAt >= Math.max(1, this.fillS)) this.evict(now, false);
  }

  /**
   * Drops every bucket that has refilled (idle for a full refill, and for its debt): a scan at most once per refill
   * period, so O(1) per take on average. Over maxKeys with everyone active, the keys seen first are
   * forgotten until it fits.
   */
  private evict(now: number, overfull: boolean) {
    this.sweptAt = now;
    // A bucket in debt (charge) needs the time to pay it back on top.
    for (const [key, bucket] of this.buckets) if (now - bucket.at >= this.fillS - Math.min(0, bucket.tokens) / this.limits.ratePerS) this.buckets.delete(key);
    if (!overfull) return;
    for (const key of this.buckets.keys()) {
      if (this.buckets.size <= this.limits.maxKeys) break;
      this.buckets.delete(key);
    }
  }
}
