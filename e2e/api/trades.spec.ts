// GET /v1/markets/{id}/trades and /slug/{slug}/trades (docs/api.md "Trades"): the tape newest first,
// walked by keyset cursor without repeats or gaps while trades arrive, fields as SQL has them, the usual
// 400s and 404s, ETag/304 and both shapes.
import { randomUUID } from "node:crypto";
import type postgres from "postgres";
import { CAMEL_MEDIA_TYPE, errorBodySchema, tradeTapeSchema } from "@/lib/markets/schemas";
import { encodeTradeCursor } from "@/lib/markets/trade-cursor";
import { expect, test } from "../fixtures";
import { addTrades, makeMarket, type TestMarket } from "../support/markets";

type Tape = { trades: { id: string; executed_at: string }[]; next_cursor: string | null; newest_cursor: string | null };

/** Trades with times that only the microseconds tell apart, and a burst of exact ties: what a keyset must get right. */
async function seedTape(sql: postgres.Sql, m: TestMarket, n: number) {
  const base = Date.now() - 3_600_000;
  await addTrades(
    sql,
    m,
    Array.from({ length: n }, (_, i) => ({
      outcome: i % 3 === 0 ? m.no : m.yes,
      at: new Date(base + Math.floor(i / 4) * 1000), // four trades a second: ties on executed_at, broken by id
      price: (0.1 + (i % 80) / 100).toFixed(3),
      shares: `${1 + (i % 7)}.${String(i % 1000).padStart(3, "0")}`,
      maker: i % 5 === 0 ? null : m.users[i % 2],
      taker: i % 7 === 0 ? null : m.users[(i + 1) % 2],
    })),
  );
  // Three trades within one millisecond, a microsecond apart: a cursor rounded to the ms would skip or repeat them.
  await sql`INSERT INTO trades (id, market_id, outcome_id, price, shares, maker_user_id, taker_user_id, executed_at)
    SELECT gen_random_uuid(), ${m.id}, ${m.yes}, 0.5, 1, NULL, NULL, timestamptz '2026-01-01 00:00:00.123456+00' + k * interval '1 microsecond'
      FROM generate_series(0, 2) k`;
}

/** Every trade of the market (or outcome), newest first, as SQL orders the tape. */
async function sqlTape(sql: postgres.Sql, m: TestMarket, outcomeId?: string) {
  const rows = await sql<{ id: string }[]>`
    SELECT id FROM trades WHERE market_id = ${m.id} ${outcomeId ? sql`AND outcome_id = ${outcomeId}` : sql``}
     ORDER BY executed_at DESC, id DESC`;
  return rows.map((r) => r.id);
}

async function page(request: import("@playwright/test").APIRequestContext, url: string): Promise<Tape> {
  const res = await request.get(url);
  expect(res.status(), url).toBe(200);
  return tradeTapeSchema.strict().parse(await res.json()) as Tape;
}

