// GET /v1/markets/{id}/candles, /slug/{slug}/candles and the batch GET /v1/candles (docs/api.md "Candles"):
// every answer compared with an aggregation of the same trades in SQL (date_trunc / date_bin in UTC,
// first and last by (executed_at, id)), before and after inserts, deletes and updates of trades.
import { randomUUID } from "node:crypto";
import type { APIRequestContext } from "@playwright/test";
import type postgres from "postgres";
import { expect, test } from "../fixtures";
import { CAMEL } from "../support/api";
import { addTrades, makeMarket, type TestMarket, type TradeSpec } from "../support/markets";
import { CANDLE_INTERVALS, type CandleInterval, candlesBatchSchema, candlesSchema, camelCandlesSchema, type Candle, type Candles } from "@/lib/markets/schemas";

const SECONDS: Record<CandleInterval, number> = { "1m": 60, "5m": 300, "15m": 900, "1h": 3600, "4h": 14400, "1d": 86400, "1w": 604800 };
const DAY = 86400;
const nowS = () => Math.floor(Date.now() / 1000);

/**
 * The candles of [from, to) computed from the trades themselves: date_trunc in UTC where PostgreSQL has
 * the unit (minute, hour, day, ISO week from Monday), date_bin from the epoch for 5m, 15m and 4h.
 */
async function fromTrades(sql: postgres.Sql, outcomeId: string, interval: CandleInterval, from: number, to: number): Promise<Candle[]> {
  const utc = sql`(t.executed_at AT TIME ZONE 'UTC')`;
  const unit = { "1m": "minute", "1h": "hour", "1d": "day", "1w": "week" }[interval as string];
  const start = unit
    ? sql`extract(epoch FROM date_trunc(${unit}, ${utc}) AT TIME ZONE 'UTC')`
    : sql`extract(epoch FROM date_bin(make_interval(secs => ${SECONDS[interval]}), t.executed_at, timestamptz '1970-01-01 00:00:00+00'))`;
  const rows = await sql<(Omit<Candle, "open" | "high" | "low" | "close"> & Record<"open" | "high" | "low" | "close", string>)[]>`
    SELECT ${start}::float8 AS start,
           (array_agg(t.price ORDER BY t.executed_at, t.id))[1]::text AS open, max(t.price)::text AS high, min(t.price)::text AS low,
           (array_agg(t.price ORDER BY t.executed_at DESC, t.id DESC))[1]::text AS close,
           round(sum(t.shares), 6)::text AS volume, round(sum(t.price * t.shares), 9)::text AS notional, count(*)::int AS trades
      FROM trades t
     WHERE t.outcome_id = ${outcomeId} AND t.executed_at >= to_timestamp(${from}) AND t.executed_at < to_timestamp(${to})
     GROUP BY 1 ORDER BY 1`;
  return rows.map((r) => ({ ...r, open: Number(r.open), high: Number(r.high), low: Number(r.low), close: Number(r.close) }));
}

/** The answer for an outcome, parsed strictly, and what the trades say for the intervals it covers. */
async function answerAndTruth(request: APIRequestContext, sql: postgres.Sql, url: string, outcomeId: string) {
  const res = await request.get(url);
  expect(res.status(), url).toBe(200);
  const body = candlesSchema.strict().parse(await res.json());
  return { body, truth: await fromTrades(sql, outcomeId, body.interval, body.start_ts, body.end_ts + 1) };
}

/** Deterministic pseudo-random trades: prices, sizes, ties in executed_at, spread over `days` days before now. */
function spreadTrades(m: TestMarket, count: number, days: number, seed: number): TradeSpec[] {
  let x = seed;
  const next = () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const end = nowS() - 30;
  const trades: TradeSpec[] = [];
  for (let i = 0; i < count; i++) {
    // Every fifth trade shares its instant with the previous one: (executed_at, id) decides.
    const at = i % 5 === 4 && trades.length ? trades[trades.length - 1].at! : new Date((end - next() * days * DAY) * 1000 + Math.floor(next() * 1000));
    trades.push({ at, price: (0.01 + next() * 0.98).toFixed(3), shares: (0.000001 + next() * 250).toFixed(6), outcome: i % 7 === 6 ? m.no : m.yes });
  }
  return trades;
}

