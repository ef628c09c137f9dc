// The API's enumerations and list defaults, free of zod so the browser bundle can use them cheaply.
export const CATEGORIES = ["CRYPTO", "SPORTS", "POLITICS", "ENTERTAINMENT", "SCIENCE", "FINANCE", "OTHER"] as const;
export const MARKET_TYPES = ["BINARY", "MULTI"] as const;
export const MARKET_STATUSES = ["PENDING", "ACTIVE", "LOCKED", "RESOLVED", "CANCELLED"] as const;
export const LIST_STATUSES = ["ACTIVE", "RESOLVED", "CANCELLED"] as const;
export const SORT_BY = ["VOLUME", "LIQUIDITY", "CREATED", "TRENDING", "ENDING"] as const;
export const SORT_ORDER = ["ASC", "DESC"] as const;
export const OUTCOME_SIDES = ["YES", "NO"] as const;

export type Category = (typeof CATEGORIES)[number];
export type MarketStatus = (typeof MARKET_STATUSES)[number];
export type ListStatus = (typeof LIST_STATUSES)[number];
export type SortBy = (typeof SORT_BY)[number];
export type SortOrder = (typeof SORT_ORDER)[number];

/** A market slug: 1..200 characters of a-z, 0-9 and "-" (the source of every slug check). */
export const SLUG_PATTERN = "[a-z0-9-]{1,200}";
export const SLUG_RE = new RegExp(`^${SLUG_PATTERN}$`);

export const LIST_DEFAULTS = { status: "ACTIVE", sortBy: "CREATED", sortOrder: "DESC", limit: 20, offset: 0 } as const;

/** The market list refetches its visible page this often instead of holding a socket per market. */
export const LIST_REFRESH_MS = 30_000;

/** The list's search box waits this long after the last keystroke before it changes the URL (one request per word). */
export const SEARCH_DEBOUNCE_MS = 350;

/** Most distinct ids one batch read (GET /v1/orderbooks, /v1/prices-history) answers; the rate limit charges one token per id. */
export const BATCH_MAX_IDS = 50;