test.describe("GET /v1/markets/{id}/trades – the walk", () => {
  for (const scope of ["market", "outcome"] as const) {
    test(`walks the whole tape (${scope}) by cursor, each trade once, while trades arrive; after catches up on them`, async ({ request, sql }) => {
      test.setTimeout(120_000);
      const m = await makeMarket(sql);
      await seedTape(sql, m, 90);
      const outcome = scope === "outcome" ? m.yes : undefined;
      const base = `/v1/markets/${m.id}/trades?limit=7${outcome ? `&outcomeId=${outcome}` : ""}`;
      const first = await page(request, base);
      const before = await sqlTape(sql, m, outcome);
      // Writers keep trading (newest, and some on the other outcome) while the walk goes back.
      let writing = true;
      const writer = (async () => {
        for (let i = 0; writing && i < 200; i++) {
          await addTrades(sql, m, [{ outcome: i % 2 ? m.yes : m.no, at: new Date(), price: "0.420" }]);
          await new Promise((r) => setTimeout(r, 15));
        }
      })();
      const walked = first.trades.map((t) => t.id);
      let cursor = first.next_cursor;
      let pages = 1;
      while (cursor) {
        const p = await page(request, `${base}&before=${cursor}`);
        expect(p.trades.length).toBeGreaterThan(0);
        walked.push(...p.trades.map((t) => t.id));
        cursor = p.next_cursor;
        pages++;
      }
      // Forward from the first page's newest trade: what arrived during the walk, oldest pages first.
      const newer: string[] = [];
      let after = first.newest_cursor;
      writing = false;
      await writer;
      await expect
        .poll(
          async () => {
            newer.length = 0;
            after = first.newest_cursor;
            while (after) {
              const p = await page(request, `${base}&after=${after}`);
              newer.unshift(...p.trades.map((t) => t.id));
              if (!p.next_cursor) break;
              after = p.next_cursor;
            }
            return newer.length;
          },
          { timeout: 10_000 },
        )
        .toBe((await sqlTape(sql, m, outcome)).length - before.length);
      expect(pages).toBe(Math.ceil(before.length / 7));
      expect(walked, "the walk back is the tape as SQL saw it at the first page, in order").toEqual(before);
      expect(new Set([...newer, ...walked]).size, "no trade twice").toBe(newer.length + walked.length);
      expect([...newer, ...walked], "with what came after: every trade of the tape, in order").toEqual(await sqlTape(sql, m, outcome));
    });
  }

  test("the last page has next_cursor null; an empty tape is one empty page; a page holds newest_cursor of its first trade", async ({ request, sql }) => {
    const m = await makeMarket(sql);
    expect(await page(request, `/v1/markets/${m.id}/trades`)).toEqual({ trades: [], next_cursor: null, newest_cursor: null });
    await addTrades(sql, m, [{ at: new Date(Date.now() - 2000) }, { at: new Date(Date.now() - 1000) }]);
    await expect.poll(async () => (await page(request, `/v1/markets/${m.id}/trades`)).trades.length).toBe(2);
    const [{ us, id }] = await sql<{ us: string; id: string }[]>`
      SELECT (extract(epoch FROM executed_at) * 1000000)::int8::text AS us, id FROM trades WHERE market_id = ${m.id} ORDER BY executed_at DESC, id DESC LIMIT 1`;
    const whole = await page(request, `/v1/markets/${m.id}/trades?limit=2`);
    expect(whole.next_cursor).toBeNull();
    expect(whole.newest_cursor).toBe(encodeTradeCursor({ us: BigInt(us), id }));
    const one = await page(request, `/v1/markets/slug/${m.slug}/trades?limit=1`);
    expect(one.trades.map((t) => t.id)).toEqual([id]);
    expect(one.next_cursor).not.toBeNull();
    const rest = await page(request, `/v1/markets/slug/${m.slug}/trades?limit=1&before=${one.next_cursor}`);
    expect(rest.next_cursor).toBeNull();
    expect(await page(request, `/v1/markets/${m.id}/trades?after=${whole.newest_cursor}`)).toEqual({ trades: [], next_cursor: null, newest_cursor: null });
  });
});

