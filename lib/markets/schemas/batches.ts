// Batches (GET /v1/orderbooks, GET /v1/prices-history; docs/api.md "Batches"): their queries and answers.
import { z } from "zod";
import { BATCH_MAX_IDS } from "../constants";
import { camelOrderBookSchema, camelPriceHistorySchema } from "./camel";
import { isUuid, uuid } from "./fields";
import { priceHistoryQuery } from "./queries";
import { orderBookSchema, priceHistorySchema } from "./responses";

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
