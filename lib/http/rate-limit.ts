// The /v1 rate limit: one token bucket per client (lib/http/token-bucket.ts) in this process's memory,
// every request takes one; who the client is (TRUST_PROXY, X-Forwarded-For) and the RateLimit headers.
import "server-only";
import { BlockList, isIP } from "node:net";
import { config, type Config } from "@/lib/config";
import type { Decision, KeyedLimits } from "./token-bucket";

/** Requests a client may make at once (`burst`), per second after that (`ratePerS`), clients kept (`maxKeys`). */
export type RateLimitConfig = KeyedLimits;

export const RATE_LIMIT_DEFAULTS: RateLimitConfig = { ratePerS: 50, burst: 100, maxKeys: 100_000 };

/** RATE_LIMIT=off switches limiting off: null. The burst defaults to max(100, RATE_LIMIT_RPS). */
export function rateLimitConfig(c: Config = config()): RateLimitConfig | null {
  if (!c.RATE_LIMIT) return null;
  const ratePerS = c.RATE_LIMIT_RPS;
  return { ratePerS, burst: c.RATE_LIMIT_BURST ?? Math.floor(Math.max(RATE_LIMIT_DEFAULTS.burst, ratePerS)), maxKeys: c.RATE_LIMIT_MAX_CLIENTS };
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
 * TRUST_PROXY: addresses, CIDR ranges or the keywords loopback, private, linklocal, naming the proxies
 * whose X-Forwarded-For is believed. None: nobody's is.
 */
export function trustedProxies(tokens: string[] = config().TRUST_PROXY): BlockList | null {
  if (!tokens.length) return null;
  const list = new BlockList();
  for (const token of tokens) {
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
