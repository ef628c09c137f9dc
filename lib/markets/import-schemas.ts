// Zod schemas of the import file (docs/import.md): one row shape per table, decimal strings checked
// by regex so nothing passes through floating point. Cross-row rules live in lib/import/import.ts,
// which also knows what the database already holds. No server-only imports.
import { z } from "zod";
import { SLUG_RE } from "./constants";
import { CATEGORIES, MARKET_STATUSES, MARKET_TYPES, OUTCOME_SIDES, uuid } from "./schemas";
import { isSafeUrl, SAFE_URL_RULE } from "./urls";

/** "expected A, B or C" for an enum. */
export const expectedOneOf = (values: readonly string[]) =>
  `expected ${values.length > 1 ? `${values.slice(0, -1).join(", ")} or ${values[values.length - 1]}` : values[0]}`;
const oneOf = <const T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { error: expectedOneOf(values) });

const timestamp = z.iso.datetime({ offset: true, error: "expected an ISO 8601 timestamp with offset" });
const text = (max?: number) => {
  const s = z.string({ error: "expected a string" });
  return max === undefined ? s : s.max(max, { error: `must be at most ${max} characters` });
};
const nonEmpty = (max?: number) => text(max).min(1, { error: "must not be empty" });
const int = (min: number, max?: number) => {
  const n = z
    .number({ error: "expected an integer" })
    .int({ error: "expected an integer" })
    .min(min, { error: `must be >= ${min}` });
  return max === undefined ? n : n.max(max, { error: `must be <= ${max}` });
};
/** A URL handed to browsers and third parties as is: http(s) or relative, never javascript: or data:. */
const url = () => text().refine(isSafeUrl, { error: SAFE_URL_RULE });
const decimal = (re: RegExp, error: string) => z.string({ error }).regex(re, { error });

// Decimal quantities, as the regexes of docs/import.md's bounds (and the columns' precision).
export const DECIMAL = {
  /** 0.001..0.999, at most 3 decimals. */
  orderPrice: /^0?\.(?=\d{0,2}[1-9])\d{1,3}$/,
  /** 0..1, at most 3 decimals. */
  tradePrice: /^(?:0(?:\.\d{1,3})?|\.\d{1,3}|1(?:\.0{1,3})?)$/,
  /** > 0, at most 2 decimals (numeric(20,2)). */
  orderShares: /^(?=.*[1-9])\d{1,18}(?:\.\d{1,2})?$/,
  /** >= 0, at most 2 decimals. */
  filledShares: /^\d{1,18}(?:\.\d{1,2})?$/,
  /** > 0, at most 6 decimals (numeric(30,6)). */
  tradeShares: /^(?=.*[1-9])\d{1,24}(?:\.\d{1,6})?$/,
  /** 0..100, at most 2 decimals. */
  probability: /^(?:\d{1,2}(?:\.\d{1,2})?|100(?:\.0{1,2})?)$/,
  /** 0 <= fee < 1, at most 6 decimals (numeric(7,6)). */
  platformFee: /^(?:0(?:\.\d{1,6})?|\.\d{1,6})$/,
  /** >= 0, at most 6 decimals (numeric(30,6)). */
  volume: /^\d{1,24}(?:\.\d{1,6})?$/,
  /** A non-negative integer as a decimal string (wei, ERC-1155 ids). */
  integer: /^[0-9]+$/,
} as const;

export const importUserSchema = z.strictObject({
  id: uuid,
  username: nonEmpty(64),
  profile_image_url: url().nullable(),
});

export const importOutcomeSchema = z.strictObject({
  id: uuid,
  /** Taken from the parent market; tolerated when it repeats the parent's id (checked in the second pass). */
  market_id: uuid.optional(),
  name: nonEmpty(),
  side: oneOf(OUTCOME_SIDES),
  index: int(0),
  probability: decimal(DECIMAL.probability, "expected a decimal string 0..100 with at most 2 decimals"),
  description: text().nullable(),
  image_url: url().nullable(),
  color: text().nullable(),
  question_id: text().nullable(),
  condition_id: text().nullable(),
  position_id: decimal(DECIMAL.integer, "expected a decimal integer string").nullable(),
  payout_wei: decimal(DECIMAL.integer, "expected a decimal integer string (wei)").nullable(),
  created_at: timestamp.optional(),
  updated_at: timestamp.optional(),
});

