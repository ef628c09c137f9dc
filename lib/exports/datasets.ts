// The four daily datasets (docs/api.md "Exports"): for each, what PostgreSQL hands over for one UTC day
// (CSV from COPY, or JSON lines for the markets snapshot, which goes through the API's own URL rule) and
// the Parquet schema DuckDB writes it as. The column lists here are the documented schemas: change one
// and docs/api.md "Exports" changes with it. Names, days and paths are checked in ./names.ts.
import type { DayRange, ExportDataset } from "./names";
import { USER_LISTS, USER_TYPE, userOf } from "./trade-users";

/** One Parquet column: its name, the DuckDB type of the file, and how the source text becomes it. */
interface Column {
  name: string;
  /** The type in the Parquet file, as DuckDB names it. */
  type: string;
  /** The type the source text is read as (VARCHAR for what `select` converts). */
  source?: string;
  /** The expression over the source columns (default: the column itself). */
  select?: string;
}

export interface DatasetSpec {
  name: ExportDataset;
  /** What one row is and in which order the rows are, for the docs and the index. */
  rows: string;
  columns: Column[];
  /** csv: a COPY statement of this day; json: JSON lines written by ./markets-snapshot.ts. */
  source: "csv" | "json";
  /** The COPY … TO STDOUT of one day (csv sources). The literals come from dayRange, never from input. */
  copy?: (r: DayRange) => string;
  /** Planner settings of the COPY's session, where the default plan would not stream. */
  copySession?: Record<string, string>;
  /** The CSV's columns, name and read_csv type, where they are not the file's (default: the file's columns). */
  csv?: { name: string; type: string }[];
  /** The COPY names users by id: the day's users are loaded into DuckDB first, in the COPY's snapshot (./trade-users.ts). */
  users?: boolean;
}

const UUID = "UUID";
/**
 * Quantities: 18 digits, an INT64 in the file. The database allows more (numeric(30,6)); a value past 10^12
 * shares would fail its day's export rather than be rounded. DECIMAL(30,6) (fixed 13-byte values) cost DuckDB
 * four times the CPU of the whole rest of a trades file, measured on 200,000 rows.
 */
const SHARES = "DECIMAL(18,6)";
const TS = "TIMESTAMPTZ";
/** A list of book levels from the log's text ("b 0.500 12.00,a 0.510 0.00"), one side, in the stored (served) order. */
const levels = (column: "bids" | "asks") =>
  `[{'price': s[2]::DECIMAL(18,3), 'shares': s[3]::DECIMAL(18,2)} FOR s IN list_transform(string_split(${column}, ','), x -> string_split(x, ' ')) IF s[1] = '${column[0]}']`;
const LEVELS = "STRUCT(price DECIMAL(18,3), shares DECIMAL(18,2))[]";

