// The list orders within their byte budget (LIST_INDEX_MAX_MB; docs/performance.md "List orders in memory"):
// an instance whose budget keeps ACTIVE only answers the other statuses' lists from SQL, exactly as the
// ORDER BY does, says so in GET /api/stats, and a market that changes status leaves or enters its ACTIVE
// lists once the instance has signalled the change.
import type postgres from "postgres";
import { expect, test, testRun } from "../fixtures";
import { collect, connectClient, join, waitFor } from "../realtime-helpers";
import { startInstance, type Instance } from "../support/instance";
import { makeMarket } from "../support/markets";

test.describe.configure({ mode: "serial", timeout: 240_000 });

let small: Instance;

test.beforeAll(async () => {
  test.setTimeout(200_000);
  small = await startInstance({ DATABASE_URL: testRun().databaseUrl, LOG_REQUESTS: "0", RATE_LIMIT: "off", LIST_INDEX_MAX_MB: "0" });
});
test.afterAll(async ({ sql }) => {
  await small?.stop();
  await sql`UPDATE markets SET status = 'LOCKED' WHERE slug LIKE 'list-budget-%'`; // out of every list again
});

interface IndexStats {
  kept: string[];
  built: boolean;
  budgetMb: number;
  markets: number;
  statuses: Record<string, number>;
  slices: number;
}

const indexStats = async (base: string) => ((await (await fetch(`${base}/api/stats`)).json()) as { listIndex: IndexStats }).listIndex;

async function ids(url: string) {
  const res = await fetch(url);
  expect(res.status, url).toBe(200);
  const body = (await res.json()) as { markets: { id: string }[]; total: number };
  return { ids: body.markets.map((m) => m.id), total: body.total };
}

const column = { VOLUME: "total_volume", LIQUIDITY: "total_liquidity", CREATED: "created_at", ENDING: "trading_ends_at" } as const;

/** What PostgreSQL answers for the list (other specs write meanwhile: compared by the caller within one quiet moment). */
async function byOrder(sql: postgres.Sql, status: string, sortBy: keyof typeof column, sortOrder: "ASC" | "DESC", limit: number, offset: number, q?: string) {
  const pattern = q ? `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const where = sql`status = ${status} ${pattern ? sql`AND (question ILIKE ${pattern} OR description ILIKE ${pattern})` : sql``}`;
  const dir = sql.unsafe(sortOrder);
  const rows = await sql<
    { id: string }[]
  >`SELECT id FROM markets WHERE ${where} ORDER BY ${sql(column[sortBy])} ${dir}, id ${dir} LIMIT ${limit} OFFSET ${offset}`;
  const [{ n }] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM markets WHERE ${where}`;
  return { ids: rows.map((r) => r.id), total: n };
}

test("list orders budget – an instance whose budget fits ACTIVE only keeps ACTIVE and says so; the default budget keeps every listed status", async () => {
  await expect.poll(async () => (await indexStats(small.baseURL)).built, { timeout: 30_000 }).toBe(true);
  const got = await indexStats(small.baseURL);
  expect(got).toMatchObject({ kept: ["ACTIVE"], budgetMb: 0 });
  expect(got.statuses.RESOLVED).toBeGreaterThan(0);
  expect(got.statuses.CANCELLED).toBeGreaterThan(0);
  // ACTIVE markets only: those counted when it was built, give or take what other specs changed since.
  expect(got.markets).toBeLessThan(got.statuses.ACTIVE + got.statuses.CANCELLED);
  await expect.poll(async () => (await indexStats(testRun().baseURL)).built).toBe(true);
  const main = await indexStats(testRun().baseURL);
  expect([...main.kept].sort()).toEqual(["ACTIVE", "CANCELLED", "RESOLVED"]);
  expect(main.budgetMb).toBe(200);
});

test("list orders budget – lists of a status not kept come from SQL, as the ORDER BY answers them; ACTIVE lists from memory", async ({ sql }) => {
  const sliced = async () => (await indexStats(small.baseURL)).slices;
  for (const status of ["RESOLVED", "CANCELLED", "ACTIVE"])
    for (const [sortBy, sortOrder, offset, q] of [
      ["VOLUME", "DESC", 0, undefined],
      ["CREATED", "ASC", 3, undefined],
      ["ENDING", "DESC", 1, "will"],
    ] as const) {
      const url = `${small.baseURL}/v1/markets?status=${status}&sortBy=${sortBy}&sortOrder=${sortOrder}&limit=7&offset=${offset}${q ? `&q=${q}` : ""}`;
      const before = await sliced();
      await expect
        .poll(async () => JSON.stringify(await ids(url)) === JSON.stringify(await byOrder(sql, status, sortBy, sortOrder, 7, offset, q)), {
          message: url,
          timeout: 10_000,
        })
        .toBe(true);
      if (status === "ACTIVE") expect(await sliced(), url).toBeGreaterThan(before);
      else expect(await sliced(), url).toBe(before); // never asked of the orders
    }
});

test("list orders budget – a market moved ACTIVE→RESOLVED leaves the ACTIVE lists kept in memory and shows in RESOLVED's; back to ACTIVE it arrives", async ({
  sql,
}) => {
  const tag = `budget${Date.now().toString(36)}`;
  const m = await makeMarket(sql, { prefix: "list-budget", status: "ACTIVE", category: "SCIENCE", question: `${tag} moves?` });
  const list = (status: string, extra = "") => `${small.baseURL}/v1/markets?status=${status}&q=${tag}&sortBy=VOLUME&sortOrder=DESC&limit=5${extra}`;
  const socket = await connectClient(small.baseURL);
  try {
    expect(await join(socket, `market:${m.slug}:price`)).toEqual({ ok: true });
    const got = collect(socket);
    const heard = async (change: () => Promise<unknown>, what: string) => {
      const before = got.length;
      await change();
      await waitFor(() => got.length > before, 15_000, `the signal of ${what}`);
    };
    await expect.poll(async () => (await ids(list("ACTIVE"))).ids).toEqual([m.id]);
    for (const [status, other] of [
      ["RESOLVED", "ACTIVE"],
      ["CANCELLED", "ACTIVE"],
      ["ACTIVE", "RESOLVED"],
    ] as const) {
      // What each status requires of the row (migration 0001's checks).
      const winner = status === "RESOLVED" ? m.yes : null;
      const resolvedAt = status === "RESOLVED" ? new Date() : null;
      const settledAt = status === "ACTIVE" ? null : new Date();
      await heard(
        () =>
          sql`UPDATE markets SET status = ${status}, winning_outcome_id = ${winner}, resolved_at = ${resolvedAt}, settled_at = ${settledAt} WHERE id = ${m.id}`,
        `the move to ${status}`,
      );
      for (const extra of ["", "&category=SCIENCE"]) {
        expect(await ids(list(status, extra)), `${status}${extra}`).toEqual({ ids: [m.id], total: 1 });
        expect(await ids(list(other, extra)), `${other}${extra}`).toEqual({ ids: [], total: 0 });
      }
    }
  } finally {
    socket.close();
  }
});
