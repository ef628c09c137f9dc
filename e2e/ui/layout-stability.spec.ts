// What the web budgets (npm run bench:web) time, asserted as structure rather than milliseconds:
// - the market page arrives whole in its first response (no streamed Suspense fallback, which React
//   would reveal no sooner than 300 ms after painting it, all of it added to LCP);
// - nothing moves while either page loads, hydrates and goes live (CLS exactly 0);
// - a page whose HTML arrives in pieces is first painted whole, not half-parsed (a slow network or a busy
//   machine would otherwise show the search icon, then move it when its input arrives).
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "@playwright/test";
import { addTrades, makeFullMarket, makeMarket } from "../support/markets";
import { expect, test } from "./helpers";

/**
 * Records the page's layout shifts from its first paint; the returned reader waits for the layout to have
 * settled (web fonts loaded, every animation that ends has ended, one more frame rendered), then takes the
 * shifts the observer holds but has not delivered yet, and answers all of them.
 */
async function watchShifts(page: Page) {
  await page.addInitScript(() => {
    type Source = { node?: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly };
    const w = window as unknown as { __shifts: string[]; __shiftObserver: PerformanceObserver };
    w.__shifts = [];
    // What moved, findable in the page: the node, the nearest labelled or test-id'd ancestor, and both boxes.
    const describe = (s: Source) => {
      const el = s.node instanceof Element ? s.node : s.node?.parentElement;
      const named = el?.closest("[data-testid],[aria-label],[id],h1,h2,h3,button,a");
      const name = named
        ? `${named.tagName}${named.id ? `#${named.id}` : ""}[${named.getAttribute("data-testid") ?? named.getAttribute("aria-label") ?? named.textContent?.slice(0, 30)}]`
        : "";
      const box = (r: DOMRectReadOnly) => `${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}×${Math.round(r.height)}`;
      return `${s.node?.nodeName ?? "?"} in ${name} ${box(s.previousRect)} → ${box(s.currentRect)}`;
    };
    const record = (entries: PerformanceEntryList) => {
      for (const e of entries as (PerformanceEntry & { value: number; sources?: Source[] })[]) {
        w.__shifts.push(`${e.value.toExponential(2)} at ${Math.round(e.startTime)} ms: ${(e.sources ?? []).map(describe).join(" | ")}`);
      }
    };
    w.__shiftObserver = new PerformanceObserver((list) => record(list.getEntries()));
    w.__shiftObserver.observe({ type: "layout-shift", buffered: true });
    // The reader's own wait: what the layout still waits for, then the entries not yet delivered.
    (window as unknown as { __settledShifts: () => Promise<string[]> }).__settledShifts = async () => {
      await document.fonts.ready;
      const ending = document.getAnimations().filter((a) => Number.isFinite(a.effect?.getComputedTiming().endTime ?? Number.POSITIVE_INFINITY));
      await Promise.all(ending.map((a) => a.finished.catch(() => {})));
      // The frame after the next: the one in which the last change was laid out has been rendered.
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      record(w.__shiftObserver.takeRecords());
      return w.__shifts;
    };
  });
  return () => page.evaluate(() => (window as unknown as { __settledShifts: () => Promise<string[]> }).__settledShifts());
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
  expect(await shifts()).toEqual([]);
});

test("market page – trades arriving in the Activity panel move nothing, in it or around it (CLS 0)", async ({ page, sql }) => {
  const m = await makeFullMarket(sql);
  const shifts = await watchShifts(page);
  await page.goto(`/markets/${m.slug}?trades=all`);
  await expect(page.getByRole("status").filter({ hasText: "Live" })).toBeVisible({ timeout: 30_000 });
  const rows = page.getByTestId("activity-panel").getByRole("listitem");
  await expect(rows).toHaveCount(3);
  // One trade, then three in one commit: rows go on top of the tape, the rest move down by their transforms.
  await addTrades(sql, m, [{ price: "0.581" }]);
  await expect(rows).toHaveCount(4);
  await addTrades(sql, m, [{ price: "0.582" }, { price: "0.583", outcome: m.no }, { price: "0.584" }]);
  await expect(rows).toHaveCount(7);
  expect(await shifts()).toEqual([]);
});

