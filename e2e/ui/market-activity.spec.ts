// The market page's trade tape and chart modes (docs/api.md "Trades", "Candles"): the Activity panel arrives with the page, follows
// the database live (a trade committed with SQL appears without a reload) and walks back through the
// cursor; the candle mode and the all-outcomes chart are SVGs in the first response, canvases on the
// pointer, and stay in the URL.
import type { Page } from "@playwright/test";
import { addTrades, makeMarket } from "../support/markets";
import { expect, test } from "./helpers";

test.describe.configure({ timeout: 120_000 });

/** Marks the document so that a reload (which would make the test pass for the wrong reason) shows. */
const markDocument = (page: Page) => page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
const stillSameDocument = (page: Page) => page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload === true);
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

test("Activity – the first response lists the chosen outcome's trades; a committed trade appears without a reload, announced once; the filter is in the URL", async ({
  page,
  request,
  sql,
}) => {
  const m = await makeMarket(sql, { prefix: "tape-live", status: "ACTIVE", users: 2 });
  const [maker, taker] = await sql<
    { username: string }[]
  >`SELECT username FROM users WHERE id IN ${sql(m.users)} ORDER BY array_position(${m.users}::uuid[], id)`;
  await addTrades(sql, m, [
    { price: "0.410", shares: "5", at: minutesAgo(30) },
    { price: "0.420", shares: "6", at: minutesAgo(20) },
    { price: "0.580", shares: "7", outcome: m.no, at: minutesAgo(15) },
    { price: "0.430", shares: "8", at: minutesAgo(10) },
  ]);

  // Server-rendered: the Yes tape's three trades are in the HTML, before any script runs.
  const html = await (await request.get(`/markets/${m.slug}`)).text();
  expect(html.match(/<li class="tape-row"/g)).toHaveLength(3);
  expect(html).toContain("43.0¢");

  await page.goto(`/markets/${m.slug}`);
  await expect(page.getByRole("status").filter({ hasText: "Live" })).toBeVisible({ timeout: 30_000 });
  await markDocument(page);
  const panel = page.getByTestId("activity-panel");
  const rows = panel.getByRole("listitem");
  await expect(rows).toHaveCount(3);
  await expect(rows.first()).toContainText("43.0¢");
  await expect(rows.first()).toContainText(maker.username);
  await expect(rows.first()).toContainText(taker.username);
  await expect(panel.getByRole("button", { name: "Yes only" })).toHaveAttribute("aria-pressed", "true");

  // Live: a trade of Yes goes on top; a trade of No is not this tape's (the next Yes trade is the sentinel).
  await addTrades(sql, m, [{ price: "0.612", shares: "12.5" }]);
  await expect(rows.first()).toContainText("61.2¢");
  await expect(rows.first()).toContainText("12.50");
  await expect(rows.first()).toContainText("$7.65");
  await addTrades(sql, m, [{ price: "0.390", outcome: m.no }]);
  await addTrades(sql, m, [{ price: "0.633" }]);
  await expect(rows.first()).toContainText("63.3¢");
  await expect(rows).toHaveCount(5);
  await expect(panel).not.toContainText("39.0¢");
  // One polite summary of what arrived, not one announcement per trade.
  await expect(panel.getByTestId("activity-announcement")).toHaveText(/^\d new trades?$/, { timeout: 10_000 });

  // All outcomes: the URL says so, and No's trades are listed, live as well.
  await panel.getByRole("button", { name: "All outcomes" }).click();
  await expect(page).toHaveURL(/trades=all/);
  await expect(rows).toHaveCount(7);
  await expect(panel).toContainText("39.0¢");
  await addTrades(sql, m, [{ price: "0.371", outcome: m.no }]);
  await expect(rows.first()).toContainText("37.1¢");
  await expect(rows.first()).toContainText("No");
  expect(await stillSameDocument(page)).toBe(true);

  // The scope survives a reload (the server renders it), and choosing an outcome keeps it.
  await page.reload();
  await expect(panel.getByRole("button", { name: "All outcomes" })).toHaveAttribute("aria-pressed", "true");
  await expect(rows).toHaveCount(8);
  await page.getByTestId("outcome-list").getByRole("button", { name: /^No/ }).click();
  await expect(page).toHaveURL(/trades=all/);
  await expect(page).toHaveURL(new RegExp(`outcome=${m.no}`));
});

