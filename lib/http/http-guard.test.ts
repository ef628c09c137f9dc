import { describe, expect, it } from "vitest";
import { checkRequest, resolvePath } from "./http-guard";

const status = (method: string, url: string) => checkRequest(method, url).answer?.status ?? "next";

describe("http guard – what never reaches Next", () => {
  it.each([
    ["GET", "/v1/markets", "next"],
    ["GET", "/v1/markets?limit=1", "next"],
    ["GET", "/v1", "next"],
    ["HEAD", "/v1/markets", "next"],
    ["OPTIONS", "/v1/markets", "next"],
    ["GET", "/markets/some-slug", "next"],
    ["GET", "/markets/", "next"], // pages keep Next's trailing-slash redirect
    ["OPTIONS", "/", 204],
    ["OPTIONS", "/healthz", 204],
    ["GET", "/markets/%%", 400],
    ["GET", "/markets/%E0%A4%A", 400],
    ["GET", "/v1/markets/%E0%A4%A", 400],
    ["GET", "not-a-path", 400],
    ["TRACE", "/v1/markets", 405],
    ["POST", "/v1/markets", 405],
    ["DELETE", "/v1/markets/x", 405],
    ["TRACE", "/healthz", 405],
    ["TRACE", "/", 405],
    ["POST", "/markets/x", 405],
    ["PATCH", "/readyz", 405],
    ["POST", "/watchlist/star", "next"], // the star's form
    ["POST", "/watchlist/star?x=1", "next"],
    ["POST", "/watchlist//star", 405], // spelt exactly so, or not at all
    ["PUT", "/watchlist/star", 405],
    ["POST", "/watchlist", 405],
    ["GET", "/v1/markets/", 404],
    ["OPTIONS", "/v1/markets/", 404],
    ["GET", "/v1/", 404],
    ["GET", "/v1/%2e%2e", 404],
    ["GET", "/v1/%2E%2E/", 404],
    ["GET", "/v1/..", 404],
    ["GET", "/v1/markets/./x", 404],
    ["GET", "/v1/markets/..%2f..%2fdocs", 404],
    ["GET", "/v1%2f..%2fdocs", 404],
    ["GET", "/v1\\..\\docs", 404],
    ["GET", "//v1/markets", 404],
    ["GET", "/v1//markets", 404],
    ["GET", "/x/../v1/markets", 404],
    ["GET", "/%2e%2e/v1/markets", 404],
    ["GET", "/v1/markets?__proto__=1", 400],
    ["GET", "/v1/markets?limit=1&%5F%5Fproto%5F%5F=1", 400],
    ["GET", `/v1/markets/x/orderbook?outcomeId=y&__proto__=1`, 400],
    ["GET", "/v1/markets?__proto__x=1", "next"],
    ["GET", "/?__proto__=1", "next"],
    ["GET", "http://example.com/v1/markets", "next"],
    ["GET", "http://example.com/v1/markets/", 404],
  ] as const)("%s %s → %s", (method, url, expected) => expect(status(method, url)).toBe(expected));

  it("answers /v1 in the API's error shape with Allow on 405", () => {
    const { api, answer } = checkRequest("POST", "/v1/markets");
    expect(api).toBe(true);
    expect(answer!.headers.Allow).toBe("GET, HEAD, OPTIONS");
    expect(answer!.headers["Access-Control-Allow-Origin"]).toBe("*");
    expect(JSON.parse(answer!.body)).toEqual({ statusCode: 405, message: "Cannot POST /v1/markets", error: "Method Not Allowed" });
  });

  it("names the slash-less path of a trailing-slash 404", () => {
    expect(JSON.parse(checkRequest("GET", "/v1/markets/").answer!.body).message).toBe("Cannot GET /v1/markets/ (no trailing slash: /v1/markets)");
  });

  it("counts a path that resolves into /v1 as the API (so it is limited like one)", () => {
    expect(checkRequest("GET", "/x/../v1/markets").api).toBe(true);
    expect(checkRequest("GET", "/docs").api).toBe(false);
  });
});

describe("resolvePath – as a router resolves it", () => {
  it.each([
    ["/a/b/../c", "/a/c"],
    ["/../..", "/"],
    ["/a//b/./c", "/a/b/c"],
    ["/a\\b", "/a/b"],
    ["/v1/..", "/"],
  ])("%s → %s", (input, expected) => expect(resolvePath(input)).toBe(expected));
});