test.describe("GET /v1/markets/{id}/trades – fields", () => {
  test("every field as SQL has it: price with three decimals, shares and notional exact, parties or null", async ({ request, sql }) => {
    const m = await makeMarket(sql, {
      users: [
        { username: `tape-maker-${randomUUID().slice(0, 8)}`, profile_image_url: null },
        { username: `tape-taker-${randomUUID().slice(0, 8)}`, profile_image_url: null },
      ],
    });
    await addTrades(sql, m, [
      { price: "0.550", shares: "10", at: new Date(Date.now() - 5000) },
      { price: "0.57", shares: "20.5", at: new Date(Date.now() - 4000), outcome: m.no },
      { price: "0.001", shares: "0.000001", at: new Date(Date.now() - 3000), maker: null },
      { price: "1", shares: "123456.789012", at: new Date(Date.now() - 2000), taker: null },
      { price: "0", shares: "3", at: new Date(Date.now() - 1000), maker: null, taker: null },
    ]);
    const rows = await sql<
      {
        id: string;
        outcome_id: string;
        price: string;
        shares: string;
        notional: string;
        executed_at: Date;
        maker_user_id: string | null;
        taker_user_id: string | null;
      }[]
    >`SELECT id, outcome_id, price::text, shares::text, round(price * shares, 6)::text AS notional, executed_at, maker_user_id, taker_user_id
        FROM trades WHERE market_id = ${m.id} ORDER BY executed_at DESC, id DESC`;
    const users = new Map(
      (await sql<{ id: string; username: string }[]>`SELECT id, username FROM users WHERE id = ANY(${m.users}::uuid[])`).map((u) => [u.id, u.username]),
    );
    const trim = (s: string) => {
      const [i, f = ""] = s.split(".");
      return `${i}.${f.replace(/0+$/, "").padEnd(2, "0")}`;
    };
    const party = (id: string | null) => (id ? { id, username: users.get(id) } : null);
    for (const url of [`/v1/markets/${m.id}/trades`, `/v1/markets/slug/${m.slug}/trades`]) {
      const body = await page(request, url);
      expect(body.trades).toEqual(
        rows.map((r) => ({
          id: r.id,
          outcome_id: r.outcome_id,
          price: Number(r.price).toFixed(3),
          shares: trim(r.shares),
          notional: trim(r.notional),
          executed_at: r.executed_at.toISOString(),
          maker: party(r.maker_user_id),
          taker: party(r.taker_user_id),
        })),
      );
    }
    const t = (await page(request, `/v1/markets/${m.id}/trades`)).trades as unknown as Record<string, unknown>[];
    expect(t.map((x) => [x.price, x.shares, x.notional])).toEqual([
      ["0.000", "3.00", "0.00"],
      ["1.000", "123456.789012", "123456.789012"],
      ["0.001", "0.000001", "0.00"],
      ["0.570", "20.50", "11.685"],
      ["0.550", "10.00", "5.50"],
    ]);
    const yes = await page(request, `/v1/markets/${m.id}/trades?outcomeId=${m.yes}`);
    expect(yes.trades.map((x) => x.id)).toEqual(rows.filter((r) => r.outcome_id === m.yes).map((r) => r.id));
  });
});

