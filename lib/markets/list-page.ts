// A list page put together from its items as kept (lib/markets/cache.ts keeps each list item packed,
// lib/cache/json-shapes.ts): its `markets` are parsed only when read (a page render, the camelCase
// variant), and it carries its JSON text (lib/cache/json-text.ts), made from the items' texts when first
// asked, so the /v1 primary shape is hashed and written from that text, never from objects parsed and
// serialized again. The text is a string of the page's own, young and short-lived: bytes of its own per
// page would count as memory outside the heap, and V8 starts a full collection for every 64 MB of that
// (one a second in the `wide` mix).
import { unpackJson, unpackJsonInto } from "@/lib/cache/json-shapes";
import { JSON_TEXT } from "@/lib/cache/json-text";
import type { MarketListItem, MarketListResponse } from "./schemas";

export function listPageOf(parts: readonly (Buffer | null)[], total: number, limit: number, offset: number): MarketListResponse {
  const items = parts.filter((p): p is Buffer => p !== null);
  let markets: MarketListItem[] | undefined;
  let text: string | undefined;
  const page = {} as MarketListResponse;
  // Property order as the type declares it (JSON.stringify follows it): markets, total, limit, offset.
  Object.defineProperty(page, "markets", { enumerable: true, get: () => (markets ??= items.map((b) => JSON.parse(unpackJson(b)) as MarketListItem)) });
  page.total = total;
  page.limit = limit;
  page.offset = offset;
  Object.defineProperty(page, JSON_TEXT, {
    get: () => {
      if (text !== undefined) return text;
      const pieces = ['{"markets":['];
      for (const [i, item] of items.entries()) {
        if (i) pieces.push(",");
        unpackJsonInto(item, pieces);
      }
      pieces.push(`],"total":${total},"limit":${limit},"offset":${offset}}`);
      text = pieces.join("");
      return text;
    },
  });
  return page;
}
