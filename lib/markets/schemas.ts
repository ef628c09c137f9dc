// Zod schemas shared by route handlers, pages, client components and tests: the single source of
// the API's query rules and response shapes (docs/api.md). No server-only imports.
import { z } from "zod";

// Enumerations live in a zod-free module so client code can import them without bundling zod.
export * from "./constants";
import {
  BATCH_MAX_IDS,
  CATEGORIES,
  LIST_STATUSES,
  MARKET_STATUSES,
  MARKET_TYPES,
  OUTCOME_SIDES,
  SORT_BY,
  SORT_ORDER,
  type Category,
  type ListStatus,
  type SortBy,
  type SortOrder,
} from "./constants";

/** Any uuid PostgreSQL accepts (8-4-4-4-12 hex), not only RFC 4122 versions: producers choose ids. */
export const UUID_RE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
export const uuid = z.string().regex(UUID_RE, { error: "must be a UUID" }).meta({ format: "uuid" });
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
  return (
    z
      .string(notInt)
      .regex(/^-?\d+$/, notInt)
      .transform(Number)
      .pipe(n)
      // Documented as what it is to a client, an integer in range (the string form is a detail of query strings).
      .meta({
        override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
          delete jsonSchema.pattern;
          Object.assign(jsonSchema, { type: "integer", minimum: min }, max === undefined ? {} : { maximum: max });
        },
      })
  );
};

/** An intParam with a default, documented too (JSON Schema's input view drops defaults of transformed values). */
const intParamWithDefault = (name: string, min: number, max: number | undefined, value: number, description: string) =>
  intParam(name, min, max)
    .default(value)
    .meta({
      description,
      override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
        jsonSchema.default = value;
      },
    });

// ---------------------------------------------------------------- GET /v1/markets query

import { LIST_DEFAULTS } from "./constants";

/** The list query as an object (documented as query parameters); marketListQuery adds the narrowed types. */
export const marketListQueryObject = z.strictObject(
  {
    status: oneOf("status", LIST_STATUSES)
      .default(LIST_DEFAULTS.status)
      .meta({ description: "Markets in this state only. LOCKED and PENDING are rejected with 400." }),
    category: oneOf("category", CATEGORIES).optional().meta({ description: "Markets of this category only." }),
    subCategory: z
      .string({ error: "subCategory must be a string" })
      .max(50, { error: "subCategory must be shorter than or equal to 50 characters" })
      .optional()
      .meta({ description: "Exact match against the stored raw sub-category.", example: "Bitcoin" }),
    q: z
      .string({ error: "q must be a string" })
      .optional()
      .meta({ description: "Case-insensitive substring match over question and description.", example: "election" }),
    sortBy: oneOf("sortBy", SORT_BY)
      .default(LIST_DEFAULTS.sortBy)
      .meta({
        description:
          "VOLUME: total volume. LIQUIDITY: total liquidity. CREATED: creation time. ENDING: trading end. " +
          "TRENDING: traded volume of the last 24 hours. Ties are broken by id in the same direction.",
      }),
    sortOrder: oneOf("sortOrder", SORT_ORDER).default(LIST_DEFAULTS.sortOrder).meta({ description: "Sort direction." }),
    limit: intParamWithDefault("limit", 1, 100, LIST_DEFAULTS.limit, "Page size; outside 1..100 is a 400."),
    offset: intParamWithDefault(
      "offset",
      0,
      undefined,
      LIST_DEFAULTS.offset,
      "Items to skip. The next page starts at offset + limit; the list is done when that is >= total.",
    ),
  },
  // Message per unknown key is produced by zodMessages() (NestJS whitelist wording).
  { error: "unknown parameter" },
);

export const marketListQuery = marketListQueryObject.transform((q) => ({
  ...q,
  status: q.status as ListStatus,
  category: q.category as Category | undefined,
  sortBy: q.sortBy as SortBy,
  sortOrder: q.sortOrder as SortOrder,
}));
export type MarketListQuery = z.output<typeof marketListQuery>;

// ---------------------------------------------------------------- outcomeId (book and history)

/** outcomeId: required, one plain string (an array is "required" too); malformed → 404 (docs/api.md "Ids"). */
export const outcomeIdParam = z
  .string({ error: "outcomeId is required" })
  .min(1, { error: "outcomeId is required" })
  .meta({
    description: "An outcomes[].id of the market, given once. Missing or repeated: 400. Unknown or malformed: 404. " + "An outcome of another market: 400.",
    example: "3f1c2a4e-8b7d-4c1e-9a2f-5d6e7f8a9b0c",
  });

export const orderBookQuery = z.looseObject({ outcomeId: outcomeIdParam });
export type OrderBookQuery = z.output<typeof orderBookQuery>;

