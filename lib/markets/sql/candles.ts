// The candles of an outcome (docs/api.md "Candles"): one outcome's, or many outcomes' over one window in
// one round trip, from the rollup of migration 0009.
import "server-only";
import { readDb } from "@/lib/db/client";
import { type CandleWindow, INTERVALS as CANDLE_WIDTHS, originOf } from "../candles";
import type { CandleRow } from "../rows";
import type { Candle, Candles } from "../schemas";
import { candleFromRow, candlesOf } from "../serialize";
import type { MarketKey } from "./fragments";
import { resolveOutcome } from "./resolve";

/**
 * The candles of these outcomes over one window in one round trip, each exactly what getCandles
 * answers, from the rollup of migration 0009: the window's rows of the interval's stored width, rolled
 * up in SQL to the interval (at most 15 rows per candle, so at most 15,000 rows per outcome). Exact
 * numeric throughout; prices and sums leave as text.
 */
export async function getCandleSets(outcomeIds: readonly string[], window: CandleWindow): Promise<Map<string, Candles>> {
  const sql = await readDb();
  const { width } = CANDLE_WIDTHS[window.interval];
  const inWindow = sql`c.outcome_id = k.id AND c.width = ${width}
    AND c.bucket >= to_timestamp(${window.first}) AND c.bucket < to_timestamp(${window.last + window.seconds})`;
  const candles =
    window.seconds === width
      ? sql`SELECT extract(epoch FROM c.bucket)::float8 AS start, c.open::text AS open, c.high::text AS high, c.low::text AS low,
               c.close::text AS close, round(c.volume, 6)::text AS volume, round(c.notional, 9)::text AS notional, c.trades
          FROM candles c WHERE ${inWindow}`
      : sql`SELECT extract(epoch FROM date_bin(make_interval(secs => ${window.seconds}), c.bucket, to_timestamp(${originOf(window.interval)})))::float8 AS start,
               (array_agg(c.open ORDER BY c.bucket))[1]::text AS open, max(c.high)::text AS high, min(c.low)::text AS low,
               (array_agg(c.close ORDER BY c.bucket))[count(*)]::text AS close,
               round(sum(c.volume), 6)::text AS volume, round(sum(c.notional), 9)::text AS notional, sum(c.trades)::int AS trades
          FROM candles c WHERE ${inWindow} GROUP BY 1`;
  // Only a cut window has older candles in it to point at: one index probe per outcome.
  const older = window.cut
    ? sql`LEFT JOIN LATERAL (
        SELECT extract(epoch FROM max(c.bucket))::float8 AS older FROM candles c
         WHERE c.outcome_id = k.id AND c.width = ${width}
           AND c.bucket >= to_timestamp(${window.from}) AND c.bucket < to_timestamp(${window.first})) nx ON true`
    : sql`CROSS JOIN (SELECT NULL::float8 AS older) nx`;
  const rows = outcomeIds.length
    ? await sql<CandleRow[]>`
        SELECT k.id::text AS outcome_id, nx.older, c.*
          FROM unnest(${outcomeIds as string[]}::uuid[]) WITH ORDINALITY AS k (id, n)
          LEFT JOIN LATERAL (${candles}) c ON true
          ${older}
         ORDER BY k.n, c.start`
    : [];
  const found = new Map<string, { candles: Candle[]; older: number | null }>();
  for (const r of rows) {
    let entry = found.get(r.outcome_id);
    if (!entry) found.set(r.outcome_id, (entry = { candles: [], older: r.older }));
    if (r.start !== null) entry.candles.push(candleFromRow(r));
  }
  return new Map(
    outcomeIds.map((id) => {
      const f = found.get(id);
      return [id, candlesOf(id, window, f?.candles ?? [], f?.older ?? null)];
    }),
  );
}

/** The candles of one outcome of a market, checked like the book and the history (unknown market, outcome, mismatch). */
export async function getCandles(params: MarketKey & { outcomeId: string; window: CandleWindow }): Promise<Candles> {
  const o = await resolveOutcome(params, params.outcomeId);
  return (await getCandleSets([o.outcome_id], params.window)).get(o.outcome_id)!;
}
