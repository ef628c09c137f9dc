// The ladder's replay (docs/api.md "Past books"): a scrubber over the retained history shows the book as it was, with
// its time and version, and "Back to live" returns to the current book; the live indicator says how fresh
// the page's data is (the age of the last signal or heartbeat) and keeps counting.
import { expect, test } from "../fixtures";
import { addOrder, makeMarket } from "../support/markets";

test.describe.configure({ timeout: 120_000 });

/** The book's version and that version's time (unix seconds) now, as GET …/orderbook/at answers it. */
async function versionNow(request: import("@playwright/test").APIRequestContext, slug: string, outcomeId: string) {
  const res = await request.get(`/v1/markets/slug/${slug}/orderbook/at?outcomeId=${outcomeId}&ts=${Date.now() / 1000 + 5}`);
  expect(res.status()).toBe(200);
  const time = res.headers()["book-version-time"];
  return { version: Number(res.headers()["book-version"]), at: Date.parse(time) / 1000 };
}

test("market page – replay shows the book as it was at a chosen moment, with its version; Back to live returns to the current book", async ({
  page,
  sql,
  request,
}) => {
  const m = await makeMarket(sql, { prefix: "replay", status: "ACTIVE", probability: [50, 50] });
  await addOrder(sql, m, { side: "BUY", price: "0.420", shares: "15.00" });
  const first = await versionNow(request, m.slug, m.yes);
  // A whole second after the first order's version, and before the second order's.
  const ts = Math.floor(first.at) + 1;
  while (Date.now() / 1000 < ts + 1.2) await new Promise((r) => setTimeout(r, 200));
  await addOrder(sql, m, { side: "BUY", price: "0.350", shares: "20.00" });
  const second = await versionNow(request, m.slug, m.yes);
  expect(second.version).toBeGreaterThan(first.version);
  expect(second.at).toBeGreaterThan(ts);
  // The window ends when replay begins: a couple of seconds after the second change, so End is past its stop.
  while (Date.now() / 1000 < second.at + 2.2) await new Promise((r) => setTimeout(r, 200));

  await page.goto(`/markets/${m.slug}`);
  await expect(page.getByRole("status").filter({ hasText: "Live" })).toBeVisible({ timeout: 30_000 });
  const book = page.getByRole("table", { name: /Order book for Yes/ });
  const earlier = book.getByRole("row", { name: /42\.0¢\s*15\b/ });
  const later = book.getByRole("row", { name: /35\.0¢\s*20\b/ });
  await expect(earlier).toBeVisible();
  await expect(later).toBeVisible();

  const toggle = page.getByRole("button", { name: "Replay", exact: true });
  await expect(toggle).toHaveAttribute("aria-pressed", "false");
  const bodyHeight = await page.getByTestId("book-body").evaluate((e) => e.getBoundingClientRect().height);
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-pressed", "true");
  const scrubber = page.getByRole("slider", { name: "Moment" });
  await expect(scrubber).toBeFocused(); // the keyboard goes on to the scrubber
  await expect(page.getByRole("combobox", { name: "Window" })).toHaveValue("1");

  // The moment between the two orders: only the first is in the book.
  await scrubber.fill(String(ts));
  const asOf = page.getByTestId("replay-as-of");
  await expect(asOf).toContainText(`version ${first.version}`);
  await expect(asOf).toHaveText(/^As of .+ · version \d+ \(since .+\)$/);
  await expect(earlier).toBeVisible();
  await expect(later).toHaveCount(0);
  // The ladder keeps (at least) its live height: nothing below it moves when the book shrinks.
  expect(await page.getByTestId("book-body").evaluate((e) => e.getBoundingClientRect().height)).toBeGreaterThanOrEqual(bodyHeight - 0.5);

  // From the keyboard: End is the newest moment of the window (when replay began), after the second order.
  await scrubber.press("End");
  await expect(asOf).toContainText(`version ${second.version}`);
  await expect(later).toBeVisible();
  // By change: the scrubber's stops are the whole seconds at which each version came in force.
  await expect(page.getByTestId("replay-changes")).toHaveText(/^[1-9]\d* changes?$/);
  const previous = page.getByRole("button", { name: "Previous change" });
  const next = page.getByRole("button", { name: "Next change" });
  await expect(next).toBeDisabled();
  await previous.click();
  await expect(scrubber).toHaveValue(String(Math.ceil(second.at)));
  await expect(asOf).toContainText(`version ${second.version}`);
  await previous.click();
  await expect(scrubber).toHaveValue(String(Math.ceil(first.at)));
  await expect(asOf).toContainText(`version ${first.version}`);
  await expect(later).toHaveCount(0);
  await next.click();
  await expect(asOf).toContainText(`version ${second.version}`);
  await scrubber.press("Home"); // an hour ago, before the market existed: said so, not a broken ladder
  await expect(asOf).toHaveText(/Not recorded|version 0/);
  await scrubber.fill(String(ts));
  await expect(asOf).toContainText(`version ${first.version}`);

  // A longer window on request keeps the moment.
  await page.getByRole("combobox", { name: "Window" }).selectOption("6");
  await expect(scrubber).toHaveValue(String(ts));
  await expect(later).toHaveCount(0);

  // Back to live: the current book, which keeps following the database.
  await page.getByRole("button", { name: "Back to live" }).click();
  await expect(toggle).toHaveAttribute("aria-pressed", "false");
  await expect(toggle).toBeFocused();
  await expect(scrubber).toHaveCount(0);
  await expect(earlier).toBeVisible();
  await expect(later).toBeVisible();
  await addOrder(sql, m, { side: "SELL", price: "0.470", shares: "8.00" });
  await expect(book.getByRole("row", { name: /47\.0¢\s*8\b/ })).toBeVisible();

  // Replay again (already loaded), and out through the pressed toggle.
  await toggle.click();
  await expect(scrubber).toBeVisible();
  await toggle.click();
  await expect(scrubber).toHaveCount(0);
  await expect(book.getByRole("row", { name: /47\.0¢\s*8\b/ })).toBeVisible();
});

test("market page – the live indicator shows how long ago the page last heard from the server, and keeps counting", async ({ page, sql }) => {
  const m = await makeMarket(sql, { prefix: "fresh", status: "ACTIVE" });
  await page.goto(`/markets/${m.slug}`);
  await expect(page.getByRole("status").filter({ hasText: "Live" })).toBeVisible({ timeout: 30_000 });
  const freshness = page.getByTestId("freshness");
  await expect(freshness).toHaveText(/^· \d+ s ago$/);
  const indicator = page.getByTestId("live-indicator");
  const width = await indicator.evaluate((e) => e.getBoundingClientRect().width);
  // It counts up between messages and starts again at each one (a heartbeat at least every 5 s on each of the
  // market's channels, or a signal): the text changes while the page watches it.
  const seen = new Set<string>();
  await expect
    .poll(
      async () => {
        seen.add((await freshness.textContent()) ?? "");
        return seen.size;
      },
      { timeout: 15_000, intervals: [500] },
    )
    .toBeGreaterThanOrEqual(2);
  await addOrder(sql, m, { side: "BUY", price: "0.400", shares: "5.00" });
  await expect(freshness).toHaveText(/^· [0-2] s ago$/);
  await expect(indicator).not.toHaveAttribute("data-stale", "true");
  expect(await indicator.evaluate((e) => e.getBoundingClientRect().width)).toBe(width);
});
