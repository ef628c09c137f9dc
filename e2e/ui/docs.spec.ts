// /docs: the OpenAPI document rendered as a reference page, entirely from our own origin.
import { expect, test } from "../fixtures";

const SUMMARIES = [
  "List markets",
  "One market by id",
  "One market by slug",
  "Order book of one outcome, market by id",
  "Order book of one outcome, market by slug",
  "Price history of one outcome, market by id",
  "Price history of one outcome, market by slug",
  "Trade tape of a market, market by id",
  "Trade tape of a market, market by slug",
  "Order books of up to 50 outcomes",
  "Price histories of up to 50 outcomes",
];

test("/docs – renders every endpoint with no console errors and no request to another origin", async ({ page, baseURL }) => {
  const errors: string[] = [];
  const foreign: string[] = [];
  page.on("console", (m) => {
    // The site's favicon is the layout's business (ui branch), not the reference page's.
    if (m.type() === "error" && !m.location().url.endsWith("/favicon.ico")) errors.push(`${m.text()} (${m.location().url})`);
  });
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("response", (r) => r.status() >= 400 && errors.push(`${r.status()} ${r.url()}`));
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (!["data:", "blob:"].includes(url.protocol) && url.origin !== new URL(baseURL!).origin) foreign.push(r.url());
  });
  const doc = page.waitForResponse((r) => new URL(r.url()).pathname === "/v1/openapi.json");
  await page.goto("/docs");
  expect((await doc).status()).toBe(200);
  for (const summary of SUMMARIES) {
    await expect(page.getByRole("heading", { name: summary, exact: true }).first()).toBeAttached({ timeout: 60_000 });
  }
  // The paths themselves are shown (Scalar prints each operation's path next to its method).
  const text = await page.locator("body").innerText();
  for (const path of ["/v1/markets/{id}/orderbook", "/v1/markets/slug/{slug}/prices-history"]) expect(text).toContain(path);
  await expect(page.getByRole("heading", { name: "Prediction markets – public read API" }).first()).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(errors).toEqual([]);
  expect(foreign).toEqual([]);
});

test("footer – 'API reference' leads to /docs", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("contentinfo").getByRole("link", { name: "API reference" }).click();
  await expect(page).toHaveURL(/\/docs$/);
  await expect(page.getByRole("heading", { name: "List markets", exact: true }).first()).toBeAttached({ timeout: 60_000 });
});

test("/docs – the site header's Markets link leads back to the market list", async ({ page }) => {
  await page.goto("/docs");
  await expect(page.getByRole("heading", { name: "List markets", exact: true }).first()).toBeAttached({ timeout: 60_000 });
  const markets = page.getByRole("banner").getByRole("link", { name: "Markets" });
  await expect(markets).toBeVisible();
  await markets.click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { name: "Prediction markets" })).toBeVisible();
});

test("the home page does not load the reference renderer, not even by prefetching /docs", async ({ page }) => {
  const scripts: { url: string; body: string }[] = [];
  page.on("response", async (r) => {
    if (r.request().resourceType() === "script") scripts.push({ url: r.url(), body: await r.text().catch(() => "") });
  });
  await page.goto("/");
  await page.waitForLoadState("networkidle");
  expect(scripts.length).toBeGreaterThan(0);
  // Scalar's root component carries this class name; no chunk of the home page contains it…
  expect(scripts.filter((s) => s.body.includes("scalar-app")).map((s) => s.url)).toEqual([]);
  // …while /docs does load it (so the check above can fail).
  scripts.length = 0;
  await page.goto("/docs");
  await expect(page.getByRole("heading", { name: "List markets", exact: true }).first()).toBeAttached({ timeout: 60_000 });
  await page.waitForLoadState("networkidle");
  expect(scripts.some((s) => s.body.includes("scalar-app"))).toBe(true);
});

test("/docs – links the AsyncAPI document of the push channels, which answers JSON", async ({ page, request }) => {
  await page.goto("/docs");
  const link = page.getByRole("link", { name: "AsyncAPI document" });
  await expect(link).toBeVisible();
  const href = await link.getAttribute("href");
  expect(href).toBe("/v1/asyncapi.json");
  const res = await request.get(href!);
  expect(res.status()).toBe(200);
  expect((await res.json()).asyncapi).toBe("3.0.0");
});
