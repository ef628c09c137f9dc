// Past books (GET …/orderbook/at, …/orderbook/changes; docs/api.md "Past books"): their queries and the change log's shape.
import { z } from "zod";
import { intParam, intParamWithDefault } from "./fields";
import { outcomeIdParam } from "./queries";
import { bookLevelSchema } from "./responses";

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
