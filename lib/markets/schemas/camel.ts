// The camelCase variant of the responses (docs/api.md "The camelCase variant"), served for
// `Accept: application/vnd.markets.camel+json`; lib/markets/camel.ts maps the primary shape to it.
// Derived from the primary schemas: every key camelCased, then only the fields whose type changes are restated.
import { z } from "zod";
import { camelize, decimalString } from "./fields";
import {
  commentSchema,
  marketDetailSchema,
  marketListItemSchema,
  orderBookSchema,
  outcomeSchema,
  priceHistorySchema,
  topTraderSchema,
  userRefSchema,
  marketListResponseSchema,
} from "./responses";

export const CAMEL_MEDIA_TYPE = "application/vnd.markets.camel+json";

/** Whether an Accept header asks for the camelCase variant: it names the media type with q > 0 (docs/api.md). */
export function acceptsCamel(accept: string | null | undefined): boolean {
  if (!accept) return false;
  return accept.split(",").some((range) => {
    const [type, ...params] = range.split(";").map((s) => s.trim().toLowerCase());
    if (type !== CAMEL_MEDIA_TYPE) return false;
    const q = params.find((p) => p.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

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