export const importCommentSchema = z.strictObject({
  id: uuid,
  user_id: uuid,
  content: nonEmpty(5000),
  parent_id: uuid.nullable(),
  likes_count: int(0).default(0),
  created_at: timestamp,
});

const derived = z.never({ error: "is derived from the other rows; leave it out" }).optional();

export const importMarketSchema = z
  .strictObject({
    id: uuid,
    slug: z.string({ error: "expected a string" }).regex(SLUG_RE, { error: "expected 1..200 characters of a-z, 0-9 and -" }),
    question: nonEmpty(),
    description: text(),
    category: oneOf(CATEGORIES),
    sub_category: text(),
    type: oneOf(MARKET_TYPES),
    status: oneOf(MARKET_STATUSES),
    trading_starts_at: timestamp,
    trading_ends_at: timestamp,
    resolution_date: timestamp.nullable(),
    winning_outcome_id: uuid.nullable(),
    resolved_at: timestamp.nullable(),
    settled_at: timestamp.nullable(),
    resolved_by: text().nullable(),
    resolution_source: text().nullable(),
    resolution_note: text().nullable(),
    platform_fee: decimal(DECIMAL.platformFee, "expected a decimal string 0 <= fee < 1 with at most 6 decimals"),
    spread: int(1, 99),
    total_volume: decimal(DECIMAL.volume, "expected a decimal string >= 0 with at most 6 decimals"),
    image_url: url(),
    video_url: url().nullable().default(null),
    video_poster_url: url().nullable().default(null),
    video_source_url: url().nullable().default(null),
    video_provider: text().nullable().default(null),
    video_status: text().nullable().default(null),
    external_source: nonEmpty().nullable().default(null),
    tags: z.array(text(), { error: "expected an array of strings" }).default([]),
    views: int(0).default(0),
    verified: z.boolean({ error: "expected true or false" }).default(false),
    featured: z.boolean({ error: "expected true or false" }).default(false),
    created_at: timestamp,
    updated_at: timestamp,
    outcomes: z.array(importOutcomeSchema, { error: "expected an array of outcomes" }).min(2, { error: "a market needs at least 2 outcomes" }),
    comments: z.array(importCommentSchema, { error: "expected an array of comments" }).default([]),
    // optional extras
    creator_id: uuid.nullable().optional(),
    external_market_id: text().nullable().optional(),
    price_market: z.record(z.string(), z.unknown(), { error: "expected an object" }).nullable().optional(),
    predict_market: z.record(z.string(), z.unknown(), { error: "expected an object" }).nullable().optional(),
    // derived: never imported
    winning_outcome: derived,
    comments_count: derived,
    total_liquidity: derived,
    top_traders: derived,
  })
  // Row-local rules (the database enforces the same; checking here names the JSON path).
  .superRefine((m, ctx) => {
    if (Date.parse(m.trading_ends_at) < Date.parse(m.trading_starts_at))
      ctx.addIssue({ code: "custom", path: ["trading_ends_at"], message: "must not be before trading_starts_at" });
    if (m.status === "RESOLVED") {
      if (m.winning_outcome_id === null) ctx.addIssue({ code: "custom", path: ["winning_outcome_id"], message: "is required when status is RESOLVED" });
      if (m.resolved_at === null) ctx.addIssue({ code: "custom", path: ["resolved_at"], message: "is required when status is RESOLVED" });
    } else if (m.winning_outcome_id !== null) {
      ctx.addIssue({ code: "custom", path: ["winning_outcome_id"], message: "must be null unless status is RESOLVED" });
    }
    if (m.status === "CANCELLED") {
      if (m.settled_at === null) ctx.addIssue({ code: "custom", path: ["settled_at"], message: "is required when status is CANCELLED" });
      if (m.resolved_at !== null) ctx.addIssue({ code: "custom", path: ["resolved_at"], message: "must be null when status is CANCELLED" });
    }
  });

