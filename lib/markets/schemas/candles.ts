// Candles (docs/api.md "Candles"): query, response (both shapes) and batch of GET …/candles and GET /v1/candles.
import { z } from "zod";
import { CANDLE_INTERVALS, CANDLE_LIMIT } from "../candles";
import { batchErrorSchema, batchResponseSchema, outcomeIdsParam } from "./batches";
import { camelize, intParam, uuid } from "./fields";
import { outcomeIdParam } from "./queries";

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
