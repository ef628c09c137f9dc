// Follow, share and embed (docs/api.md "Beside the API"): the watchlist (cookie, plain-form star, server-rendered page that stays
// live), the 24-hour move against SQL, share cards as an unfurler sees them, the embed card framed by another
// origin (and nothing else framed), oEmbed, related markets, images that fail to load.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import type postgres from "postgres";
import { addTrades, makeMarket, type MarketOptions } from "../support/markets";
import { testRun } from "../fixtures";
import { expect, test } from "./helpers";

const token = () => `tok${randomUUID().replace(/-/g, "").slice(0, 10)}`;

/**
 * An ACTIVE market whose question holds a word no other market has (so `/?q=<word>` lists it alone),
 * returned once the test server lists it (a LOCKED one is never listed: at once): its insert reaches the server as a NOTIFY, a few ms after the
 * commit, and a list rendered before that rightly holds no such market (the browser's list refetches
 * only every 30 s).
 */
async function activeMarket(sql: postgres.Sql, opts: MarketOptions = {}) {
  const word = token();
  const question = `Will ${word} happen?`;
  const m = await makeMarket(sql, { status: "ACTIVE", question, ...opts });
  if (m.status !== "LOCKED") {
    const listed = `${testRun().baseURL}/v1/markets?q=${word}&status=${m.status}`;
    await expect.poll(async () => (await (await fetch(listed)).json()).total, { timeout: 10_000 }).toBe(1);
  }
  return { ...m, word, question: opts.question ?? question };
}

/** The meta tags of an HTML document, property or name → content (the first of each). */
function metaTags(html: string) {
  const tags: Record<string, string> = {};
  for (const [tag] of html.matchAll(/<meta\s[^>]*>/g)) {
    const key = /(?:property|name)="([^"]+)"/.exec(tag)?.[1];
    const content = /content="([^"]*)"/.exec(tag)?.[1];
    if (key && content !== undefined && !(key in tags)) tags[key] = content.replace(/&amp;/g, "&");
  }
  return tags;
}