test("Activity – Load older walks back through the cursor, from the keyboard, to the tape's start", async ({ page, sql }) => {
  const m = await makeMarket(sql, { prefix: "tape-older", status: "ACTIVE" });
  await addTrades(
    sql,
    m,
    Array.from({ length: 75 }, (_, i) => ({ price: (0.1 + i / 100).toFixed(3), at: minutesAgo(200 - i) })),
  );
  const expected = (await sql<{ id: string }[]>`SELECT id FROM trades WHERE outcome_id = ${m.yes} ORDER BY executed_at DESC, id DESC`).map((r) => r.id);
  await page.goto(`/markets/${m.slug}`);
  const panel = page.getByTestId("activity-panel");
  const rows = panel.getByRole("listitem");
  await expect(rows).toHaveCount(15);
  const older = panel.getByRole("button", { name: "Load older trades" });
  await older.focus();
  await page.keyboard.press("Enter");
  await expect(rows).toHaveCount(45);
  await expect(panel.getByTestId("activity-announcement")).toHaveText("30 older trades loaded");
  await page.keyboard.press("Enter"); // the focus stayed on the button
  await expect(rows).toHaveCount(75);
  await expect(panel.getByTestId("activity-announcement")).toHaveText("30 older trades loaded");
  await expect(panel.getByRole("button", { name: "No older trades" })).toBeFocused();
  // Every trade once, newest first, as the database orders them.
  expect(await rows.evaluateAll((rs) => rs.map((r) => r.getAttribute("data-trade")))).toEqual(expected);
  // The tape box keeps its height: it scrolls, the page does not grow.
  const box = await panel.getByTestId("activity-list").boundingBox();
  expect(box?.height).toBe(8 * 44);
});

