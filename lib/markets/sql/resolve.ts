// The market and outcome a request names (docs/api.md "Ids": unknown market, unknown or malformed outcome,
// outcome of another market, in that order), resolved in the same statement as what is read of the outcome.
import "server-only";
import { readDb } from "@/lib/db/client";
import { MarketNotFound, OutcomeMismatch, OutcomeNotFound } from "../errors";
import { isUuid } from "../schemas";
import { describeKey, type Fragment, keySql, type MarketKey, type Sql, validKey } from "./fragments";

export interface OutcomeOfMarket {
  market_id: string;
  external_source: string | null;
  outcome_id: string;
  name: string;
  side: string;
}

/** A resolution as its statement returns it: the market, and the outcome asked for if it exists (of any market). */
type ResolutionRow = Omit<OutcomeOfMarket, "outcome_id" | "name" | "side"> & {
  outcome_id: string | null;
  outcome_market_id: string | null;
  name: string | null;
  side: string | null;
};

/**
 * The market and outcome a request names, as one row (none when no market has the key): the start of
 * every statement that reads something of one outcome, so that a miss is one round trip.
 */
function resolutionSql(sql: Sql, key: MarketKey, outcomeId: string): Fragment {
  const outcomeKey = isUuid(outcomeId) ? outcomeId : null;
  return sql`
    SELECT m.id AS market_id, m.external_source, o.id AS outcome_id, o.market_id AS outcome_market_id, o.name, o.side
      FROM markets m LEFT JOIN outcomes o ON o.id = ${outcomeKey}::uuid
     WHERE ${keySql(sql, key, "m.")}`;
}

/** A resolution checked in the order of the spec's errors: unknown market, then unknown or malformed outcome, then an outcome of another market. */
function resolved(key: MarketKey, row: ResolutionRow | undefined): OutcomeOfMarket {
  if (!row) throw new MarketNotFound(describeKey(key));
  if (!row.outcome_id || row.name === null || row.side === null) throw new OutcomeNotFound();
  if (row.outcome_market_id !== row.market_id) throw new OutcomeMismatch();
  return { market_id: row.market_id, external_source: row.external_source, outcome_id: row.outcome_id, name: row.name, side: row.side };
}

/** The market and outcome a candles or past-book request names (resolved above). */
export async function resolveOutcome(key: MarketKey, outcomeId: string): Promise<OutcomeOfMarket> {
  if (!validKey(key)) throw new MarketNotFound(describeKey(key));
  const sql = await readDb();
  const [row] = await sql<ResolutionRow[]>`${resolutionSql(sql, key, outcomeId)}`;
  return resolved(key, row);
}

/**
 * The resolution of a request with what `read` reads of its outcome (a LATERAL subquery on r.outcome_id
 * and r.external_source), read only when the outcome belongs to the market: one statement.
 */
export async function readResolved<R extends object>(key: MarketKey, outcomeId: string, read: (sql: Sql) => Fragment): Promise<{ o: OutcomeOfMarket; row: R }> {
  if (!validKey(key)) throw new MarketNotFound(describeKey(key));
  const sql = await readDb();
  const [row] = await sql<(ResolutionRow & R)[]>`
    SELECT r.*, x.* FROM (${resolutionSql(sql, key, outcomeId)}) r
      LEFT JOIN LATERAL (${read(sql)}) x ON r.outcome_market_id = r.market_id`;
  return { o: resolved(key, row), row };
}

/** The outcomes among these ids that exist, with their market: one primary-key probe per id, unknown ids absent. */
export async function outcomesById(ids: readonly string[]): Promise<Map<string, OutcomeOfMarket>> {
  const sql = await readDb();
  const rows = ids.length
    ? await sql<OutcomeOfMarket[]>`
        SELECT o.id AS outcome_id, o.market_id, m.external_source, o.name, o.side
          FROM outcomes o JOIN markets m ON m.id = o.market_id
         WHERE o.id = ANY(${ids as string[]}::uuid[])`
    : [];
  return new Map(rows.map((r) => [r.outcome_id, r]));
}
