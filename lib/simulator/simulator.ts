// Keeps native active markets trading for demos: each tick, one market, one transaction that places
// or cancels a limit order around the current price or crosses the book to produce a trade, then
// updates probabilities and volume and refreshes the derived columns. The NOTIFY triggers turn
// every tick into push signals, exactly as for imports.
import { randomUUID } from "node:crypto";
import type postgres from "postgres";
import { config } from "@/lib/config";
import type { Sql } from "../db/client";
import { nextProbabilities, orderSizeCents, passivePrice, priceString, sharesString, toCents, toMilli, type Rng } from "./pricing";

export interface SimulatorOptions {
  log?: (message: string) => void;
  /** Ticks per second over all markets (default SIMULATE_RATE or 2). */
  ratePerSecond?: number;
  /** Trade only these markets (slugs); default: every native active market, busiest most often. */
  slugs?: string[];
  rng?: Rng;
}

export type TickResult = "placed" | "cancelled" | "traded" | "skipped";

const SIM_USERS = 8;
const MAX_RESTING_PER_OUTCOME = 40;
type Tx = postgres.TransactionSql;

/** Ids of the simulator's traders, created on first use. */
export async function simulatorUsers(sql: Sql): Promise<string[]> {
  const names = Array.from({ length: SIM_USERS }, (_, i) => `sim-trader-${i + 1}`);
  await sql`
    INSERT INTO users (id, username)
    SELECT gen_random_uuid(), name FROM unnest(${names}::text[]) AS name
    ON CONFLICT (username) DO NOTHING`;
  const rows = await sql<{ id: string }[]>`SELECT id FROM users WHERE username = ANY(${names}::text[]) ORDER BY username`;
  return rows.map((r) => r.id);
}

const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)];

/** One simulated action on one market, in one transaction. */
export async function simulateTick(sql: Sql, marketId: string, users: string[], rng: Rng = Math.random): Promise<TickResult> {
  return sql.begin(async (tx) => {
    // Serialises with any other writer of this market (a second simulator, an import).
    const [market] = await tx`
      SELECT id FROM markets WHERE id = ${marketId} AND status = 'ACTIVE' AND external_source IS NULL FOR UPDATE`;
    if (!market) return "skipped" as const;
    const outcomes = await tx<{ id: string; probability: string }[]>`
      SELECT id, probability::text FROM outcomes WHERE market_id = ${marketId} ORDER BY index`;
    if (!outcomes.length) return "skipped" as const;
    const outcome = pick(rng, outcomes);
    const [book] = await tx<{ bid: string | null; ask: string | null; resting: number }[]>`
      SELECT max(price) FILTER (WHERE side = 'BUY')::text AS bid, min(price) FILTER (WHERE side = 'SELL')::text AS ask,
             count(*)::int AS resting
      FROM orders WHERE outcome_id = ${outcome.id} AND type = 'LIMIT' AND status IN ('OPEN', 'PARTIALLY_FILLED')`;
    const best = { bid: book.bid === null ? null : toMilli(book.bid), ask: book.ask === null ? null : toMilli(book.ask) };
    const mid = Math.round(toCents(outcome.probability) / 10); // 62.00 % → 620 thousandths

    const roll = rng();
    let result: TickResult;
    if (roll < 0.35 && book.resting > 0) {
      result = (await cancelOne(tx, outcome.id, rng)) ? "cancelled" : "skipped";
    } else if (roll < 0.65 || book.resting >= MAX_RESTING_PER_OUTCOME) {
      result = (await cross(tx, marketId, outcome.id, outcomes, users, rng)) ? "traded" : "skipped";
      if (result === "skipped") result = (await place(tx, marketId, outcome.id, mid, best, users, rng)) ? "placed" : "skipped";
    } else {
      result = (await place(tx, marketId, outcome.id, mid, best, users, rng)) ? "placed" : "skipped";
    }
    await tx`SELECT refresh_market_derived(${[marketId]}::uuid[])`;
    return result;
  });
}

async function place(tx: Tx, marketId: string, outcomeId: string, mid: number, best: { bid: number | null; ask: number | null }, users: string[], rng: Rng) {
  const side = rng() < 0.5 ? "BUY" : "SELL";
  const price = passivePrice(side, Math.min(999, Math.max(1, mid)), best, rng);
  if (price === null) return false;
  await tx`
    INSERT INTO orders (id, market_id, outcome_id, user_id, side, type, price, shares, filled_shares, status, created_at)
    VALUES (${randomUUID()}, ${marketId}, ${outcomeId}, ${pick(rng, users)}, ${side}, 'LIMIT',
            ${priceString(price)}, ${sharesString(orderSizeCents(rng))}, 0, 'OPEN', now())`;
  return true;
}

async function cancelOne(tx: Tx, outcomeId: string, rng: Rng) {
  const rows = await tx`
    UPDATE orders SET status = 'CANCELLED', updated_at = now()
    WHERE id = (SELECT id FROM orders WHERE outcome_id = ${outcomeId} AND type = 'LIMIT'
                  AND status IN ('OPEN', 'PARTIALLY_FILLED')
                ORDER BY md5(id::text || ${String(rng())}) LIMIT 1)
    RETURNING id`;
  return rows.length > 0;
}

