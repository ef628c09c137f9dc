// The rows our queries select, typed as postgres.js hands them back (uuid, text and enums → string,
// numeric → string, integer → number, timestamptz → Date, text[] → string[], jsonb → parsed), with
// the column lists that select them. The compiler checks that a list names every field of its row.
// Markets and outcomes are the exception for timestamps: their lists select them as ISO text (IsoTime).
import type { Category, MarketStatus } from "./constants";

type MarketType = "BINARY" | "MULTI";
type Side = "YES" | "NO";

/**
 * A column list for row type R: names only fields of R and every one of them. A missing column is
 * a compile error that names it.
 */
export function columnsOf<R>() {
  return <const C extends readonly (keyof R & string)[]>(
    ...columns: C & ([Exclude<keyof R, C[number]>] extends [never] ? unknown : { missing: Exclude<keyof R, C[number]> })
  ): readonly (keyof R & string)[] => columns;
}

/**
 * A timestamptz that PostgreSQL formats as the API prints it, exactly what Date.toISOString() gives
 * (UTC, milliseconds truncated, "Z"), for years 1 to 9999; outside them, PostgreSQL's own text
 * (lib/markets/sql/fragments.ts). Markets and outcomes are read by the thousand for the long
 * tail of lists: a Date made from text, only to be made into text again, was 5% of the main thread
 * in the `wide` mix (docs/performance.md, "List mixes against bare SQL and PostGraphile").
 */
export type IsoTime = string;

/** The columns of MarketRow and OutcomeRow selected as IsoTime. */
export const ISO_TIME_COLUMNS: ReadonlySet<string> = new Set([
  "trading_starts_at",
  "trading_ends_at",
  "resolution_date",
  "resolved_at",
  "settled_at",
  "created_at",
  "updated_at",
]);

export interface MarketRow {
  id: string;
  slug: string;
  question: string;
  description: string;
  category: Category;
  sub_category: string;
  type: MarketType;
  status: MarketStatus;
  trading_starts_at: IsoTime;
  trading_ends_at: IsoTime;
  resolution_date: IsoTime | null;
  winning_outcome_id: string | null;
  resolved_at: IsoTime | null;
  settled_at: IsoTime | null;
  resolved_by: string | null;
  resolution_source: string | null;
  resolution_note: string | null;
  platform_fee: string;
  spread: number;
  total_volume: string;
  image_url: string;
  video_url: string | null;
  video_poster_url: string | null;
  video_source_url: string | null;
  video_provider: string | null;
  video_status: string | null;
  external_source: string | null;
  tags: string[];
  views: number;
  verified: boolean;
  featured: boolean;
  created_at: IsoTime;
  updated_at: IsoTime;
  comments_count: number;
}

export const MARKET_COLUMNS = columnsOf<MarketRow>()(
  "id",
  "slug",
  "question",
  "description",
  "category",
  "sub_category",
  "type",
  "status",
  "trading_starts_at",
  "trading_ends_at",
  "resolution_date",
  "winning_outcome_id",
  "resolved_at",
  "settled_at",
  "resolved_by",
  "resolution_source",
  "resolution_note",
  "platform_fee",
  "spread",
  "total_volume",
  "image_url",
  "video_url",
  "video_poster_url",
  "video_source_url",
  "video_provider",
  "video_status",
  "external_source",
  "tags",
  "views",
  "verified",
  "featured",
  "created_at",
  "updated_at",
  "comments_count",
);

/** One market as the detail endpoints read it: the list row plus the fields only they serve. */
export interface MarketDetailRow extends MarketRow {
  total_liquidity: string;
  external_market_id: string | null;
  price_market: Record<string, unknown> | null;
  predict_market: Record<string, unknown> | null;
  creator_id: string | null;
}

export const MARKET_DETAIL_COLUMNS = columnsOf<MarketDetailRow>()(
  ...MARKET_COLUMNS,
  "total_liquidity",
  "external_market_id",
  "price_market",
  "predict_market",
  "creator_id",
);

export interface OutcomeRow {
  id: string;
  market_id: string;
  name: string;
  side: Side;
  index: number;
  probability: string;
  description: string | null;
  image_url: string | null;
  color: string | null;
  question_id: string | null;
  condition_id: string | null;
  position_id: string | null;
  payout_wei: string | null;
  created_at: IsoTime;
  updated_at: IsoTime;
}

