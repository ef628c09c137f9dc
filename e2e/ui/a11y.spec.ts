import AxeBuilder from "@axe-core/playwright";
import axe from "axe-core"; // the axe @axe-core/playwright injects (its own dependency), read for its rule list
import { test, expect } from "./helpers";
import type { Page } from "@playwright/test";

// Every rule axe has, the experimental ones (off by default) included: label-content-name-mismatch
// (WCAG 2.5.3, a control's name must contain its visible text) is one of them.
const ALL_RULES = axe.getRules().map((r) => r.ruleId);

async function violations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withRules(ALL_RULES).analyze();
  return violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")}`);
}

async function activeSlug(sql: import("postgres").Sql) {
  const [{ slug }] = await sql`SELECT slug FROM markets WHERE status = 'ACTIVE' AND external_source IS NULL ORDER BY total_volume DESC LIMIT 1`;
  return slug as string;
}

for (const colorScheme of ["light", "dark"] as const) {
  test.describe(`accessibility (${colorScheme})`, () => {
    test.use({ colorScheme });

    test(`a11y – the market list passes every axe rule, experimental included (${colorScheme})`, async ({ page }) => {
      await page.goto("/");
      await expect(page.getByTestId("market-card").first()).toBeVisible();
      expect(await violations(page)).toEqual([]);
    });

    test(`a11y – the market page passes every axe rule, experimental included (${colorScheme})`, async ({ page, sql }) => {
      await page.goto(`/markets/${await activeSlug(sql)}`);
      await expect(page.getByTestId("price-chart")).toHaveAttribute("aria-label", /points/);
      expect(await violations(page)).toEqual([]);
    });

    test(`a11y – /docs passes every axe rule, experimental included (${colorScheme})`, async ({ page }) => {
      await page.goto("/docs");
      await expect(page.getByRole("heading", { name: "Price history of one outcome, market by slug", exact: true }).first()).toBeAttached({ timeout: 60_000 });
      await page.waitForLoadState("networkidle");
      expect(await violations(page)).toEqual([]);
    });
  });
}

test.describe("phone", () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test("a11y – at 360 px neither page scrolls sideways", async ({ page, sql }) => {
    for (const path of ["/", "/?status=resolved&category=sports", `/markets/${await activeSlug(sql)}`]) {
      await page.goto(path);
      await expect(page.locator("main h1")).toBeVisible();
      await page.waitForTimeout(500); // let the chart lay out
      const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
      expect(scroll, path).toBeLessThanOrEqual(client);
    }
  });
});

test("a11y – the list is usable from the keyboard", async ({ page }) => {
  await page.goto("/");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
  await page.keyboard.press("Enter"); // skip the header
  await page.keyboard.press("Tab"); // first tab of the status tablist
  await expect(page.getByRole("tab", { name: "Active" })).toBeFocused();
  await page.keyboard.press("ArrowRight");
  await expect(page).toHaveURL(/status=resolved/);
  await expect(page.getByTestId("status-badge").first()).toHaveText("Resolved"); // the resolved page has arrived
  // Tab reaches the first market link, Enter opens it.
  const firstCard = page.getByTestId("market-card").first().getByRole("link");
  await firstCard.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/markets\//);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
});
