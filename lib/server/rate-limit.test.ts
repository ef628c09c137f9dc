import { describe, expect, it } from "vitest";
import { clientAddress, clientKey, rateLimitConfig, rateLimitHeaders, TokenBuckets, trustedProxies } from "./rate-limit";

function clock() {
  let t = 1000;
  return { now: () => t, advance: (s: number) => (t += s) };
}

describe("token buckets – burst, then the sustained rate", () => {
  it("allows a burst, refuses the next request with the wait for one token, refills at rps", () => {
    const c = clock();
    const b = new TokenBuckets({ rps: 2, burst: 3, maxClients: 10 }, c.now);
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
    const b = new TokenBuckets({ rps: 0.1, burst: 1, maxClients: 10 }, c.now);
    b.take("a");
    expect(b.take("a").retryAfterS).toBe(10);
  });

  it("a preflight (cost 0) reads the state without spending", () => {
    const c = clock();
    const b = new TokenBuckets({ rps: 1, burst: 1, maxClients: 10 }, c.now);
    expect(b.take("a", 0)).toMatchObject({ allowed: true, remaining: 1 });
    expect(b.take("a")).toMatchObject({ allowed: true, remaining: 0 });
    expect(b.take("a", 0)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it("stays bounded: refilled buckets are swept once per refill period, and past maxClients the first seen are forgotten", () => {
    const c = clock();
    const b = new TokenBuckets({ rps: 10, burst: 10, maxClients: 100 }, c.now);
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

describe("rateLimitConfig – from the environment", () => {
  it.each([
    [{}, { rps: 50, burst: 100, maxClients: 100_000 }],
    [{ RATE_LIMIT: "off" }, null],
    [{ RATE_LIMIT: "OFF" }, null],
    [
      { RATE_LIMIT_RPS: "5", RATE_LIMIT_BURST: "10" },
      { rps: 5, burst: 10, maxClients: 100_000 },
    ],
    [{ RATE_LIMIT_RPS: "500" }, { rps: 500, burst: 500, maxClients: 100_000 }],
  ])("%j → %j", (env, expected) => expect(rateLimitConfig(env)).toEqual(expected));

  it("refuses nonsense instead of guessing", () => {
    expect(() => rateLimitConfig({ RATE_LIMIT_RPS: "fast" })).toThrow(/RATE_LIMIT_RPS/);
    expect(() => rateLimitConfig({ RATE_LIMIT_BURST: "-1" })).toThrow(/RATE_LIMIT_BURST/);
  });
});

describe("RateLimit headers – draft-ietf-httpapi-ratelimit-headers structured fields", () => {
  it("states the policy and what is left", () => {
    expect(rateLimitHeaders({ rps: 50, burst: 100, maxClients: 1 }, { allowed: true, remaining: 99, resetS: 1, retryAfterS: 0 })).toEqual({
      "RateLimit-Policy": '"v1";q=100;w=2',
      RateLimit: '"v1";r=99;t=1',
    });
  });
});

describe("clientAddress – X-Forwarded-For only from trusted proxies", () => {
  const trusted = trustedProxies("loopback, 10.0.0.0/8");
  it.each([
    ["no TRUST_PROXY: the socket", "203.0.113.9", "1.1.1.1", null, "203.0.113.9"],
    ["untrusted peer: its header is ignored", "203.0.113.9", "1.1.1.1", trusted, "203.0.113.9"],
    ["trusted peer: the right-most untrusted hop", "127.0.0.1", "6.6.6.6, 198.51.100.7, 10.1.2.3", trusted, "198.51.100.7"],
    ["IPv4-mapped peer counts as IPv4", "::ffff:127.0.0.1", "198.51.100.7", trusted, "198.51.100.7"],
    ["all hops trusted: the left-most", "127.0.0.1", "10.0.0.1, 10.0.0.2", trusted, "10.0.0.1"],
    ["a forged junk hop is a client like any other", "127.0.0.1", "1.1.1.1, junk", trusted, "junk"],
    ["trusted peer without the header: the socket", "127.0.0.1", undefined, trusted, "127.0.0.1"],
  ] as const)("%s", (_name, peer, xff, list, expected) => expect(clientAddress(peer, xff, list)).toBe(expected));

  it("refuses a TRUST_PROXY entry it cannot read", () => {
    expect(() => trustedProxies("10.0.0.0/33")).toThrow(/TRUST_PROXY/);
    expect(() => trustedProxies("proxy.example")).toThrow(/TRUST_PROXY/);
  });
});

describe("clientKey – one bucket per IPv4 address or IPv6 /64", () => {
  it.each([
    ["198.51.100.7", "198.51.100.7"],
    ["::ffff:198.51.100.7", "198.51.100.7"],
    ["2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
    ["2001:db8:1:2::9", "2001:db8:1:2::/64"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
  ])("%s → %s", (address, expected) => expect(clientKey(address)).toBe(expected));
});
