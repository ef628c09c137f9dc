// The demo flow, step by step, as a person would use the product: run with `npm run demo` to record it.
import { test, expect } from "../ui/helpers";

let shot = 0;
/** In a demo run: hold the frame a moment for the video and save a numbered screenshot of the step. */
async function pause(page: import("@playwright/test").Page) {
  if (process.env.DEMO !== "1") return;
  await page.waitForTimeout(700);
  await page.screenshot({ path: test.info().outputPath(`step-${String(++shot).padStart(2, "0")}.png`) });
}

test("demo – browse, filter, search, sort, page, open a market, switch outcome, change range, read the book", async ({ page, sql }) => {
  test.setTimeout(180_000);
  // A category with enough active markets for two pages, and a word from one of them to search for.
  const [cat] = await sql`SELECT category::text AS category, count(*)::int AS n FROM markets WHERE status = 'ACTIVE' GROUP BY 1 ORDER BY 2 DESC LIMIT 1`;
  const label = cat.category.charAt(0) + cat.category.slice(1).toLowerCase();

  await test.step("browse the list", async () => {
    await page.goto("/");
    await expect(page.getByRole("heading", { name: "Prediction markets" })).toBeVisible();
    await expect(page.getByTestId("market-card").first()).toBeVisible();
    await pause(page);
  });

  await test.step("filter by category", async () => {
    await page.getByRole("group", { name: "Category" }).getByRole("button", { name: label }).click();
    await expect(page).toHaveURL(new RegExp(`category=${cat.category.toLowerCase()}`));
    await expect(page.getByTestId("range-text")).toContainText(`of ${cat.n} markets`);
    await pause(page);
  });

  await test.step("sort by volume", async () => {
    await page.getByLabel("Sort by").selectOption({ label: "Volume" });
    await expect(page).toHaveURL(/sort=volume/);
    await pause(page);
  });

  await test.step("go to page 2", async () => {
    await page.getByRole("navigation", { name: "Pagination" }).getByRole("link", { name: "Page 2" }).click();
    await expect(page.getByTestId("range-text")).toContainText("21–");
    await pause(page);
  });

  const [target] = await sql`
    SELECT m.slug, m.question FROM markets m WHERE m.status = 'ACTIVE' AND m.category = ${cat.category} AND m.type = 'MULTI'
    ORDER BY m.total_volume DESC LIMIT 1`;
  // q is a substring match: search the question's longest word, which the target surely contains.
  const word = (target.question as string).split(/[^\p{L}\p{N}]+/u).sort((a, b) => b.length - a.length)[0];

  await test.step("search", async () => {
    await page.getByLabel("Search markets").pressSequentially(word, { delay: 40 });
    // The whole word, not a prefix: on a slow machine the debounce can fire mid-typing, and a later
    // one would then pull the page back to the list while it navigates to the market.
    await expect(page).toHaveURL(new RegExp(`q=${encodeURIComponent(word)}(&|$)`));
    await expect(page).not.toHaveURL(/page=2/);
    await pause(page);
  });

  await test.step("open a market", async () => {
    await page.locator(`a[href="/markets/${target.slug}"]`).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(target.question);
    await expect(page.getByTestId("price-chart")).toHaveAttribute("aria-label", /points|Price chart/);
    await pause(page);
  });

  await test.step("switch outcome", async () => {
    const buttons = page.getByTestId("outcome-list").getByRole("button");
    const other = buttons.filter({ has: page.locator(":scope[aria-pressed=false]") }).first();
    const name = (await other.innerText()).split("\n")[0];
    await other.click();
    await expect(page).toHaveURL(/outcome=/);
    await expect(page.getByRole("heading", { name: `Order book · ${name}` })).toBeVisible();
    await pause(page);
  });

  await test.step("change chart range", async () => {
    await page.getByRole("button", { name: "1M", exact: true }).click();
    await expect(page).toHaveURL(/range=1m/);
    await page.getByRole("button", { name: "All", exact: true }).click();
    await expect(page).toHaveURL(/range=all/);
    await expect(page.getByTestId("price-chart")).toHaveAttribute("aria-label", /points/);
    await pause(page);
  });

  await test.step("read the book", async () => {
    const book = page.getByTestId("order-book");
    await book.scrollIntoViewIfNeeded();
    await expect(page.getByTestId("spread-row")).toContainText("Spread");
    await pause(page);
  });
});