/** Width and height from a PNG's IHDR chunk (bytes 16–23), after checking its signature. */
function pngSize(body: Buffer) {
  expect(body.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
  return { width: body.readUInt32BE(16), height: body.readUInt32BE(20) };
}

test.describe("watchlist", () => {
  test("watchlist – a card's star adds the market; the header counts it; /watchlist is rendered on the server with it after a reload", async ({
    page,
    sql,
  }) => {
    const m = await activeMarket(sql);
    await page.goto(`/?q=${m.word}`);
    const card = page.getByTestId("market-card").filter({ hasText: m.word });
    const star = card.getByRole("button", { name: `Star: ${m.question}` });
    await expect(star).toHaveAttribute("aria-pressed", "false");
    await star.click();
    // The form's 303 brings the reader back to the same view, at the card.
    await expect(page).toHaveURL(new RegExp(`\\?q=${m.word}#card-${m.slug}$`));
    await expect(card.getByRole("button", { name: `Star: ${m.question}` })).toHaveAttribute("aria-pressed", "true");
    await expect(page.getByRole("link", { name: /^Watchlist 1 starred$/ })).toBeVisible();

    // The watchlist page's first response holds the card (server-rendered from the cookie).
    const html = await (await page.request.get("/watchlist")).text();
    expect(html).toContain(m.question);
    await page.getByRole("link", { name: /^Watchlist/ }).click();
    await expect(page).toHaveURL(/\/watchlist$/);
    await page.reload();
    await expect(page.getByTestId("market-card")).toHaveCount(1);
    await expect(page.getByTestId("market-card")).toContainText(m.question);
    await expect(page.getByTestId("watchlist-count")).toHaveText("1 of 100 markets");

    // Unstarring from the watchlist removes it.
    await page.getByRole("button", { name: `Star: ${m.question}` }).click();
    await expect(page.getByTestId("market-card")).toHaveCount(0);
    await expect(page.getByTestId("empty-state")).toBeVisible();
  });

  test("watchlist – the market page's star works without JavaScript, and the card's too", async ({ browser, sql, baseURL }) => {
    const m = await activeMarket(sql);
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
    const page = await context.newPage();
    await page.goto(`/markets/${m.slug}`);
    await page.getByRole("button", { name: "Star", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/markets/${m.slug}(\\?|$)`));
    await expect(page.getByRole("button", { name: "Starred" })).toHaveAttribute("aria-pressed", "true");
    await expect(page.getByRole("link", { name: /^Watchlist 1 starred$/ })).toBeVisible();
    await page.getByRole("button", { name: "Starred" }).click();
    await expect(page.getByRole("button", { name: "Star", exact: true })).toHaveAttribute("aria-pressed", "false");
    await page.goto(`/?q=${m.word}`);
    await page.getByRole("button", { name: `Star: ${m.question}` }).click();
    await page.goto("/watchlist");
    await expect(page.getByTestId("market-card")).toContainText(m.question);
    await context.close();
  });

  test("watchlist – the market page's star adds it (hydrated page)", async ({ page, sql }) => {
    const m = await activeMarket(sql);
    await page.goto(`/markets/${m.slug}`);
    await page.getByRole("button", { name: "Star", exact: true }).click();
    await expect(page.getByRole("button", { name: "Starred" })).toHaveAttribute("aria-pressed", "true");
    await page.goto("/watchlist");
    await expect(page.getByTestId("market-card")).toContainText(m.question);
  });

  test("watchlist – a card updates live after a trade is committed", async ({ page, sql }) => {
    const m = await activeMarket(sql, { probability: ["40.00", "60.00"] });
    await page.goto(`/markets/${m.slug}`);
    await page.getByRole("button", { name: "Star", exact: true }).click();
    await expect(page.getByRole("button", { name: "Starred" })).toBeVisible();
    await page.goto("/watchlist");
    const card = page.getByTestId("market-card");
    await expect(card.getByTestId("chances")).toContainText("Yes 40%");
    await page.locator("html[data-live-joined]").waitFor({ state: "attached" }); // the card's channel is joined: no signal is missed
    await sql.begin(async (tx) => {
      await addTrades(tx, m, [{ price: "0.720", outcome: m.yes }]);
      await tx`UPDATE outcomes SET probability = 72, updated_at = now() WHERE id = ${m.yes}`;
      await tx`UPDATE outcomes SET probability = 28, updated_at = now() WHERE id = ${m.no}`;
    });
    await expect(card.getByTestId("chances")).toContainText("Yes 72%", { timeout: 15_000 });
  });

  test("watchlist – a deleted market shows as gone and a cancelled one as cancelled, not as errors", async ({ page, sql, baseURL }) => {
    const cancelled = await activeMarket(sql, { status: "CANCELLED" });
    const gone = randomUUID();
    await page.context().addCookies([{ name: "watchlist", value: `${gone},${cancelled.id}`, url: baseURL! }]);
    const res = await page.goto("/watchlist");
    expect(res?.status()).toBe(200);
    await expect(page.getByTestId("market-gone")).toContainText("This market no longer exists");
    await expect(page.getByTestId("market-card").getByTestId("status-badge")).toHaveText("Cancelled");
    await page.getByRole("button", { name: "Remove the deleted market from the watchlist" }).click();
    await expect(page.getByTestId("market-gone")).toHaveCount(0);
    await expect(page.getByTestId("watchlist-count")).toHaveText("1 of 100 markets");
  });

  test("watchlist – a full list (100) refuses another star and says why; a form from another site is refused", async ({ page, sql, baseURL }) => {
    const m = await activeMarket(sql);
    const full = Array.from({ length: 100 }, () => randomUUID()).join(",");
    await page.context().addCookies([{ name: "watchlist", value: full, url: baseURL! }]);
    await page.goto(`/markets/${m.slug}`);
    await page.getByRole("button", { name: "Star", exact: true }).click();
    await expect(page).toHaveURL(/\/watchlist\?full=1$/);
    await expect(page.getByRole("alert").filter({ hasText: "Your watchlist is full (100 markets)" })).toBeVisible();
    const cross = await page.request.post("/watchlist/star", { form: { id: m.id, want: "on", back: "/" }, headers: { Origin: "https://evil.example" } });
    expect(cross.status()).toBe(403);
  });
});

test("24-hour move – cards and the market header show the leading outcome's change, equal to SQL over the trades", async ({ page, sql }) => {
  const now = Date.now();
  const hoursAgo = (h: number) => new Date(now - h * 3600_000);
  // Multi-outcome: Option 2 leads now. Its last trade at or before now − 24 h is 0.310 (at 30 h; the one at
  // 50 h is older, the ones within the day do not count as the reference).
  const m = await activeMarket(sql, { outcomes: 3, probability: ["20.00", "55.35", "24.65"] });
  const lead = m.outcomes[1];
  await addTrades(sql, m, [
    { outcome: lead, price: "0.250", at: hoursAgo(50) },
    { outcome: lead, price: "0.310", at: hoursAgo(30) },
    { outcome: lead, price: "0.500", at: hoursAgo(3) },
    { outcome: m.outcomes[0], price: "0.900", at: hoursAgo(40) },
  ]);
  const [{ points }] = await sql`
    SELECT round(o.probability - 100 * (SELECT t.price FROM trades t WHERE t.outcome_id = o.id AND t.executed_at <= now() - interval '24 hours'
                                         ORDER BY t.executed_at DESC, t.id DESC LIMIT 1), 1)::float8 AS points
      FROM outcomes o WHERE o.market_id = ${m.id} ORDER BY o.probability DESC, o.index LIMIT 1`;
  expect(points).toBe(24.4); // 55.35 − 31.00

  await page.goto(`/?q=${m.word}`);
  const move = page.getByTestId("market-card").getByTestId("move-24h");
  await expect(move).toHaveAttribute("data-points", String(points));
  await expect(move).toContainText("Option 2");
  await expect(move).toContainText("24.4 pts");
  await page.goto(`/markets/${m.slug}`);
  const header = page.getByTestId("market-move").getByTestId("move-24h");
  await expect(header).toHaveAttribute("data-points", String(points));
  await expect(header).toContainText("▲");

  // A market with no trade a day ago shows no move on its card, and says so in its header.
  const fresh = await activeMarket(sql);
  await addTrades(sql, fresh, [{ price: "0.600", at: hoursAgo(2) }]);
  await page.goto(`/?q=${fresh.word}`);
  await expect(page.getByTestId("market-card")).toBeVisible();
  await expect(page.getByTestId("move-24h")).toHaveCount(0);
  await page.goto(`/markets/${fresh.slug}`);
  await expect(page.getByTestId("market-move")).toHaveText("No trade a day ago");
});

test("share card – an unfurler finds Open Graph and Twitter tags and a 1200×630 PNG that changes with the market", async ({ request, sql }) => {
  const m = await activeMarket(sql);
  await addTrades(sql, m, [{ price: "0.400", at: new Date(Date.now() - 3 * 3600_000) }, { price: "0.610" }]);
  const unfurl = { "User-Agent": "Twitterbot/1.0", Accept: "text/html" };
  const html = await (await request.get(`/markets/${m.slug}`, { headers: unfurl })).text();
  const tags = metaTags(html);
  expect(tags["og:title"]).toBe(m.question);
  expect(tags["og:url"]).toMatch(new RegExp(`^http://[^/]+/markets/${m.slug}$`));
  expect(tags["og:site_name"]).toBe("Markets");
  expect(tags["og:image"]).toMatch(new RegExp(`^http://[^/]+/markets/${m.slug}/share\\.png\\?v=\\w+$`));
  expect(tags["og:image:width"]).toBe("1200");
  expect(tags["og:image:height"]).toBe("630");
  expect(tags["og:image:alt"]).toContain(m.question);
  expect(tags["twitter:card"]).toBe("summary_large_image");
  expect(tags["twitter:image"]).toBe(tags["og:image"]);

  const image = await request.get(tags["og:image"], { headers: unfurl });
  expect(image.status()).toBe(200);
  expect(image.headers()["content-type"]).toBe("image/png");
  expect(image.headers()["cache-control"]).toContain("immutable");
  expect(pngSize(await image.body())).toEqual({ width: 1200, height: 630 });
  const etag = image.headers().etag;
  expect((await request.get(tags["og:image"], { headers: { "If-None-Match": etag } })).status()).toBe(304);

  // A change of the market is a new image URL.
  await sql`UPDATE outcomes SET probability = 70, updated_at = now() WHERE id = ${m.yes}`;
  await expect(async () => {
    const again = metaTags(await (await request.get(`/markets/${m.slug}`)).text());
    expect(again["og:image"]).not.toBe(tags["og:image"]);
  }).toPass();

  // The list page has its own card.
  const list = metaTags(await (await request.get("/", { headers: unfurl })).text());
  expect(list["og:image"]).toMatch(/^http:\/\/[^/]+\/share\.png$/);
  expect(list["og:image:width"]).toBe("1200");
  expect(list["og:image:alt"]).toBeTruthy();
  expect(pngSize(await (await request.get(list["og:image"])).body())).toEqual({ width: 1200, height: 630 });
});

/** A page on another origin (another port of 127.0.0.1) that frames the given URLs. */
async function framingSite(frames: Record<string, string>) {
  const server = http.createServer((_, res) => {
    res.writeHead(200, { "Content-Type": "text/html" });
    res.end(
      `<!doctype html><title>Another site</title>${Object.entries(frames)
        .map(([id, src]) => `<iframe id="${id}" src="${src}" width="420" height="320"></iframe>`)
        .join("")}`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => server.close() };
}

test("embed – another origin may frame the embed card, which updates live; every other page refuses to be framed", async ({
  context,
  sql,
  baseURL,
  request,
}) => {
  const m = await activeMarket(sql, { probability: ["35.00", "65.00"] });
  const site = await framingSite({
    embed: `${baseURL}/embed/markets/${m.slug}`,
    market: `${baseURL}/markets/${m.slug}`,
    list: `${baseURL}/`,
    watchlist: `${baseURL}/watchlist`,
  });
  // A plain page: the framing site is not ours, so there is no hydration to wait for.
  const page = await context.newPage();
  try {
    await page.goto(site.url);
    const embed = page.frameLocator("#embed");
    await expect(embed.getByTestId("embed-card")).toBeVisible();
    await expect(embed.getByRole("link", { name: m.question })).toHaveAttribute("href", `${baseURL}/markets/${m.slug}`);
    await expect(embed.getByTestId("embed-outcome").first()).toContainText("No65%");
    // The refused frames never get our document: Chromium shows its error page in them.
    for (const id of ["market", "list", "watchlist"]) {
      const frame = await (await page.locator(`#${id}`).elementHandle())!.contentFrame();
      await expect.poll(() => frame?.url(), { message: id }).toMatch(/^chrome-error:/);
    }
    // Live: a trade and the new probabilities reach the framed card (once its channel is joined).
    await embed.locator("html[data-live-joined]").waitFor({ state: "attached" });
    await sql.begin(async (tx) => {
      await addTrades(tx, m, [{ price: "0.800", outcome: m.yes }]);
      await tx`UPDATE outcomes SET probability = 80, updated_at = now() WHERE id = ${m.yes}`;
      await tx`UPDATE outcomes SET probability = 20, updated_at = now() WHERE id = ${m.no}`;
    });
    await expect(embed.getByTestId("embed-outcome").first()).toContainText("Yes80%", { timeout: 15_000 });
  } finally {
    site.close();
  }
  // The headers behind it: only /embed/ relaxes frame-ancestors, and it alone has no X-Frame-Options.
  for (const path of ["/", `/markets/${m.slug}`, "/watchlist", "/docs", "/no-such-page"]) {
    const res = await request.get(path);
    expect(res.headers()["content-security-policy"], path).toContain("frame-ancestors 'none'");
    expect(res.headers()["x-frame-options"], path).toBe("DENY");
  }
  const res = await request.get(`/embed/markets/${m.slug}`);
  expect(res.headers()["content-security-policy"]).toContain("frame-ancestors *");
  expect(res.headers()["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  expect(res.headers()["x-frame-options"]).toBeUndefined();
  // A market that does not exist: a 404 the frame may show, the embed's own card (in the server's HTML),
  // not the site's header.
  const gone = await request.get("/embed/markets/no-such-market-at-all");
  expect(gone.status()).toBe(404);
  expect(gone.headers()["content-security-policy"]).toContain("frame-ancestors *");
  expect(gone.headers()["x-frame-options"]).toBeUndefined();
  const html = await gone.text();
  expect(html).toMatch(/data-testid="embed-not-found"[^>]*>\s*<h1[^>]*>Market not found<\/h1>/);
  expect(html).not.toContain("Skip to content");
  const card = await context.newPage();
  await card.goto("/embed/markets/no-such-market-at-all");
  await expect(card.getByTestId("embed-not-found")).toContainText("Market not found");
  await expect(card.getByText("Skip to content")).toHaveCount(0);
  await card.close();
});

test("embed – the market page's embed code is the embed card's iframe, and the copy button copies it", async ({ page, sql, context, baseURL }) => {
  const m = await activeMarket(sql);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto(`/markets/${m.slug}`);
  await page.getByText("Embed", { exact: true }).click();
  const code = await page.getByLabel("Embed this market on your site").inputValue();
  expect(code).toContain(`<iframe src="${baseURL}/embed/markets/${m.slug}"`);
  await page.getByRole("button", { name: "Copy embed code" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Copied" })).toBeAttached();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
});

test("oEmbed – market pages link to it; it answers rich JSON with the embed iframe, 404 for other URLs and 501 for XML", async ({ request, sql, baseURL }) => {
  const m = await activeMarket(sql);
  const html = await (await request.get(`/markets/${m.slug}`)).text();
  const link = /<link[^>]*rel="alternate"[^>]*type="application\/json\+oembed"[^>]*>/.exec(html)?.[0];
  expect(link).toBeTruthy();
  const href = /href="([^"]+)"/.exec(link!)![1].replace(/&amp;/g, "&");
  const res = await request.get(href);
  expect(res.status()).toBe(200);
  const body = await res.json();
  expect(body).toMatchObject({ version: "1.0", type: "rich", title: m.question, provider_name: "Markets", width: 400, height: 300 });
  expect(body.html).toContain(`src="${new URL(baseURL!).origin}/embed/markets/${m.slug}"`);
  expect(body.thumbnail_url).toBe(metaTags(html)["og:image"]);
  const small = await (await request.get(`/oembed?url=${encodeURIComponent(`${baseURL}/markets/${m.slug}`)}&maxwidth=300`)).json();
  expect(small.width).toBe(300);
  for (const url of [`${baseURL}/`, `${baseURL}/markets/no-such-market`, `https://elsewhere.example/markets/${m.slug}`, "not a url"]) {
    expect((await request.get(`/oembed?url=${encodeURIComponent(url)}&format=json`)).status(), url).toBe(404);
  }
  expect((await request.get(`/oembed?url=${encodeURIComponent(`${baseURL}/markets/${m.slug}`)}&format=xml`)).status()).toBe(501);
});

test("related markets – up to six of the same sub-category or tags, active first, by volume", async ({ page, sql }) => {
  const sub = `Rel ${token()}`;
  const tag = token();
  const base = await activeMarket(sql, { category: "SCIENCE", subCategory: sub, columns: { tags: [tag] } });
  const make = (status: "ACTIVE" | "RESOLVED" | "LOCKED", volume: string, opts: MarketOptions = {}) =>
    activeMarket(sql, { category: "SCIENCE", subCategory: sub, status, totalVolume: volume, ...opts });
  const a1 = await make("ACTIVE", "100");
  const a2 = await make("ACTIVE", "900");
  const a3 = await make("ACTIVE", "500", { subCategory: "Elsewhere", columns: { tags: [tag, "x"] } }); // by tag
  const r1 = await make("RESOLVED", "5000");
  const r2 = await make("RESOLVED", "3000");
  const r3 = await make("RESOLVED", "10");
  await make("RESOLVED", "1"); // the seventh: left out
  await make("LOCKED", "99999"); // never listed
  await make("ACTIVE", "99999", { category: "SPORTS" }); // another category
  await page.goto(`/markets/${base.slug}`);
  const related = page.getByTestId("related-markets");
  await expect(related.getByRole("heading", { name: "Related markets" })).toBeVisible();
  await expect(related.getByTestId("related-market").getByRole("heading")).toHaveText([a2, a3, a1, r1, r2, r3].map((x) => x.question));
  // A row: the question links to its market; an active one shows its Yes chance, a resolved one its result.
  const first = related.getByTestId("related-market").first();
  await expect(first.getByRole("link", { name: a2.question })).toHaveAttribute("href", `/markets/${a2.slug}`);
  await expect(first).toContainText("Vol.");
  await expect(first).toContainText(/\d+(\.\d)?%/);
  await expect(related.getByTestId("related-market").nth(3)).toContainText("Resolved");
  await expect(related.getByTestId("related-market").nth(3)).not.toContainText("%");
  await first.getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/markets/${a2.slug}$`));
  await expect(page.getByRole("heading", { level: 1, name: a2.question })).toBeVisible();
  await page.goto(`/markets/${base.slug}`);
  // Server-rendered: in the first response.
  const html = await (await page.request.get(`/markets/${base.slug}`)).text();
  expect(html).toContain('data-testid="related-markets"');
  // a1 and a2 share category, sub-category and tags, so they share one read of their group: each page
  // leaves its own market out of it, whichever page read it first.
  const r7 = await sql`SELECT question FROM markets WHERE sub_category = ${sub} AND total_volume = 1`;
  for (const [opened, others] of [
    [a2, [a1, base]],
    [a1, [a2, base]],
  ] as const) {
    await page.goto(`/markets/${opened.slug}`);
    const expected = [...others.map((x) => x.question), r1.question, r2.question, r3.question, r7[0].question];
    await expect(related.getByTestId("related-market").getByRole("heading")).toHaveText(expected);
  }
});

test("images – a market image or avatar whose URL does not load shows the placeholder, in the same box", async ({ page, sql, baseURL }) => {
  // LOCKED (never listed): its card is seen on the watchlist.
  const m = await activeMarket(sql, {
    status: "LOCKED",
    users: [{ username: `U${token()}`, profile_image_url: "https://img.example/avatar.png" }],
    columns: { image_url: "https://img.example/broken.png" },
  });
  await addTrades(sql, m, [{ price: "0.500" }]); // its user becomes a top trader, with the broken avatar
  await page.context().addCookies([{ name: "watchlist", value: m.id, url: baseURL! }]);
  await page.goto("/watchlist");
  const image = page.getByTestId("market-card").getByTestId("market-image");
  await expect(image).toHaveCSS("background-image", 'url("https://img.example/broken.png")');
  expect(await image.boundingBox()).toMatchObject({ width: 48, height: 48 });
  await expect(page.locator("main img")).toHaveCount(0); // no <img> that could show the broken-image icon
  await page.goto(`/markets/${m.slug}`);
  const avatar = page.getByTestId("top-traders").getByTestId("avatar");
  await expect(avatar).toHaveText("U"); // the initial, under the picture that did not load
  await expect(avatar.locator("span")).toHaveCSS("background-image", 'url("https://img.example/avatar.png")');
  expect(await avatar.boundingBox()).toMatchObject({ width: 28, height: 28 });
  await expect(page.locator("main img")).toHaveCount(0);
});
