// A list page put together from item texts (lib/markets/cache.ts keeps each list item as the UTF-8 bytes
// of its JSON, outside V8's heap): its `markets` are parsed only when read (a page render, the camelCase
// variant), and it carries its JSON as the items' bytes in pieces (lib/cache/json-text.ts), so the /v1
// primary shape is hashed and written from the bytes kept, never decoded, joined, parsed or serialized.
// Nothing is made per request but the head and tail: bytes of its own per page would count as memory
// outside the heap, and V8 starts a full collection for every 64 MB of that (one a second in the `wide`
// mix); a string of the page would be decoded, hashed and encoded again on the way out.
import { JSON_PARTS } from "@/lib/cache/json-text";
import type { MarketListItem, MarketListResponse } from "./schemas";

const HEAD = Buffer.from('{"markets":[');
const COMMA = Buffer.from(",");

export function listPageOf(parts: readonly (Buffer | null)[], total: number, limit: number, offset: number): MarketListResponse {
  const items = parts.filter((p): p is Buffer => p !== null);
  let markets: MarketListItem[] | undefined;
  let pieces: Buffer[] | undefined;
  const page = {} as MarketListResponse;
  // Property order as the type declares it (JSON.stringify follows it): markets, total, limit, offset.
  Object.defineProperty(page, "markets", { enumerable: true, get: () => (markets ??= items.map((b) => JSON.parse(b.toString("utf8")) as MarketListItem)) });
  page.total = total;
  page.limit = limit;
  page.offset = offset;
  Object.defineProperty(page, JSON_PARTS, {
    get: () => {
      if (pieces) return pieces;
      pieces = [HEAD];
      for (const [i, item] of items.entries()) {
        if (i) pieces.push(COMMA);
        pieces.push(item);
      }
      pieces.push(Buffer.from(`],"total":${total},"limit":${limit},"offset":${offset}}`));
      return pieces;
    },
  });
  return page;
}