test("Candles – the mode is in the URL, an SVG in the first response, candles with volume on the pointer, and trades refetch it", async ({
  page,
  request,
  sql,
}) => {
  const m = await makeMarket(sql, { prefix: "candles", status: "ACTIVE" });
  // Six whole hours with two trades each, 10 to 5 hours back (the default range, 1W, has hourly candles).
  const hour = Math.floor(Date.now() / 3600_000) * 3600_000;
  await addTrades(
    sql,
    m,
    Array.from({ length: 12 }, (_, i) => ({
      price: (0.4 + (i % 5) / 50).toFixed(3),
      shares: String(1 + i),
      at: new Date(hour - (10 - Math.floor(i / 2)) * 3600_000 + 60_000 + (i % 2) * 300_000),
    })),
  );
  await page.goto(`/markets/${m.slug}`);
  const candlesReq = page.waitForRequest((r) => r.url().includes("/candles?") && r.url().includes("interval=1h"));
  await page.getByRole("group", { name: "Chart type" }).getByRole("button", { name: "Candles" }).click();
  await expect(page).toHaveURL(/chart=candles/);
  await candlesReq;
  const chart = page.getByRole("img", { name: /^Candlestick chart of Yes: 6 candles/ });
  await expect(chart).toBeVisible();
  await expect(page.getByRole("group", { name: "Chart type" }).getByRole("button", { name: "Candles" })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByRole("group", { name: "Chart type" }).getByRole("button", { name: "All outcomes" })).toHaveCount(0); // a binary market has none

  // The server draws it too: the URL alone gives candles in the first response (bodies, wicks, volume per direction).
  const html = await (await request.get(`/markets/${m.slug}?chart=candles`)).text();
  expect(html).toMatch(/data-testid="candle-chart-svg"[\s\S]*<path d="M[\d.,]+h/);
  await page.reload();
  await expect(chart).toBeVisible();
  await expect(chart.getByTestId("candle-chart-svg").locator("path")).toHaveCount(6);
  await page.waitForLoadState("networkidle");
  await expect(chart.locator("canvas")).toHaveCount(0);
  await chart.hover();
  await expect(chart.locator("canvas").first()).toBeVisible();
  await expect(chart.getByTestId("candle-chart-svg")).toHaveCount(0);
  await expect(page.getByTestId("candle-ohlc")).toContainText("Vol");

  // A trade now is a seventh candle: the price signal refetches the candles.
  await addTrades(sql, m, [{ price: "0.777", shares: "3" }]);
  await expect(page.getByRole("img", { name: /^Candlestick chart of Yes: 7 candles, latest close 77\.7¢/ })).toBeVisible();

  // The range changes the interval; Line goes back and drops the parameter.
  const daily = page.waitForRequest((r) => r.url().includes("/candles?") && r.url().includes("interval=15m"));
  await page.getByRole("group", { name: "Chart range" }).getByRole("button", { name: "1D", exact: true }).click();
  await daily;
  await expect(page).toHaveURL(/range=1d/);
  await expect(page).toHaveURL(/chart=candles/);
  await page.getByRole("group", { name: "Chart type" }).getByRole("button", { name: "Line" }).click();
  await expect(page).not.toHaveURL(/chart=/);
  await expect(page.getByRole("img", { name: /^Price chart of Yes/ })).toBeVisible();
});

test("All outcomes – a 3-outcome market draws every outcome's line; the legend's buttons switch them off and on", async ({ page, request, sql }) => {
  const m = await makeMarket(sql, { prefix: "lines", status: "ACTIVE", outcomes: 3 });
  await addTrades(
    sql,
    m,
    m.outcomes.flatMap((outcome, k) => [0, 1, 2].map((i) => ({ outcome, price: (0.2 + k * 0.2 + i / 100).toFixed(3), at: minutesAgo(300 - i * 60 - k) }))),
  );
  const html = await (await request.get(`/markets/${m.slug}?chart=all`)).text();
  expect(html.match(/data-outcome="/g)).toHaveLength(3);

  await page.goto(`/markets/${m.slug}`);
  const historiesReq = page.waitForRequest((r) => r.url().includes("/v1/prices-history?") && r.url().includes("outcomeIds="));
  await page.getByRole("group", { name: "Chart type" }).getByRole("button", { name: "All outcomes" }).click();
  await expect(page).toHaveURL(/chart=all/);
  await historiesReq;
  const chart = page.getByTestId("outcomes-chart");
  await expect(chart).toHaveAccessibleName(/^Price chart of every outcome: Option 1 22\.0¢, Option 2 42\.0¢, Option 3 62\.0¢$/);
  const lines = chart.getByTestId("outcomes-chart-svg").locator("path");
  await expect(lines).toHaveCount(3);

  const legend = page.getByRole("group", { name: "Lines shown" });
  const second = legend.getByRole("button", { name: /^Option 2/ });
  await expect(second).toHaveAttribute("aria-pressed", "true");
  await second.click();
  await expect(second).toHaveAttribute("aria-pressed", "false");
  await expect(lines).toHaveCount(2);
  await expect(chart).toHaveAccessibleName(/^Price chart of every outcome: Option 1 22\.0¢, Option 3 62\.0¢$/);
  await second.press("Enter");
  await expect(second).toHaveAttribute("aria-pressed", "true");
  await expect(lines).toHaveCount(3);

  await chart.hover();
  await expect(chart.locator("canvas").first()).toBeVisible();
  // Live: a trade of Option 3 moves its legend entry.
  await addTrades(sql, m, [{ outcome: m.outcomes[2], price: "0.655" }]);
  await expect(legend.getByRole("button", { name: /^Option 3/ })).toContainText("65.5¢");
});
