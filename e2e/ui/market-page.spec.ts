import type postgres from "postgres";
import type { Page } from "@playwright/test";
import { test, expect, apiBook, apiMarket, fmtInt } from "./helpers";
import { allRangeFidelity, RANGE_SPECS } from "@/lib/ui/chart-ranges";
import { defaultOutcomeId } from "@/lib/ui/market-view";
import { addTrades, makeMarket } from "../support/markets";

const cents = (p: number | string) => `${(Number(p) * 100).toFixed(1)}¢`;
const shares = (n: number) => new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(n);

/** A fresh binary market of our own with `trades` trades of its Yes outcome spread evenly over `days` days ending `endAgoS` ago. */
async function createMarket(sql: postgres.Sql, opts: { trades: number; days: number; endAgoS?: number }) {
  const now = Date.now();
  const starts = new Date(now - opts.days * 86400_000);
  const m = await makeMarket(sql, { prefix: "ui-test", status: "ACTIVE", startsAt: starts, endsAt: new Date(now + 86400_000), probability: [60, 40] });
  const span = opts.days * 86400_000 - (opts.endAgoS ?? 60) * 1000;
  await addTrades(
    sql,
    m,
    Array.from({ length: opts.trades }, (_, k) => ({
      price: (0.3 + 0.4 * (k / opts.trades)).toFixed(3),
      shares: "10",
      maker: null,
      taker: null,
      at: new Date(starts.getTime() + 30_000 + (span - 60_000) * (k / Math.max(1, opts.trades - 1))),
    })),
  );
  await sql`SELECT refresh_market_derived(${[m.id]}::uuid[])`;
  return { ...m, startsS: Math.floor(starts.getTime() / 1000) };
}

async function ladderRows(page: Page, side: "ask" | "bid") {
  return page.getByTestId(`${side}-row`).evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll("td")].map((td) => td.textContent?.trim())));
}

