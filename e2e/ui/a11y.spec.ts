import AxeBuilder from "@axe-core/playwright";
import axe from "axe-core"; // the axe @axe-core/playwright injects (its own dependency), read for its rule list
import { test, expect } from "./helpers";
import type { Page } from "@playwright/test";

// Every rule axe has, the experimental ones (off by default) included, such as label-content-name-mismatch.
// Left out: the AAA contrast level (7:1); the site's target is WCAG 2.2 AA, whose 4.5:1 color-contrast runs.
const ALL_RULES = axe
  .getRules()
  .map((r) => r.ruleId)
  .filter((id) => id !== "color-contrast-enhanced");

async function violations(page: Page, exclude?: string) {
  const builder = new AxeBuilder({ page }).withRules(ALL_RULES);
  if (exclude) builder.exclude(exclude);
  const { violations } = await builder.analyze();
  return violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.nodes
        .map((n) => n.target.join(" "))
        .slice(0, 3)
        .join(", ")}`,
  );
}

/**
 * Label in name (WCAG 2.5.3) by whole words, stricter than axe's substring test (which lets "Desc" pass
 * inside "Descending order"): every visible control's name contains its visible text, word for word.
 */
async function labelNotInName(page: Page) {
  return page.evaluate(() => {
    const words = (s: string) =>
      s
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .filter(Boolean);
    const contains = (name: string[], label: string[]) => name.some((_, i) => label.every((w, j) => name[i + j] === w));
    const ax = (window as unknown as { axe: { setup: (n: Node) => void; teardown: () => void; commons: { text: { accessibleText: (e: Element) => string } } } })
      .axe;
    ax.setup(document);
    try {
      // Not <select>: it shows its chosen option, and is named by its <label>.
      const controls = document.querySelectorAll("a[href], button, summary, [role=button], [role=tab], [role=link], [role=checkbox]");
      return [...controls]
        .filter((el) => el.checkVisibility() && (el as HTMLElement).innerText.trim())
        .map((el) => ({ visible: (el as HTMLElement).innerText.trim().replace(/\s+/g, " "), name: ax.commons.text.accessibleText(el) }))
        .filter(({ visible, name }) => !contains(words(name), words(visible)))
        .map(({ visible, name }) => `"${visible}" is named "${name}"`);
    } finally {
      ax.teardown();
    }
  });
}

async function activeSlug(sql: import("postgres").Sql) {
  const [{ slug }] = await sql`SELECT slug FROM markets WHERE status = 'ACTIVE' AND external_source IS NULL ORDER BY total_volume DESC LIMIT 1`;
  return slug as string;
}

/** The busiest active market of more than two outcomes (it offers the all-outcomes chart). */
async function multiSlug(sql: import("postgres").Sql) {
  const [{ slug }] = await sql`
    SELECT slug FROM markets m WHERE status = 'ACTIVE' AND external_source IS NULL AND (SELECT count(*) FROM outcomes o WHERE o.market_id = m.id) > 2
    ORDER BY total_volume DESC LIMIT 1`;
  return slug as string;
}

for (const colorScheme of ["light", "dark"] as const) {
  test.describe(`accessibility (${colorScheme})`, () => {
    test.use({ colorScheme });
    // Every axe rule, experimental ones included, over a whole market page takes most of a minute on 2 cores.
    test.describe.configure({ timeout: 180_000 });

    test(`a11y – the market list passes every axe rule, experimental included (${colorScheme})`, async ({ page }) => {
      await page.goto("/");
      await expect(page.getByTestId("market-card").first()).toBeVisible();
      expect(await violations(page)).toEqual([]);
      expect(await labelNotInName(page)).toEqual([]);
    });

    test(`a11y – the market page passes every axe rule, experimental included (${colorScheme})`, async ({ page, sql }) => {
      await page.goto(`/markets/${await activeSlug(sql)}`);
      await expect(page.getByTestId("price-chart")).toHaveAttribute("aria-label", /points/);
      expect(await violations(page)).toEqual([]);
      expect(await labelNotInName(page)).toEqual([]);
    });

    test(`a11y – the watchlist (a starred, a cancelled and a deleted market) and the embed card pass every axe rule (${colorScheme})`, async ({
      page,
      sql,
      baseURL,
    }) => {
      const slug = await activeSlug(sql);
      const [{ id: active }] = await sql`SELECT id FROM markets WHERE slug = ${slug}`;
      const [{ id: cancelled }] = await sql`SELECT id FROM markets WHERE status = 'CANCELLED' LIMIT 1`;
      await page.context().addCookies([{ name: "watchlist", value: `${active},${cancelled},${crypto.randomUUID()}`, url: baseURL! }]);
      await page.goto("/watchlist");
      await expect(page.getByTestId("market-card")).toHaveCount(2);
      expect(await violations(page)).toEqual([]);
      expect(await labelNotInName(page)).toEqual([]);
      await page.goto(`/embed/markets/${slug}`);
      await expect(page.getByTestId("embed-card")).toBeVisible();
      expect(await violations(page)).toEqual([]);
      expect(await labelNotInName(page)).toEqual([]);
    });

    test(`a11y – the market page with its embed code open passes every axe rule (${colorScheme})`, async ({ page, sql }) => {
      await page.goto(`/markets/${await activeSlug(sql)}`);
      await page.getByText("Embed", { exact: true }).click();
      await expect(page.getByRole("button", { name: "Copy embed code" })).toBeVisible();
      expect(await violations(page)).toEqual([]);
    });

    test(`a11y – the market page with the book's replay open passes every axe rule (${colorScheme})`, async ({ page, sql }) => {
      await page.goto(`/markets/${await activeSlug(sql)}`);
      await expect(page.locator("html[data-hydrated]")).toBeAttached({ timeout: 30_000 });
      await page.getByRole("button", { name: "Replay", exact: true }).click();
      await expect(page.getByTestId("replay-as-of")).toHaveText(/As of|Not recorded/);
      expect(await violations(page)).toEqual([]);
      expect(await labelNotInName(page)).toEqual([]);
    });

    test(`a11y – the market page's candle and all-outcomes charts and its whole-market tape pass every axe rule (${colorScheme})`, async ({ page, sql }) => {
      const slug = await multiSlug(sql);
      await page.goto(`/markets/${slug}?chart=candles`);
      await expect(page.getByTestId("candle-chart")).toHaveAttribute("aria-label", /candles/);
      await expect(page.getByTestId("activity-panel").getByRole("listitem").first()).toBeVisible();
      expect(await violations(page)).toEqual([]);
      expect(await labelNotInName(page)).toEqual([]);
      await page.goto(`/markets/${slug}?chart=all&trades=all`);
      await expect(page.getByTestId("outcomes-chart")).toHaveAttribute("aria-label", /¢/);
      await page.getByRole("group", { name: "Lines shown" }).getByRole("button").first().click(); // one line switched off
      await expect(page.getByRole("group", { name: "Lines shown" }).getByRole("button").first()).toHaveAttribute("aria-pressed", "false");
      expect(await violations(page)).toEqual([]);
      expect(await labelNotInName(page)).toEqual([]);
    });

    test(`a11y – both 404 pages pass every axe rule, experimental included (${colorScheme})`, async ({ page }) => {
      for (const [path, heading] of [
        ["/no-such-page", "Page not found"],
        ["/markets/no-such-market", "Market not found"],
      ]) {
        const res = await page.goto(path);
        expect(res?.status(), path).toBe(404);
        await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
        expect(await violations(page), path).toEqual([]);
        expect(await labelNotInName(page), path).toEqual([]);
      }
    });

    // Our part of /docs (header, skip link, landmarks, title); Scalar's rendered reference is its own markup
    // and has findings of its own (aria-allowed-attr, button-name, nested-interactive, contrast) not fixed here.
    test(`a11y – /docs passes every axe rule, experimental included, outside the Scalar renderer (${colorScheme})`, async ({ page }) => {
      await page.goto("/docs");
      await expect(page.getByRole("heading", { name: "Price history of one outcome, market by slug", exact: true }).first()).toBeAttached({ timeout: 60_000 });
      await page.waitForLoadState("networkidle");
      expect(await violations(page, "[data-api-reference]")).toEqual([]);
    });
  });
}

test.describe("phone", () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test("a11y – at 360 px neither page scrolls sideways", async ({ page, sql }) => {
    const slug = await activeSlug(sql);
    const multi = await multiSlug(sql);
    for (const path of [
      "/",
      "/?status=resolved&category=sports",
      `/markets/${slug}`,
      `/markets/${multi}?chart=candles`,
      `/markets/${multi}?chart=all&trades=all`,
      "/watchlist",
      `/embed/markets/${slug}`,
      "/no-such-page",
    ]) {
      await page.goto(path);
      await expect(page.locator("main h1")).toBeVisible();
      await page.waitForTimeout(500); // let the chart lay out
      if (path.startsWith("/markets/")) {
        await page.getByText("Embed", { exact: true }).click(); // the embed code open fits too
        await expect(page.getByRole("button", { name: "Copy embed code" })).toBeVisible();
      }
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