export const HISTORY_DEFAULT_WINDOW_S = 7 * 24 * 3600;
export const HISTORY_MAX_FIDELITY = 10080;
export const HISTORY_TRADE_CAP = 1000;

export const priceHistoryQuery = z
  .looseObject({
    outcomeId: outcomeIdParam,
    startTs: intParam("startTs", 0).optional().meta({
      description:
        "Start of the window, unix seconds. Default: now minus 7 days, whatever endTs is (an older endTs then gives an empty window). Must not exceed endTs.",
    }),
    endTs: intParam("endTs", 0).optional().meta({ description: "End of the window, unix seconds. Default: now." }),
    fidelity: intParamWithDefault(
      "fidelity",
      1,
      HISTORY_MAX_FIDELITY,
      1,
      "Bucket size in minutes (1 .. 10080, one week). Each point is the last trade price of its bucket.",
    ),
  })
  .refine((q) => q.startTs === undefined || q.endTs === undefined || q.startTs <= q.endTs, {
    error: "startTs must not be greater than endTs",
    path: ["startTs"],
  });
export type PriceHistoryQuery = z.output<typeof priceHistoryQuery>;

// ---------------------------------------------------------------- responses (primary, snake_case)
// `.meta({ id })` names an OpenAPI component (lib/api/openapi.ts); descriptions end up in /docs.

// ISO 8601 with offset, as PostgreSQL timestamptz → Date.toISOString()
const iso = z.string().meta({ format: "date-time", example: "2025-06-01T12:00:00.000Z" });
const nullableText = (description: string) => z.string().nullable().meta({ description });

export const outcomeSchema = z
  .object({
    id: uuid.meta({ description: "Outcome id; the outcomeId of order-book and price-history requests." }),
    market_id: uuid.meta({ description: "Parent market." }),
    name: z.string().meta({ example: "Yes" }),
    side: z.enum(OUTCOME_SIDES),
    index: z.number().int().min(0).meta({ description: "Display order, starting at 0." }),
    probability: z
      .number()
      .min(0)
      .max(100)
      .meta({
        description: "Percent 0..100 with two decimals (not the 0..1 price of book and history). " + "On a settled market it follows the payout.",
        example: 63.45,
      }),
    description: z.string().nullable(),
    image_url: z.string().nullable(),
    color: z.string().nullable(),
    question_id: nullableText("On-chain identifier; null until the market is registered on-chain."),
    condition_id: nullableText("On-chain identifier; null until the market is registered on-chain."),
    position_id: nullableText("ERC-1155 position id as a decimal string; null until registered on-chain."),
    payout_wei: nullableText("Per-share payout in 18-decimal wei; written at settlement, null otherwise."),
    created_at: iso,
    updated_at: iso,
  })
  .meta({ id: "Outcome" });
export type Outcome = z.infer<typeof outcomeSchema>;

const marketBase = z.object({
  id: uuid,
  slug: z.string().meta({ example: "will-btc-close-above-100k-in-2025" }),
  question: z.string(),
  description: z.string(),
  category: z.enum(CATEGORIES),
  sub_category: z.string().meta({ description: "Raw stored value; the subCategory filter matches it exactly." }),
  type: z.enum(MARKET_TYPES),
  status: z.enum(MARKET_STATUSES),
  trading_starts_at: iso,
  trading_ends_at: iso,
  resolution_date: iso.nullable(),
  winning_outcome_id: uuid.nullable().meta({ description: "Set once resolved." }),
  winning_outcome: outcomeSchema.nullable().meta({ description: "The winning outcome once resolved; null before." }),
  resolved_at: iso.nullable().meta({ description: "Null until resolved; not set for cancelled markets." }),
  settled_at: iso.nullable().meta({ description: "When resolution or cancellation landed on chain; null while open." }),
  resolved_by: z.string().nullable(),
  resolution_source: z.string().nullable(),
  resolution_note: z.string().nullable(),
  platform_fee: z.number().meta({ description: "Taker fee rate as a fraction (0.02 means 2%).", example: 0.02 }),
  spread: z.number().int().meta({ description: "Price tick in cents (1 means $0.01).", example: 1 }),
  total_volume: z.number().meta({ description: "Cumulative traded volume in USDT (a decimal number, not wei).", example: 12500.5 }),
  image_url: z.string(),
  video_url: z.string().nullable(),
  video_poster_url: z.string().nullable(),
  video_source_url: z.string().nullable(),
  video_provider: z.string().nullable(),
  video_status: z.string().nullable(),
  external_source: nullableText("Null for native markets; the venue's name for a mirrored market."),
  tags: z.array(z.string()),
  views: z.number().int(),
  verified: z.boolean(),
  featured: z.boolean(),
  created_at: iso,
  updated_at: iso,
  outcomes: z.array(outcomeSchema),
});