test.describe("market page", () => {
  test("market page – header shows question, category, status, dates, volume, liquidity and fee from the API", async ({ page, request, sql }) => {
    const [{ slug }] = await sql`SELECT slug FROM markets WHERE status = 'ACTIVE' AND external_source IS NULL ORDER BY total_volume DESC LIMIT 1`;
    const m = await apiMarket(request, slug);
    await page.goto(`/markets/${slug}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(m.question);
    await expect(page).toHaveTitle(new RegExp(m.question.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
    await expect(page.getByTestId("market-category")).toHaveText(m.category.charAt(0) + m.category.slice(1).toLowerCase());
    // The header's badge comes first; related markets' cards below carry their own.
    await expect(page.getByTestId("status-badge").first()).toHaveText("Active");
    const compact = new Intl.NumberFormat("en-US", {
      style: "currency",
      currency: "USD",
      notation: "compact",
      minimumFractionDigits: 0,
      maximumFractionDigits: 1,
    }).format(m.total_volume);
    await expect(page.getByTestId("market-volume")).toHaveText(`${compact} Vol.`);
    await expect(page.getByTestId("market-liquidity")).toHaveText(`$${fmtInt(Math.round(m.total_liquidity))}`);
    await expect(page.getByTestId("market-fee")).toHaveText(`${Number((m.platform_fee * 100).toFixed(2))}%`);
    await expect(page.getByTestId("market-starts").locator("time")).toHaveAttribute("datetime", m.trading_starts_at);
    await expect(page.getByTestId("market-ends").locator("time")).toHaveAttribute("datetime", m.trading_ends_at);
    await expect(page.getByTestId("market-description")).toHaveText(m.description);
  });

  test("market page – a resolved market shows the resolution panel with winner, resolver, source and note", async ({ page, sql }) => {
    const [m] = await sql`
      SELECT m.slug, o.name AS winner, m.resolved_by, m.resolution_note FROM markets m JOIN outcomes o ON o.id = m.winning_outcome_id
      WHERE m.status = 'RESOLVED' AND m.resolved_by IS NOT NULL AND m.resolution_note IS NOT NULL LIMIT 1`;
    await page.goto(`/markets/${m.slug}`);
    const panel = page.getByTestId("resolution-panel");
    await expect(panel.getByTestId("winning-outcome")).toHaveText(m.winner);
    await expect(panel.getByTestId("resolved-by")).toHaveText(m.resolved_by);
    await expect(panel.getByTestId("resolution-note")).toHaveText(m.resolution_note);
    await expect(panel).toContainText("Settled");
    await expect(page.getByTestId("outcome-list").getByRole("button", { name: new RegExp(m.winner) })).toContainText("Winner");
  });

  test("market page – a cancelled market says so in its resolution panel", async ({ page, sql }) => {
    const [m] = await sql`SELECT slug FROM markets WHERE status = 'CANCELLED' LIMIT 1`;
    await page.goto(`/markets/${m.slug}`);
    await expect(page.getByTestId("resolution-panel")).toContainText("Market cancelled");
    await expect(page.getByTestId("status-badge").first()).toHaveText("Cancelled");
  });

  test("market page – PENDING says trading has not started, LOCKED says trading is closed", async ({ page, sql }) => {
    const [pending] = await sql`SELECT slug FROM markets WHERE status = 'PENDING' LIMIT 1`;
    await page.goto(`/markets/${pending.slug}`);
    await expect(page.getByTestId("market-state")).toContainText("Not yet trading");
    await expect(page.getByTestId("chart-empty")).toContainText("Trading has not started yet");
    const [locked] = await sql`SELECT slug FROM markets WHERE status = 'LOCKED' LIMIT 1`;
    await page.goto(`/markets/${locked.slug}`);
    await expect(page.getByTestId("market-state")).toContainText("Trading closed");
    await expect(page.getByTestId("status-badge").first()).toHaveText("Trading closed");
  });

  test("market page – an unknown slug answers a 404 page, in the server's HTML too", async ({ page, request }) => {
    // Without JavaScript (a crawler, a link preview): the page is in the HTML, not drawn by the browser
    // later (Next's empty 404 body for a thrown notFound(), vercel/next.js#62228).
    const raw = await request.get("/markets/no-such-market-anywhere");
    expect(raw.status()).toBe(404);
    const html = await raw.text();
    expect(html).not.toContain("__next_error__");
    expect(html).toMatch(/<h1[^>]*>Market not found<\/h1>/);
    expect(html).toContain("Skip to content"); // inside the site's layout
    expect(html).toMatch(/<meta name="robots" content="noindex"\/>/);
    expect(html).toContain("<title>Market not found · Markets</title>");
    const res = await page.goto("/markets/no-such-market-anywhere");
    expect(res?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Market not found" })).toBeVisible();
    await page.getByRole("link", { name: "Browse all markets" }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test("market page – choosing an outcome updates the URL, the book and the chart", async ({ page, request, sql }) => {
    const [m] = await sql`
      SELECT m.slug FROM markets m WHERE m.status = 'ACTIVE' AND m.type = 'BINARY' AND m.external_source IS NULL
        AND (SELECT count(DISTINCT o.outcome_id) FROM orders o WHERE o.market_id = m.id AND o.status IN ('OPEN','PARTIALLY_FILLED')) = 2
      ORDER BY m.total_volume DESC LIMIT 1`;
    const market = await apiMarket(request, m.slug);
    const second = market.outcomes.find((o) => o.index === 1)!;
    await page.goto(`/markets/${m.slug}`);
    const bookReq = page.waitForRequest((r) => r.url().includes("/orderbook?") && r.url().includes(second.id));
    const histReq = page.waitForRequest((r) => r.url().includes("/prices-history?") && r.url().includes(second.id));
    await page
      .getByTestId("outcome-list")
      .getByRole("button", { name: new RegExp(`^${second.name}`) })
      .click();
    await expect(page).toHaveURL(new RegExp(`outcome=${second.id}`));
    await bookReq;
    await histReq;
    await expect(page.getByRole("heading", { name: `Order book · ${second.name}` })).toBeVisible();
    await expect(page.getByTestId("outcome-list").getByRole("button", { name: new RegExp(`^${second.name}`) })).toHaveAttribute("aria-pressed", "true");
    const book = await apiBook(request, m.slug, second.id);
    await expect.poll(async () => (await ladderRows(page, "bid"))[0]?.[0]).toBe(cents(book.bids[0].price));
    await page.goBack();
    await expect(page).not.toHaveURL(/outcome=/);
  });

  test("market page – a click on an outcome while the live view is still loading is not lost", async ({ page, request }) => {
    const m = (await (await request.get("/v1/markets?sortBy=VOLUME&limit=1")).json()).markets[0];
    const market = await apiMarket(request, m.slug);
    const second = market.outcomes.find((o) => o.id !== defaultOutcomeId(market))!; // one the page does not show yet
    // Hold back the live view's chunk (the one that exports MarketLive) until the click is made.
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let asked!: () => void;
    const liveAsked = new Promise<void>((r) => (asked = r));
    const tab = await page.context().newPage(); // a page whose goto does not wait for the live view
    await tab.route("**/_next/static/chunks/*.js", async (route) => {
      const response = await route.fetch();
      const body = await response.body();
      if (body.includes('"MarketLive"')) {
        asked();
        await released;
      }
      await route.fulfill({ response, body });
    });
    await tab.goto(`/markets/${m.slug}`, { waitUntil: "commit" }); // "load" would wait for the held chunks
    await liveAsked; // hydrated: LiveSwap has asked for the live view
    await expect(tab.locator('[data-live="pending"]')).toBeAttached();
    await tab
      .getByTestId("outcome-list")
      .getByRole("button", { name: new RegExp(`^${second.name}`) })
      .click();
    await expect(tab).toHaveURL(new RegExp(`outcome=${second.id}`));
    release();
    await expect(tab.locator('[data-live="on"]')).toBeAttached();
    await expect(tab.getByRole("heading", { name: `Order book · ${second.name}` })).toBeVisible();
    await expect(tab.getByTestId("outcome-list").getByRole("button", { name: new RegExp(`^${second.name}`) })).toHaveAttribute("aria-pressed", "true");
    // A chunk still passing through the route when the tab closes would fail the test ("Response has been disposed").
    await tab.unrouteAll({ behavior: "ignoreErrors" });
    await tab.close();
  });

  test("market page – the ladder's prices, shares and cumulative depth equal the /v1 order book", async ({ page, request, sql }) => {
    const [m] = await sql`
      SELECT m.slug FROM markets m WHERE m.status = 'ACTIVE' AND m.type = 'BINARY' AND m.external_source IS NULL AND m.total_liquidity > 0
      ORDER BY m.total_liquidity DESC LIMIT 1`;
    const market = await apiMarket(request, m.slug);
    const yes = market.outcomes.find((o) => o.index === 0)!;
    const book = await apiBook(request, m.slug, yes.id);
    await page.goto(`/markets/${m.slug}`);
    const accumulate = (levels: { price: string; shares: string }[]) => {
      let cum = 0;
      return levels.slice(0, 12).map((l) => {
        cum += Number(l.shares);
        return [cents(l.price), shares(Number(l.shares)), shares(cum)];
      });
    };
    expect(await ladderRows(page, "bid")).toEqual(accumulate(book.bids));
    // Asks read top-down: worst shown first, best just above the spread.
    expect(await ladderRows(page, "ask")).toEqual(accumulate(book.asks).reverse());
    if (book.bids.length && book.asks.length) {
      const bid = Number(book.bids[0].price);
      const ask = Number(book.asks[0].price);
      await expect(page.getByTestId("spread")).toHaveText(cents(Math.round((ask - bid) * 1000) / 1000));
      await expect(page.getByTestId("midpoint")).toHaveText(cents((ask + bid) / 2));
    }
  });

  test("market page – a mirrored market's book names its venue", async ({ page, sql }) => {
    const [m] = await sql`SELECT slug, external_source FROM markets WHERE status = 'ACTIVE' AND external_source IS NOT NULL LIMIT 1`;
    await page.goto(`/markets/${m.slug}`);
    await expect(page.getByTestId("book-venue")).toHaveText(`Book mirrored from ${m.external_source}`);
    await expect(page.getByText(`mirrored from ${m.external_source}`).first()).toBeVisible();
  });

  test("market page – an empty book side says so", async ({ page, sql }) => {
    const created = await createMarket(sql, { trades: 5, days: 2 });
    await page.goto(`/markets/${created.slug}`);
    await expect(page.getByTestId("asks")).toContainText("No asks");
    await expect(page.getByTestId("bids")).toContainText("No bids");
    await expect(page.getByTestId("spread")).toHaveText("–");
  });

  test("market page – chart range buttons request the expected startTs and fidelity", async ({ page, sql }) => {
    const created = await createMarket(sql, { trades: 200, days: 20 });
    await page.goto(`/markets/${created.slug}`);
    await expect(page.getByTestId("price-chart")).toHaveAttribute("aria-label", /points/); // the default range has loaded
    // The request a click makes, not a refetch of the range shown before it (a focus or live refetch
    // can go out in between): its startTs is not that range's.
    let shownSpanS = RANGE_SPECS["1w"].spanS;
    const nextRange = () =>
      page.waitForRequest((r) => {
        if (!r.url().includes("/prices-history?")) return false;
        const startTs = Number(new URL(r.url()).searchParams.get("startTs"));
        return Math.abs(startTs - (Date.now() / 1000 - shownSpanS)) >= 180;
      });
    for (const [range, spec] of Object.entries(RANGE_SPECS)) {
      const label = spec.label;
      if (range === "1w") continue; // the default, already loaded
      const req = nextRange();
      await page.getByRole("group", { name: "Chart range" }).getByRole("button", { name: label, exact: true }).click();
      const url = new URL((await req).url());
      const nowS = Date.now() / 1000;
      expect(url.searchParams.get("fidelity")).toBe(String(spec.fidelity));
      expect(Math.abs(Number(url.searchParams.get("startTs")) - (nowS - spec.spanS))).toBeLessThan(180);
      expect(url.searchParams.get("outcomeId")).toBe(created.yes);
      await expect(page).toHaveURL(new RegExp(`range=${range}`));
      shownSpanS = spec.spanS;
    }
    const req = nextRange();
    await page.getByRole("button", { name: "All", exact: true }).click();
    const url = new URL((await req).url());
    expect(url.searchParams.get("startTs")).toBe("0");
    expect(url.searchParams.get("fidelity")).toBe(String(allRangeFidelity(created.startsS, Math.floor(Date.now() / 1000))));
  });

  test('market page – "All" walks back with smaller endTs past the 1,000-trade cap to the market\'s start', async ({ page, sql }) => {
    const created = await createMarket(sql, { trades: 2600, days: 12 });
    const urls: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/prices-history?") && r.url().includes("startTs=0")) urls.push(r.url());
    });
    await page.goto(`/markets/${created.slug}?range=all`);
    const chart = page.getByTestId("price-chart");
    await expect(chart).toHaveAttribute("aria-label", /points, latest/);
    expect(urls.length).toBeGreaterThanOrEqual(3); // 2,600 trades need at least three 1,000-trade reads
    const endTs = urls.map((u) => new URL(u).searchParams.get("endTs"));
    expect(endTs[0]).toBeNull();
    const later = endTs.slice(1).map(Number);
    for (let i = 1; i < later.length; i++) expect(later[i]).toBeLessThan(later[i - 1]);
    // Buckets reach back to the first trade's bucket: every bucket between start and end has a point.
    const fidelity = Number(new URL(urls[0]).searchParams.get("fidelity"));
    const [{ first }] =
      await sql`SELECT floor(extract(epoch FROM min(executed_at)) / ${fidelity * 60})::int * ${fidelity * 60} AS first FROM trades WHERE outcome_id = ${created.yes}`;
    const points = Number((await chart.getAttribute("aria-label"))!.match(/(\d+) points/)![1]);
    const [{ buckets }] =
      await sql`SELECT count(DISTINCT floor(extract(epoch FROM executed_at) / ${fidelity * 60}))::int AS buckets FROM trades WHERE outcome_id = ${created.yes}`;
    expect(points).toBe(buckets);
    expect(first).toBeGreaterThanOrEqual(created.startsS - fidelity * 60);
  });

  test("market page – a range without trades shows the empty-history state", async ({ page, sql }) => {
    const created = await createMarket(sql, { trades: 50, days: 5, endAgoS: 3 * 86400 });
    await page.goto(`/markets/${created.slug}?range=1h`);
    await expect(page.getByTestId("chart-empty")).toContainText("No trades in this range");
    await page.getByTestId("chart-empty").getByRole("button", { name: "Show all history" }).click();
    await expect(page).toHaveURL(/range=all/);
    await expect(page.getByTestId("chart-empty")).toHaveCount(0);
  });

  test("market page – the chart is an SVG until the pointer comes, then the canvas chart loads over it", async ({ page, sql }) => {
    const created = await createMarket(sql, { trades: 300, days: 5 });
    await page.goto(`/markets/${created.slug}?range=all`);
    const chart = page.getByTestId("price-chart");
    await expect(chart).toHaveAttribute("aria-label", /points, latest 69\.9¢/);
    await expect(chart.getByTestId("price-chart-svg").locator("path")).toHaveCount(2); // area and line
    await page.waitForLoadState("networkidle");
    await expect(chart.locator("canvas")).toHaveCount(0); // nobody pointed at it: lightweight-charts not loaded
    await chart.hover();
    await expect(chart.locator("canvas").first()).toBeVisible();
    await expect(chart.getByTestId("price-chart-svg")).toHaveCount(0); // the canvas draws alone
  });

  test("market page – the crosshair shows the price and time under the pointer", async ({ page, sql }) => {
    const created = await createMarket(sql, { trades: 300, days: 5 });
    await page.goto(`/markets/${created.slug}?range=all`);
    const chart = page.getByTestId("price-chart");
    await expect(chart).toHaveAttribute("aria-label", /points, latest 69\.9¢/);
    const latestTime = await page.getByTestId("chart-time").innerText();
    const box = (await chart.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.15, box.y + box.height / 2);
    await expect(page.getByTestId("chart-time")).not.toHaveText(latestTime);
    const price = Number((await page.getByTestId("chart-price").innerText()).replace("¢", ""));
    expect(price).toBeGreaterThanOrEqual(30);
    expect(price).toBeLessThan(50); // early trades are priced 30–45¢
  });

  test("market page – comments are threaded under their parent with avatars and relative times", async ({ page, sql }) => {
    const [reply] = await sql`
      SELECT m.slug, c.id, c.parent_id FROM comments c JOIN markets m ON m.id = c.market_id
      WHERE c.parent_id IS NOT NULL
        AND c.id IN (SELECT id FROM comments x WHERE x.market_id = c.market_id ORDER BY created_at DESC, id DESC LIMIT 50)
        AND c.parent_id IN (SELECT id FROM comments x WHERE x.market_id = c.market_id ORDER BY created_at DESC, id DESC LIMIT 50)
      LIMIT 1`;
    await page.goto(`/markets/${reply.slug}`);
    const parent = page.locator(`[data-comment-id="${reply.parent_id}"]:visible`);
    await expect(parent.locator(`[data-comment-id="${reply.id}"]`)).toBeVisible();
    await expect(parent.locator("time").first()).toHaveText(/ago|now|yesterday/);
    const [{ n }] = await sql`SELECT least(count(*), 50)::int AS n FROM comments c JOIN markets m ON m.id = c.market_id WHERE m.slug = ${reply.slug}`;
    await expect(page.locator('[data-testid="comment"]:visible')).toHaveCount(n);
    await expect(page.getByTestId("comment")).toHaveCount(n); // rendered once, not once per layout
    // Wide: under the outcomes, in the left column. Narrow: after the book and traders.
    const comments = page.getByRole("region", { name: /^Comments/ });
    const outcomes = (await page.getByTestId("outcome-list").boundingBox())!;
    let box = (await comments.boundingBox())!;
    expect(Math.round(box.x)).toBe(Math.round(outcomes.x));
    expect(box.y).toBeGreaterThan(outcomes.y + outcomes.height);
    await page.setViewportSize({ width: 390, height: 844 });
    const aside = (await page.getByRole("complementary", { name: "Order book and traders" }).boundingBox())!;
    box = (await comments.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(aside.y + aside.height);
  });

  test("market page – top traders list the API's traders in order", async ({ page, request, sql }) => {
    const [{ slug }] = await sql`SELECT slug FROM markets WHERE status = 'ACTIVE' ORDER BY total_volume DESC LIMIT 1`;
    const m = await apiMarket(request, slug);
    await page.goto(`/markets/${slug}`);
    const names = await page
      .getByTestId("top-traders")
      .locator("li")
      .evaluateAll((lis) => lis.map((li) => li.querySelector(".truncate")?.textContent));
    expect(names).toEqual(m.top_traders.map((t) => t.username));
  });

  test('market page – while a slow market page loads, the clicked card says "Loading market"', async ({ page, sql }) => {
    const [m] = await sql`SELECT slug, question FROM markets WHERE status = 'ACTIVE' AND external_source IS NULL ORDER BY total_volume DESC LIMIT 1`;
    // The market's page data (its RSC payload) is held back, as on a slow server; prefetches still pass.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route("**/markets/**", async (route) => {
      const headers = route.request().headers();
      if (headers["rsc"] && !headers["next-router-prefetch"]) await held;
      await route.continue();
    });
    // A list narrowed to this market, so no card another test adds can take its place before the click.
    await page.goto(`/?q=${encodeURIComponent(m.question)}`);
    await page.waitForLoadState("networkidle");
    const card = page.getByTestId("market-card").filter({ has: page.locator(`a[href="/markets/${m.slug}"]`) });
    await card.locator(`a[href="/markets/${m.slug}"]`).click();
    const loading = card.getByRole("status").filter({ hasText: "Loading market" });
    await expect(loading).toBeVisible();
    await expect(page.getByRole("heading", { name: "Prediction markets" })).toBeVisible(); // the list stays until the page is here
    release();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(m.question);
    await expect(page.getByRole("status").filter({ hasText: "Loading market" })).toHaveCount(0);
  });
});
