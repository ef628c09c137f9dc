// Per-client token buckets for /v1, held in this process's memory: a bucket holds up to `burst` tokens,
// refills at `rps` tokens a second, and every request takes one. Checked on every /v1 request before
// Next runs, so it is a Map lookup and some arithmetic, never I/O.
import { BlockList, isIP } from "node:net";

export interface RateLimitConfig {
  /** Sustained requests per second per client. */
  rps: number;
  /** Requests a client may make at once after being idle. */
  burst: number;
  /** Buckets kept at most; past it, the clients seen first are forgotten first. */
  maxClients: number;
}

export const RATE_LIMIT_DEFAULTS: RateLimitConfig = { rps: 50, burst: 100, maxClients: 100_000 };

/** RATE_LIMIT=off (or 0/false) switches limiting off: null. Bad numbers are a startup error, not a silent default. */
export function rateLimitConfig(env: Record<string, string | undefined> = process.env): RateLimitConfig | null {
  if (["off", "0", "false"].includes((env.RATE_LIMIT ?? "").toLowerCase())) return null;
  const positive = (name: string, fallback: number) => {
    const raw = env[name];
    if (raw === undefined || raw === "") return fallback;
    const n = Number(raw);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got "${raw}"`);
    return n;
  };
  const rps = positive("RATE_LIMIT_RPS", RATE_LIMIT_DEFAULTS.rps);
  const burst = Math.max(1, Math.floor(positive("RATE_LIMIT_BURST", Math.max(RATE_LIMIT_DEFAULTS.burst, rps))));
  return { rps, burst, maxClients: Math.floor(positive("RATE_LIMIT_MAX_CLIENTS", RATE_LIMIT_DEFAULTS.maxClients)) };
}

export interface Decision {
  allowed: boolean;
  /** Whole tokens left after this request. */
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetS: number;
  /** Seconds until the next token, when refused. */
  retryAfterS: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();
  private readonly fillS: number;
  private sweptAt: number;

  constructor(
    readonly config: RateLimitConfig,
    private readonly now: () => number = () => performance.now() / 1000,
  ) {
    this.fillS = config.burst / config.rps;
    this.sweptAt = now();
  }

  get size() {
    return this.buckets.size;
  }

  /** Takes `cost` tokens (0 only reads the state, as for preflights) from the client's bucket. */
  take(key: string, cost = 1): Decision {
    const now = this.now();
    const { rps, burst } = this.config;
    const bucket = this.buckets.get(key);
    let tokens = bucket ? Math.min(burst, bucket.tokens + (now - bucket.at) * rps) : burst;
    const allowed = tokens >= cost;
    if (allowed) tokens -= cost;
    // Updated in place (no delete and re-insert: a Map's deleted slots slow every later scan).
    if (bucket) {
      bucket.tokens = tokens;
      bucket.at = now;
    } else if (tokens < burst) {
      // A full bucket is the same as none: only clients that spent something are remembered.
      this.buckets.set(key, { tokens, at: now });
      if (this.buckets.size > this.config.maxClients) this.evict(now, true);
    }
    if (now - this.sweptAt >= Math.max(1, this.fillS)) this.evict(now, false);
    return {
      allowed,
      remaining: Math.floor(tokens),
      resetS: Math.ceil((burst - tokens) / rps),
      retryAfterS: allowed ? 0 : Math.max(1, Math.ceil((cost - tokens) / rps)),
    };
  }

  /**
   * Drops every bucket that has refilled (idle for a full refill): a scan at most once per refill
   * period, so O(1) per request on average. Over maxClients with everyone active, the clients seen
   * first are forgotten until it fits.
   */
  private evict(now: number, overfull: boolean) {
    this.sweptAt = now;
    for (const [key, bucket] of this.buckets) if (now - bucket.at >= this.fillS) this.buckets.delete(key);
    if (!overfull) return;
    for (const key of this.buckets.keys()) {
      if (this.buckets.size <= this.config.maxClients) break;
      this.buckets.delete(key);
    }
  }
}

/**
 * The `RateLimit-Policy` and `RateLimit` fields of draft-ietf-httpapi-ratelimit-headers (-10/-11), as
 * structured-field lists: a bucket of `burst` tokens refilling in burst/rps seconds reads as a quota of
 * q=burst requests per window w; `r` is what is left, `t` the seconds until it is all back.
 */
export function rateLimitHeaders(config: RateLimitConfig, d: Decision): Record<string, string> {
  const window = Math.max(1, Math.round(config.burst / config.rps));
  return {
    "RateLimit-Policy": `"v1";q=${config.burst};w=${window}`,
    RateLimit: `"v1";r=${d.remaining};t=${d.resetS}`,
  };
}

const KEYWORDS: Record<string, string[]> = {
  loopback: ["127.0.0.0/8", "::1/128"],
  private: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"],
  linklocal: ["169.254.0.0/16", "fe80::/10"],
};

/**
 * TRUST_PROXY: comma-separated addresses, CIDR ranges or the keywords loopback, private, linklocal,
 * naming the proxies whose X-Forwarded-For is believed. Unset: nobody's is.
 */
export function trustedProxies(value: string | undefined): BlockList | null {
  if (!value?.trim()) return null;
  const list = new BlockList();
  for (const token of value
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean)) {
    for (const entry of KEYWORDS[token.toLowerCase()] ?? [token]) {
      const [address, prefix] = entry.split("/");
      const family = isIP(address);
      const bits = prefix === undefined ? (family === 6 ? 128 : 32) : Number(prefix);
      if (!family || !Number.isInteger(bits) || bits < 0 || bits > (family === 6 ? 128 : 32))
        throw new Error(`TRUST_PROXY: "${token}" is not an address, a CIDR range or one of ${Object.keys(KEYWORDS).join(", ")}`);
      list.addSubnet(address, bits, family === 6 ? "ipv6" : "ipv4");
    }
  }
  return list;
}

function isTrusted(list: BlockList, address: string): boolean {
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  const a = v4 ?? address;
  const family = isIP(a);
  return family !== 0 && list.check(a, family === 6 ? "ipv6" : "ipv4");
}

/**
 * The client of a request: the socket's address, or behind trusted proxies the right-most
 * X-Forwarded-For hop that is not one of them (hops left of it are the client's to forge).
 */
export function clientAddress(socketAddress: string | undefined, forwardedFor: string | string[] | undefined, trusted: BlockList | null): string {
  const peer = socketAddress ?? "unknown";
  if (!trusted || !forwardedFor || !isTrusted(trusted, peer)) return peer;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(",") : forwardedFor)
    .split(",")
    .map((h) => h.trim())
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) if (!isTrusted(trusted, hops[i])) return hops[i];
  return hops[0] ?? peer;
}

/** The bucket key of an address: IPv4 as is, IPv6 by its /64 (one host or home usually holds a whole /64). */
export function clientKey(address: string): string {
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (v4) return v4;
  if (isIP(address) !== 6) return address;
  const [head, tail = ""] = address.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = address.includes("::") ? [...left, ...Array(8 - left.length - right.length).fill("0"), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}
