// Helpers shared by the UI specs: API reads for expected values and the list's visible range text.
import type { APIRequestContext, Page } from "@playwright/test";
import { test as base, expect } from "../fixtures";
import { marketDetailSchema, marketListResponseSchema, orderBookSchema } from "@/lib/markets/schemas";

export async function apiList(request: APIRequestContext, query: Record<string, string | number>) {
  const res = await request.get("/v1/markets", { params: query });
  return marketListResponseSchema.parse(await res.json());
}

export async function apiMarket(request: APIRequestContext, slug: string) {
  return marketDetailSchema.parse(await (await request.get(`/v1/markets/slug/${slug}`)).json());
}

export async function apiBook(request: APIRequestContext, slug: string, outcomeId: string) {
  return orderBookSchema.parse(await (await request.get(`/v1/markets/slug/${slug}/orderbook`, { params: { outcomeId } })).json());
}

export const fmtInt = (n: number) => new Intl.NumberFormat("en-US").format(n);

/** Questions of the visible cards, in order. */
export async function cardQuestions(page: Page) {
  return page.getByTestId("market-card").getByRole("heading").allInnerTexts();
}

/**
 * `test` whose page.goto also waits for React to hydrate (html[data-hydrated]): a click on
 * server-rendered markup before hydration would otherwise be lost.
 */
export const test = base.extend({
  page: async ({ page }, use) => {
    const goto = page.goto.bind(page);
    page.goto = async (url, options) => {
      const res = await goto(url, options);
      await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
      return res;
    };
    await use(page);
  },
});
export { expect };
