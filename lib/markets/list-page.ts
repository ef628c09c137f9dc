// A list page put together from item texts (lib/markets/cache.ts keeps each list item as JSON): its
// `markets` are parsed only when read (a page render, the camelCase variant), and it carries its JSON
// text, so the /v1 primary shape is the texts joined, never parsed and serialized again.
import { JSON_TEXT } from "@/lib/cache/json-text";
import type { MarketListItem, MarketListResponse } from "./schemas";

export function listPageOf(parts: readonly (string | null)[], total: number, limit: number, offset: number): MarketListResponse {
  const texts = parts.filter((p): p is string => p !== null);
  let markets: MarketListItem[] | undefined;
  let text: string | undefined;
  const page = {} as MarketListResponse;
  // Property order as the type declares it (JSON.stringify follows it): markets, total, limit, offset.
  Object.defineProperty(page, "markets", { enumerable: true, get: () => (markets ??= texts.map((t) => JSON.parse(t) as MarketListItem)) });
  page.total = total;
  page.limit = limit;
  page.offset = offset;
  Object.defineProperty(page, JSON_TEXT, { get: () => (text ??= `{"markets":[${texts.join(",")}],"total":${total},"limit":${limit},"offset":${offset}}`) });
  return page;
}
