// A page's script weight as served: the bytes of every script response of a cold load in Chromium (a new
// browser context, so no cache), as they came over the wire (compressed as the server sent them), counted
// once the page is hydrated, live where it goes live, and the network quiet. Shared by the budget spec
// (e2e/ui/page-budgets.spec.ts) and `npm run bench:web`, so both count the same bytes.
import type { Browser, Page, Response } from "@playwright/test";

/** Budgets of script bytes per page, in kB (1,000 bytes). */
export const SCRIPT_BUDGET_KB = { list: 140, market: 180 } as const;

export interface ScriptWeight {
  /** Sum of the script responses' encoded bodies, kB (1,000 bytes). */
  kb: number;
  scripts: number;
  /** The scripts the HTML names (<script src>, not nomodule): what the page needs before it is interactive. */
  firstKb: number;
  firstScripts: number;
  /** Each script's path and encoded kB, largest first, to see what a page carries. */
  each: { path: string; kb: number; encoding: string }[];
}

/** The market kinds whose pages are held to the budget: one of each (docs/api.md, "native or mirrored"). */
export type MarketKind = "native" | "mirrored" | "multi-outcome";

/** Records every script response of `page` from now on; `weigh` sums them once they have all ended. */
export function recordScripts(page: Page) {
  const responses: Response[] = [];
  page.on("response", (r) => {
    if (r.request().resourceType() === "script") responses.push(r);
  });
  return async (html: string, origin: string): Promise<ScriptWeight> => {
    const named = new Set(
      [...html.matchAll(/<script[^>]+>/g)]
        .map((m) => m[0])
        .filter((tag) => !/\snomodule/i.test(tag))
        .map((tag) => /src="([^"]+)"/.exec(tag)?.[1])
        .filter((src): src is string => !!src)
        .map((src) => new URL(src.replaceAll("&amp;", "&"), origin).href),
    );
    const each = await Promise.all(
      [...new Map(responses.map((r) => [r.url(), r])).values()].map(async (r) => {
        await r.finished();
        const { responseBodySize } = await r.request().sizes();
        return { url: r.url(), bytes: responseBodySize, encoding: (await r.headerValue("content-encoding")) ?? "identity" };
      }),
    );
    const kb = (xs: { bytes: number }[]) => xs.reduce((a, x) => a + x.bytes, 0) / 1000;
    const first = each.filter((e) => named.has(e.url));
    return {
      kb: kb(each),
      scripts: each.length,
      firstKb: kb(first),
      firstScripts: first.length,
      each: each.map((e) => ({ path: new URL(e.url).pathname, kb: e.bytes / 1000, encoding: e.encoding })).sort((a, b) => b.kb - a.kb),
    };
  };
}

/**
 * One cold load of `url` in a new context: the page hydrated (html[data-hydrated]), on a market page the
 * live indicator saying Live (its socket's chunk is in), then the network quiet (the lazy chunks that
 * load after hydration have had their turn). `visit` may read more from the page before it closes.
 */
export async function coldScriptWeight<T = undefined>(
  browser: Browser,
  url: string,
  options: { viewport?: { width: number; height: number }; live: boolean; visit?: (page: Page) => Promise<T> },
): Promise<ScriptWeight & { visited: T }> {
  const context = await browser.newContext({ viewport: options.viewport ?? { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    const weigh = recordScripts(page);
    const response = await page.goto(url, { waitUntil: "load" });
    if (!response?.ok()) throw new Error(`${url}: ${response?.status()}`);
    const html = await response.text();
    await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 60_000 });
    if (options.live) await page.getByRole("status").filter({ hasText: "Live" }).waitFor({ timeout: 60_000 });
    await page.waitForLoadState("networkidle");
    const visited = (await options.visit?.(page)) as T;
    return { ...(await weigh(html, new URL(url).origin)), visited };
  } finally {
    await context.close();
  }
}

interface Listed {
  slug: string;
  external_source: string | null;
  outcomes: unknown[];
}

const kindOf = (m: Listed): MarketKind => (m.outcomes.length > 2 ? "multi-outcome" : m.external_source === null ? "native" : "mirrored");

/**
 * The most traded active market of each kind, from GET /v1/markets (by volume, 100 a page): a native
 * one (two outcomes, our own book), a mirrored one (a venue's, `external_source`), a multi-outcome one.
 */
export async function marketOfEachKind(getJson: (path: string) => Promise<unknown>): Promise<Record<MarketKind, string>> {
  const found: Partial<Record<MarketKind, string>> = {};
  for (let offset = 0; offset < 5000 && Object.keys(found).length < 3; offset += 100) {
    const { markets } = (await getJson(`/v1/markets?status=ACTIVE&sortBy=VOLUME&limit=100&offset=${offset}`)) as { markets: Listed[] };
    for (const m of markets) found[kindOf(m)] ??= m.slug;
    if (markets.length < 100) break;
  }
  const missing = (["native", "mirrored", "multi-outcome"] as const).filter((k) => !found[k]);
  if (missing.length) throw new Error(`no active ${missing.join(", ")} market among the first 5,000 listed`);
  return found as Record<MarketKind, string>;
}
