import { test, expect, apiList, cardQuestions, fmtInt } from "./helpers";
import type { Locator, Page, Request } from "@playwright/test";
import { LIST_REFRESH_MS, SEARCH_DEBOUNCE_MS } from "@/lib/markets/constants";
import { startOwnCluster, type OwnCluster } from "../support/cluster";
import { startInstance, type Instance } from "../support/instance";

/** A navigation or refresh of the list itself (its RSC payload), not a prefetch. */
const listPayload = (r: Request) => new URL(r.url()).pathname === "/" && !!r.headers()["rsc"] && !r.headers()["next-router-prefetch"];

test.describe("market list", () => {
  test("market list – first page is rendered on the server with the API's first 20 markets", async ({ page, request, browser }) => {
    const expected = await apiList(request, { status: "ACTIVE", limit: 20 });
    // Without JavaScript the server HTML alone carries the cards.
    const ctx = await browser.newContext({ javaScriptEnabled: false });
    const bare = await ctx.newPage();
    await bare.goto("/");
    await expect(bare.getByTestId("market-card")).toHaveCount(20);
    expect(await cardQuestions(bare)).toEqual(expected.markets.map((m) => m.question));
    await ctx.close();
    await page.goto("/");
    await expect(page.getByTestId("range-text")).toHaveText(`1–20 of ${fmtInt(expected.total)} markets`);
  });

  test("market list – status tabs switch status and keep it in the URL", async ({ page, request, sql }) => {
    await page.goto("/");
    const tab = page.getByRole("tab", { name: "Resolved" });
    await tab.click();
    await expect(page).toHaveURL(/\?status=resolved$/);
    await expect(tab).toHaveAttribute("aria-selected", "true");
    const [{ n }] = await sql`SELECT count(*)::int AS n FROM markets WHERE status = 'RESOLVED'`;
    await expect(page.getByTestId("range-text")).toHaveText(`1–20 of ${fmtInt(n)} markets`);
    const statuses = await page.getByTestId("status-badge").allInnerTexts();
    expect(new Set(statuses)).toEqual(new Set(["Resolved"]));
    // keyboard: arrow right moves to Cancelled
    await tab.focus();
    await page.keyboard.press("ArrowRight");
    await expect(page).toHaveURL(/\?status=cancelled$/);
    await expect(page.getByRole("tab", { name: "Cancelled" })).toBeFocused();
    const api = await apiList(request, { status: "CANCELLED" });
    expect(await cardQuestions(page)).toEqual(api.markets.map((m) => m.question));
  });

  test("market list – category chips offer all seven categories and filter the list", async ({ page, sql }) => {
    await page.goto("/");
    const group = page.getByRole("group", { name: "Category" });
    await expect(group.getByRole("button")).toHaveText(["All", "Crypto", "Sports", "Politics", "Entertainment", "Science", "Finance", "Other"]);
    await group.getByRole("button", { name: "Sports" }).click();
    await expect(page).toHaveURL(/category=sports/);
    await expect(group.getByRole("button", { name: "Sports" })).toHaveAttribute("aria-pressed", "true");
    const [{ n }] = await sql`SELECT count(*)::int AS n FROM markets WHERE status = 'ACTIVE' AND category = 'SPORTS'`;
    await expect(page.getByTestId("range-text")).toContainText(`of ${fmtInt(n)} markets`);
    for (const cat of await page.getByTestId("market-card").locator("p").first().allInnerTexts()) expect(cat.toUpperCase()).toContain("SPORTS");
  });

  test("market list – the sub-category choice is filled from the data and filters", async ({ page, sql }) => {
    const subs = await sql<{ sub_category: string; n: number }[]>`
      SELECT sub_category, count(*)::int AS n FROM markets WHERE status = 'ACTIVE' AND category = 'FINANCE' AND sub_category <> ''
      GROUP BY 1 ORDER BY 2 DESC, 1`;
    await page.goto("/?category=finance");
    const select = page.getByLabel("Sub-category");
    await expect(select.locator("option")).toHaveText(["All sub-categories", ...subs.map((s) => `${s.sub_category} (${s.n})`)]);
    await select.selectOption(subs[0].sub_category);
    await expect(page).toHaveURL(new RegExp(`sub=${encodeURIComponent(subs[0].sub_category).replace(/%20/g, "\\+")}`));
    await expect(page.getByTestId("range-text")).toHaveText(`1–${Math.min(20, subs[0].n)} of ${fmtInt(subs[0].n)} markets`);
  });

  test("market list – search is debounced into q and matches question or description", async ({ page, sql }) => {
    const [{ question }] = await sql`SELECT question FROM markets WHERE status = 'ACTIVE' ORDER BY total_volume DESC LIMIT 1`;
    const word = (question as string)
      .split(/\s+/)
      .find((w) => w.length > 5)!
      .replace(/[^A-Za-z]/g, "");
    const listRequests: string[] = [];
    page.on("request", (r) => {
      if (listPayload(r)) listRequests.push(r.url());
    });
    await page.goto("/");
    await page.getByLabel("Search markets").pressSequentially(word, { delay: 30 });
    await expect(page).toHaveURL(new RegExp(`q=${word}`));
    const [{ n }] =
      await sql`SELECT count(*)::int AS n FROM markets WHERE status = 'ACTIVE' AND (question ILIKE ${"%" + word + "%"} OR description ILIKE ${"%" + word + "%"})`;
    await expect(page.getByTestId("range-text")).toContainText(`of ${fmtInt(n)} markets`);
    // One request for the whole word, not one per keystroke.
    expect(listRequests.filter((u) => new URL(u).searchParams.has("q")).length).toBe(1);
  });

  // A link to another page while the search's debounce is pending: a market and the footer's /docs
  // (neither page is prefetched, so the list stays on screen until the page arrives, the case where a
  // late URL update would undo the click).
  const leaving: { to: string; link: (page: Page) => Locator; heading: (page: Page) => Promise<string> }[] = [
    {
      to: "a market",
      link: (page) => page.getByTestId("market-card").first().getByRole("link"),
      heading: (page) => page.getByTestId("market-card").first().getByRole("heading").innerText(),
    },
    {
      to: "the API reference",
      link: (page) => page.getByRole("contentinfo").getByRole("link", { name: "API reference" }),
      heading: async () => "API reference",
    },
  ];
  for (const { to, link, heading } of leaving) {
    test(`market list – a search still pending when ${to} is opened does not pull the page back to the list`, async ({ page }) => {
      await page.clock.install();
      await page.goto("/");
      const href = (await link(page).getAttribute("href"))!;
      const h1 = await heading(page);
      // The next page (its RSC payload) is held back, as on a slow server, until the debounce has had its chance.
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      await page.route(
        (url) => url.pathname === href,
        async (route) => {
          if (route.request().headers()["rsc"]) await held;
          await route.continue();
        },
      );
      // From here on no timer fires unless the test says so: the click surely comes before the debounce.
      await page.clock.pauseAt(Date.now() + 1000);
      // The search, had it fired, would ask for the list with q=will: the list's requests are noted, and each one's end.
      const searches: string[] = [];
      const open = new Set<Request>();
      page.on("request", (r) => {
        const url = new URL(r.url());
        if (url.pathname !== "/") return;
        open.add(r);
        if (url.searchParams.get("q") === "will") searches.push(r.url());
      });
      page.on("requestfinished", (r) => open.delete(r));
      page.on("requestfailed", (r) => open.delete(r));
      await page.getByLabel("Search markets").fill("will");
      const opening = page.waitForRequest((r) => new URL(r.url()).pathname === href && !!r.headers()["rsc"] && !r.headers()["next-router-prefetch"]);
      await link(page).click();
      await opening;
      await page.clock.runFor(SEARCH_DEBOUNCE_MS + 100); // the debounce's moment passes while the page is on its way
      await page.clock.resume();
      release();
      // The page lands once its scripts ran: the API reference's are megabytes, seconds on a busy machine.
      // The path, not the whole URL: the API reference writes the section it shows into the hash once it has drawn.
      const landed = (url: URL) => url.pathname === href;
      await expect(page).toHaveURL(landed, { timeout: 30_000 });
      await expect(page.getByRole("heading", { level: 1, name: h1, exact: true })).toBeAttached();
      // Twice the debounce more, in the page's time at once: a timer still pending fires now; then every
      // request for the list so far is answered, so a navigation it started would have landed.
      await page.clock.runFor(SEARCH_DEBOUNCE_MS * 2);
      await expect.poll(() => open.size).toBe(0);
      expect(searches).toEqual([]);
      await expect(page).toHaveURL(landed);
    });
  }

  test("market list – sort and order toggle follow the API's order", async ({ page, request }) => {
    await page.goto("/");
    await page.getByLabel("Sort by").selectOption({ label: "Volume" });
    await expect(page).toHaveURL(/sort=volume/);
    const desc = await apiList(request, { status: "ACTIVE", sortBy: "VOLUME", sortOrder: "DESC" });
    await expect.poll(() => cardQuestions(page)).toEqual(desc.markets.map((m) => m.question));
    // Named by what it shows, then what that means (label in name): a speech user says "Desc".
    const toggle = page.getByRole("button", { name: "Desc (descending order)", exact: true });
    await expect(toggle).toContainText("Desc");
    await toggle.click();
    await expect(page).toHaveURL(/order=asc/);
    await expect(page.getByRole("button", { name: "Asc (ascending order)", exact: true })).toBeVisible();
    const asc = await apiList(request, { status: "ACTIVE", sortBy: "VOLUME", sortOrder: "ASC" });
    await expect.poll(() => cardQuestions(page)).toEqual(asc.markets.map((m) => m.question));
  });

  test("market list – pagination shows page numbers and 21–40 of N with N the API's total", async ({ page, request }) => {
    const api = await apiList(request, { status: "ACTIVE", limit: 20, offset: 20 });
    await page.goto("/");
    const nav = page.getByRole("navigation", { name: "Pagination" });
    await nav.getByRole("link", { name: "Page 2" }).click();
    await expect(page).toHaveURL(/\?page=2$/);
    await expect(page.getByTestId("range-text")).toHaveText(`21–40 of ${fmtInt(api.total)} markets`);
    // The new page is read from its top: the results' start (below the sticky header), not the footer.
    const resultsTop = () => page.evaluate(() => Math.round(document.getElementById("results")!.getBoundingClientRect().top));
    await expect.poll(resultsTop).toBeGreaterThanOrEqual(0);
    expect(await resultsTop()).toBeLessThanOrEqual(100);
    await expect(nav.getByRole("link", { name: "Page 2" })).toHaveAttribute("aria-current", "page");
    await expect.poll(() => cardQuestions(page)).toEqual(api.markets.map((m) => m.question));
    const last = Math.ceil(api.total / 20);
    await expect(nav.getByRole("link", { name: `Page ${last}` })).toBeVisible();
  });

  test("market list – URL state round-trips: a link reproduces the view, back and forward restore it", async ({ page, request }) => {
    await page.goto("/?status=resolved&category=politics&sort=volume&order=asc");
    await expect(page.getByRole("tab", { name: "Resolved" })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("button", { name: "Politics" })).toHaveAttribute("aria-pressed", "true");
    await expect(page.getByLabel("Sort by")).toHaveValue("VOLUME");
    const api = await apiList(request, { status: "RESOLVED", category: "POLITICS", sortBy: "VOLUME", sortOrder: "ASC" });
    expect(await cardQuestions(page)).toEqual(api.markets.map((m) => m.question));

    await page.getByRole("button", { name: "Crypto" }).click();
    await expect(page).toHaveURL(/category=crypto/);
    await page.goBack();
    await expect(page).toHaveURL(/category=politics/);
    await expect(page.getByRole("button", { name: "Politics" })).toHaveAttribute("aria-pressed", "true");
    await expect.poll(() => cardQuestions(page)).toEqual(api.markets.map((m) => m.question));
    await page.goForward();
    await expect(page.getByRole("button", { name: "Crypto" })).toHaveAttribute("aria-pressed", "true");
  });

  test("market list – bad URL values fall back to their defaults instead of breaking the page", async ({ page, request }) => {
    const res = await page.goto("/?status=bogus&category=nope&sort=sideways&order=up&page=-3&sub=" + "x".repeat(80));
    expect(res?.status()).toBe(200);
    const api = await apiList(request, { status: "ACTIVE" });
    await expect(page.getByRole("tab", { name: "Active" })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("button", { name: "All", exact: true })).toHaveAttribute("aria-pressed", "true");
    await expect(page.getByTestId("range-text")).toHaveText(`1–20 of ${fmtInt(api.total)} markets`);
    expect(await cardQuestions(page)).toEqual(api.markets.map((m) => m.question));
  });

  test("market list – an empty result says what to change and clears filters", async ({ page }) => {
    await page.goto("/?q=zzqxnomatchzz");
    const empty = page.getByTestId("empty-state");
    await expect(empty).toContainText("No markets match");
    await expect(empty).toContainText("zzqxnomatchzz");
    await empty.getByRole("button", { name: "Clear filters" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId("market-card").first()).toBeVisible();
  });

  test("market list – while the next view loads, the choice shows at once and the results are dimmed and busy", async ({ page, request }) => {
    await page.goto("/");
    const results = page.locator("#results");
    await expect(results).toHaveAttribute("aria-busy", "false");
    // The resolved list's payload is held back, as on a slow server.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route(
      (url) => url.pathname === "/" && url.searchParams.get("status") === "resolved",
      async (route) => {
        if (route.request().headers()["rsc"]) await held;
        await route.continue();
      },
    );
    const before = await cardQuestions(page);
    await page.getByRole("tab", { name: "Resolved" }).click();
    await expect(page.getByRole("tab", { name: "Resolved" })).toHaveAttribute("aria-selected", "true");
    await expect(results).toHaveAttribute("aria-busy", "true");
    await expect(results).toHaveCSS("opacity", "0.6");
    expect(await cardQuestions(page)).toEqual(before); // the old results stay in place (nothing moves) until the new ones arrive
    release();
    await expect(results).toHaveAttribute("aria-busy", "false");
    await expect(results).toHaveCSS("opacity", "1");
    const api = await apiList(request, { status: "RESOLVED" });
    await expect.poll(() => cardQuestions(page)).toEqual(api.markets.map((m) => m.question));
  });

  test("market list – the visible page is fetched again every LIST_REFRESH_MS while the tab is visible, not while hidden", async ({ page }) => {
    await page.clock.install();
    await page.goto("/?page=2");
    const refreshes: string[] = [];
    page.on("request", (r) => {
      if (listPayload(r)) refreshes.push(r.url());
    });
    await page.clock.runFor(LIST_REFRESH_MS - 1000);
    expect(refreshes).toEqual([]);
    const refreshed = page.waitForRequest((r) => listPayload(r) && new URL(r.url()).searchParams.get("page") === "2");
    await page.clock.runFor(2000);
    await refreshed;
    await expect(page.getByTestId("range-text")).toContainText("21–40 of");

    // Hidden (another tab in front): no refresh however long; visible again after that: one at once.
    const setVisibility = (state: "hidden" | "visible") =>
      page.evaluate((s) => {
        Object.defineProperty(document, "visibilityState", { configurable: true, get: () => s });
        document.dispatchEvent(new Event("visibilitychange"));
      }, state);
    await setVisibility("hidden");
    const count = refreshes.length;
    await page.clock.runFor(LIST_REFRESH_MS * 3);
    expect(refreshes.length).toBe(count);
    const back = page.waitForRequest((r) => listPayload(r) && new URL(r.url()).searchParams.get("page") === "2");
    await setVisibility("visible");
    await back;
  });

  test("market list – a mirrored market's card names its venue, a binary card shows Yes/No chances", async ({ page, sql }) => {
    const [mirrored] =
      await sql`SELECT slug, question, external_source FROM markets WHERE status = 'ACTIVE' AND external_source IS NOT NULL ORDER BY total_volume DESC LIMIT 1`;
    await page.goto(`/?q=${encodeURIComponent(mirrored.question)}`);
    const card = page.getByTestId("market-card").filter({ has: page.locator(`a[href="/markets/${mirrored.slug}"]`) });
    await expect(card).toContainText(`mirrored from ${mirrored.external_source}`);

    const [binary] =
      await sql`SELECT id, slug, question, total_volume::float8 AS vol FROM markets WHERE status = 'ACTIVE' AND type = 'BINARY' AND external_source IS NULL ORDER BY total_volume DESC LIMIT 1`;
    const outs = await sql`SELECT name, probability::float8 AS p FROM outcomes WHERE market_id = ${binary.id} ORDER BY index`;
    await page.goto(`/?q=${encodeURIComponent(binary.question)}`);
    // Questions can repeat across markets: pick the card by its link.
    const bcard = page.getByTestId("market-card").filter({ has: page.locator(`a[href="/markets/${binary.slug}"]`) });
    const pct = (p: number) => `${Number.isInteger(Math.round(p * 10) / 10) ? Math.round(p) : (Math.round(p * 10) / 10).toFixed(1)}%`;
    await expect(bcard.getByTestId("chances")).toContainText(`${outs[0].name} ${pct(outs[0].p)}`);
    await expect(bcard.getByTestId("chances")).toContainText(`${outs[1].name} ${pct(outs[1].p)}`);
    await expect(bcard).toContainText("Vol.");
    await expect(bcard.getByRole("link", { name: binary.question })).toHaveAttribute("href", /\/markets\//);
  });
});

// A real outage, on an instance and PostgreSQL cluster of the test's own (the shared test database stays up).
test.describe("market list – database outage", () => {
  test.describe.configure({ timeout: 240_000 });
  let cluster: OwnCluster;
  let app: Instance;

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    cluster = await startOwnCluster({ markets: 30 });
    app = await startInstance({ DATABASE_URL: cluster.url, LOG_REQUESTS: "0", DB_RETRY_MS: "500" });
  });

  test.afterAll(async () => {
    await app?.stop();
    await cluster?.destroy();
  });

  test("market list – a database that stops answering shows an error in place of the results, with a working retry", async ({ page }) => {
    await page.goto(`${app.baseURL}/`);
    await expect(page.getByTestId("market-card").first()).toBeVisible();
    await cluster.crash();
    // A view no one has read yet, so no cached answer can stand in for it.
    await page.getByLabel("Sort by").selectOption({ label: "Volume" });
    const alert = page.getByRole("alert").filter({ hasText: "Couldn’t load markets" });
    await expect(alert).toBeVisible({ timeout: 15_000 });
    await expect(page).toHaveURL(/\?sort=volume$/);
    await expect(page.getByTestId("market-card")).toHaveCount(0);
    await expect(page.getByTestId("range-text")).toHaveCount(0);
    // The filters stay usable around the error.
    await expect(page.getByLabel("Sort by")).toHaveValue("VOLUME");

    await cluster.start();
    await expect.poll(async () => (await fetch(`${app.baseURL}/readyz`)).status, { timeout: 20_000 }).toBe(200);
    await alert.getByRole("button", { name: "Retry" }).click();
    await expect(page.getByTestId("market-card").first()).toBeVisible();
    await expect(alert).toHaveCount(0);
    await expect(page).toHaveURL(/\?sort=volume$/);
    const api = (await (await fetch(`${app.baseURL}/v1/markets?sortBy=VOLUME`)).json()) as { markets: { question: string }[] };
    expect(await cardQuestions(page)).toEqual(api.markets.map((m) => m.question));
  });
});