export const marketListItemSchema = marketBase
  .extend({ comments_count: z.number().int().min(0) })
  .meta({ id: "MarketListItem", description: "A market as listed." });
export type MarketListItem = z.infer<typeof marketListItemSchema>;

export const marketListResponseSchema = z
  .object({
    markets: z.array(marketListItemSchema),
    total: z.number().int().min(0).meta({ description: "Number of markets after filters." }),
    limit: z.number().int().meta({ description: "The limit of the request, or the default." }),
    offset: z.number().int().meta({ description: "The offset of the request, or 0." }),
  })
  .meta({ id: "MarketList", description: "The offset-pagination envelope." });
export type MarketListResponse = z.infer<typeof marketListResponseSchema>;

export const userRefSchema = z.object({ id: uuid, username: z.string(), profile_image_url: z.string().nullable() }).meta({ id: "UserRef" });

export const commentSchema = z
  .object({
    id: uuid,
    user_id: uuid,
    content: z.string(),
    parent_id: uuid.nullable().meta({ description: "The comment this one replies to." }),
    likes_count: z.number().int().min(0),
    is_liked: z.boolean().meta({ description: "Always false: the public API has no viewer." }),
    reply_count: z.number().int().min(0),
    created_at: iso,
    user: userRefSchema,
  })
  .meta({ id: "Comment" });
export type Comment = z.infer<typeof commentSchema>;

export const topTraderSchema = z
  .object({
    username: z.string(),
    profile_image_url: z.string().nullable(),
    volume: z.number().meta({ description: "Traded volume in USDT on this market." }),
  })
  .meta({ id: "TopTrader" });

export const marketDetailSchema = marketBase
  .extend({
    total_liquidity: z.number().meta({ description: "USDT resting on the book." }),
    top_traders: z.array(topTraderSchema).max(10),
    comments: z.array(commentSchema).max(50).meta({ description: "The 50 most recent comments, newest first." }),
    external_market_id: nullableText("Identifier at the external venue."),
    price_market: z.record(z.string(), z.unknown()).optional().meta({ description: "Present when the market is a price market." }),
    predict_market: z.record(z.string(), z.unknown()).optional().meta({ description: "Present when the market is mirrored." }),
    creator: userRefSchema.optional().meta({ description: "Present when a user created the market." }),
  })
  .meta({ id: "MarketDetail", description: "One market: a list item without comments_count, plus these fields." });
export type MarketDetail = z.infer<typeof marketDetailSchema>;

export const bookLevelSchema = z
  .object({
    price: z
      .string()
      .regex(/^\d+\.\d{3}$/)
      .meta({ description: "0..1 price, three decimals.", example: "0.550" }),
    shares: z
      .string()
      .regex(/^\d+\.\d{2}$/)
      .meta({ description: "Total shares at this price, two decimals.", example: "120.00" }),
  })
  .meta({ id: "BookLevel" });
export type BookLevel = z.infer<typeof bookLevelSchema>;

export const orderBookSchema = z
  .object({
    outcome_id: uuid,
    outcome_side: z.string().meta({ description: "Display label '<outcome name> - <side>'; not an enum.", example: "Yes - YES" }),
    bids: z.array(bookLevelSchema).meta({ description: "Buy orders, highest price first." }),
    asks: z.array(bookLevelSchema).meta({ description: "Sell orders, lowest price first." }),
  })
  .meta({ id: "OrderBook" });
export type OrderBook = z.infer<typeof orderBookSchema>;

export const pricePointSchema = z
  .object({
    t: z.number().int().meta({ description: "Unix seconds, start of the bucket." }),
    p: z.number().min(0).max(1).meta({ description: "Last trade price in the bucket, 0..1." }),
  })
  .meta({ id: "PricePoint" });
export const priceHistorySchema = z.object({ history: z.array(pricePointSchema) }).meta({ id: "PriceHistory" });
export type PricePoint = z.infer<typeof pricePointSchema>;
export type PriceHistory = z.infer<typeof priceHistorySchema>;

export const errorBodySchema = z
  .object({
    statusCode: z.number().int(),
    message: z.union([z.string(), z.array(z.string())]).meta({
      description: "Query validation failures carry one string per problem; everything else one string.",
    }),
    error: z.string().meta({ example: "Bad Request" }),
  })
  .meta({
    id: "ErrorBody",
    description: "Every 4xx/5xx body.",
    examples: [
      { statusCode: 400, message: ["property foo should not exist"], error: "Bad Request" },
      { statusCode: 404, message: "Market not found: 0b7c6c1e-3f0a-4d55-9b1e-2a7f5c9d8e01", error: "Not Found" },
    ],
  });
export type ErrorBody = z.infer<typeof errorBodySchema>;

