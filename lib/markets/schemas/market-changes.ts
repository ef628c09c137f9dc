// The markets feed (GET /v1/markets/changes, docs/api.md "Markets feed"): its query and both response shapes.
import { z } from "zod";
import { intParamWithDefault, uuid } from "./fields";
import { camelMarketListItemSchema } from "./camel";
import { marketListItemSchema } from "./responses";

export const MARKET_CHANGES_DEFAULT_LIMIT = 500;
export const MARKET_CHANGES_MAX_LIMIT = 1000;

export const marketChangesQuery = z.strictObject(
  {
    // Positions are bigint in the database; a JSON number holds them exactly up to 2^53 - 1.
    since: intParamWithDefault(
      "since",
      0,
      Number.MAX_SAFE_INTEGER,
      0,
      "The position you hold: the `next` of your last page. 0 (the default) starts from the beginning.",
    ),
    limit: intParamWithDefault(
      "limit",
      1,
      MARKET_CHANGES_MAX_LIMIT,
      MARKET_CHANGES_DEFAULT_LIMIT,
      `Changes per page, 1..${MARKET_CHANGES_MAX_LIMIT}; outside it is a 400.`,
    ),
  },
  { error: "unknown parameter" },
);
export type MarketChangesQuery = z.output<typeof marketChangesQuery>;

const position = z.number().int().min(0);

const changeFields = {
  position: position.meta({ description: "The position of the market's last change; a market changed again later comes again, further on.", example: 104233 }),
  id: uuid.meta({ description: "The market's id." }),
  slug: z.string().meta({ description: "The market's slug; for a deleted market, its last one.", example: "will-btc-close-above-100k-in-2025" }),
  deleted: z.boolean().meta({ description: "The market no longer exists: drop it from your copy." }),
};

const pageFields = {
  next: position.meta({ description: "Pass as `since` for the next page: the last position of this page, or `since` when it is empty." }),
  more: z.boolean().meta({ description: "The page is full: ask again from next at once. False: you are up to date; poll from next later." }),
  head: position.meta({ description: "The newest position of any change there is (books and trades included): how far the feed can go." }),
};

export const marketChangeSchema = z
  .object({
    ...changeFields,
    market: marketListItemSchema.nullable().meta({ description: "The market as GET /v1/markets lists it; null when deleted." }),
  })
  .meta({ id: "MarketChange" });

export const marketChangesSchema = z
  .object({ changes: z.array(marketChangeSchema).meta({ description: "In position order, ascending; each market at most once." }), ...pageFields })
  .meta({ id: "MarketChanges" });
export type MarketChange = z.infer<typeof marketChangeSchema>;
export type MarketChanges = z.infer<typeof marketChangesSchema>;

/** The variant: only `market` changes (its list item in camelCase); the envelope has no snake_case keys. */
export const camelMarketChangeSchema = z.object({ ...changeFields, market: camelMarketListItemSchema.nullable() }).meta({ id: "CamelMarketChange" });
export const camelMarketChangesSchema = z.object({ changes: z.array(camelMarketChangeSchema), ...pageFields }).meta({ id: "CamelMarketChanges" });
export type CamelMarketChanges = z.infer<typeof camelMarketChangesSchema>;
