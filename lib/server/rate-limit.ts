// The /v1 rate limit: one token bucket per client (lib/server/token-bucket.ts) in this process's memory,
// every request takes one; who the client is (TRUST_PROXY, X-Forwarded-For) and the RateLimit headers.
import { BlockList, isIP } from "node:net";
import type { Decision, KeyedLimits } from "./token-bucket";

/** Requests a client may make at once (`burst`), per second after that (`ratePerS`), clients kept (`maxKeys`). */
export type RateLimitConfig = KeyedLimits;

export const RATE_LIMIT_DEFAULTS: RateLimitConfig = { ratePerS: 50, burst: 100, maxKeys: 100_000 };

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
  const ratePerS = positive("RATE_LIMIT_RPS", RATE_LIMIT_DEFAULTS.ratePerS);
  const burst = Math.max(1, Math.floor(positive("RATE_LIMIT_BURST", Math.max(RATE_LIMIT_DEFAULTS.burst, ratePerS))));
  return { ratePerS, burst, maxKeys: Math.floor(positive("RATE_LIMIT_MAX_CLIENTS", RATE_LIMIT_DEFAULTS.maxKeys)) };
}

/**
 * The `RateLimit-Policy` and `RateLimit` fields of draft-ietf-httpapi-ratelimit-headers (-10/-11), as
 * structured-field lists: a bucket of `burst` tokens refilling in burst/ratePerS seconds reads as a quota of
 * q=burst requests per window w; `r` is what is left, `t` the seconds until it is all back.
 */
export function rateLimitHeaders(config: RateLimitConfig, d: Decision): Record<string, string> {
  const window = Math.max(1, Math.round(config.burst / config.ratePerS));
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
