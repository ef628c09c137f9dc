import { describe, expect, it } from "vitest";
import { acceptsGzip, fillNonce, pageKey } from "./page-cache";

const get = (url: string, headers: Record<string, string> = {}, method = "GET") => pageKey({ method, url, headers: { host: "markets.example", ...headers } });

describe("pageKey – which requests the page cache answers", () => {
  it.each([
    ["/", "cached"],
    ["/?page=3&category=crypto", "cached"],
    ["/markets/will-it-rain", "cached"],
    ["/markets/will-it-rain?outcome=x&range=1d", "cached"],
    ["/markets/will-it-rain/", null], // Next's redirect
    ["/markets/will-it-rain/share.png", null],
    ["/markets", null],
    ["/watchlist", null],
    ["/docs", null],
    ["/embed/markets/will-it-rain", null],
    ["/v1/markets", null],
    ["/?_rsc=1x2y", null],
    ["/markets/a?%5Frsc=1", null],
    ["http://markets.example/", null],
  ])("GET %s → %s", (url, expected) => expect(get(url) === null ? null : "cached").toBe(expected));

  it.each([["HEAD"], ["POST"], ["OPTIONS"]])("%s is never cached", (method) => expect(get("/", {}, method)).toBeNull());

  it.each([
    [{ rsc: "1" }],
    [{ "next-router-prefetch": "1" }],
    [{ "next-router-state-tree": "%5B%5D" }],
    [{ "next-url": "/" }],
    [{ "next-action": "abc" }],
    [{ "x-nextjs-data": "1" }],
    [{ purpose: "prefetch" }],
    [{ "sec-purpose": "prefetch;prerender" }],
    [{ "sec-fetch-dest": "image" }],
    [{ "sec-fetch-dest": "iframe" }],
  ])("a request of Next's router, a prefetch or not a document (%j) passes through", (headers) => expect(get("/", headers)).toBeNull());

  it("a navigation's own headers keep it cacheable", () => {
    expect(get("/", { "sec-fetch-dest": "document", "sec-fetch-mode": "navigate", accept: "text/html", "accept-encoding": "gzip, br" })).not.toBeNull();
  });

  it.each([["watchlist=3f1c0c2e-0000-4000-8000-000000000000"], ["theme=dark; watchlist="], ["__prerender_bypass=1"]])(
    "a cookie the render reads (%s) makes it private",
    (cookie) => expect(get("/", { cookie })).toBe("private"),
  );

  it("other cookies are not part of the page", () => {
    expect(get("/", { cookie: "theme=dark" })).toBe(get("/"));
  });

  it("keys by what a render shows besides its reads: the URL as sent, the host names, the crawler class", () => {
    const keys = [
      get("/"),
      get("/?page=2"),
      get("/?page=02"),
      get("/", { host: "other.example" }),
      get("/", { "x-forwarded-host": "public.example" }),
      get("/", { "x-forwarded-proto": "https" }),
      get("/", { "user-agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" }),
      get("/", { "user-agent": "facebookexternalhit/1.1" }),
    ];
    expect(new Set(keys).size).toBe(keys.length);
    // Browsers are one class: their pages are the same.
    expect(get("/", { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0 Safari/537.36" })).toBe(
      get("/", { "user-agent": "Mozilla/5.0 (Macintosh) Firefox/143.0", "accept-language": "de" }),
    );
  });
});

describe("acceptsGzip – Accept-Encoding", () => {
  it.each([
    [undefined, false],
    ["", false],
    ["gzip", true],
    ["gzip, deflate, br, zstd", true],
    ["br;q=1.0, gzip;q=0.8", true],
    ["GZIP", true],
    ["x-gzip", true],
    ["gzip;q=0", false],
    ["gzip;q=0.000", false],
    ["*", true],
    ["*;q=0", false],
    ["br, *;q=0.1", true],
    ["deflate, identity", false],
    ["*, gzip;q=0", false],
  ])("%j → %s", (header, expected) => expect(acceptsGzip(header)).toBe(expected));
});

describe("fillNonce – a fresh nonce in every hole", () => {
  it("replaces the placeholder wherever it sat, leaving the stored body as it was", () => {
    const placeholder = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    const html = `<script nonce="${placeholder}">1</script>é<link nonce="${placeholder}">${placeholder}`;
    const body = Buffer.from(html);
    const holes = [...html.matchAll(new RegExp(placeholder, "g"))].map((m) => Buffer.byteLength(html.slice(0, m.index)));
    const filled = fillNonce({ body, holes }, "0123456789abcdef0123456789abcdef");
    expect(filled.toString()).toBe(html.replaceAll(placeholder, "0123456789abcdef0123456789abcdef"));
    expect(body.toString()).toBe(html);
  });
});
