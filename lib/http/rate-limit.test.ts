import { describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config";
import { clientAddress, clientKey, rateLimitConfig, rateLimitHeaders, trustedProxies } from "./rate-limit";

describe("rateLimitConfig – from the environment", () => {
  it.each([
    [{}, { ratePerS: 50, burst: 100, maxKeys: 100_000 }],
    [{ RATE_LIMIT: "off" }, null],
    [{ RATE_LIMIT: "OFF" }, null],
    [
      { RATE_LIMIT_RPS: "5", RATE_LIMIT_BURST: "10" },
      { ratePerS: 5, burst: 10, maxKeys: 100_000 },
    ],
    [{ RATE_LIMIT_RPS: "500" }, { ratePerS: 500, burst: 500, maxKeys: 100_000 }],
  ])("%j → %j", (env, expected) => expect(rateLimitConfig(parseConfig(env))).toEqual(expected));

  it("refuses nonsense instead of guessing", () => {
    expect(() => rateLimitConfig(parseConfig({ RATE_LIMIT_RPS: "fast" }))).toThrow(/RATE_LIMIT_RPS/);
    expect(() => rateLimitConfig(parseConfig({ RATE_LIMIT_BURST: "-1" }))).toThrow(/RATE_LIMIT_BURST/);
  });
});

describe("RateLimit headers – draft-ietf-httpapi-ratelimit-headers structured fields", () => {
  it("states the policy and what is left", () => {
    expect(rateLimitHeaders({ ratePerS: 50, burst: 100, maxKeys: 1 }, { allowed: true, remaining: 99, resetS: 1, retryAfterS: 0 })).toEqual({
      "RateLimit-Policy": '"v1";q=100;w=2',
      RateLimit: '"v1";r=99;t=1',
    });
  });
});

describe("clientAddress – X-Forwarded-For only from trusted proxies", () => {
  const trusted = trustedProxies(["loopback", "10.0.0.0/8"]);
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
    expect(() => trustedProxies(["10.0.0.0/33"])).toThrow(/TRUST_PROXY/);
    expect(() => trustedProxies(["proxy.example"])).toThrow(/TRUST_PROXY/);
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