// ---------------------------------------------------------------- responses (variant, camelCase: docs/api.md "The camelCase variant")
// Served for `Accept: application/vnd.markets.camel+json`; lib/markets/camel.ts maps the primary shape to it.
// Derived from the primary schemas: every key camelCased, then only the fields whose type changes are restated.

export const CAMEL_MEDIA_TYPE = "application/vnd.markets.camel+json";

/** A snake_case key camelCased at the type level, as `camelCase` does at run time. */
export type CamelCase<S extends string> = S extends `${infer H}_${infer T}` ? `${H}${Capitalize<CamelCase<T>>}` : S;
type CamelShape<S extends z.ZodRawShape> = { [K in keyof S as CamelCase<K & string>]: S[K] };

export const camelCase = (key: string) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

function camelize<S extends z.ZodRawShape, O extends Record<string, z.ZodType>>(
  schema: z.ZodObject<S>,
  // Only keys of the camelCased shape may be restated.
  overrides: O & { [K in Exclude<keyof O, keyof CamelShape<S>>]: never },
) {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, field] of Object.entries(schema.shape)) shape[camelCase(key)] = (overrides as Record<string, z.ZodType>)[camelCase(key)] ?? field;
  return z.object(shape) as unknown as z.ZodObject<Omit<CamelShape<S>, keyof O> & O>;
}

/** A decimal quantity as a string, so no client float rounds it. */
const decimalString = (description: string, example: string) =>
  z
    .string()
    .regex(/^-?\d+(\.\d+)?$/)
    .meta({ description, example });

export const camelUserRefSchema = camelize(userRefSchema, {}).meta({ id: "CamelUserRef" });

export const camelOutcomeSchema = camelize(outcomeSchema, {
  probability: z
    .string()
    .regex(/^(0\.\d{4}|1\.0000)$/)
    .meta({ description: "0..1 probability, four decimals.", example: "0.6345" }),
}).meta({ id: "CamelOutcome" });

const camelMarketOverrides = {
  winningOutcome: camelOutcomeSchema.nullable(),
  platformFee: decimalString("Taker fee rate as a fraction.", "0.02"),
  spread: decimalString("Price tick in cents.", "1"),
  totalVolume: decimalString("Cumulative traded volume in USDC.", "12500.5"),
  outcomes: z.array(camelOutcomeSchema),
};

export const camelMarketListItemSchema = camelize(marketListItemSchema, camelMarketOverrides).meta({ id: "CamelMarketListItem" });

export const camelMarketListResponseSchema = z
  .object({ ...marketListResponseSchema.shape, markets: z.array(camelMarketListItemSchema) })
  .meta({ id: "CamelMarketList" });

export const camelCommentSchema = camelize(commentSchema, { user: camelUserRefSchema }).meta({ id: "CamelComment" });

export const camelTopTraderSchema = camelize(topTraderSchema, {
  volume: decimalString("Traded volume in USDC on this market.", "830.25"),
}).meta({ id: "CamelTopTrader" });

export const camelMarketDetailSchema = camelize(marketDetailSchema, {
  ...camelMarketOverrides,
  totalLiquidity: decimalString("USDC resting on the book.", "4200"),
  topTraders: z.array(camelTopTraderSchema).max(10),
  comments: z.array(camelCommentSchema).max(50),
  creator: camelUserRefSchema.optional(),
}).meta({ id: "CamelMarketDetail" });

export const camelOrderBookSchema = camelize(orderBookSchema, {}).meta({ id: "CamelOrderBook" });

/** Price history is the same in both shapes. */
export const camelPriceHistorySchema = priceHistorySchema;

export type CamelOutcome = z.infer<typeof camelOutcomeSchema>;
export type CamelMarketListItem = z.infer<typeof camelMarketListItemSchema>;
export type CamelMarketListResponse = z.infer<typeof camelMarketListResponseSchema>;
export type CamelComment = z.infer<typeof camelCommentSchema>;
export type CamelMarketDetail = z.infer<typeof camelMarketDetailSchema>;
export type CamelOrderBook = z.infer<typeof camelOrderBookSchema>;

// ================================================================ trade tape (GET /v1/markets/{id}/trades, docs/api.md "Trades")

export const TRADES_DEFAULT_LIMIT = 50;
export const TRADES_MAX_LIMIT = 100;

/** A tape position: opaque to clients (lib/markets/trade-cursor.ts encodes it), checked when it is decoded. */
const tradeCursorParam = (name: "before" | "after", description: string) =>
  z
    .string({ error: `${name} must be a cursor given once` })
    .regex(/^[A-Za-z0-9_-]{32}$/, { error: `${name} is not a valid cursor` })
    .optional()
    .meta({ description, example: "AAYhH4bcAAD7fQ8Kx3pCUYq0hUkmvyPY" });

