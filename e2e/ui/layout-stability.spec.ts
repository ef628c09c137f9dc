// What the web budgets (npm run bench:web) time, asserted as structure rather than milliseconds:
// - the market page arrives whole in its first response (no streamed Suspense fallback, which React
//   would reveal no sooner than 300 ms after painting it, all of it added to LCP);
// - nothing moves while either page loads, hydrates and goes live (CLS exactly 0).
import type { Page } from "@playwright/test";
import { makeFullMarket } from "../support/markets";
import { expect, test } from "./helpers";

async function watchShifts(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __shifts: string[] };
    w.__shifts = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as (PerformanceEntry & { value: number; sources?: { node?: Node | null }[] })[]) {
        const nodes = (e.sources ?? []).map((s) => (s.node instanceof Element ? `${s.node.tagName}.${s.node.className}` : String(s.node?.nodeName)));
        w.__shifts.push(`${e.value.toExponential(2)} at ${Math.round(e.startTime)} ms: ${nodes.join(" | ")}`);
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
  return () => page.evaluate(() => (window as unknown as { __shifts: string[] }).__shifts);
}

test("market page – the first response holds the whole market: no streamed fallback before it", async ({ request, sql }) => {
  const m = await makeFullMarket(sql);
  const html = await (await request.get(`/markets/${m.slug}`)).text();
  expect(html).not.toContain("<!--$?-->"); // a Suspense boundary still pending when the shell was sent
  expect(html).not.toContain("Loading market");
  expect(html).toMatch(new RegExp(`<h1[^>]*>(<[^>]*>)*[^<]*${m.token}`)); // the question, as HTML
  // The chart (as an SVG area) and the book are in it too, not left for the browser to fetch.
  expect(html).toMatch(/data-testid="price-chart-svg"[\s\S]*<path d="M[\d.,]+L/);
  expect(html).toContain('data-testid="order-book"');
});

test("market page – nothing moves while it loads, hydrates, swaps in the live view, goes live and draws the interactive chart (CLS 0)", async ({
  page,
  sql,
}) => {
  const m = await makeFullMarket(sql);
  const shifts = await watchShifts(page);
  await page.goto(`/markets/${m.slug}?range=1h`); // its trades, 35–50 minutes old, as one point per minute
  await expect(page.locator('[data-live="on"]')).toBeAttached();
  await expect(page.getByRole("status").filter({ hasText: "Live" })).toBeVisible({ timeout: 30_000 });
  const chart = page.getByRole("img", { name: /Price chart of/ });
  await expect(chart.getByTestId("price-chart-svg")).toBeVisible();
  const latest = await page.getByTestId("chart-time").innerText(); // the legend shows the latest point
  await chart.hover(); // the canvas chart loads on the pointer and draws over the SVG
  await expect(chart.locator("canvas").first()).toBeVisible({ timeout: 30_000 });
  // The crosshair over an early point, then off the chart: the legend changes its text, nothing moves.
  const box = (await chart.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.2, box.y + box.height / 2, { steps: 5 });
  await expect(page.getByTestId("chart-time")).not.toHaveText(latest);
  await page.mouse.move(box.x + box.width / 2, box.y - 40);
  await expect(page.getByTestId("chart-time")).toHaveText(latest);
  await page.waitForTimeout(500);
  expect(await shifts()).toEqual([]);
});

test("market list – nothing moves while it loads and hydrates (CLS 0)", async ({ page }) => {
  const shifts = await watchShifts(page);
  await page.goto("/");
  await expect(page.getByTestId("market-card").first()).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(await shifts()).toEqual([]);
});