test.describe("GET /v1/markets/{id}/candles", () => {
  let m: TestMarket;
  test.beforeAll(async ({ sql }) => {
    m = await makeMarket(sql, { status: "ACTIVE" });
    await addTrades(sql, m, spreadTrades(m, 1500, 12, 7));
  });

  test("every interval equals SQL aggregation of the trades over the intervals it answers, at id and slug", async ({ request, sql }) => {
    const start = nowS() - 13 * DAY;
    for (const interval of CANDLE_INTERVALS) {
      for (const base of [`/v1/markets/${m.id}`, `/v1/markets/slug/${m.slug}`]) {
        const { body, truth } = await answerAndTruth(request, sql, `${base}/candles?outcomeId=${m.yes}&interval=${interval}&startTs=${start}`, m.yes);
        expect(truth.length, interval).toBeGreaterThan(0);
        expect(body.candles, interval).toEqual(truth);
        expect(body.outcome_id).toBe(m.yes);
        expect(body.interval).toBe(interval);
        // Whole intervals, aligned in UTC; at most 1,000 of them.
        expect((body.end_ts + 1 - body.start_ts) % SECONDS[interval], interval).toBe(0);
        expect((body.end_ts + 1 - body.start_ts) / SECONDS[interval], interval).toBeLessThanOrEqual(1000);
        for (const c of body.candles) expect(c.start % (interval === "1w" ? 1 : SECONDS[interval]), interval).toBe(0);
      }
    }
  });

  test("weeks start on Monday 00:00 UTC", async ({ request }) => {
    const body = candlesSchema.parse(await (await request.get(`/v1/markets/${m.id}/candles?outcomeId=${m.yes}&interval=1w&startTs=0`)).json());
    expect(body.candles.length).toBeGreaterThan(1);
    for (const c of body.candles) {
      const d = new Date(c.start * 1000);
      expect([d.getUTCDay(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()]).toEqual([1, 0, 0, 0]);
    }
  });

  test("windows: every interval overlapping [startTs, endTs], whole; endTs alone counts 1,000 intervals back", async ({ request, sql }) => {
    const end = nowS() - 3 * DAY + 1234;
    for (const [interval, qs] of [
      ["1h", `startTs=${end - 2 * DAY + 1800}&endTs=${end}`],
      ["15m", `startTs=${end - DAY}&endTs=${end}`],
      ["4h", `endTs=${end}`],
      ["5m", `startTs=${end - 3 * DAY}&endTs=${end - DAY}`],
    ] as const) {
      const { body, truth } = await answerAndTruth(request, sql, `/v1/markets/${m.id}/candles?outcomeId=${m.yes}&interval=${interval}&${qs}`, m.yes);
      const q = new URLSearchParams(qs);
      const width = SECONDS[interval];
      expect(body.end_ts, qs).toBe(Math.floor(Number(q.get("endTs")) / width) * width + width - 1);
      if (q.has("startTs")) expect(body.start_ts, qs).toBe(Math.floor(Number(q.get("startTs")) / width) * width);
      else expect(body.start_ts, qs).toBe(body.end_ts + 1 - 1000 * width);
      expect(body.candles, qs).toEqual(truth);
    }
  });

  test("the default window is the last 1,000 intervals, the current one included; intervals without trades are absent", async ({ request, sql }) => {
    const own = await makeMarket(sql);
    const hour = Math.floor(nowS() / 3600) * 3600;
    await addTrades(sql, own, [
      { at: new Date((hour - 1000 * 3600 + 60) * 1000), price: "0.100" }, // 1,000 hours back: outside
      { at: new Date((hour - 999 * 3600 + 60) * 1000), price: "0.200" }, // the oldest hour of the window
      { at: new Date((hour - 5 * 3600 + 10) * 1000), price: "0.300" },
      { at: new Date((nowS() - 1) * 1000), price: "0.400" },
    ]);
    const body = candlesSchema.parse(await (await request.get(`/v1/markets/${own.id}/candles?outcomeId=${own.yes}&interval=1h`)).json());
    expect(body.start_ts).toBe(hour - 999 * 3600);
    expect(body.end_ts).toBe(hour + 3599);
    expect(body.next_end_ts).toBeNull();
    expect(body.candles.map((c) => [c.start, c.close])).toEqual([
      [hour - 999 * 3600, 0.2],
      [hour - 5 * 3600, 0.3],
      [hour, 0.4],
    ]);
  });

  test("a window of more than 1,000 intervals keeps the newest 1,000; next_end_ts pages back to the rest, skipping empty stretches", async ({
    request,
    sql,
  }) => {
    const start = nowS() - 13 * DAY;
    const pages: Candles[] = [];
    let url = `/v1/markets/${m.id}/candles?outcomeId=${m.yes}&interval=5m&startTs=${start}`;
    for (let i = 0; i < 10; i++) {
      const body = candlesSchema.parse(await (await request.get(url)).json());
      pages.push(body);
      expect((body.end_ts + 1 - body.start_ts) / 300).toBeLessThanOrEqual(1000);
      if (body.next_end_ts === null) break;
      // The next page ends with the newest older candle.
      expect(body.next_end_ts).toBeLessThan(body.start_ts);
      url = `/v1/markets/${m.id}/candles?outcomeId=${m.yes}&interval=5m&startTs=${start}&endTs=${body.next_end_ts}`;
      const next = candlesSchema.parse(await (await request.get(url)).json());
      expect(next.candles.at(-1)!.start + 299).toBe(body.next_end_ts);
    }
    expect(pages.length).toBeGreaterThan(2);
    expect(pages.at(-1)!.next_end_ts).toBeNull();
    const all = pages
      .reverse()
      .flatMap((p) => p.candles)
      .filter((c, i, xs) => i === 0 || c.start > xs[i - 1].start);
    expect(all).toEqual(await fromTrades(sql, m.yes, "5m", Math.floor(start / 300) * 300, nowS() + 300));
  });

  test("inserts, deletes and updates of trades keep every interval equal to SQL (the rollup stays exact)", async ({ request, sql }) => {
    const own = await makeMarket(sql, { status: "ACTIVE" });
    const ids = await addTrades(sql, own, spreadTrades(own, 400, 3, 11));
    const check = async (what: string) => {
      for (const interval of ["1m", "15m", "1h", "1d", "1w"] as const) {
        const url = `/v1/markets/${own.id}/candles?outcomeId=${own.yes}&interval=${interval}&startTs=${nowS() - 5 * DAY}`;
        // Answers come from memory until the instance hears the commit (milliseconds): ask until they agree.
        await expect
          .poll(
            async () => {
              const { body, truth } = await answerAndTruth(request, sql, url, own.yes);
              return JSON.stringify(body.candles) === JSON.stringify(truth)
                ? "equal"
                : JSON.stringify({ body: body.candles.slice(-3), truth: truth.slice(-3) });
            },
            { message: `${what}, ${interval}`, timeout: 5_000, intervals: [20, 50, 100, 250] },
          )
          .toBe("equal");
      }
    };
    await check("after inserts");
    // More trades in buckets that already hold some, at the same instants (ties), in one statement.
    const [tie] = await sql<{ executed_at: Date }[]>`SELECT executed_at FROM trades WHERE outcome_id = ${own.yes} ORDER BY executed_at DESC LIMIT 1`;
    await addTrades(sql, own, [
      { at: tie.executed_at, price: "0.999", id: "ffffffff-ffff-4fff-bfff-ffffffffffff".replace(/^f{8}/, randomUUID().slice(0, 8)) },
      { at: tie.executed_at, price: "0.001", id: `00000000${randomUUID().slice(8)}` },
      { at: new Date(tie.executed_at.getTime() - 1), price: "0.500" },
    ]);
    await check("after tied inserts");
    await sql`DELETE FROM trades WHERE id = ANY(${ids.filter((_, i) => i % 3 === 0)}::uuid[])`;
    await check("after deletes");
    await sql`UPDATE trades SET price = round((price * 0.5 + 0.25)::numeric, 3) WHERE id = ANY(${ids.filter((_, i) => i % 3 === 1)}::uuid[])`;
    await check("after price updates");
    // Across minutes, hours and days, and to the other outcome and back.
    await sql`UPDATE trades SET executed_at = executed_at - interval '1 day 1 hour 1 minute' WHERE id = ANY(${ids.filter((_, i) => i % 5 === 2)}::uuid[])`;
    await check("after moving trades in time");
    await sql`UPDATE trades SET outcome_id = ${own.no} WHERE id = ANY(${ids.filter((_, i) => i % 4 === 1)}::uuid[])`;
    await check("after moving trades to the other outcome");
    await sql`UPDATE trades SET shares = shares + 1, outcome_id = ${own.yes} WHERE market_id = ${own.id}`;
    await check("after moving them back with more shares");
    await sql`DELETE FROM trades WHERE market_id = ${own.id}`;
    await check("after deleting every trade");
    const [{ n }] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM candles WHERE outcome_id = ANY(${own.outcomes}::uuid[])`;
    expect(n).toBe(0);
  });

  test("resolved and cancelled markets answer the same as a live one", async ({ request, sql }) => {
    // The same trades in each market: same instants, and ids in the same order (ties in executed_at).
    const same = spreadTrades(m, 120, 2, 99);
    const trades = (mk: TestMarket) => same.map((t, i) => ({ ...t, outcome: mk.yes, id: `${i.toString(16).padStart(8, "0")}${randomUUID().slice(8)}` }));
    const answers = [];
    for (const status of ["ACTIVE", "RESOLVED", "CANCELLED"] as const) {
      const mk = await makeMarket(sql, { status });
      await addTrades(sql, mk, trades(mk));
      const body = candlesSchema.parse(
        await (await request.get(`/v1/markets/slug/${mk.slug}/candles?outcomeId=${mk.yes}&interval=1h&startTs=${nowS() - 3 * DAY}`)).json(),
      );
      expect(body.candles.length, status).toBeGreaterThan(0);
      answers.push(body.candles);
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
  });

  for (const [qs, message] of [
    ["", "interval must be one of the following values: 1m, 5m, 15m, 1h, 4h, 1d, 1w"],
    ["interval=2h", "interval must be one of the following values: 1m, 5m, 15m, 1h, 4h, 1d, 1w"],
    ["interval=1h&interval=1d", "interval must be one of the following values: 1m, 5m, 15m, 1h, 4h, 1d, 1w"],
    ["interval=1h&startTs=-1", "startTs must not be less than 0"],
    ["interval=1h&endTs=1.5", "endTs must be an integer number"],
    ["interval=1h&startTs=abc", "startTs must be an integer number"],
    ["interval=1h&startTs=200&endTs=100", "startTs must not be greater than endTs"],
    ["interval=1h&foo=1", "property foo should not exist"],
    ["interval=1h&fidelity=5", "property fidelity should not exist"],
  ] as const) {
    test(`rejects ${qs || "no interval"} with a 400 naming the problem`, async ({ request }) => {
      const res = await request.get(`/v1/markets/${m.id}/candles?outcomeId=${m.yes}${qs ? `&${qs}` : ""}`);
      expect(res.status()).toBe(400);
      expect(res.headers()["cache-control"]).toBe("no-store");
      expect(await res.json()).toEqual({ statusCode: 400, message: [message], error: "Bad Request" });
    });
  }

  test("outcomeId: missing or repeated 400, of another market 400, unknown or malformed 404; unknown market 404", async ({ request, sql }) => {
    const other = await makeMarket(sql);
    const cases: [string, number, unknown][] = [
      [`/v1/markets/${m.id}/candles?interval=1h`, 400, ["outcomeId is required"]],
      [`/v1/markets/${m.id}/candles?interval=1h&outcomeId=${m.yes}&outcomeId=${m.no}`, 400, ["outcomeId is required"]],
      [`/v1/markets/${m.id}/candles?interval=1h&outcomeId=${other.yes}`, 400, ["Outcome does not belong to this market"]],
      [`/v1/markets/${m.id}/candles?interval=1h&outcomeId=${randomUUID()}`, 404, "Outcome not found"],
      [`/v1/markets/${m.id}/candles?interval=1h&outcomeId=nope`, 404, "Outcome not found"],
      [`/v1/markets/slug/${m.slug}/candles?interval=1h&outcomeId=nope`, 404, "Outcome not found"],
      [
        `/v1/markets/${m.id.replace(/^.{8}/, "00000000")}/candles?interval=1h&outcomeId=${m.yes}`,
        404,
        `Market not found: ${m.id.replace(/^.{8}/, "00000000")}`,
      ],
      [`/v1/markets/not-a-uuid/candles?interval=1h&outcomeId=${m.yes}`, 404, "Market not found: not-a-uuid"],
      [`/v1/markets/slug/no-such-market-anywhere/candles?interval=1h&outcomeId=${m.yes}`, 404, "Market not found: no-such-market-anywhere"],
    ];
    for (const [url, status, message] of cases) {
      const res = await request.get(url);
      expect(res.status(), url).toBe(status);
      expect(await res.json(), url).toEqual({ statusCode: status, message, error: status === 400 ? "Bad Request" : "Not Found" });
    }
  });

  test("accepts huge timestamps and endTs 0 without failing", async ({ request }) => {
    for (const qs of ["startTs=0&endTs=99999999999999", "endTs=0", "startTs=99999999999999", "startTs=0&endTs=0"]) {
      const res = await request.get(`/v1/markets/${m.id}/candles?outcomeId=${m.yes}&interval=1w&${qs}`);
      expect(res.status(), qs).toBe(200);
      candlesSchema.parse(await res.json());
    }
  });

  test("ETag and 304, the history's Cache-Control, and the camelCase variant of the same numbers", async ({ request }) => {
    const url = `/v1/markets/${m.id}/candles?outcomeId=${m.yes}&interval=1d&startTs=${nowS() - 20 * DAY}`;
    const first = await request.get(url);
    const etag = first.headers().etag;
    expect(etag).toMatch(/^W\/"/);
    expect(first.headers()["cache-control"]).toBe("public, max-age=5, stale-while-revalidate=10, stale-if-error=300");
    expect((await request.get(url, { headers: { "If-None-Match": etag } })).status()).toBe(304);
    const primary = candlesSchema.parse(await first.json());
    const res = await request.get(url, { headers: { Accept: CAMEL } });
    expect(res.headers()["content-type"]).toContain(CAMEL);
    expect(res.headers().etag).not.toBe(etag);
    const camel = camelCandlesSchema.strict().parse(await res.json());
    expect(camel).toEqual({
      outcomeId: primary.outcome_id,
      interval: primary.interval,
      startTs: primary.start_ts,
      endTs: primary.end_ts,
      nextEndTs: primary.next_end_ts,
      candles: primary.candles.map((c) => ({ ...c, open: c.open.toFixed(3), high: c.high.toFixed(3), low: c.low.toFixed(3), close: c.close.toFixed(3) })),
    });
  });
});

test.describe("GET /v1/candles (batch)", () => {
  let a: TestMarket;
  let b: TestMarket;
  test.beforeAll(async ({ sql }) => {
    a = await makeMarket(sql, { status: "ACTIVE", outcomes: 3 });
    b = await makeMarket(sql, { status: "RESOLVED" });
    await addTrades(sql, a, spreadTrades(a, 300, 4, 3));
    await addTrades(
      sql,
      a,
      spreadTrades(a, 100, 4, 4).map((t) => ({ ...t, outcome: a.outcomes[2] })),
    );
    await addTrades(sql, b, spreadTrades(b, 200, 4, 5));
  });

  test("each item holds the single endpoint's answer for its outcome; an unknown id is its item's 404; repeats answered once", async ({ request }) => {
    const unknown = randomUUID();
    const ids = [a.yes, b.no, unknown, a.outcomes[2], b.yes, a.yes.toUpperCase(), a.no];
    for (const interval of ["1m", "1h", "1w"] as const) {
      const window = `interval=${interval}&startTs=${nowS() - 5 * DAY}`;
      const res = await request.get(`/v1/candles?outcomeIds=${ids.join(",")}&${window}`);
      expect(res.status()).toBe(200);
      const { items } = candlesBatchSchema.strict().parse(await res.json());
      expect(items.map((i) => i.outcome_id)).toEqual([a.yes, b.no, unknown, a.outcomes[2], b.yes, a.no]);
      for (const item of items) {
        if (item.outcome_id === unknown) {
          expect(item).toEqual({ outcome_id: unknown, candles: null, error: { statusCode: 404, message: "Outcome not found" } });
          continue;
        }
        const market = a.outcomes.includes(item.outcome_id) ? a : b;
        const single = await (await request.get(`/v1/markets/${market.id}/candles?outcomeId=${item.outcome_id}&${window}`)).json();
        expect(item, `${interval} ${item.outcome_id}`).toEqual({ outcome_id: item.outcome_id, candles: single, error: null });
      }
    }
  });

  test("50 ids are answered; 51, none, a malformed id or an unknown parameter is a 400", async ({ request }) => {
    const fifty = [a.yes, ...Array.from({ length: 49 }, () => randomUUID())];
    const ok = await request.get(`/v1/candles?interval=1h&outcomeIds=${fifty.join(",")}`);
    expect(ok.status()).toBe(200);
    const { items } = candlesBatchSchema.parse(await ok.json());
    expect(items).toHaveLength(50);
    expect(items.filter((i) => i.candles !== null)).toHaveLength(1);
    for (const [qs, message] of [
      [`interval=1h&outcomeIds=${[...fifty, randomUUID()].join(",")}`, "outcomeIds must not hold more than 50 distinct ids"],
      ["interval=1h", "outcomeIds is required"],
      [`interval=1h&outcomeIds=${a.yes},nope`, "outcomeIds[1] must be a UUID"],
      [`interval=1h&outcomeIds=${a.yes}&outcomeIds=${a.no}`, "outcomeIds must be given once, as comma-separated ids"],
      [`interval=1h&outcomeIds=${a.yes}&outcomeId=${a.no}`, "property outcomeId should not exist"],
      [`interval=3h&outcomeIds=${a.yes}`, "interval must be one of the following values: 1m, 5m, 15m, 1h, 4h, 1d, 1w"],
      [`interval=1h&outcomeIds=${a.yes}&startTs=9&endTs=8`, "startTs must not be greater than endTs"],
    ] as const) {
      const res = await request.get(`/v1/candles?${qs}`);
      expect(res.status(), qs).toBe(400);
      expect(await res.json(), qs).toEqual({ statusCode: 400, message: [message], error: "Bad Request" });
    }
  });

  test("both shapes, ETag and 304; a trade makes the next answer new", async ({ request, sql }) => {
    const unknown = randomUUID();
    const url = `/v1/candles?interval=1d&startTs=${nowS() - 10 * DAY}&outcomeIds=${a.yes},${b.yes},${unknown}`;
    const first = await request.get(url);
    const etag = first.headers().etag;
    expect((await request.get(url, { headers: { "If-None-Match": etag } })).status()).toBe(304);
    const primary = candlesBatchSchema.parse(await first.json());
    const camel = await (await request.get(url, { headers: { Accept: CAMEL } })).json();
    expect(camel.items.map((i: { outcomeId: string }) => i.outcomeId)).toEqual(primary.items.map((i) => i.outcome_id));
    expect(camel.items[2]).toEqual({ outcomeId: unknown, candles: null, error: { statusCode: 404, message: "Outcome not found" } });
    expect(
      camelCandlesSchema
        .strict()
        .parse(camel.items[0].candles)
        .candles.map((c) => c.close),
    ).toEqual(primary.items[0].candles!.candles.map((c) => c.close.toFixed(3)));
    await addTrades(sql, b, [{ price: "0.777" }]);
    await expect.poll(async () => (await request.get(url, { headers: { "If-None-Match": etag } })).status(), { timeout: 5_000 }).toBe(200);
    const after = candlesBatchSchema.parse(await (await request.get(url)).json());
    expect(after.items[1].candles!.candles.at(-1)!.close).toBe(0.777);
  });
});