for (const chart of ["candles", "all"] as const) {
  test(`market page – in the ${chart} chart mode nothing moves while it loads, swaps in the live view and draws the canvas (CLS 0)`, async ({ page, sql }) => {
    // The all-outcomes mode needs a market of more than two outcomes: three, each traded in the last hour.
    const m = chart === "candles" ? await makeFullMarket(sql) : await makeMarket(sql, { prefix: "cls-lines", status: "ACTIVE", outcomes: 3 });
    if (chart === "all") {
      const at = (min: number) => new Date(Date.now() - min * 60_000);
      await addTrades(
        sql,
        m,
        m.outcomes.flatMap((outcome, k) => [40, 30, 20].map((min, i) => ({ outcome, price: (0.2 + k * 0.25 + i / 50).toFixed(3), at: at(min - k) }))),
      );
    }
    const shifts = await watchShifts(page);
    await page.goto(`/markets/${m.slug}?range=1h&chart=${chart}`);
    await expect(page.locator('[data-live="on"]')).toBeAttached();
    await expect(page.getByRole("status").filter({ hasText: "Live" })).toBeVisible({ timeout: 30_000 });
    const box = page.getByRole("img", { name: chart === "candles" ? /Candlestick chart/ : /Price chart of every outcome/ });
    await box.hover();
    await expect(box.locator("canvas").first()).toBeVisible({ timeout: 30_000 });
    await page.mouse.move(10, 10);
    expect(await shifts()).toEqual([]);
  });
}

test("market list – nothing moves while it loads and hydrates (CLS 0)", async ({ page }) => {
  const shifts = await watchShifts(page);
  await page.goto("/");
  await expect(page.getByTestId("market-card").first()).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(await shifts()).toEqual([]);
});

test("watchlist and embed card – nothing moves while they load and hydrate (CLS 0); neither has an <img> that could break", async ({ page, sql, baseURL }) => {
  const m = await makeFullMarket(sql); // its image and two avatars point at an unreachable host
  await page.context().addCookies([{ name: "watchlist", value: m.id, url: baseURL! }]);
  const shifts = await watchShifts(page);
  await page.goto("/watchlist");
  await expect(page.getByTestId("market-card")).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(await shifts()).toEqual([]);
  await page.goto(`/embed/markets/${m.slug}`);
  await expect(page.getByTestId("embed-card")).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(await shifts()).toEqual([]);
  await page.goto(`/markets/${m.slug}`);
  await page.waitForLoadState("networkidle");
  expect(await shifts()).toEqual([]);
  await expect(page.locator("img")).toHaveCount(0);
});

/**
 * A proxy in front of the test server that sends the list page's HTML in three pieces, 400 ms apart:
 * cut after the search box's icon (before its input) and after the first card (mid grid row). Other
 * requests pass through whole.
 */
async function piecemealProxy(upstream: string) {
  const server = http.createServer(async (req, res) => {
    const forward = Object.fromEntries(Object.entries(req.headers).filter((e): e is [string, string] => typeof e[1] === "string" && e[0] !== "host"));
    const up = await fetch(upstream + req.url, { headers: { ...forward, "accept-encoding": "identity" }, redirect: "manual" }).catch(() => null);
    if (!up) return res.writeHead(502).end();
    const headers = Object.fromEntries([...up.headers].filter(([k]) => !["content-length", "content-encoding", "transfer-encoding", "connection"].includes(k)));
    res.writeHead(up.status, headers);
    const body = Buffer.from(await up.arrayBuffer());
    if (req.url !== "/") return res.end(body);
    const html = body.toString("utf8");
    const afterIcon = html.indexOf("</svg>", html.indexOf('aria-label="Filters"')) + "</svg>".length;
    const afterCard = html.indexOf("</article>") + "</article>".length;
    expect(afterIcon).toBeGreaterThan("</svg>".length);
    expect(afterCard).toBeGreaterThan(afterIcon);
    for (const piece of [html.slice(0, afterIcon), html.slice(afterIcon, afterCard)]) {
      res.write(piece);
      await new Promise((r) => setTimeout(r, 400));
    }
    res.end(html.slice(afterCard));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

test("market list – HTML that arrives in pieces is first painted whole: nothing half-parsed shows, nothing moves", async ({ page, baseURL }) => {
  const proxy = await piecemealProxy(baseURL!);
  try {
    const shifts = await watchShifts(page);
    // Each frame's view of the page: does the search box have its input yet, how many cards are there.
    await page.addInitScript(() => {
      const w = window as unknown as { __frames: string[] };
      w.__frames = [];
      const look = () => {
        const icon = document.querySelector('section[aria-label="Filters"] svg');
        if (icon) {
          const seen = `input ${!!document.querySelector('section[aria-label="Filters"] input[type="search"]')}, cards ${document.querySelectorAll('[data-testid="market-card"]').length}`;
          if (w.__frames.at(-1) !== seen) w.__frames.push(seen);
        }
        if (performance.now() < 5000) requestAnimationFrame(look);
      };
      requestAnimationFrame(look);
    });
    await page.goto(`${proxy.url}/`);
    await expect(page.getByTestId("market-card")).toHaveCount(20);
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    const shifted = await shifts(); // read once the layout has settled (fonts, animations, a frame rendered)
    const frames = await page.evaluate(() => (window as unknown as { __frames: string[] }).__frames);
    expect(frames).toEqual(["input true, cards 20"]);
    expect(shifted).toEqual([]);
  } finally {
    proxy.close();
  }
});