export const tradesQuery = z
  .strictObject(
    {
      outcomeId: z.string({ error: "outcomeId must be given once" }).min(1, { error: "outcomeId must not be empty" }).optional().meta({
        description: "Only this outcome's trades. An outcome of another market: 400; unknown or malformed: 404. Default: every outcome of the market.",
        example: "3f1c2a4e-8b7d-4c1e-9a2f-5d6e7f8a9b0c",
      }),
      limit: intParamWithDefault("limit", 1, TRADES_MAX_LIMIT, TRADES_DEFAULT_LIMIT, "Trades per page; outside 1..100 is a 400."),
      before: tradeCursorParam(
        "before",
        "Older trades: the next_cursor of the previous page. Walking back page by page sees every trade once, however many arrive meanwhile.",
      ),
      after: tradeCursorParam(
        "after",
        "Newer trades: the `limit` oldest trades newer than this cursor (e.g. a page's newest_cursor), still listed newest first. Not together with before.",
      ),
    },
    { error: "unknown parameter" },
  )
  .refine((q) => q.before === undefined || q.after === undefined, { error: "before and after must not be given together", path: ["after"] });
export type TradesQuery = z.output<typeof tradesQuery>;

const tradeParty = z
  .object({ id: uuid, username: z.string() })
  .nullable()
  .meta({ id: "TradeParty", description: "The user on this side of the trade; null when not recorded (mirrored venues)." });

export const tradeSchema = z
  .object({
    id: uuid,
    outcome_id: uuid,
    price: z
      .string()
      .regex(/^\d\.\d{3}$/)
      .meta({ description: "0..1 price, three decimals (as the book's levels).", example: "0.550" }),
    shares: z
      .string()
      .regex(/^\d+\.\d{2,6}$/)
      .meta({ description: "Shares traded: at least two decimals, up to the six stored.", example: "20.50" }),
    notional: z
      .string()
      .regex(/^\d+\.\d{2,6}$/)
      .meta({ description: "price × shares in USDT, rounded to six decimals, printed like shares.", example: "11.685" }),
    executed_at: iso,
    maker: tradeParty,
    taker: tradeParty,
  })
  .meta({ id: "Trade" });
export type Trade = z.infer<typeof tradeSchema>;

export const tradeTapeSchema = z
  .object({
    trades: z.array(tradeSchema).meta({ description: "Newest first: executed_at, then id, descending." }),
    next_cursor: z
      .string()
      .nullable()
      .meta({
        description:
          "Where the walk goes on in the direction of the request: without a cursor or with before, pass it as before for older trades " +
          "(null on the last page); with after, pass it as after for the trades that followed (null when none followed yet).",
      }),
    newest_cursor: z.string().nullable().meta({
      description: "The newest trade of this page as a cursor: pass it as after to get what came since. Null when the page is empty.",
    }),
  })
  .meta({ id: "TradeTape" });
export type TradeTape = z.infer<typeof tradeTapeSchema>;

export const camelTradeSchema = camelize(tradeSchema, {}).meta({ id: "CamelTrade" });
export const camelTradeTapeSchema = camelize(tradeTapeSchema, { trades: z.array(camelTradeSchema) }).meta({ id: "CamelTradeTape" });
export type CamelTrade = z.infer<typeof camelTradeSchema>;
export type CamelTradeTape = z.infer<typeof camelTradeTapeSchema>;

// ================================================================ batches (GET /v1/orderbooks, GET /v1/prices-history; docs/api.md "Batches")

/**
 * `outcomeIds`: one parameter, comma-separated uuids, 1..50 after removing duplicates (first
 * occurrence kept). A repeated key, an empty item or a malformed uuid is a 400 for the whole call.
 */
export const outcomeIdsParam = z
  .string({ error: (issue) => (issue.input === undefined ? "outcomeIds is required" : "outcomeIds must be given once, as comma-separated ids") })
  .transform((s, ctx) => {
    const items = s.split(",").map((x) => x.trim());
    const ids: string[] = [];
    for (const [i, item] of items.entries()) {
      if (!isUuid(item)) {
        ctx.addIssue({ code: "custom", message: item === "" ? `outcomeIds[${i}] is empty` : `outcomeIds[${i}] must be a UUID` });
        return z.NEVER;
      }
      const id = item.toLowerCase();
      if (!ids.includes(id)) ids.push(id);
    }
    if (ids.length > BATCH_MAX_IDS) {
      ctx.addIssue({ code: "custom", message: `outcomeIds must not hold more than ${BATCH_MAX_IDS} distinct ids` });
      return z.NEVER;
    }
    return ids;
  })
  .meta({
    description:
      `Comma-separated outcome ids, at most ${BATCH_MAX_IDS} distinct ones, given once. Duplicates are answered once, in the order of ` +
      "their first appearance. A malformed id is a 400 for the whole call; an unknown one is reported in its item.",
    example: "3f1c2a4e-8b7d-4c1e-9a2f-5d6e7f8a9b0c,9d8e7f6a-5b4c-4d3e-8f2a-1b0c9d8e7f6a",
    override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
      jsonSchema.type = "string";
    },
  });

