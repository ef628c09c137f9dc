// GET /v1/stream works with the browser's own EventSource (docs/api.md "Push channels"): events by name,
// their position as lastEventId, the book in the data, from a page of the site (its CSP allows it).
import { expect, test } from "../fixtures";
import { addOrder, makeMarket } from "../support/markets";

test("the browser's EventSource follows a market's book and learns each event's position", async ({ page, sql }) => {
  const m = await makeMarket(sql, { prefix: "eventsource", status: "ACTIVE" });
  await page.goto(`/markets/${m.slug}`);
  await page.evaluate((slug) => {
    const w = window as unknown as { __events: Array<{ type: string; id: string; data: unknown }>; __source: EventSource };
    w.__events = [];
    w.__source = new EventSource(`/v1/stream?channels=market:${slug}:orderbook`);
    for (const type of ["orderbook", "heartbeat"]) {
      w.__source.addEventListener(type, (e) => w.__events.push({ type, id: (e as MessageEvent).lastEventId, data: JSON.parse((e as MessageEvent).data) }));
    }
  }, m.slug);
  const events = () => page.evaluate(() => (window as unknown as { __events: Array<{ type: string; id: string; data: Record<string, unknown> }> }).__events);
  await expect.poll(async () => (await events()).some((e) => e.type === "heartbeat"), { timeout: 15_000 }).toBe(true);
  await addOrder(sql, m, { side: "BUY", price: "0.420", shares: "15.00" });
  await expect.poll(async () => (await events()).filter((e) => e.type === "orderbook").length, { timeout: 15_000 }).toBe(1);
  const book = (await events()).find((e) => e.type === "orderbook") as { id: string; data: Record<string, unknown> };
  expect(book.data.position).toBe(Number(book.id));
  expect(book.data.book).toMatchObject({ outcome_id: m.yes, bids: [{ price: "0.420", shares: "15.00" }] });
  await page.evaluate(() => (window as unknown as { __source: EventSource }).__source.close());
});
