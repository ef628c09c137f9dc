// In a real browser: the pages work under their Content-Security-Policy (no violation, the chart draws,
// the socket goes live, /docs renders), and script payloads stored in questions, descriptions, comments,
// usernames and image URLs stay text: no dialog, no script run, no injected element.
import type { Page } from "@playwright/test";
import { importFile } from "@/lib/import/import";
import { makeFullMarket } from "../support/markets";
import { expect, test } from "./helpers";

/** Collects CSP violations (with the blocked directive), console errors and dialogs, across navigations. */
async function watch(page: Page) {
  const problems: string[] = [];
  await page.exposeFunction("__reportCsp", (v: string) => problems.push(`csp: ${v}`));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) =>
      (window as unknown as { __reportCsp: (v: string) => void }).__reportCsp(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
    );
  });
  page.on("console", (m) => {
    // Test markets point their images at img.example, which does not resolve here: not a policy matter.
    if (/ERR_NAME_NOT_RESOLVED/.test(m.text())) return;
    if (m.type() === "error" || /Content Security Policy|Refused to/i.test(m.text())) problems.push(`console: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("dialog", (d) => {
    problems.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  return problems;
}

test.describe.configure({ timeout: 180_000 });

test("CSP – the list, a market page (chart and live socket) and /docs work with no violation", async ({ page, sql }) => {
  const m = await makeFullMarket(sql);
  const problems = await watch(page);

  await page.goto("/");
  await expect(page.getByTestId("market-card").first()).toBeVisible();

  await page.goto(`/markets/${m.slug}`);
  await expect(page.getByRole("status").filter({ hasText: "Live" })).toBeVisible({ timeout: 30_000 });
  const chart = page.getByRole("img", { name: /Price chart of Yes/ });
  await chart.hover(); // the canvas chart loads on the pointer
  await expect(chart.locator("canvas").first()).toBeVisible({ timeout: 30_000 });

  await page.goto("/docs");
  await expect(page.getByRole("heading", { name: "List markets", exact: true }).first()).toBeAttached({ timeout: 60_000 });
  await page.waitForLoadState("networkidle");

  expect(problems).toEqual([]);
});

test("CSP – a page served from memory (the page cache) runs under its own fresh nonce: no violation, hydrated", async ({ page, sql }) => {
  // The list (a market page shows the second it was read, so under load its render may not outlive the second).
  const m = await makeFullMarket(sql);
  const problems = await watch(page);
  const nonces = new Set<string>();
  let hit = false;
  for (let i = 0; i < 15 && !hit; i++) {
    const res = await page.goto(`/?q=${m.token}`);
    expect(res?.status()).toBe(200);
    hit = (await res?.headerValue("x-render-cache")) === "HIT";
    const nonce = /'nonce-([^']+)'/.exec((await res?.headerValue("content-security-policy")) ?? "")?.[1];
    expect(nonce).toBeTruthy();
    expect(nonces.has(nonce!), "a nonce seen before").toBe(false);
    nonces.add(nonce!);
    // Every script the document came with carries it (the chunks the page loads later need none: 'strict-dynamic').
    const tags = [...((await res?.text()) ?? "").matchAll(/<script\b[^>]*>/g)].map((t) => t[0]);
    expect(tags.length).toBeGreaterThan(0);
    expect(tags.filter((t) => !t.includes(`nonce="${nonce}"`))).toEqual([]);
  }
  expect(hit, "a view served from memory").toBe(true);
  await expect(page.locator("html[data-hydrated]")).toBeAttached({ timeout: 30_000 });
  // Hydrated and working: the card opens its market, which goes live.
  await expect(page.getByTestId("market-card")).toHaveCount(1);
  await page
    .getByTestId("market-card")
    .getByRole("link", { name: new RegExp(m.token) })
    .click();
  await expect(page.getByRole("status").filter({ hasText: "Live" })).toBeVisible({ timeout: 30_000 });
  expect(problems).toEqual([]);
});

test("CSP – an unknown address gets a 404 page whose scripts carry the response's nonce", async ({ page }) => {
  const problems = await watch(page);
  const res = await page.goto("/no-such-page/at-all");
  expect(res?.status()).toBe(404);
  const nonce = /'nonce-([^']+)'/.exec((await res?.headerValue("content-security-policy")) ?? "")?.[1];
  expect(nonce).toBeTruthy();
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  // Every script element (inline payloads and chunks) carries this response's nonce: none was blocked.
  const nonces = await page.locator("script").evaluateAll((els) => els.map((e) => (e as HTMLScriptElement).nonce));
  expect(nonces.length).toBeGreaterThan(0);
  expect(nonces.filter((n) => n !== nonce)).toEqual([]);
  // Hydrated: the link navigates on the client and the list renders.
  await page.getByRole("link", { name: "Browse all markets" }).click();
  await expect(page).toHaveURL(/\/$/);
  // The document's own 404 is a console error in Chromium; it is the answer asked for here.
  expect(problems.filter((p) => !/status of 404/.test(p))).toEqual([]);
});

test("XSS – script payloads in imported text and image URLs render inert", async ({ page, sql }) => {
  const token = `xss${Date.now().toString(36)}`;
  const payloads = [
    `<script>window.__pwned=1</script>`,
    `<img src=x onerror="window.__pwned=1" id="${token}-img">`,
    `"><svg onload="window.__pwned=1" id="${token}-svg">`,
    `javascript:window.__pwned=1`,
  ];
  const text = payloads.join(" ");
  const ids = { user: crypto.randomUUID(), market: crypto.randomUUID(), yes: crypto.randomUUID(), no: crypto.randomUUID(), comment: crypto.randomUUID() };
  const ts = new Date().toISOString();
  const outcome = (id: string, side: "YES" | "NO", index: number) => ({
    id,
    name: `${side} ${payloads[1]}`,
    side,
    index,
    probability: "50.00",
    description: text,
    image_url: null,
    color: null,
    question_id: null,
    condition_id: null,
    position_id: null,
    payout_wei: null,
  });
  const result = await importFile(sql, {
    users: [{ id: ids.user, username: `${token} ${payloads[2]}`.slice(0, 64), profile_image_url: "https://img.example/a.png" }],
    markets: [
      {
        id: ids.market,
        slug: `${token}-market`,
        question: `${token} ${payloads[0]} ${payloads[1]}`,
        description: text,
        category: "OTHER",
        sub_category: payloads[1],
        type: "BINARY",
        status: "ACTIVE",
        trading_starts_at: ts,
        trading_ends_at: new Date(Date.now() + 86_400_000).toISOString(),
        resolution_date: null,
        winning_outcome_id: null,
        resolved_at: null,
        settled_at: null,
        resolved_by: null,
        resolution_source: payloads[3],
        resolution_note: text,
        platform_fee: "0.02",
        spread: 1,
        total_volume: "0",
        image_url: "/market-images/other-1.svg",
        created_at: ts,
        updated_at: ts,
        outcomes: [outcome(ids.yes, "YES", 0), outcome(ids.no, "NO", 1)],
        comments: [{ id: ids.comment, user_id: ids.user, content: text, parent_id: null, created_at: ts }],
      },
    ],
  });
  expect(result.markets).toBe(1);
  // The importer refuses such URLs now; rows stored before it did are what pages must survive.
  await sql`UPDATE markets SET image_url = 'javascript:window.__pwned=1' WHERE id = ${ids.market}`;
  await sql`UPDATE outcomes SET image_url = 'javascript:window.__pwned=1' WHERE market_id = ${ids.market}`;
  await sql`UPDATE users SET profile_image_url = 'javascript:window.__pwned=1' WHERE id = ${ids.user}`;

  const problems = await watch(page);
  for (const url of [`/?q=${token}`, `/markets/${token}-market`]) {
    await page.goto(url);
    await expect(page.getByText(`${token} <script>`, { exact: false }).first()).toBeVisible();
    // Interact a little: hover and click what a reader would, so lazy handlers get their chance.
    await page.mouse.move(200, 200);
    await page.waitForLoadState("networkidle");
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), url).toBeUndefined();
    expect(await page.locator(`[id^="${token}-"]`).count(), `${url}: injected elements`).toBe(0);
    expect(await page.locator(`[src^="javascript:" i], [href^="javascript:" i]`).count(), `${url}: javascript: URLs`).toBe(0);
  }
  await expect(page.getByText(`${token} "><svg`).first()).toBeVisible(); // the username, as text, by its comment
  // The javascript: images never reach the page: no blocked navigation, no violation, no dialog.
  expect(problems).toEqual([]);
});