export const orderBooksQuery = z.strictObject({ outcomeIds: outcomeIdsParam }, { error: "unknown parameter" });
export type OrderBooksQuery = z.output<typeof orderBooksQuery>;

export const pricesHistoryBatchQuery = z
  .strictObject(
    {
      outcomeIds: outcomeIdsParam,
      startTs: priceHistoryQuery.shape.startTs,
      endTs: priceHistoryQuery.shape.endTs,
      fidelity: priceHistoryQuery.shape.fidelity,
    },
    { error: "unknown parameter" },
  )
  .refine((q) => q.startTs === undefined || q.endTs === undefined || q.startTs <= q.endTs, {
    error: "startTs must not be greater than endTs",
    path: ["startTs"],
  });
export type PricesHistoryBatchQuery = z.output<typeof pricesHistoryBatchQuery>;

export const batchErrorSchema = z
  .object({
    statusCode: z.number().int().meta({ example: 404 }),
    message: z.string().meta({ example: "Outcome not found" }),
  })
  .meta({ id: "BatchItemError", description: "Why this item has no answer: what the single endpoint would have answered." });
export type BatchError = z.infer<typeof batchErrorSchema>;

/** One answer per distinct id: `field` holds exactly what the single endpoint answers, or null with `error`. */
export function batchResponseSchema<F extends string, S extends z.ZodType>(field: F, answer: S, id: string, description: string) {
  const item = z.object({ outcome_id: uuid, [field]: answer.nullable(), error: batchErrorSchema.nullable() } as {
    outcome_id: typeof uuid;
  } & Record<F, z.ZodNullable<S>> & { error: z.ZodNullable<typeof batchErrorSchema> });
  return z.object({ items: z.array(item).meta({ description }) }).meta({ id });
}

/** Additive fields of a batch book item (docs/api.md "Book versions"): what the single book's headers say. */
const bookVersionFields = {
  version: z.number().int().nullable().meta({ description: "The book's version (the Book-Version header of the single endpoint); null with an error." }),
  checksum: z.number().int().nullable().meta({ description: "The book's checksum (the Book-Checksum header); null with an error." }),
};
const orderBooksItems = batchResponseSchema(
  "book",
  orderBookSchema,
  "OrderBooksItems",
  "One item per distinct outcome id, in request order; book is what GET /v1/markets/{id}/orderbook answers for it.",
).shape.items.element;
export const orderBooksResponseSchema = z
  .object({
    items: z
      .array(orderBooksItems.extend(bookVersionFields))
      .meta({ description: "One item per distinct outcome id, in request order; book is what GET /v1/markets/{id}/orderbook answers for it." }),
  })
  .meta({ id: "OrderBooks" });
export const camelOrderBooksResponseSchema = z
  .object({
    items: z.array(z.object({ outcomeId: uuid, book: camelOrderBookSchema.nullable(), error: batchErrorSchema.nullable(), ...bookVersionFields })),
  })
  .meta({ id: "CamelOrderBooks" });
export type OrderBooksResponse = z.infer<typeof orderBooksResponseSchema>;
export type CamelOrderBooksResponse = z.infer<typeof camelOrderBooksResponseSchema>;

export const pricesHistoryBatchResponseSchema = batchResponseSchema(
  "prices_history",
  priceHistorySchema,
  "PriceHistories",
  "One item per distinct outcome id, in request order; prices_history is what GET /v1/markets/{id}/prices-history answers for it.",
);
export const camelPricesHistoryBatchResponseSchema = z
  .object({
    items: z.array(z.object({ outcomeId: uuid, pricesHistory: camelPriceHistorySchema.nullable(), error: batchErrorSchema.nullable() })),
  })
  .meta({ id: "CamelPriceHistories" });
export type PricesHistoryBatchResponse = z.infer<typeof pricesHistoryBatchResponseSchema>;
export type CamelPricesHistoryBatchResponse = z.infer<typeof camelPricesHistoryBatchResponseSchema>;

// ---------------------------------------------------------------- candles (docs/api.md "Candles")
// Query, response (both shapes) and batch of GET …/candles and GET /v1/candles.

import { CANDLE_INTERVALS, CANDLE_LIMIT } from "./candles";
export { CANDLE_INTERVALS, CANDLE_LIMIT, type CandleInterval } from "./candles";