test.describe("GET /v1/markets/{id}/trades – errors", () => {
  let m: TestMarket;
  let other: TestMarket;
  test.beforeAll(async ({ sql }) => {
    m = await makeMarket(sql);
    other = await makeMarket(sql);
    await addTrades(sql, m, [{}]);
  });

  const expectError = async (request: import("@playwright/test").APIRequestContext, url: string, status: number, message: string | string[]) => {
    const res = await request.get(url);
    expect(res.status(), url).toBe(status);
    expect(res.headers()["cache-control"], url).toBe("no-store");
    expect(errorBodySchema.parse(await res.json()), url).toEqual({ statusCode: status, message, error: status === 400 ? "Bad Request" : "Not Found" });
  };

  test("400 for limit, cursors, before with after, outcomeId repeated or of another market, unknown parameters", async ({ request }) => {
    const url = `/v1/markets/${m.id}/trades`;
    const forged = encodeTradeCursor({ us: 10n ** 17n + 1n, id: randomUUID() });
    const cases: [string, string[]][] = [
      ["limit=0", ["limit must not be less than 1"]],
      ["limit=101", ["limit must not be greater than 100"]],
      ["limit=abc", ["limit must be an integer number"]],
      ["limit=1.5", ["limit must be an integer number"]],
      ["limit=1&limit=2", ["limit must be an integer number"]],
      ["before=nope", ["before is not a valid cursor"]],
      ["before=", ["before is not a valid cursor"]],
      [`before=${"A".repeat(33)}`, ["before is not a valid cursor"]],
      [`before=${"A".repeat(31)}%2B`, ["before is not a valid cursor"]],
      [`before=${forged}`, ["before is not a valid cursor"]],
      [`after=${forged}`, ["after is not a valid cursor"]],
      [`before=${forged}&before=${forged}`, ["before must be a cursor given once"]],
      [
        `before=${encodeTradeCursor({ us: 0n, id: randomUUID() })}&after=${encodeTradeCursor({ us: 0n, id: randomUUID() })}`,
        ["before and after must not be given together"],
      ],
      [`outcomeId=${m.yes}&outcomeId=${m.no}`, ["outcomeId must be given once"]],
      [`outcomeId=${other.yes}`, ["Outcome does not belong to this market"]],
      ["foo=1", ["property foo should not exist"]],
      ["outcomeIds=1&offset=2", ["property outcomeIds should not exist", "property offset should not exist"]],
      ["__proto__=x", ["property __proto__ should not exist"]],
    ];
    for (const [qs, message] of cases) {
      await expectError(request, `${url}?${qs}`, 400, message);
      await expectError(request, `/v1/markets/slug/${m.slug}/trades?${qs}`, 400, message);
    }
  });

  test("404 for an unknown or malformed market and an unknown or malformed outcome", async ({ request }) => {
    const unknown = randomUUID();
    await expectError(request, `/v1/markets/${unknown}/trades`, 404, `Market not found: ${unknown}`);
    await expectError(request, "/v1/markets/not-a-uuid/trades", 404, "Market not found: not-a-uuid");
    await expectError(request, "/v1/markets/slug/no-such-market-anywhere/trades", 404, "Market not found: no-such-market-anywhere");
    await expectError(request, `/v1/markets/${m.id}/trades?outcomeId=${randomUUID()}`, 404, "Outcome not found");
    await expectError(request, `/v1/markets/${m.id}/trades?outcomeId=nope`, 404, "Outcome not found");
    // The market is checked first (docs/api.md "Ids").
    await expectError(request, `/v1/markets/${unknown}/trades?outcomeId=nope`, 404, `Market not found: ${unknown}`);
  });
});

test.describe("GET /v1/markets/{id}/trades – HTTP", () => {
  test("weak ETag and 304, a short Cache-Control, the camelCase variant field by field", async ({ request, sql }) => {
    const m = await makeMarket(sql);
    await addTrades(sql, m, [{ at: new Date(Date.now() - 3000) }, { at: new Date(Date.now() - 2000), maker: null }, { at: new Date(Date.now() - 1000) }]);
    const url = `/v1/markets/${m.id}/trades?limit=2`;
    await expect.poll(async () => (await page(request, url)).trades.length).toBe(2);
    const primary = await request.get(url);
    const etag = primary.headers()["etag"];
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
    expect(primary.headers()["cache-control"]).toBe("public, max-age=1, stale-while-revalidate=2, stale-if-error=300");
    expect((await request.get(url, { headers: { "If-None-Match": etag } })).status()).toBe(304);
    const camel = await request.get(url, { headers: { Accept: CAMEL_MEDIA_TYPE } });
    expect(camel.headers()["content-type"]).toContain(CAMEL_MEDIA_TYPE);
    expect(camel.headers()["etag"]).not.toBe(etag);
    const p = await primary.json();
    expect(await camel.json()).toEqual({
      trades: p.trades.map((t: Record<string, unknown>) => ({
        id: t.id,
        outcomeId: t.outcome_id,
        price: t.price,
        shares: t.shares,
        notional: t.notional,
        executedAt: t.executed_at,
        maker: t.maker,
        taker: t.taker,
      })),
      nextCursor: p.next_cursor,
      newestCursor: p.newest_cursor,
    });
    // A new trade reaches the tape: the ETag changes once the instance has heard of it.
    await addTrades(sql, m, [{ at: new Date() }]);
    await expect.poll(async () => (await request.get(url, { headers: { "If-None-Match": etag } })).status(), { timeout: 5_000 }).toBe(200);
  });
});
