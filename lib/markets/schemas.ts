// Zod schemas shared by route handlers, pages, client components and tests: the single source of
// the API's query rules and response shapes (public-read-api.md, decisions.md). No server-only imports.
import { z } from "zod";

// Enumerations live in a zod-free module so client code can import them without bundling zod.
export * from "./constants";
import { CATEGORIES, LIST_STATUSES, MARKET_STATUSES, MARKET_TYPES, OUTCOME_SIDES, SORT_BY, SORT_ORDER, type Category, type ListStatus, type SortBy, type SortOrder } from "./constants";

/** Any uuid PostgreSQL accepts (8-4-4-4-12 hex), not only RFC 4122 versions: producers choose ids. */
export const UUID_RE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
export const uuid = z.string().regex(UUID_RE, { error: "must be a UUID" });
export const isUuid = (s: string) => UUID_RE.test(s);

/** A query value as read from URLSearchParams: a string, or an array when the key repeats. */
export type RawQuery = Record<string, string | string[]>;

const oneOf = (name: string, values: readonly string[]) =>
  z.enum(values as [string, ...string[]], {
    error: `${name} must be one of the following values: ${values.join(", ")}`,
  });

const intParam = (name: string, min: number, max?: number) => {
  const notInt = { error: `${name} must be an integer number` };
  let n = z.number().min(min, { error: `${name} must not be less than ${min}` });
  if (max !== undefined) n = n.max(max, { error: `${name} must not be greater than ${max}` });
  // Only plain decimal digits: rejects "", " 5", "1.5", "1e2", "0x10" that Number() would accept.
  return z.string(notInt).regex(/^-?\d+$/, notInt).transform(Number).pipe(n);
};

// ---------------------------------------------------------------- GET /v1/markets query

import { LIST_DEFAULTS } from "./constants";

export const marketListQuery = z
  .strictObject(
    {
      status: oneOf("status", LIST_STATUSES).default(LIST_DEFAULTS.status),
      category: oneOf("category", CATEGORIES).optional(),
      subCategory: z
        .string({ error: "subCategory must be a string" })
        .max(50, { error: "subCategory must be shorter than or equal to 50 characters" })
        .optional(),
      q: z.string({ error: "q must be a string" }).optional(),
      sortBy: oneOf("sortBy", SORT_BY).default(LIST_DEFAULTS.sortBy),
      sortOrder: oneOf("sortOrder", SORT_ORDER).default(LIST_DEFAULTS.sortOrder),
      limit: intParam("limit", 1, 100).default(LIST_DEFAULTS.limit),
      offset: intParam("offset", 0).default(LIST_DEFAULTS.offset),
    },
    // Message per unknown key is produced by zodMessages() (NestJS whitelist wording).
    { error: "unknown parameter" },
  )
  .transform((q) => ({
    ...q,
    status: q.status as ListStatus,
    category: q.category as Category | undefined,
    sortBy: q.sortBy as SortBy,
    sortOrder: q.sortOrder as SortOrder,
  }));
export type MarketListQuery = z.output<typeof marketListQuery>;

// ---------------------------------------------------------------- outcomeId (book and history)

/** outcomeId: required, one plain string (an array is "required" too); malformed → 404 (decisions.md). */
export const outcomeIdParam = z.string({ error: "outcomeId is required" }).min(1, { error: "outcomeId is required" });

export const orderBookQuery = z.looseObject({ outcomeId: outcomeIdParam });
export type OrderBookQuery = z.output<typeof orderBookQuery>;

export const HISTORY_DEFAULT_WINDOW_S = 7 * 24 * 3600;
export const HISTORY_MAX_FIDELITY = 10080;
export const HISTORY_TRADE_CAP = 1000;

export const priceHistoryQuery = z
  .looseObject({
    outcomeId: outcomeIdParam,
    startTs: intParam("startTs", 0).optional(),
    endTs: intParam("endTs", 0).optional(),
    fidelity: intParam("fidelity", 1, HISTORY_MAX_FIDELITY).default(1),
  })
  .refine((q) => q.startTs === undefined || q.endTs === undefined || q.startTs <= q.endTs, {
    error: "startTs must not be greater than endTs",
    path: ["startTs"],
  });
export type PriceHistoryQuery = z.output<typeof priceHistoryQuery>;

// ---------------------------------------------------------------- responses (primary, snake_case)

const iso = z.string(); // ISO 8601 with offset, as PostgreSQL timestamptz → Date.toISOString()

