// The primary (snake_case) response shapes of the market reads. `.meta({ id })` names an OpenAPI
// component (lib/api/openapi.ts); descriptions end up in /docs.
import { z } from "zod";
import { CATEGORIES, MARKET_STATUSES, MARKET_TYPES, OUTCOME_SIDES } from "../constants";
import { iso, nullableText, uuid } from "./fields";

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
