// The trade tape's push channel (docs/api.md "Push channels"): a `trades` signal carries the market's new
// trades, so a watcher that follows the documented rule holds every trade exactly once, in order, without
// refetching while signals arrive one after another.
import type { Socket } from "socket.io-client";
import type { Signal } from "@/lib/realtime/channels";
import { expect, test, testRun } from "../fixtures";
import { addTrades, makeMarket } from "../support/markets";
import { sleep } from "@/lib/dev/tools";
import { connectClient, join, waitFor } from "../realtime-helpers";

interface Trade {
  id: string;
  outcome_id: string;
}
interface Tape {
  trades: Trade[];
  next_cursor: string | null;
  newest_cursor: string | null;
}

const sockets: Socket[] = [];
test.afterEach(() => {
  for (const s of sockets.splice(0)) s.disconnect();
});

/** A client of the tape: REST head, then signals, refetching only where the rule says it must. */
function tapeWatcher(slug: string) {
  const base = `${testRun().baseURL}/v1/markets/slug/${slug}/trades`;
  const held: Trade[] = []; // newest first
  let newest: string | null = null;
  let refetches = 0;
  const fetchAfter = async (after: string | null) => {
    // Catch up from our newest trade: pages of the oldest newer trades, each listed newest first.
    for (;;) {
      refetches++;
      const tape = (await (await fetch(after ? `${base}?limit=100&after=${after}` : `${base}?limit=100`)).json()) as Tape;
      add(tape.trades, tape.newest_cursor);
      if (!after || !tape.next_cursor) return;
      after = tape.next_cursor;
    }
  };
  const add = (trades: Trade[], cursor: string | null) => {
    const known = new Set(held.map((t) => t.id));
    held.unshift(...trades.filter((t) => !known.has(t.id)));
    if (cursor) newest = cursor;
  };
  let queue = Promise.resolve();
  const onSignal = (s: Signal) => {
    queue = queue.then(async () => {
      if (s.trades && (s.after === newest || (s.after === null && newest === null))) {
        add(s.trades as Trade[], s.cursor ?? null);
        if (s.more) await fetchAfter(newest);
      } else {
        await fetchAfter(newest); // nothing carried, or carried after a position we do not hold
      }
    });
  };
  return { held, onSignal, start: () => fetchAfter(null), refetches: () => refetches, idle: () => queue };
}

test("trades channel – signals carry the new trades; a watcher holds every trade once, in order, without refetching", async ({ sql }) => {
  const m = await makeMarket(sql, { prefix: "tape-push", status: "ACTIVE" });
  const s = await connectClient(testRun().baseURL);
  sockets.push(s);
  const w = tapeWatcher(m.slug);
  const signals: Signal[] = [];
  s.on("trades", (sig: Signal) => {
    signals.push(sig);
    w.onSignal(sig);
  });
  expect(await join(s, `market:${m.slug}:trades`)).toEqual({ ok: true });
  await w.start();
  const startRefetches = w.refetches();

  const inserted: string[] = [];
  for (let i = 0; i < 6; i++) {
    // One statement of 1–3 trades, then a pause longer than the coalescing window (150 ms).
    const ids = await addTrades(
      sql,
      m,
      Array.from({ length: 1 + (i % 3) }, (_, k) => ({ outcome: k % 2 ? m.no : m.yes, price: "0.500", at: new Date(Date.now() + i * 10 + k) })),
    );
    inserted.push(...ids);
    await waitFor(() => signals.length > i, 10_000, `the trades signal of statement ${i + 1}`);
    await sleep(200);
  }
  await w.idle();
  expect(signals.every((sig) => Array.isArray(sig.trades) && sig.trades.length > 0)).toBe(true);
  expect(w.refetches() - startRefetches, "refetches after the REST head").toBe(0);
  const [{ ids }] = await sql<{ ids: string[] }[]>`
    SELECT array_agg(id::text ORDER BY executed_at DESC, id DESC) AS ids FROM trades WHERE market_id = ${m.id}`;
  expect(w.held.map((t) => t.id)).toEqual(ids);
  expect(new Set(ids)).toEqual(new Set(inserted));
});

test("trades channel – a burst inside the coalescing window arrives as one signal with every trade, and the price channel still hears trades", async ({
  sql,
}) => {
  const m = await makeMarket(sql, { prefix: "tape-burst", status: "ACTIVE" });
  const s = await connectClient(testRun().baseURL);
  sockets.push(s);
  const tapeSignals: Signal[] = [];
  const priceSignals: Signal[] = [];
  s.on("trades", (sig: Signal) => tapeSignals.push(sig));
  s.on("price", (sig: Signal) => priceSignals.push(sig));
  expect(await join(s, `market:${m.slug}:trades`)).toEqual({ ok: true });
  expect(await join(s, `market:${m.slug}:price`)).toEqual({ ok: true });
  const first = await addTrades(sql, m, [{ price: "0.400" }]);
  await waitFor(() => tapeSignals.length === 1, 10_000, "the first trades signal");
  const burst: string[] = [];
  for (let i = 0; i < 5; i++) burst.push(...(await addTrades(sql, m, [{ price: "0.410", at: new Date(Date.now() + i) }])));
  await waitFor(() => tapeSignals.flatMap((x) => (x.trades ?? []) as Trade[]).length === 6, 10_000, "all six trades carried");
  const carried = tapeSignals.flatMap((x) => (x.trades ?? []) as Trade[]).map((t) => t.id);
  expect(new Set(carried)).toEqual(new Set([...first, ...burst]));
  expect(tapeSignals.length).toBeLessThanOrEqual(3); // leading + at most two trailing, not one per statement
  expect(tapeSignals[1].after).toBe(tapeSignals[0].cursor);
  expect(priceSignals.length).toBeGreaterThan(0);
});

test("trades channel – a corrected or deleted trade gives a signal that carries nothing: watchers refetch", async ({ sql }) => {
  const m = await makeMarket(sql, { prefix: "tape-edit", status: "ACTIVE" });
  const [id] = await addTrades(sql, m, [{ price: "0.400" }]);
  const s = await connectClient(testRun().baseURL);
  sockets.push(s);
  const got: Signal[] = [];
  s.on("trades", (sig: Signal) => got.push(sig));
  expect(await join(s, `market:${m.slug}:trades`)).toEqual({ ok: true });
  await sql`UPDATE trades SET shares = 2 WHERE id = ${id}`;
  await waitFor(() => got.length === 1, 10_000, "the signal of the correction");
  expect(got[0]).not.toHaveProperty("trades");
  await sql`DELETE FROM trades WHERE id = ${id}`;
  await waitFor(() => got.length === 2, 10_000, "the signal of the deletion");
  expect(got[1]).not.toHaveProperty("trades");
});
