// The browser the specs and bench:web drive (e2e/support/chromium.ts) loads our pages and nothing of
// its own beside them, and keeps Playwright's own switches.
import { chromium } from "@playwright/test";
import { chromiumArgs, isBrowserUiTarget, systemChromium } from "../support/chromium";
import { expect, test } from "./helpers";

test("a page opens no browser UI pages beside it (the omnibox WebUI renderer is off)", async ({ browser, page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  const cdp = await browser.newBrowserCDPSession();
  const { targetInfos } = await cdp.send("Target.getTargets");
  await cdp.detach();
  expect(targetInfos.some((t) => t.url === page.url())).toBe(true);
  expect(targetInfos.filter(isBrowserUiTarget).map((t) => t.url)).toEqual([]);
});

test("our --disable-features, the one Chromium keeps, still holds every feature Playwright turns off", async () => {
  test.skip(!systemChromium, "Playwright's own browser takes Playwright's switches only");
  const server = await chromium.launchServer({ executablePath: systemChromium, args: chromiumArgs });
  try {
    const lists = server
      .process()
      .spawnargs.filter((a) => a.startsWith("--disable-features="))
      .map((a) => a.slice("--disable-features=".length).split(","));
    expect(lists.length).toBeGreaterThanOrEqual(2); // Playwright's first, ours last
    const ours = new Set(lists[lists.length - 1]);
    expect(lists[0].filter((f) => !ours.has(f))).toEqual([]);
  } finally {
    await server.close();
  }
});