export const outcomeSchema = z.object({
  id: uuid,
  market_id: uuid,
  name: z.string(),
  side: z.enum(OUTCOME_SIDES),
  index: z.number().int().min(0),
  probability: z.number().min(0).max(100),
  description: z.string().nullable(),
  image_url: z.string().nullable(),
  color: z.string().nullable(),
  question_id: z.string().nullable(),
  condition_id: z.string().nullable(),
  position_id: z.string().nullable(),
  payout_wei: z.string().nullable(),
  created_at: iso,
  updated_at: iso,
});
export type Outcome = z.infer<typeof outcomeSchema>;

const marketBase = z.object({
  id: uuid,
  slug: z.string(),
  question: z.string(),
  description: z.string(),
  category: z.enum(CATEGORIES),
  sub_category: z.string(),
  type: z.enum(MARKET_TYPES),
  status: z.enum(MARKET_STATUSES),
  trading_starts_at: iso,
  trading_ends_at: iso,
  resolution_date: iso.nullable(),
  winning_outcome_id: uuid.nullable(),
  winning_outcome: outcomeSchema.nullable(),
  resolved_at: iso.nullable(),
  settled_at: iso.nullable(),
  resolved_by: z.string().nullable(),
  resolution_source: z.string().nullable(),
  resolution_note: z.string().nullable(),
  platform_fee: z.number(),
  spread: z.number().int(),
  total_volume: z.number(),
  image_url: z.string(),
  video_url: z.string().nullable(),
  video_poster_url: z.string().nullable(),
  video_source_url: z.string().nullable(),
  video_provider: z.string().nullable(),
  video_status: z.string().nullable(),
  external_source: z.string().nullable(),
  tags: z.array(z.string()),
  views: z.number().int(),
  verified: z.boolean(),
  featured: z.boolean(),
  created_at: iso,
  updated_at: iso,
  outcomes: z.array(outcomeSchema),
});

export const marketListItemSchema = marketBase.extend({ comments_count: z.number().int().min(0) });
export type MarketListItem = z.infer<typeof marketListItemSchema>;

export const marketListResponseSchema = z.object({
  markets: z.array(marketListItemSchema),
  total: z.number().int().min(0),
  limit: z.number().int(),
  offset: z.number().int(),
});
export type MarketListResponse = z.infer<typeof marketListResponseSchema>;

export const userRefSchema = z.object({ id: uuid, username: z.string(), profile_image_url: z.string().nullable() });

export const commentSchema = z.object({
  id: uuid,
  user_id: uuid,
  content: z.string(),
  parent_id: uuid.nullable(),
  likes_count: z.number().int().min(0),
  is_liked: z.boolean(), // the public API has no viewer, so always false
  reply_count: z.number().int().min(0),
  created_at: iso,
  user: userRefSchema,
});
export type Comment = z.infer<typeof commentSchema>;

export const topTraderSchema = z.object({ username: z.string(), profile_image_url: z.string().nullable(), volume: z.number() });

export const marketDetailSchema = marketBase.extend({
  total_liquidity: z.number(),
  top_traders: z.array(topTraderSchema).max(10),
  comments: z.array(commentSchema).max(50),
  external_market_id: z.string().nullable(),
  price_market: z.record(z.string(), z.unknown()).optional(),
  predict_market: z.record(z.string(), z.unknown()).optional(),
  creator: userRefSchema.optional(),
});
export type MarketDetail = z.infer<typeof marketDetailSchema>;

export const bookLevelSchema = z.object({
  price: z.string().regex(/^\d+\.\d{3}$/),
  shares: z.string().regex(/^\d+\.\d{2}$/),
});
export type BookLevel = z.infer<typeof bookLevelSchema>;

export const orderBookSchema = z.object({
  outcome_id: uuid,
  outcome_side: z.string(),
  bids: z.array(bookLevelSchema),
  asks: z.array(bookLevelSchema),
});
export type OrderBook = z.infer<typeof orderBookSchema>;

export const pricePointSchema = z.object({ t: z.number().int(), p: z.number().min(0).max(1) });
export const priceHistorySchema = z.object({ history: z.array(pricePointSchema) });
export type PricePoint = z.infer<typeof pricePointSchema>;
export type PriceHistory = z.infer<typeof priceHistorySchema>;

export const errorBodySchema = z.object({
  statusCode: z.number().int(),
  message: z.union([z.string(), z.array(z.string())]),
  error: z.string(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
