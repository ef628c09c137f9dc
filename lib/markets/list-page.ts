// A list page put together from its items as kept (lib/markets/cache.ts keeps each list item packed,
// lib/cache/json-shapes.ts): its `markets` are parsed only when read (a page render, the camelCase
// variant), and it carries its JSON (lib/cache/json-text.ts), made from the items when first asked, so the
// /v1 primary shape is hashed and written from it, never from objects parsed and serialized again.
// A page made for one request carries a string: young and short-lived, where bytes of its own per page
// would count as memory outside the heap, and V8 starts a full collection for every 64 MB of that (one a
// second in the `wide` mix). A page kept for its key's next requests (`asBytes`) carries the UTF-8 bytes,
// outside the heap, written again and again without being encoded again.
import { unpackJson, unpackJsonInto } from "@/lib/cache/json-shapes";
import { JSON_BYTES, JSON_TEXT } from "@/lib/cache/json-text";
import { offHeapBytes } from "@/lib/cache/response-cache";
import type { MarketListItem, MarketListResponse } from "./schemas";

export function listPageOf(parts: readonly (Buffer | null)[], total: number, limit: number, offset: number, asBytes = false): MarketListResponse {
  const items = parts.filter((p): p is Buffer => p !== null);
  let markets: MarketListItem[] | undefined;
  let json: string | Buffer | undefined;
  const textOf = () => {
    const pieces = ['{"markets":['];
    for (const [i, item] of items.entries()) {
      if (i) pieces.push(",");
      unpackJsonInto(item, pieces);
    }
    pieces.push(`],"total":${total},"limit":${limit},"offset":${offset}}`);
    return pieces.join("");
  };
  const page = {} as MarketListResponse;
  // Property order as the type declares it (JSON.stringify follows it): markets, total, limit, offset.
  Object.defineProperty(page, "markets", { enumerable: true, get: () => (markets ??= items.map((b) => JSON.parse(unpackJson(b)) as MarketListItem)) });
  page.total = total;
  page.limit = limit;
  page.offset = offset;
  Object.defineProperty(page, asBytes ? JSON_BYTES : JSON_TEXT, { get: () => (json ??= asBytes ? offHeapBytes(textOf()) : textOf()) });
  return page;
}
