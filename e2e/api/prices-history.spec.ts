// GET /v1/markets/{id}/prices-history and /slug/{slug}/prices-history (docs/api.md "Price history", "Price-history parameters"; docs/import.md "Price history").
import { randomUUID } from "node:crypto";
import { expect, test } from "../fixtures";
import { addTrades, makeMarket } from "../support/markets";
import { priceHistorySchema } from "@/lib/markets/schemas";

const DAY = 86400;
const nowS = () => Math.floor(Date.now() / 1000);

test.describe("GET /v1/markets/{id}/prices-history", () => {
  test("without startTs returns only the last 7 days, one point per minute bucket by default", async ({ request, sql }) => {
    const m = await makeMarket(sql);
    const now = nowS();
    const minute = (s: number) => Math.floor(s / 60) * 60;
    const hourAgo = minute(now) - 3600;
    const at = (s: number) => new Date(s * 1000);
    await addTrades(sql, m, [
      { at: at(now - 8 * DAY), price: "0.100" }, // outside the default window
      { at: at(now - 6 * DAY), price: "0.200" },
      { at: at(hourAgo + 5), price: "0.300" },
      { at: at(hourAgo + 15), price: "0.350" }, // same minute: the later trade closes the bucket
      { at: at(now - 120), price: "0.400" },
      { outcome: m.no, at: at(now - 60), price: "0.900" }, // another outcome
    ]);
    for (const base of [`/v1/markets/${m.id}`, `/v1/markets/slug/${m.slug}`]) {
      const res = await request.get(`${base}/prices-history?outcomeId=${m.yes}`);
      expect(res.status()).toBe(200);
      const { history } = priceHistorySchema.strict().parse(await res.json());
      expect(history).toEqual([
        { t: minute(now - 6 * DAY), p: 0.2 },
        { t: hourAgo, p: 0.35 },
        { t: minute(now - 120), p: 0.4 },
      ]);
    }
  });

  test("startTs and endTs bound the window inclusively; startTs omitted still means now − 7 days", async ({ request, sql }) => {
    const m = await makeMarket(sql);
    const t0 = nowS() - 2 * DAY;
    await addTrades(
      sql,
      m,
      [0, 60, 120, 180].map((d, i) => ({ at: new Date((t0 + d) * 1000), price: `0.${i + 1}00` })),
    );
    const get = async (qs: string) =>
      priceHistorySchema.parse(await (await request.get(`/v1/markets/${m.id}/prices-history?outcomeId=${m.yes}&${qs}`)).json()).history;
    expect(await get(`startTs=${t0 + 60}&endTs=${t0 + 120}`)).toEqual([
      { t: t0 + 60 - ((t0 + 60) % 60), p: 0.2 },
      { t: t0 + 120 - ((t0 + 120) % 60), p: 0.3 },
    ]);
    expect((await get(`endTs=${t0 + 60}`)).map((p) => p.p)).toEqual([0.1, 0.2]);
    expect(await get(`startTs=${t0 + 181}`)).toEqual([]);
    expect(await get(`startTs=0&endTs=${t0 - 1}`)).toEqual([]);
  });

  test("startTs defaults to now − 7 days, not endTs − 7 days: an older endTs alone gives an empty window", async ({ request, sql }) => {
    const m = await makeMarket(sql);
    const now = nowS();
    const minute = (s: number) => Math.floor(s / 60) * 60;
    const at = (s: number) => new Date(s * 1000);
    await addTrades(sql, m, [
      { at: at(now - 10 * DAY + 600), price: "0.100" }, // inside endTs − 7 days, outside now − 7 days
      { at: at(now - 8 * DAY), price: "0.200" },
      { at: at(now - 5 * DAY), price: "0.300" },
      { at: at(now - 2 * DAY), price: "0.400" }, // after endTs
    ]);
    const get = async (qs: string) =>
      priceHistorySchema.parse(await (await request.get(`/v1/markets/slug/${m.slug}/prices-history?outcomeId=${m.yes}&${qs}`)).json()).history;
    expect(await get(`endTs=${now - 3 * DAY}`)).toEqual([{ t: minute(now - 5 * DAY), p: 0.3 }]);
    expect(await get(`endTs=${now - 8 * DAY + 60}`)).toEqual([]);
    // Further back takes both bounds.
    expect((await get(`startTs=${now - 11 * DAY}&endTs=${now - 8 * DAY + 60}`)).map((p) => p.p)).toEqual([0.1, 0.2]);
  });

  test("fidelity sets the bucket size: t = floor(ts / (fidelity·60))·fidelity·60, p = the bucket's last trade", async ({ request, sql }) => {
    const m = await makeMarket(sql);
    const start = Math.floor((nowS() - DAY) / 3600) * 3600;
    const trades = Array.from({ length: 90 }, (_, i) => ({ at: new Date((start + i * 60 + 5) * 1000), price: (0.1 + i / 200).toFixed(3) }));
    await addTrades(sql, m, trades);
    for (const fidelity of [1, 5, 15, 60]) {
      const { history } = priceHistorySchema.parse(
        await (await request.get(`/v1/markets/${m.id}/prices-history?outcomeId=${m.yes}&startTs=${start}&fidelity=${fidelity}`)).json(),
      );
      const width = fidelity * 60;
      const expected = new Map<number, number>();
      for (const [i, t] of trades.entries()) expected.set(Math.floor((start + i * 60 + 5) / width) * width, Number(t.price));
      expect(history, `fidelity ${fidelity}`).toEqual([...expected].map(([t, p]) => ({ t, p })));
    }
  });

  test("reads at most the 1,000 most recent trades in the window, cutting the old end; a smaller endTs reaches further back", async ({ request, sql }) => {
    const m = await makeMarket(sql);
    const start = nowS() - 2 * DAY;
    const trades = Array.from({ length: 1005 }, (_, i) => ({ at: new Date((start + i * 60) * 1000), price: "0.500" }));
    await addTrades(sql, m, trades);
    const url = `/v1/markets/${m.id}/prices-history?outcomeId=${m.yes}&startTs=${start - 10}`;
    const { history } = priceHistorySchema.parse(await (await request.get(url)).json());
    expect(history).toHaveLength(1000);
    expect(history[0].t).toBe(start + 5 * 60 - ((start + 5 * 60) % 60));
    const older = priceHistorySchema.parse(await (await request.get(`${url}&endTs=${history[0].t - 1}`)).json()).history;
    expect(older).toHaveLength(5);
  });

  test("ties in executed_at: the trade with the larger id closes the bucket", async ({ request, sql }) => {
    const m = await makeMarket(sql);
    const at = new Date((nowS() - 600) * 1000);
    const ids = [randomUUID(), randomUUID()].sort();
    await addTrades(sql, m, [
      { id: ids[1], at, price: "0.700" },
      { id: ids[0], at, price: "0.300" },
    ]);
    const { history } = priceHistorySchema.parse(await (await request.get(`/v1/markets/${m.id}/prices-history?outcomeId=${m.yes}`)).json());
    expect(history).toEqual([{ t: Math.floor(at.getTime() / 60000) * 60, p: 0.7 }]);
  });

  for (const [qs, message] of [
    ["fidelity=0", "fidelity must not be less than 1"],
    ["fidelity=10081", "fidelity must not be greater than 10080"],
    ["fidelity=abc", "fidelity must be an integer number"],
    ["startTs=-1", "startTs must not be less than 0"],
    ["endTs=1.5", "endTs must be an integer number"],
    ["startTs=200&endTs=100", "startTs must not be greater than endTs"],
  ] as const) {
    test(`rejects ${qs} with a 400 naming the parameter`, async ({ request, sql }) => {
      const m = await makeMarket(sql);
      const res = await request.get(`/v1/markets/${m.id}/prices-history?outcomeId=${m.yes}&${qs}`);
      expect(res.status()).toBe(400);
      expect(await res.json()).toEqual({ statusCode: 400, message: [message], error: "Bad Request" });
    });
  }

  test("accepts fidelity 10080 and huge timestamps without failing", async ({ request, sql }) => {
    const m = await makeMarket(sql);
    for (const qs of ["fidelity=10080", "startTs=0&endTs=99999999999999", "endTs=0"]) {
      const res = await request.get(`/v1/markets/${m.id}/prices-history?outcomeId=${m.yes}&${qs}`);
      expect(res.status(), qs).toBe(200);
    }
  });
});
