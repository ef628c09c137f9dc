// The pieces every read of lib/markets/sql/ builds on: the select list of a table's columns, the market
// key a request names (id or slug), a market's outcomes as JSON, and a market as a list shows it.
// Server side only; one function per query lives in the file of its resource beside this one.
import "server-only";
import type postgres from "postgres";
import { SLUG_RE } from "../constants";
import { ISO_TIME_COLUMNS, MARKET_COLUMNS, OUTCOME_COLUMNS, type MarketRow, type OutcomeRow } from "../rows";
import { isUuid } from "../schemas";
import { marketListItemFromRow, outcomeFromRow } from "../serialize";

export type Sql = postgres.Sql;
export type Fragment = postgres.Fragment;

export const MAX_TS = 100_000_000_000; // year 5138: keeps to_timestamp() in range for any integer a client sends

/**
 * A select list of `columns` (of `alias`, if given), each named as itself, the timestamps among them
 * (ISO_TIME_COLUMNS) as the API's ISO text (rows.ts, IsoTime): "Z" and milliseconds, truncated as
 * Date.toISOString() truncates; years outside 1-9999 as PostgreSQL's own text, which
 * lib/markets/serialize.ts reads through Date as before. Column names come from the lists in rows.ts,
 * never from input.
 */
export function columnsSql(sql: Sql, columns: readonly string[], alias?: string) {
  return sql.unsafe(
    columns
      .map((c) => {
        const col = alias ? `${alias}.${c}` : c;
        if (!ISO_TIME_COLUMNS.has(c)) return col;
        return `CASE WHEN ${col} >= '0001-01-01T00:00:00Z' AND ${col} < '10000-01-01T00:00:00Z' THEN to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') ELSE ${col}::text END AS ${c}`;
      })
      .join(", "),
  );
}

export type MarketKey = { id: string } | { slug: string };

export const describeKey = (key: MarketKey) => ("id" in key ? key.id : key.slug);

export function validKey(key: MarketKey) {
  return "id" in key ? isUuid(key.id) : SLUG_RE.test(key.slug);
}

export const keySql = (sql: Sql, key: MarketKey, alias = "") =>
  "id" in key ? sql`${sql(`${alias}id`)} = ${key.id}::uuid` : sql`${sql(`${alias}slug`)} = ${key.slug}`;

const OUTCOME_COLUMNS_BUT_PROBABILITY = OUTCOME_COLUMNS.filter((c) => c !== "probability");

/** A market's outcomes in index order, as a JSON array (numerics as text, so nothing passes through a float): a subquery on the market `m`. */
export const outcomesJson = (sql: Sql) => sql`
  SELECT coalesce(json_agg(o ORDER BY o.index), '[]') FROM (
    SELECT ${columnsSql(sql, OUTCOME_COLUMNS_BUT_PROBABILITY)}, probability::text AS probability
      FROM outcomes WHERE market_id = m.id) o`;

/** A market as a list shows it, its outcomes read in the same statement as JSON (outcomesJson). */
export type ListedRow = MarketRow & { outcomes: OutcomeRow[] };
export const listItemOf = (r: ListedRow) => marketListItemFromRow(r, r.outcomes.map(outcomeFromRow));
/** The select list of a ListedRow of the market `m`: every list item is read through it (by id, or by the markets feed). */
export const listedRowSql = (sql: Sql) => sql`${columnsSql(sql, MARKET_COLUMNS, "m")}, (${outcomesJson(sql)}) AS outcomes`;
