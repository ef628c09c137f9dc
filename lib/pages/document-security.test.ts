import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { isDocumentRequest, secureDocument } from "./document-security";

function request(url: string, headers: Record<string, string> = {}) {
  const req = new IncomingMessage(new Socket());
  req.url = url;
  req.method = "GET";
  req.headers = { host: "example.test:3000", ...headers };
  return { req, res: new ServerResponse(req) };
}

const nonceOf = (csp: unknown) => /'nonce-([^']+)'/.exec(String(csp))?.[1];

describe("isDocumentRequest", () => {
  it("takes pages, /docs and unknown addresses; leaves out the API, internal routes, static files and images", () => {
    for (const url of ["/", "/?page=3", "/markets/a-b", "/watchlist", "/docs", "/embed/markets/x", "/nope", "/v1x", "/v2/markets"])
      expect(isDocumentRequest({ url, headers: {} }), url).toBe(true);
    for (const url of [
      "/v1",
      "/v1/markets?limit=1",
      "/api/x",
      "/oembed?url=x",
      "/healthz",
      "/readyz",
      "/_next/static/chunks/a.js",
      "/_next/image?url=x",
      "/favicon.ico",
      "/icon.svg",
      "/apple-icon.png",
      "/avatars/a.svg",
      "/market-images/b.png",
    ])
      expect(isDocumentRequest({ url, headers: {} }), url).toBe(false);
  });

  it("leaves out prefetches (no document)", () => {
    expect(isDocumentRequest({ url: "/markets/a", headers: { "next-router-prefetch": "1" } })).toBe(false);
    expect(isDocumentRequest({ url: "/markets/a", headers: { purpose: "prefetch" } })).toBe(false);
  });
});

describe("secureDocument", () => {
  it("gives a document's request and response one policy with a fresh nonce, and the hardening headers", () => {
    const { req, res } = request("/markets/a");
    secureDocument(req, res);
    const csp = res.getHeader("content-security-policy");
    expect(req.headers["content-security-policy"]).toBe(csp);
    expect(nonceOf(csp)).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(String(csp)).toContain("frame-ancestors 'none'");
    expect(String(csp)).toContain("ws://example.test:3000");
    expect(String(csp)).not.toContain("unsafe-eval");
    expect(res.getHeader("x-frame-options")).toBe("DENY");
    expect(res.getHeader("x-content-type-options")).toBe("nosniff");
    expect(res.getHeader("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(res.getHeader("permissions-policy")).toContain("camera=()");

    const other = request("/markets/a");
    secureDocument(other.req, other.res);
    expect(nonceOf(other.res.getHeader("content-security-policy"))).not.toBe(nonceOf(csp));
  });

  it("uses the nonce it is given (the page cache's placeholder), and eval in development only", () => {
    const { req, res } = request("/");
    secureDocument(req, res, { nonce: "abc123", dev: true });
    expect(nonceOf(req.headers["content-security-policy"])).toBe("abc123");
    expect(String(res.getHeader("content-security-policy"))).toContain("'unsafe-eval'");
  });

  it("never takes a nonce from the request: a policy it arrives with is replaced, or dropped when it is no document", () => {
    const sent = { "content-security-policy": "script-src 'nonce-chosen'", "content-security-policy-report-only": "script-src 'nonce-chosen'" };
    const page = request("/markets/a", sent);
    secureDocument(page.req, page.res);
    expect(nonceOf(page.req.headers["content-security-policy"])).not.toBe("chosen");
    expect(page.req.headers["content-security-policy-report-only"]).toBeUndefined();

    const prefetch = request("/markets/a", { ...sent, purpose: "prefetch" });
    secureDocument(prefetch.req, prefetch.res);
    expect(prefetch.req.headers["content-security-policy"]).toBeUndefined();
    expect(prefetch.req.headers["content-security-policy-report-only"]).toBeUndefined();
    expect(prefetch.res.getHeader("content-security-policy")).toBeUndefined();
  });

  it("lets other sites frame the embed cards alone", () => {
    const { req, res } = request("/embed/markets/a");
    secureDocument(req, res);
    expect(String(res.getHeader("content-security-policy"))).toContain("frame-ancestors *");
    expect(res.getHeader("x-frame-options")).toBeUndefined();
    expect(res.getHeader("x-content-type-options")).toBe("nosniff");
  });
});
