// The price history of an outcome (docs/api.md "Price history"): one outcome's, or many outcomes' over one
// window in one round trip (docs/api.md "Batches"), both from the one fragment historySql.
import "server-only";
import { readDb } from "@/lib/db/client";
import { bucketTrades, historyWindow } from "../price-history";
import { HISTORY_DEFAULT_WINDOW_S, HISTORY_TRADE_CAP, type PriceHistory, type PriceHistoryQuery } from "../schemas";
import { type Fragment, type MarketKey, MAX_TS, type Sql } from "./fragments";
import { readResolved } from "./resolve";

// The default end is the current instant, not the current whole second: a trade committed a few ms
// ago (announced by a push signal) must already be in the answer.
export async function getPriceHistory(params: MarketKey & PriceHistoryQuery, nowS = Date.now() / 1000): Promise<PriceHistory> {
  const window = historyWindow(params, nowS, HISTORY_DEFAULT_WINDOW_S);
  const { row } = await readResolved<HistoryRow>(params, params.outcomeId, (sql) => historySql(sql, sql`r.outcome_id`, window));
  return historyOf(row, params.fidelity);
}

/** What historySql reads of one outcome: its trades as [id, unix seconds, price] (JSON: one row per outcome). */
interface HistoryRow {
  trades: [string, number, number][] | null;
}

/**
 * The HISTORY_TRADE_CAP most recent trades of the outcome `id` in the window (a walk of
 * trades_outcome_tape_idx), as one row for a LATERAL join; none for an empty window.
 */
function historySql(sql: Sql, id: Fragment, w: { startTs: number; endTs: number }): Fragment {
  if (w.startTs > w.endTs) return sql`SELECT NULL::json AS trades`;
  return sql`
    SELECT json_agg(json_build_array(t.id, t.ts, t.price)) AS trades FROM (
      SELECT id, extract(epoch FROM executed_at)::float8 AS ts, price::float8 AS price
        FROM trades
       WHERE outcome_id = ${id}
         AND executed_at >= to_timestamp(${Math.min(w.startTs, MAX_TS)})
         AND executed_at <= to_timestamp(${Math.min(w.endTs, MAX_TS)})
       ORDER BY executed_at DESC, id DESC
       LIMIT ${HISTORY_TRADE_CAP}) t`;
}

const historyOf = (row: HistoryRow | undefined, fidelity: number): PriceHistory => ({
  history: bucketTrades(
    (row?.trades ?? []).map(([id, executedAt, price]) => ({ id, executedAt, price })),
    fidelity,
  ),
});

/** The histories of these outcomes over one window in one round trip, each exactly what getPriceHistory answers. */
export async function getPriceHistories(
  outcomeIds: readonly string[],
  params: Pick<PriceHistoryQuery, "startTs" | "endTs" | "fidelity">,
  nowS = Date.now() / 1000,
): Promise<Map<string, PriceHistory>> {
  const sql = await readDb();
  const window = historyWindow(params, nowS, HISTORY_DEFAULT_WINDOW_S);
  const rows = outcomeIds.length
    ? await sql<(HistoryRow & { outcome_id: string })[]>`
        SELECT x.outcome_id, h.trades
          FROM unnest(${outcomeIds as string[]}::uuid[]) AS x (outcome_id)
         CROSS JOIN LATERAL (${historySql(sql, sql`x.outcome_id`, window)}) h`
    : [];
  const byOutcome = new Map(rows.map((r) => [r.outcome_id, r]));
  return new Map(outcomeIds.map((id) => [id, historyOf(byOutcome.get(id), params.fidelity)]));
}