const candleWindowParams = {
  interval: z.enum(CANDLE_INTERVALS, { error: `interval must be one of the following values: ${CANDLE_INTERVALS.join(", ")}` }).meta({
    description: "Candle length. Minutes, hours and days start on multiples of their length from the unix epoch (UTC); weeks on Mondays 00:00 UTC.",
  }),
  startTs: intParam("startTs", 0)
    .optional()
    .meta({
      description: `Window start, unix seconds: the interval holding it is the first. Default: the ${(CANDLE_LIMIT - 1).toLocaleString("en")}th interval before the one holding endTs (the last ${CANDLE_LIMIT.toLocaleString("en")} intervals).`,
    }),
  endTs: intParam("endTs", 0).optional().meta({ description: "Window end, unix seconds: the interval holding it is the last. Default: now." }),
};

const startNotAfterEnd = <Q extends { startTs?: number; endTs?: number }>(q: Q) => q.startTs === undefined || q.endTs === undefined || q.startTs <= q.endTs;
const startNotAfterEndIssue = { error: "startTs must not be greater than endTs", path: ["startTs"] };

/** GET /v1/markets/{id}/candles: unknown parameters are rejected, as on the list. */
export const candlesQuery = z
  .strictObject({ outcomeId: outcomeIdParam, ...candleWindowParams }, { error: "unknown parameter" })
  .refine(startNotAfterEnd, startNotAfterEndIssue);
export type CandlesQuery = z.output<typeof candlesQuery>;

/** GET /v1/candles: the batch's outcomeIds (as for the other batches) over one window. */
export const candlesBatchQuery = z
  .strictObject({ outcomeIds: outcomeIdsParam, ...candleWindowParams }, { error: "unknown parameter" })
  .refine(startNotAfterEnd, startNotAfterEndIssue);
export type CandlesBatchQuery = z.output<typeof candlesBatchQuery>;

const candlePrice = (what: string) =>
  z
    .number()
    .min(0)
    .max(1)
    .meta({ description: `${what}, 0..1.`, example: 0.55 });
const exactDecimal = (description: string, scale: number, example: string) =>
  z
    .string()
    .regex(new RegExp(`^\\d+\\.\\d{${scale}}$`))
    .meta({ description, example });

export const candleSchema = z
  .object({
    start: z.number().int().meta({ description: "Unix seconds, start of the interval (UTC-aligned; weeks on Mondays)." }),
    open: candlePrice("Price of the interval's first trade by (executed_at, id)"),
    high: candlePrice("Highest trade price"),
    low: candlePrice("Lowest trade price"),
    close: candlePrice("Price of the interval's last trade by (executed_at, id)"),
    volume: exactDecimal("Shares traded, exact (6 decimals).", 6, "1520.250000"),
    notional: exactDecimal("Σ price × shares of the trades, exact (9 decimals).", 9, "812.137500000"),
    trades: z.number().int().min(1).meta({ description: "Number of trades." }),
  })
  .meta({ id: "Candle" });
export type Candle = z.infer<typeof candleSchema>;

export const candlesSchema = z
  .object({
    outcome_id: uuid,
    interval: z.enum(CANDLE_INTERVALS),
    start_ts: z.number().int().meta({ description: "Start of the oldest interval answered." }),
    end_ts: z.number().int().meta({ description: "Last second of the newest interval answered (the one holding endTs)." }),
    next_end_ts: z
      .number()
      .int()
      .nullable()
      .meta({
        description:
          `Set when the window held more than ${CANDLE_LIMIT.toLocaleString("en")} intervals and older candles remain in it: ` +
          "the endTs that continues with them (same startTs). Null when the answer is the whole window.",
      }),
    candles: z.array(candleSchema).max(CANDLE_LIMIT).meta({ description: "Oldest first; intervals without trades are absent." }),
  })
  .meta({ id: "Candles" });
export type Candles = z.infer<typeof candlesSchema>;

export const candlesBatchSchema = batchResponseSchema(
  "candles",
  candlesSchema,
  "CandlesBatch",
  "One item per distinct outcome id, in request order; candles is what GET /v1/markets/{id}/candles answers for it.",
);
export type CandlesBatch = z.infer<typeof candlesBatchSchema>;

/** The variant: keys camelCased; prices, volume and notional as decimal strings. */
const camelCandlePrice = (what: string) =>
  z
    .string()
    .regex(/^[01]\.\d{3}$/)
    .meta({ description: `${what}, 0..1, three decimals.`, example: "0.550" });
