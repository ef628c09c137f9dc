// The queries of GET /v1/markets and of one outcome's book and history: their rules and defaults.
import { z } from "zod";
import { CATEGORIES, LIST_DEFAULTS, LIST_STATUSES, SORT_BY, SORT_ORDER, type Category, type ListStatus, type SortBy, type SortOrder } from "../constants";
import { intParam, intParamWithDefault, oneOf } from "./fields";

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
