// A list page put together from its items as kept (lib/markets/reads/ keeps each list item packed,
// lib/cache/json-shapes.ts), as a Json (lib/cache/representation.ts) whose value and text are both made
// from those items, each when first asked: its `markets` are parsed only when read (a page render, the
// camelCase variant), and the /v1 primary shape is hashed and written from its text, never from objects
// parsed and serialized again.
// A page made for one request has a string for its text: young and short-lived, where bytes of its own per
// page would count as memory outside the heap, and V8 starts a full collection for every 64 MB of that (one a
// second in the `wide` mix). A page kept for its key's next requests (`asBytes`) has the UTF-8 bytes,
// outside the heap, written again and again without being encoded again.
import { unpackJson, unpackJsonInto } from "@/lib/cache/json-shapes";
import { deepFreeze, Json } from "@/lib/cache/representation";
import { offHeapBytes } from "@/lib/cache/response-cache";
import type { MarketListItem, MarketListResponse } from "./schemas";

export function listPageOf(parts: readonly (Buffer | null)[], total: number, limit: number, offset: number, asBytes = false): Json<MarketListResponse> {
  const items = parts.filter((p): p is Buffer => p !== null);
  const textOf = () => {
    const pieces = ['{"markets":['];
    for (const [i, item] of items.entries()) {
      if (i) pieces.push(",");
      unpackJsonInto(item, pieces);
    }
    pieces.push(`],"total":${total},"limit":${limit},"offset":${offset}}`);
    return pieces.join("");
  };
  const pageOf = () => {
    let markets: MarketListItem[] | undefined;
    const page = {} as MarketListResponse;
    // Property order as the type declares it (JSON.stringify follows it): markets, total, limit, offset.
    Object.defineProperty(page, "markets", {
      enumerable: true,
      get: () => (markets ??= deepFreeze(items.map((b) => JSON.parse(unpackJson(b)) as MarketListItem))),
    });
    page.total = total;
    page.limit = limit;
    page.offset = offset;
    return Object.freeze(page);
  };
  return Json.ofParts({ value: pageOf, text: () => (asBytes ? offHeapBytes(textOf()) : textOf()) });
}