/** A taker order that meets the best resting order of the other side: one fill, one trade. */
async function cross(tx: Tx, marketId: string, outcomeId: string, outcomes: { id: string; probability: string }[], users: string[], rng: Rng) {
  const takerSide = rng() < 0.5 ? "BUY" : "SELL";
  const makerSide = takerSide === "BUY" ? "SELL" : "BUY";
  const [maker] = await tx<{ id: string; user_id: string; price: string; remaining: string }[]>`
    SELECT id, user_id, price::text, (shares - filled_shares)::text AS remaining FROM orders
    WHERE outcome_id = ${outcomeId} AND side = ${makerSide} AND type = 'LIMIT' AND status IN ('OPEN', 'PARTIALLY_FILLED')
    ORDER BY ${makerSide === "SELL" ? tx`price ASC` : tx`price DESC`}, created_at, id
    LIMIT 1 FOR UPDATE`;
  if (!maker) return false;
  const remaining = toCents(maker.remaining);
  const fill = Math.max(1, Math.min(remaining, Math.round(orderSizeCents(rng) / 2)));
  const taker =
    pick(
      rng,
      users.filter((u) => u !== maker.user_id),
    ) ?? users[0];
  const shares = sharesString(fill);

  await tx`
    UPDATE orders SET filled_shares = filled_shares + ${shares}::numeric,
      status = CASE WHEN filled_shares + ${shares}::numeric >= shares THEN 'FILLED' ELSE 'PARTIALLY_FILLED' END::order_status,
      updated_at = now()
    WHERE id = ${maker.id}`;
  await tx`
    INSERT INTO orders (id, market_id, outcome_id, user_id, side, type, price, shares, filled_shares, status, created_at)
    VALUES (${randomUUID()}, ${marketId}, ${outcomeId}, ${taker}, ${takerSide}, 'LIMIT', ${maker.price}, ${shares}, ${shares}, 'FILLED', now())`;
  await tx`
    INSERT INTO trades (id, market_id, outcome_id, price, shares, maker_user_id, taker_user_id, executed_at)
    VALUES (${randomUUID()}, ${marketId}, ${outcomeId}, ${maker.price}, ${shares}, ${maker.user_id}, ${taker}, now())`;

  const probs = nextProbabilities(
    outcomes.map((o) => ({ id: o.id, probability: toCents(o.probability) })),
    outcomeId,
    toMilli(maker.price),
  );
  const ids = [...probs.keys()];
  const values = ids.map((id) => (probs.get(id)! / 100).toFixed(2));
  await tx`
    UPDATE outcomes o SET probability = v.p::numeric, updated_at = now()
    FROM unnest(${ids}::uuid[], ${values}::text[]) AS v(id, p)
    WHERE o.id = v.id AND o.probability <> v.p::numeric`;
  await tx`
    UPDATE markets SET total_volume = total_volume + ${maker.price}::numeric * ${shares}::numeric, updated_at = now()
    WHERE id = ${marketId}`;
  return true;
}

/** Native active markets to trade: the busiest 50 get most ticks so a demo's front page moves. */
async function candidateMarkets(sql: Sql, slugs?: string[]) {
  if (slugs?.length) {
    const rows = await sql<{ id: string }[]>`SELECT id FROM markets WHERE slug = ANY(${slugs}::text[])`;
    return { hot: rows.map((r) => r.id), all: rows.map((r) => r.id) };
  }
  const all = await sql<{ id: string }[]>`
    SELECT id FROM markets WHERE status = 'ACTIVE' AND external_source IS NULL ORDER BY total_volume DESC, id`;
  const ids = all.map((r) => r.id);
  return { hot: ids.slice(0, 50), all: ids };
}

export function startSimulator(sql: Sql, options: SimulatorOptions = {}): () => Promise<void> {
  const log = options.log ?? ((m: string) => console.log(`[simulator] ${m}`));
  const rate = options.ratePerSecond ?? config().SIMULATE_RATE;
  const rng = options.rng ?? Math.random;
  if (!(rate > 0)) throw new Error(`simulator rate must be > 0 ticks per second, got ${rate}`);
  const interval = 1000 / rate;

  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> = Promise.resolve();
  const counts: Record<TickResult | "failed", number> = { placed: 0, cancelled: 0, traded: 0, skipped: 0, failed: 0 };
  let markets = { hot: [] as string[], all: [] as string[] };
  let marketsAt = 0;
  let users: string[] = [];
  let reportedAt = Date.now();

  const tick = async () => {
    if (!users.length) users = await simulatorUsers(sql);
    if (Date.now() - marketsAt > 60_000) {
      markets = await candidateMarkets(sql, options.slugs);
      marketsAt = Date.now();
      if (!markets.all.length) log("no native active market to trade");
    }
    if (!markets.all.length) return;
    const id = pick(rng, rng() < 0.7 && markets.hot.length ? markets.hot : markets.all);
    counts[await simulateTick(sql, id, users, rng)]++;
  };

  const loop = () => {
    if (stopped) return;
    const started = Date.now();
    running = tick()
      .catch((err) => {
        counts.failed++;
        if (counts.failed <= 5 || counts.failed % 100 === 0) log(`tick failed: ${(err as Error).message}`);
      })
      .finally(() => {
        if (Date.now() - reportedAt > 30_000) {
          reportedAt = Date.now();
          log(`${counts.traded} trades, ${counts.placed} orders placed, ${counts.cancelled} cancelled, ${counts.failed} failed`);
        }
        if (!stopped) timer = setTimeout(loop, Math.max(0, interval - (Date.now() - started)));
      });
  };
  log(`trading at ${rate} tick(s)/s${options.slugs?.length ? ` on ${options.slugs.join(", ")}` : ""}`);
  loop();

  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}