export const OUTCOME_COLUMNS = columnsOf<OutcomeRow>()(
  "id",
  "market_id",
  "name",
  "side",
  "index",
  "probability",
  "description",
  "image_url",
  "color",
  "question_id",
  "condition_id",
  "position_id",
  "payout_wei",
  "created_at",
  "updated_at",
);

/** A comment with its author (comments ⋈ users) and its maintained reply count. */
export interface CommentRow {
  id: string;
  user_id: string;
  content: string;
  parent_id: string | null;
  likes_count: number;
  reply_count: number;
  created_at: Date;
  username: string;
  profile_image_url: string | null;
}

export interface TopTraderRow {
  username: string;
  profile_image_url: string | null;
  /** Rounded to 6 decimals, as text. */
  volume: string;
}

export interface UserRefRow {
  id: string;
  username: string;
  profile_image_url: string | null;
}

/** A row as PostgreSQL's json_agg hands it over: timestamps as ISO text, the rest as in R (numerics sent as text). */
export type JsonRow<R> = { [K in keyof R]: R[K] extends Date ? string : R[K] };

/**
 * One market with everything its detail shows, read in one statement: the parts come as JSON, each
 * list already ordered, creator null when the market has none.
 */
export interface MarketDetailPartsRow extends MarketDetailRow {
  outcomes: JsonRow<OutcomeRow>[];
  comments: JsonRow<CommentRow>[];
  top_traders: TopTraderRow[];
  creator: UserRefRow | null;
}

/** One sub-category present for a status and category, with its market count (from market_counts): what the list's sub-category choice offers. */
export interface SubCategoryCount {
  sub_category: string;
  count: number;
}
export type SubCategories = SubCategoryCount[];

/** One trade of the tape with both parties (trades ⋈ users twice); numerics as text. */
export interface TradeRow {
  id: string;
  outcome_id: string;
  price: string;
  shares: string;
  /** round(price × shares, 6). */
  notional: string;
  executed_at: Date;
  /** executed_at in microseconds since 1970, as text: the cursor keeps what a Date would round away. */
  us: string;
  maker_id: string | null;
  maker_username: string | null;
  taker_id: string | null;
  taker_username: string | null;
}

// ---------------------------------------------------------------- candles

/** One candle of one outcome as the candles query selects it (prices and sums as exact numeric text). */
export interface CandleRow {
  outcome_id: string;
  /** Unix seconds of the newest stored bucket before the answered window, when the window was cut. */
  older: number | null;
  /** Null on the one row of an outcome without candles in the window. */
  start: number | null;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
  notional: string;
  trades: number;
}

/**
 * The SQL type of each column an import file (docs/import.md "markets") or the ingest stream (docs/ingest.md)
 * writes of a market: how jsonb_to_recordset reads a batch of them.
 */
export const MARKET_FILE_TYPES: Record<string, string> = {
  id: "uuid",
  slug: "text",
  question: "text",
  description: "text",
  category: "market_category",
  sub_category: "text",
  type: "market_type",
  status: "market_status",
  trading_starts_at: "timestamptz",
  trading_ends_at: "timestamptz",
  resolution_date: "timestamptz",
  winning_outcome_id: "uuid",
  resolved_at: "timestamptz",
  settled_at: "timestamptz",
  resolved_by: "text",
  resolution_source: "text",
  resolution_note: "text",
  platform_fee: "numeric",
  spread: "integer",
  total_volume: "numeric",
  image_url: "text",
  video_url: "text",
  video_poster_url: "text",
  video_source_url: "text",
  video_provider: "text",
  video_status: "text",
  external_source: "text",
  external_market_id: "text",
  tags: "text[]",
  views: "integer",
  verified: "boolean",
  featured: "boolean",
  creator_id: "uuid",
  price_market: "jsonb",
  predict_market: "jsonb",
};

/** The same for an outcome (docs/import.md "outcomes"). */
export const OUTCOME_FILE_TYPES: Record<string, string> = {
  id: "uuid",
  market_id: "uuid",
  name: "text",
  side: "outcome_side",
  index: "integer",
  probability: "numeric",
  description: "text",
  image_url: "text",
  color: "text",
  question_id: "text",
  condition_id: "text",
  position_id: "text",
  payout_wei: "text",
};
