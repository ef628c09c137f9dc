import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bySpecificity, matchRoute, scanApiRoutes } from "./api-router";

const appDir = path.resolve(import.meta.dirname, "../../app");
const routes = scanApiRoutes(appDir);
const match = (p: string) => {
  const m = matchRoute(routes, p);
  return m && { folder: m.route.folder, params: m.params };
};

describe("the /v1 routes, matched as Next matches its app directory", () => {
  it("finds every route.ts under app/v1", () => {
    const files = execFileSync("find", [path.join(appDir, "v1"), "-name", "route.ts"], { encoding: "utf8" })
      .trim()
      .split("\n");
    expect(routes.map((r) => r.file).sort()).toEqual(files.sort());
  });

  it.each([
    ["/v1/markets", "v1/markets", {}],
    ["/v1/markets/slug", "v1/markets/slug", {}],
    ["/v1/markets/slug/will-it", "v1/markets/slug/[slug]", { slug: "will-it" }],
    ["/v1/markets/slug/will-it/orderbook/at", "v1/markets/slug/[slug]/orderbook/at", { slug: "will-it" }],
    ["/v1/markets/abc", "v1/markets/[id]", { id: "abc" }],
    ["/v1/markets/abc/orderbook", "v1/markets/[id]/orderbook", { id: "abc" }],
    ["/v1/markets/abc/trades", "v1/markets/[id]/trades", { id: "abc" }],
    ["/v1/markets/a%20b%2Fc/candles", "v1/markets/[id]/candles", { id: "a b/c" }],
    ["/v1/openapi.json", "v1/openapi.json", {}],
    ["/v1/orderbooks", "v1/orderbooks", {}],
    ["/v1", "v1/[[...path]]", {}],
    ["/v1/nope", "v1/[[...path]]", { path: ["nope"] }],
    ["/v1/markets/abc/nope", "v1/[[...path]]", { path: ["markets", "abc", "nope"] }],
    ["/v1/markets/slug/x/orderbook/at/more", "v1/[[...path]]", { path: ["markets", "slug", "x", "orderbook", "at", "more"] }],
  ])("%s → %s", (p, folder, params) => {
    expect(match(p)).toEqual({ folder, params });
  });

  it("prefers static over dynamic over catch-all at the first segment that differs, and needs a segment for [...x]", () => {
    const table = [{ folder: "v1/[...rest]" }, { folder: "v1/[id]/x" }, { folder: "v1/[id]" }, { folder: "v1/a/[id]" }, { folder: "v1/a/b" }].map((r) => ({
      ...r,
      segments: r.folder.split("/").map((name) => {
        const all = /^\[\.\.\.(.+)\]$/.exec(name);
        if (all) return { kind: "catchAll" as const, name: all[1], optional: false };
        const param = /^\[(.+)\]$/.exec(name);
        return param ? { kind: "param" as const, name: param[1] } : { kind: "static" as const, value: name };
      }),
    }));
    const sorted = [...table].sort(bySpecificity);
    const at = (p: string) => matchRoute(sorted, p)?.route.folder ?? null;
    expect(at("/v1/a/b")).toBe("v1/a/b");
    expect(at("/v1/a/c")).toBe("v1/a/[id]");
    expect(at("/v1/a")).toBe("v1/[id]");
    expect(at("/v1/q/x")).toBe("v1/[id]/x");
    expect(at("/v1/q/y")).toBe("v1/[...rest]");
    expect(at("/v1")).toBeNull();
  });
});
