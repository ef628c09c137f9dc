// The market page's first view (app/(site)/markets/[slug]/_components/market-first.tsx): the server's
// reads reach the browser once, as data beside the markup drawn from them (not also as a rendered tree in
// the RSC payload), and the browser hydrates that markup from the data without a mismatch, whatever its
// time zone and language.
import type { Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { makeFullMarket } from "../support/markets";
import { expect, test } from "./helpers";

const occurrences = (text: string, needle: string) => text.split(needle).length - 1;

test("market page – the first response carries a comment once in the markup and once in the data", async ({ request, sql }) => {
  const m = await makeFullMarket(sql);
  const note = `note-${m.token}`;
  await sql`INSERT INTO comments (id, market_id, user_id, content, parent_id, likes_count, created_at)
            VALUES (${randomUUID()}, ${m.id}, ${m.users[0]}, ${note}, null, 0, now())`;
  const res = await request.get(`/markets/${m.slug}`);
  expect(res.status()).toBe(200);
  const html = await res.text();
  // Markup: the comment as shown. Data: the query cache the live view starts from (RSC payload).
  expect(occurrences(html.replace(/<script[\s\S]*?<\/script>/g, ""), note)).toBe(1);
  expect(occurrences(html, note)).toBe(2);
  // The related markets' rows go as what a card shows: their descriptions are nowhere in the page.
  const slugs = [...html.matchAll(/data-testid="related-markets"[\s\S]*$/g)].flatMap((r) =>
    [...r[0].matchAll(/href="\/markets\/([^"#?]+)"/g)].map((x) => x[1]),
  );
  expect(slugs.length).toBeGreaterThan(0);
  for (const { slug, description } of await sql`SELECT slug, description FROM markets WHERE slug IN ${sql(slugs)}`) {
    const words = /[A-Za-z][A-Za-z ]{18,}[A-Za-z]/.exec(String(description))?.[0]; // no character any escaping changes
    if (words) expect(html.includes(words), `${slug}: ${words}`).toBe(false);
  }
});

/** Console errors and uncaught errors of `page` (a hydration mismatch is one of them). */
function problemsOf(page: Page) {
  const problems: string[] = [];
  page.on("console", (msg) => {
    // Test markets point their images at img.example, which does not resolve here.
    if (msg.type() === "error" && !/ERR_NAME_NOT_RESOLVED/.test(msg.text())) problems.push(`console: ${msg.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  return problems;
}

test("market page – hydrates with no mismatch in a time zone and language other than the server's", async ({ browser, sql }) => {
  const m = await makeFullMarket(sql);
  // UTC+14 and German: every date, time and relative time of the first view reads differently than on
  // a server in UTC, so any of them hydrated without the server's text would be a mismatch.
  const context = await browser.newContext({ timezoneId: "Pacific/Kiritimati", locale: "de-DE" });
  try {
    const page = await context.newPage();
    const problems = problemsOf(page);
    for (const path of [`/markets/${m.slug}`, `/markets/${m.slug}?chart=candles&trades=all`]) {
      await page.goto(path);
      await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
      await expect(page.locator('[data-live="on"]')).toBeAttached();
      await expect(page.getByTestId("comment")).toHaveCount(3);
      await expect(page.getByTestId("activity-panel").locator("li[data-trade]")).toHaveCount(3);
    }
    await expect(page.getByTestId("related-markets").getByTestId("related-market").first()).toBeVisible();
    expect(problems).toEqual([]);
  } finally {
    await context.close();
  }
});
