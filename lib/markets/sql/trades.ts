// The trade tape of a market or of one outcome (docs/api.md "Trades"), walked by keyset.
import "server-only";
import { readDb } from "@/lib/db/client";
import { InvalidCursor, MarketNotFound, OutcomeMismatch, OutcomeNotFound } from "../errors";
import type { TradeRow } from "../rows";
import { isUuid, type Trade, type TradeTape } from "../schemas";
import { tradeFromRow } from "../serialize";
import { decodeTradeCursor, encodeTradeCursor, type TradeCursor } from "../trade-cursor";
import { describeKey, type Fragment, keySql, type MarketKey, type Sql, validKey } from "./fragments";

export interface TradesParams {
  outcomeId?: string;
  limit: number;
  /** Cursors as clients send them (lib/markets/trade-cursor.ts); at most one of the two. */
  before?: string;
  after?: string;
}

function cursorOf(param: "before" | "after", value: string | undefined): TradeCursor | undefined {
  if (value === undefined) return undefined;
  const c = decodeTradeCursor(value);
  if (!c) throw new InvalidCursor(param);
  return c;
}

/** A cursor's executed_at as SQL, exact to the microsecond (whole seconds and the rest: each product fits a double). */
function cursorTime(sql: Sql, c: TradeCursor): Fragment {
  const secs = c.us / 1_000_000n;
  return sql`(timestamptz 'epoch' + ${String(secs)}::int8 * interval '1 second' + ${String(c.us - secs * 1_000_000n)}::int8 * interval '1 microsecond')`;
}

/**
 * One page of a market's trades (or one outcome's), newest first, ordered by (executed_at, id) and
 * walked by keyset, so every page is one index descent (trades_market_time_idx, or
 * trades_outcome_tape_idx for one outcome) whatever its depth. `after` reads the `limit` oldest
 * trades newer than the cursor (a backward scan), answered newest first too. The market, the
 * outcome check and the page are one round trip; errors as for the book (unknown market, unknown
 * outcome, outcome of another market).
 */
export async function listTrades(params: MarketKey & TradesParams): Promise<TradeTape> {
  const sql = await readDb();
  if (!validKey(params)) throw new MarketNotFound(describeKey(params));
  const before = cursorOf("before", params.before);
  const after = cursorOf("after", params.after);
  const outcomeKey = params.outcomeId === undefined ? undefined : isUuid(params.outcomeId) ? params.outcomeId : null;
  if (outcomeKey === null) {
    // Malformed: 404 like an unknown outcome, once the market is known to exist (docs/api.md "Ids").
    if (!(await marketExists(params))) throw new MarketNotFound(describeKey(params));
    throw new OutcomeNotFound();
  }
  const newer = after !== undefined;
  const dir = sql.unsafe(newer ? "ASC" : "DESC");
  const cursor = before ?? after;
  // An outcome's trades all belong to its market (the (outcome_id, market_id) foreign key): its own index alone.
  const scope = outcomeKey ? sql`t.outcome_id = ${outcomeKey}::uuid` : sql`t.market_id = m.id`;
  const rows = await sql<(Partial<TradeRow> & { market_id: string; outcome_market_id: string | null })[]>`
    SELECT m.id AS market_id,
           ${outcomeKey ? sql`(SELECT market_id FROM outcomes WHERE id = ${outcomeKey}::uuid)` : sql`NULL::uuid`} AS outcome_market_id,
           t.id, t.outcome_id, t.price::text AS price, t.shares::text AS shares, round(t.price * t.shares, 6)::text AS notional,
           t.executed_at, (extract(epoch FROM t.executed_at) * 1000000)::int8::text AS us,
           mk.id AS maker_id, mk.username AS maker_username, tk.id AS taker_id, tk.username AS taker_username
      FROM markets m
      LEFT JOIN LATERAL (
        SELECT t.* FROM trades t
         WHERE ${scope}
           ${cursor ? sql`AND (t.executed_at, t.id) ${sql.unsafe(newer ? ">" : "<")} (${cursorTime(sql, cursor)}, ${cursor.id}::uuid)` : sql``}
         ORDER BY t.executed_at ${dir}, t.id ${dir}
         LIMIT ${params.limit + 1}
      ) t ON true
      LEFT JOIN users mk ON mk.id = t.maker_user_id
      LEFT JOIN users tk ON tk.id = t.taker_user_id
     WHERE ${keySql(sql, params, "m.")}
     ORDER BY t.executed_at ${dir}, t.id ${dir}`;
  if (!rows.length) throw new MarketNotFound(describeKey(params));
  if (outcomeKey) {
    if (rows[0].outcome_market_id === null) throw new OutcomeNotFound();
    if (rows[0].outcome_market_id !== rows[0].market_id) throw new OutcomeMismatch();
  }
  const found = rows.filter((r) => r.id !== null && r.id !== undefined) as TradeRow[];
  const more = found.length > params.limit;
  const page = found.slice(0, params.limit);
  if (newer) page.reverse();
  const at = (r: TradeRow | undefined) => (r ? encodeTradeCursor({ us: BigInt(r.us), id: r.id }) : null);
  return {
    trades: page.map(tradeFromRow),
    // Older: the last row of a newest-first page; newer: its first row (the page was read oldest first).
    next_cursor: more ? at(newer ? page[0] : page[page.length - 1]) : null,
    newest_cursor: at(page[0]),
  };
}

async function marketExists(key: MarketKey): Promise<boolean> {
  const sql = await readDb();
  const [row] = await sql<{ one: number }[]>`SELECT 1 AS one FROM markets WHERE ${keySql(sql, key)}`;
  return Boolean(row);
}

/**
 * What a push signal attaches: the trades of market `marketId` (of one outcome when `outcomeId` is
 * given) newer than the cursor `after`, at most `limit`, newest first. Continue with `next_cursor`
 * while it is not null; `newest_cursor` is the position to remember.
 */
export function listTradesAfter(params: { marketId: string; outcomeId?: string; after: string; limit: number }): Promise<TradeTape> {
  return listTrades({ id: params.marketId, outcomeId: params.outcomeId, after: params.after, limit: params.limit });
}

/**
 * The trades of one change (docs/api.md "Push channels": a `trades` event carries them): those of `ids`
 * that still exist, newest first as the tape lists them, and the cursor of the newest.
 */
export async function tradesByIds(ids: readonly string[]): Promise<{ trades: Trade[]; cursor: string | null }> {
  const valid = ids.filter(isUuid);
  if (!valid.length) return { trades: [], cursor: null };
  const sql = await readDb();
  const rows = await sql<TradeRow[]>`
    SELECT t.id, t.outcome_id, t.price::text AS price, t.shares::text AS shares, round(t.price * t.shares, 6)::text AS notional,
           t.executed_at, (extract(epoch FROM t.executed_at) * 1000000)::int8::text AS us,
           mk.id AS maker_id, mk.username AS maker_username, tk.id AS taker_id, tk.username AS taker_username
      FROM trades t
      LEFT JOIN users mk ON mk.id = t.maker_user_id
      LEFT JOIN users tk ON tk.id = t.taker_user_id
     WHERE t.id = ANY(${valid}::uuid[])
     ORDER BY t.executed_at DESC, t.id DESC`;
  return { trades: rows.map(tradeFromRow), cursor: rows.length ? encodeTradeCursor({ us: BigInt(rows[0].us), id: rows[0].id }) : null };
}
