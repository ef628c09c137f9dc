// The market page follows the database live: a write shows up in the ladder and the chart without
// a reload, and after a dropped connection the page re-joins and catches up on what it missed.
import type { Page } from "@playwright/test";
import { expect, test } from "../fixtures";
import { addOrder, addTrades, makeMarket } from "../support/markets";

/** Marks the document so that a reload (which would make the test pass for the wrong reason) shows. */
async function markDocument(page: Page) {
  await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
}
const stillSameDocument = (page: Page) => page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload === true);

test.describe.configure({ timeout: 120_000 });

test("market page – the ladder and the chart change after database writes, without a reload", async ({ page, sql }) => {
  const m = await makeMarket(sql, { prefix: "live", status: "ACTIVE", probability: [50, 50] });
  await page.goto(`/markets/${m.slug}`);
  // Connecting waits for hydration, which a loaded machine can stretch.
  await expect(page.getByRole("status").filter({ hasText: "Live" })).toBeVisible({ timeout: 30_000 });
  await markDocument(page);

  const book = page.getByRole("table", { name: /Order book for Yes/ });
  await expect(book.getByText(/No bids/)).toBeVisible();
  await addOrder(sql, m, { side: "BUY", price: "0.420", shares: "15.00" });
  await expect(book.getByRole("row", { name: /42\.0¢\s*15\b/ })).toBeVisible();
  await addOrder(sql, m, { side: "SELL", price: "0.470", shares: "8.00" });
  await expect(book.getByRole("row", { name: /47\.0¢\s*8\b/ })).toBeVisible();

  const chart = page.getByRole("img", { name: /Price chart of Yes/ });
  await expect(chart).not.toHaveAccessibleName(/latest/);
  await addTrades(sql, m, [{ price: "0.620" }]);
  await expect(chart).toHaveAccessibleName(/latest 62\.0¢/);
  await addTrades(sql, m, [{ price: "0.655" }]);
  await expect(chart).toHaveAccessibleName(/latest 65\.5¢/);

  expect(await stillSameDocument(page)).toBe(true);
});

test("market page – after the socket drops it shows reconnecting, then re-joins and shows what it missed", async ({ page, sql }) => {
  const m = await makeMarket(sql, { prefix: "live-rc", status: "ACTIVE" });
  // Every socket.io WebSocket goes through this proxy, so the test can cut it and refuse new ones.
  let blocked = false;
  const open = new Set<{ close: () => Promise<void> }>();
  await page.routeWebSocket(/\/socket\.io\//, (ws) => {
    if (blocked) return void ws.close();
    ws.connectToServer();
    open.add(ws);
  });
  await page.goto(`/markets/${m.slug}`);
  const status = page.getByRole("status").filter({ hasText: /Live|Reconnecting/ });
  await expect(status).toHaveText(/Live/, { timeout: 30_000 });
  await markDocument(page);

  blocked = true;
  for (const ws of open) await ws.close();
  open.clear();
  await expect(status).toHaveText(/Reconnecting/);

  // From here the page notes, in order, when it is Live again and when the missed bid first shows.
  await page.evaluate(() => {
    const w = window as unknown as { __seen: string[] };
    w.__seen = [];
    const note = (what: string, now: boolean) => now && !w.__seen.includes(what) && w.__seen.push(what);
    setInterval(() => {
      note(
        "live",
        [...document.querySelectorAll('[role="status"]')].some((e) => /\bLive\b/.test(e.textContent ?? "")),
      );
      note(
        "bid",
        [...document.querySelectorAll("tr")].some((e) => /31\.0¢/.test(e.textContent ?? "")),
      );
    }, 10);
  });
  // Written while the page is disconnected: its signal is lost, the resync must catch it.
  await addOrder(sql, m, { side: "BUY", price: "0.310", shares: "21.00" });
  const book = page.getByRole("table", { name: /Order book for Yes/ });
  await expect(book.getByText(/No bids/)).toBeVisible();

  blocked = false;
  await expect(status).toHaveText(/Live/, { timeout: 30_000 }); // handshake timeout (10 s) + back-off
  await expect(book.getByRole("row", { name: /31\.0¢\s*21\b/ })).toBeVisible();
  // The sentinel is the page being Live again: the bid showed only after it (the resync), never before.
  expect(await page.evaluate(() => (window as unknown as { __seen: string[] }).__seen)).toEqual(["live", "bid"]);
  // And it is joined again: a new write arrives live.
  await addOrder(sql, m, { side: "SELL", price: "0.560", shares: "4.00" });
  await expect(book.getByRole("row", { name: /56\.0¢\s*4\b/ })).toBeVisible();
  expect(await stillSameDocument(page)).toBe(true);
});
