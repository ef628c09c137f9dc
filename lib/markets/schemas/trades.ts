// The trade tape (GET /v1/markets/{id}/trades, docs/api.md "Trades"): its query and both response shapes.
import { z } from "zod";
import { camelize, intParamWithDefault, iso, uuid } from "./fields";

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