/** Scaled integer of a decimal string (e.g. "12.5" at scale 2 → 1250n), for exact comparisons. */
export function scaled(value: string, scale: number): bigint {
  const [whole, frac = ""] = value.split(".");
  return BigInt((whole || "0") + frac.padEnd(scale, "0").slice(0, scale));
}

export const ORDER_SIDES = ["BUY", "SELL"] as const;
export const ORDER_TYPES = ["LIMIT", "MARKET"] as const;
export const ORDER_STATUSES = ["OPEN", "PARTIALLY_FILLED", "FILLED", "CANCELLED"] as const;

export const importOrderSchema = z
  .strictObject({
    id: uuid,
    market_id: uuid,
    outcome_id: uuid,
    user_id: uuid,
    side: oneOf(ORDER_SIDES),
    type: oneOf(ORDER_TYPES),
    price: decimal(DECIMAL.orderPrice, "expected a decimal string 0.001..0.999 with at most 3 decimals"),
    shares: decimal(DECIMAL.orderShares, "expected a decimal string > 0 with at most 2 decimals"),
    filled_shares: decimal(DECIMAL.filledShares, "expected a decimal string >= 0 with at most 2 decimals"),
    status: oneOf(ORDER_STATUSES),
    created_at: timestamp,
  })
  .superRefine((o, ctx) => {
    const filled = scaled(o.filled_shares, 2);
    const shares = scaled(o.shares, 2);
    if (filled > shares) ctx.addIssue({ code: "custom", path: ["filled_shares"], message: "must not exceed shares" });
    else if (o.status === "FILLED" && filled !== shares)
      ctx.addIssue({ code: "custom", path: ["filled_shares"], message: "must equal shares when status is FILLED" });
    else if (o.status === "OPEN" && filled !== 0n) ctx.addIssue({ code: "custom", path: ["filled_shares"], message: "must be 0 when status is OPEN" });
  });

export const importTradeSchema = z.strictObject({
  id: uuid,
  market_id: uuid,
  outcome_id: uuid,
  price: decimal(DECIMAL.tradePrice, "expected a decimal string 0..1 with at most 3 decimals"),
  shares: decimal(DECIMAL.tradeShares, "expected a decimal string > 0 with at most 6 decimals"),
  maker_user_id: uuid.nullable(),
  taker_user_id: uuid.nullable(),
  executed_at: timestamp,
});

// Venue levels pass through as sent, but must be numbers in decimal-string form for the liquidity sum.
const venueDecimal = decimal(/^\d+(?:\.\d+)?$/, "expected a non-negative decimal string");
const bookLevel = z.strictObject({ price: venueDecimal, shares: venueDecimal });

export const importExternalBookSchema = z.strictObject({
  outcome_id: uuid,
  bids: z.array(bookLevel, { error: "expected an array of {price, shares}" }),
  asks: z.array(bookLevel, { error: "expected an array of {price, shares}" }),
  updated_at: timestamp,
});

export const importFileSchema = z.strictObject(
  {
    users: z.array(importUserSchema, { error: "expected an array of users" }).default([]),
    markets: z.array(importMarketSchema, { error: "expected an array of markets" }).default([]),
    orders: z.array(importOrderSchema, { error: "expected an array of orders" }).default([]),
    trades: z.array(importTradeSchema, { error: "expected an array of trades" }).default([]),
    external_books: z.array(importExternalBookSchema, { error: "expected an array of external books" }).default([]),
  },
  { error: "expected an object with users, markets, orders, trades and external_books" },
);

export type ImportFile = z.output<typeof importFileSchema>;
export type ImportUser = ImportFile["users"][number];
export type ImportMarket = ImportFile["markets"][number];
export type ImportOutcome = ImportMarket["outcomes"][number];
export type ImportComment = ImportMarket["comments"][number];
export type ImportOrder = ImportFile["orders"][number];
export type ImportTrade = ImportFile["trades"][number];
export type ImportExternalBook = ImportFile["external_books"][number];
