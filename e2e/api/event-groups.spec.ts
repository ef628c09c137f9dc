// The groups every change announces (migration 0017), read off the real NOTIFY stream of the test
// database: the related-markets lists are dropped by them (lib/markets/reads/tags.ts, relatedTags), so a
// change that leaves a group out would leave a list stale. A trade names its market's group, a change
// that moves a market names both groups, new and deleted markets name theirs, and a group too long
// to send is sent as unknown without failing the write.
import postgres from "postgres";
import { expect, test, testRun } from "../fixtures";
import { waitFor } from "../realtime-helpers";
import { addTrades, addTradesWithVolume, makeMarket } from "../support/markets";

test.describe.configure({ timeout: 60_000 });

interface Payload {
  k: string;
  s?: string;
  m?: string;
  o?: string | null;
  r?: unknown;
}

/** The payloads of market_events that `keep` accepts, heard from now until `stop`. */
async function listening(keep: (p: Payload) => boolean) {
  const listener = postgres(testRun().databaseUrl, { max: 1, onnotice: () => {} });
  const got: Payload[] = [];
  await listener.listen("market_events", (text) => {
    const p = JSON.parse(text) as Payload;
    if (keep(p)) got.push(p);
  });
  return { got, stop: () => listener.end() };
}

/** The payloads naming `marketId` while `run` runs, once `until` says the announcements looked for arrived. */
async function heard(marketId: string, run: () => Promise<unknown>, until: (p: Payload[]) => boolean): Promise<Payload[]> {
  const { got, stop } = await listening((p) => p.m === marketId);
  try {
    await run();
    await waitFor(() => until(got), 15_000, `announcements of ${marketId}`);
    return got;
  } finally {
    await stop();
  }
}

test("event groups – a trade names its market's group: category, sub-category and tags", async ({ sql }) => {
  const sub = `eg-${Date.now().toString(36)}`;
  const m = await makeMarket(sql, { prefix: "eg-trade", status: "ACTIVE", category: "SPORTS", subCategory: sub, columns: { tags: ["finals", "nba"] } });
  const got = await heard(
    m.id,
    () => addTradesWithVolume(sql, m, [{ price: "0.400" }]),
    (p) => p.some((x) => x.k === "trade") && p.some((x) => x.k === "price" && x.o === null),
  );
  const trade = got.find((p) => p.k === "trade");
  expect(trade).toMatchObject({ s: m.slug, m: m.id, o: m.yes, r: [["SPORTS", sub, ["finals", "nba"], "ACTIVE"]] });
  // The total volume it moved (as a venue writes it) is announced as the market's own change (heard above), with the same group.
  for (const p of got) expect(p.r, p.k).toEqual([["SPORTS", sub, ["finals", "nba"], "ACTIVE"]]);
});

test("event groups – a market moved to another sub-category, other tags or another status names the place it left and the one it took", async ({ sql }) => {
  const sub = `eg-${Date.now().toString(36)}`;
  const m = await makeMarket(sql, { prefix: "eg-move", status: "ACTIVE", category: "POLITICS", subCategory: sub, columns: { tags: ["a"] } });
  const moved = await heard(
    m.id,
    () => sql`UPDATE markets SET sub_category = ${`${sub}-2`}, tags = '{b}' WHERE id = ${m.id}`,
    (p) => p.some((x) => x.k === "price"),
  );
  expect(moved.find((p) => p.k === "price")?.r).toEqual([
    ["POLITICS", `${sub}-2`, ["b"], "ACTIVE"],
    ["POLITICS", sub, ["a"], "ACTIVE"],
  ]);
  const renamed = await heard(
    m.id,
    () => sql`UPDATE markets SET question = 'Renamed?' WHERE id = ${m.id}`,
    (p) => p.some((x) => x.k === "price"),
  );
  expect(renamed.find((p) => p.k === "price")?.r, "a change that did not move it names one group").toEqual([["POLITICS", `${sub}-2`, ["b"], "ACTIVE"]]);
  const locked = await heard(
    m.id,
    () => sql`UPDATE markets SET status = 'LOCKED' WHERE id = ${m.id}`,
    (p) => p.some((x) => x.k === "price"),
  );
  expect(locked.find((p) => p.k === "price")?.r, "out of the lists: its place before and after").toEqual([
    ["POLITICS", `${sub}-2`, ["b"], "LOCKED"],
    ["POLITICS", `${sub}-2`, ["b"], "ACTIVE"],
  ]);
});

test("event groups – new and deleted markets name their groups", async ({ sql }) => {
  const sub = `eg-${Date.now().toString(36)}`;
  const slug = `eg-new-${Date.now().toString(36)}`;
  const { got, stop } = await listening((p) => p.s === slug);
  try {
    const { id } = await makeMarket(sql, { slug, category: "SCIENCE", subCategory: sub, columns: { tags: ["x"] } });
    await waitFor(() => got.some((p) => p.k === "list"), 15_000, "the new market's announcement");
    expect(got.find((p) => p.k === "list")?.r).toEqual([["SCIENCE", sub, ["x"], "LOCKED"]]);
    await sql.begin(async (tx) => {
      await tx`DELETE FROM outcomes WHERE market_id = ${id}`;
      await tx`DELETE FROM markets WHERE id = ${id}`;
    });
    await waitFor(() => got.filter((p) => p.k === "market").length >= 2, 15_000, "the deletion's announcements");
    for (const p of got.filter((x) => x.k === "market")) expect(p.r).toEqual([["SCIENCE", sub, ["x"], "LOCKED"]]);
  } finally {
    await stop();
  }
});

test("event groups – a group too long to announce is sent as unknown, and the write still commits", async ({ sql }) => {
  const tags = Array.from({ length: 40 }, (_, i) => `${"t".repeat(60)}-${i}`); // 2.6 kB of tags
  const m = await makeMarket(sql, { prefix: "eg-long", status: "ACTIVE", subCategory: `eg-${Date.now().toString(36)}`, columns: { tags } });
  const got = await heard(
    m.id,
    () => addTrades(sql, m, [{ price: "0.300" }]),
    (p) => p.some((x) => x.k === "trade"),
  );
  expect(got.find((p) => p.k === "trade")?.r).toEqual([null]);
  const [{ n }] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM trades WHERE market_id = ${m.id}`;
  expect(n).toBe(1);
});

test("event groups – the triggers compute a market's groups inline, not as a function call per market (migration 0028)", async ({ sql }) => {
  // A SQL function is inlined only when its declared volatility is not below its body's: IMMUTABLE around
  // json_build_array (STABLE) ran as a call of its own for every market a statement announced.
  const plan = async (q: string) => (await sql.unsafe<{ "QUERY PLAN": string }[]>(`EXPLAIN (VERBOSE) ${q}`)).map((r) => r["QUERY PLAN"]).join("\n");
  for (const q of ["SELECT market_group(m) FROM markets m LIMIT 1", "SELECT market_groups(m, m) FROM markets m LIMIT 1"]) {
    const p = await plan(q);
    expect(p).toContain("json_build_array");
    expect(p).not.toMatch(/market_groups?\(/);
  }
});