export const camelCandleSchema = camelize(candleSchema, {
  open: camelCandlePrice("First trade's price"),
  high: camelCandlePrice("Highest trade price"),
  low: camelCandlePrice("Lowest trade price"),
  close: camelCandlePrice("Last trade's price"),
}).meta({ id: "CamelCandle" });
export const camelCandlesSchema = camelize(candlesSchema, { candles: z.array(camelCandleSchema).max(CANDLE_LIMIT) }).meta({ id: "CamelCandles" });
export const camelCandlesBatchSchema = z
  .object({ items: z.array(z.object({ outcomeId: uuid, candles: camelCandlesSchema.nullable(), error: batchErrorSchema.nullable() })) })
  .meta({ id: "CamelCandlesBatch" });
export type CamelCandle = z.infer<typeof camelCandleSchema>;
export type CamelCandles = z.infer<typeof camelCandlesSchema>;
export type CamelCandlesBatch = z.infer<typeof camelCandlesBatchSchema>;

// ================================================================ past books (GET …/orderbook/at, …/orderbook/changes; docs/api.md "Past books")

export const BOOK_CHANGES_DEFAULT_LIMIT = 100;
export const BOOK_CHANGES_MAX_LIMIT = 1000;
/** The last second of year 9999: any later ts is a 400. */
const MAX_UNIX_TS = 253_402_300_799;

/** Unix seconds with up to six decimals (microseconds), kept as the string given so no float rounds it. */
const unixTsParam = (name: string, description: string) =>
  z
    .string({ error: `${name} must be unix seconds given once` })
    .regex(/^\d{1,12}(\.\d{1,6})?$/, { error: `${name} must be unix seconds, at most six decimals` })
    .refine((v) => Number(v.split(".")[0]) <= MAX_UNIX_TS, { error: `${name} must not be after year 9999` })
    .meta({
      description,
      example: "1767225600.25",
      override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
        delete jsonSchema.pattern;
        Object.assign(jsonSchema, { type: "number", minimum: 0, maximum: MAX_UNIX_TS });
      },
    });

export const orderBookAtQuery = z.strictObject(
  {
    outcomeId: outcomeIdParam,
    ts: unixTsParam("ts", "The moment, unix seconds (fractions to the microsecond allowed): the book as it was then."),
  },
  { error: "unknown parameter" },
);
export type OrderBookAtQuery = z.output<typeof orderBookAtQuery>;

export const bookChangesQuery = z
  .strictObject(
    {
      outcomeId: outcomeIdParam,
      fromVersion: intParam("fromVersion", 1).optional().meta({
        description: "The first version to list (inclusive): a page's next_version, or the version you hold + 1. Not together with startTs.",
      }),
      startTs: unixTsParam("startTs", "List from the first version at or after this moment, unix seconds. Not together with fromVersion.").optional(),
      endTs: unixTsParam("endTs", "List versions up to this moment (inclusive), unix seconds. Default: no end.").optional(),
      limit: intParamWithDefault("limit", 1, BOOK_CHANGES_MAX_LIMIT, BOOK_CHANGES_DEFAULT_LIMIT, "Changes per page, 1..1000."),
    },
    { error: "unknown parameter" },
  )
  .refine((q) => (q.fromVersion === undefined) !== (q.startTs === undefined), {
    error: "exactly one of fromVersion and startTs must be given",
    path: ["fromVersion"],
  })
  .refine((q) => q.startTs === undefined || q.endTs === undefined || Number(q.startTs) <= Number(q.endTs), {
    error: "startTs must not be greater than endTs",
    path: ["startTs"],
  });
export type BookChangesQuery = z.output<typeof bookChangesQuery>;

export const bookChangeSchema = z
  .object({
    version: z.number().int().meta({ description: "The version this change made.", example: 1042 }),
    at: z.string().meta({ description: "The version's time: ISO 8601, UTC, microseconds.", example: "2026-01-01T12:00:00.123456Z" }),
    replace: z.boolean().meta({
      description: "True: bids and asks are the whole new book (a venue's book replaced). False: only the levels that changed.",
    }),
    bids: z.array(bookLevelSchema).meta({ description: 'Changed bid levels, highest first; shares "0.00": the level is gone.' }),
    asks: z.array(bookLevelSchema).meta({ description: 'Changed ask levels, lowest first; shares "0.00": the level is gone.' }),
  })
  .meta({ id: "BookChange" });

export const bookChangesSchema = z
  .object({
    changes: z.array(bookChangeSchema).meta({ description: "In version order, consecutive." }),
    next_version: z.number().int().nullable().meta({ description: "Pass as fromVersion for the next page; null when the range is read." }),
  })
  .meta({ id: "BookChanges" });
export type BookChanges = z.infer<typeof bookChangesSchema>;
export const camelBookChangesSchema = z
  .object({ changes: z.array(bookChangeSchema), nextVersion: bookChangesSchema.shape.next_version })
  .meta({ id: "CamelBookChanges" });