export const DATASETS: Record<ExportDataset, DatasetSpec> = {
  trades: {
    name: "trades",
    rows: "one row per trade executed that day, ordered by executed_at, then id (the tape's order)",
    source: "csv",
    columns: [
      { name: "id", type: UUID },
      { name: "market_id", type: UUID },
      { name: "outcome_id", type: UUID },
      { name: "price", type: "DECIMAL(4,3)" },
      { name: "shares", type: SHARES },
      // round(price × shares, 6) as PostgreSQL computes it for the API, rounded half away from zero by the cast.
      // Below 10^8 shares the product is exact in 64 bits (DECIMAL(4,3) × DECIMAL(14,6) is a DECIMAL(18,9)); past
      // that in 128 bits, whose division by 1,000 cost DuckDB's thread 1.5-2 s per 1,000,000 trades when every row took it.
      {
        name: "notional",
        type: SHARES,
        select: `CASE WHEN src.shares < 100000000 THEN (src.price * src.shares::DECIMAL(14,6))::${SHARES} ELSE (src.price * src.shares::DECIMAL(22,6))::${SHARES} END`,
      },
      { name: "executed_at", type: TS },
      { name: "maker_id", type: UUID, select: userOf("maker_user_id", "id") },
      { name: "maker_username", type: "VARCHAR", select: userOf("maker_user_id", "name") },
      { name: "taker_id", type: UUID, select: userOf("taker_user_id", "id") },
      { name: "taker_username", type: "VARCHAR", select: userOf("taker_user_id", "name") },
    ],
    // The trades' own columns only: the usernames and the notional are DuckDB's work, which took PostgreSQL's
    // side of the COPY from 4.2-6.1 s to 2.9-3.6 s of the backend's CPU per 1,000,000 trades (side by side on a
    // shared machine) and added about 1 s to DuckDB's thread.
    csv: [
      { name: "id", type: UUID },
      { name: "market_id", type: UUID },
      { name: "outcome_id", type: UUID },
      { name: "price", type: "DECIMAL(4,3)" },
      { name: "shares", type: SHARES },
      { name: "executed_at", type: TS },
      { name: "maker_user_id", type: USER_TYPE },
      { name: "taker_user_id", type: USER_TYPE },
    ],
    users: true,
    // The day from trades_time_idx in the tape's order (an incremental sort of each instant's ties), not
    // sorted whole before its first row: the rows leave as DuckDB takes them, so the pipe paces the backend.
    copySession: { enable_sort: "off" },
    copy: (r) => `
      SELECT t.id, t.market_id, t.outcome_id, t.price, t.shares, t.executed_at, t.maker_user_id, t.taker_user_id
        FROM trades t
       WHERE t.executed_at >= '${r.start}' AND t.executed_at < '${r.end}'
       ORDER BY t.executed_at, t.id`,
  },
  book_changes: {
    name: "book_changes",
    rows: "one row per book version made that day (the book log), ordered by at, then outcome_id and version",
    source: "csv",
    columns: [
      { name: "outcome_id", type: UUID },
      { name: "market_id", type: UUID },
      { name: "version", type: "BIGINT" },
      { name: "at", type: TS },
      { name: "replace", type: "BOOLEAN" },
      { name: "bids", type: LEVELS, source: "VARCHAR", select: levels("bids") },
      { name: "asks", type: LEVELS, source: "VARCHAR", select: levels("asks") },
    ],
    // The levels text twice: DuckDB splits it into the two sides.
    copy: (r) => `
      SELECT c.outcome_id, o.market_id, c.version, c.at, c.replace, c.levels, c.levels
        FROM book_changes c
        LEFT JOIN outcomes o ON o.id = c.outcome_id
       WHERE c.at >= '${r.start}' AND c.at < '${r.end}'
       ORDER BY c.at, c.outcome_id, c.version`,
  },
  candles_1m: {
    name: "candles_1m",
    rows: "one row per outcome and minute with trades that day, ordered by start, then outcome_id",
    source: "csv",
    columns: [
      { name: "outcome_id", type: UUID },
      { name: "market_id", type: UUID },
      { name: "start", type: TS },
      { name: "open", type: "DECIMAL(4,3)" },
      { name: "high", type: "DECIMAL(4,3)" },
      { name: "low", type: "DECIMAL(4,3)" },
      { name: "close", type: "DECIMAL(4,3)" },
      { name: "volume", type: SHARES },
      { name: "notional", type: "DECIMAL(18,9)" },
      { name: "trades", type: "INTEGER" },
    ],
    // The day's trades aggregated as the candles of migration 0009 are (open and close by executed_at, id):
    // one walk of the day on trades_time_idx rather than a scan of every stored candle for its minutes.
    copy: (r) => `
      SELECT outcome_id, market_id, bucket, p[1], high, low, p[n], volume, notional, n
        FROM (SELECT outcome_id, market_id, date_bin('1 minute', executed_at, timestamptz 'epoch') AS bucket,
                     array_agg(price ORDER BY executed_at, id) AS p, max(price) AS high, min(price) AS low,
                     sum(shares) AS volume, sum(price * shares) AS notional, count(*)::int AS n
                FROM trades
               WHERE executed_at >= '${r.start}' AND executed_at < '${r.end}'
               GROUP BY 1, 2, 3) a
       ORDER BY bucket, outcome_id`,
  },
  markets: {
    name: "markets",
    rows: "one row per market created before the day's end, with its outcomes, ordered by id",
    source: "json",
    columns: [
      { name: "id", type: UUID },
      { name: "slug", type: "VARCHAR" },
      { name: "question", type: "VARCHAR" },
      { name: "description", type: "VARCHAR" },
      { name: "category", type: "VARCHAR" },
      { name: "sub_category", type: "VARCHAR" },
      { name: "type", type: "VARCHAR" },
      { name: "status", type: "VARCHAR" },
      { name: "trading_starts_at", type: TS },
      { name: "trading_ends_at", type: TS },
      { name: "resolution_date", type: TS },
      { name: "winning_outcome_id", type: UUID },
      { name: "resolved_at", type: TS },
      { name: "settled_at", type: TS },
      { name: "resolved_by", type: "VARCHAR" },
      { name: "resolution_source", type: "VARCHAR" },
      { name: "resolution_note", type: "VARCHAR" },
      { name: "platform_fee", type: "DECIMAL(7,6)" },
      { name: "spread", type: "INTEGER" },
      { name: "total_volume", type: "DECIMAL(30,6)" },
      { name: "image_url", type: "VARCHAR" },
      { name: "video_url", type: "VARCHAR" },
      { name: "video_poster_url", type: "VARCHAR" },
      { name: "video_source_url", type: "VARCHAR" },
      { name: "video_provider", type: "VARCHAR" },
      { name: "video_status", type: "VARCHAR" },
      { name: "external_source", type: "VARCHAR" },
      { name: "tags", type: "VARCHAR[]" },
      { name: "comments_count", type: "INTEGER" },
      { name: "views", type: "INTEGER" },
      { name: "verified", type: "BOOLEAN" },
      { name: "featured", type: "BOOLEAN" },
      { name: "created_at", type: TS },
      { name: "updated_at", type: TS },
      {
        name: "outcomes",
        type: "STRUCT(id UUID, name VARCHAR, side VARCHAR, index INTEGER, probability DECIMAL(5,2), description VARCHAR, image_url VARCHAR, color VARCHAR, question_id VARCHAR, condition_id VARCHAR, position_id VARCHAR, payout_wei VARCHAR, created_at TIMESTAMPTZ, updated_at TIMESTAMPTZ)[]",
      },
    ],
  },
};

/** read_csv's columns (the source types), the SELECT list that makes the file's columns, and what it reads from. */
export function duckColumns(spec: DatasetSpec): { columns: string; select: string; joined: string } {
  const read = spec.csv ?? spec.columns.map((c) => ({ name: c.name, type: c.source ?? c.type }));
  const columns = read.map((c) => `'${c.name}': '${c.type}'`).join(", ");
  const select = spec.columns.map((c) => (c.select ? `${c.select} AS "${c.name}"` : `src."${c.name}"`)).join(", ");
  // One row of lists beside each CSV row: a cross product with one row keeps the CSV's order.
  return { columns: `{${columns}}`, select, joined: spec.users ? ` CROSS JOIN ${USER_LISTS} u` : "" };
}
