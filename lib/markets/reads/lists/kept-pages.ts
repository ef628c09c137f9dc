// The list pages kept for their keys' next requests: a page asked again with the same items is the same
// Json, so its body and ETag are not made again.
import "server-only";
import { LRUCache } from "lru-cache";
import { config } from "@/lib/config";
import type { Json } from "@/lib/cache/representation";
import type { CacheResult } from "@/lib/cache/response-cache";
import { listPageOf } from "@/lib/markets/list-page";
import type { MarketListQuery, MarketListResponse } from "@/lib/markets/schemas";
import { shared } from "@/lib/process-state";
import { KEPT_PAGES_SHARE } from "../cache";

/**
 * The pages put together lately, by the items they were made of: asked again with the same items (the
 * same Buffers, compared by identity) and total, the same Json is handed out, so its body and ETag are
 * not made again (lib/cache/representation.ts). Validated on every read, so never staler than
 * its parts. A page is kept only once its key comes back: the long tail's keys, asked once, must not keep
 * their pages alive (each would survive into the old generation and cost the collector twice). A page kept
 * holds its JSON as UTF-8 bytes (lib/markets/list-page.ts), weighed in KEPT_PAGES_SHARE of the budget.
 */
export function composePage(query: MarketListQuery, total: number, results: CacheResult<Buffer | null>[]): Json<MarketListResponse> {
  const composed = keptPages();
  const key = JSON.stringify(query);
  const parts = results.map((r) => r.value);
  const last = composed.get(key);
  const same = last !== undefined && last.total === total && last.parts.length === parts.length && last.parts.every((p, i) => p === parts[i]);
  if (same && last.page) return last.page;
  const page = listPageOf(parts, total, query.limit, query.offset, same);
  composed.set(key, { parts, total, page: same ? page : null });
  return page;
}

/** A list key's last page: the items it was made of, and the page itself once the key came back with them. */
export interface KeptPage {
  parts: (Buffer | null)[];
  total: number;
  page: Json<MarketListResponse> | null;
}

/** The list pages kept, per process (lib/process-state.ts: its bytes are stated with the caches'). */
export function keptPages(): LRUCache<string, KeptPage> {
  return shared("listPages", () => {
    const { CACHE, CACHE_MAX_MB } = config();
    return new LRUCache<string, KeptPage>({
      max: 512,
      maxSize: Math.max(1, Math.floor((CACHE ? CACHE_MAX_MB * 1024 * 1024 : 0) * KEPT_PAGES_SHARE)),
      // Its key, record and parts (~400 bytes), and a kept page's bytes, made now (it is asked for them next).
      sizeCalculation: (e) => 400 + e.parts.length * 8 + (e.page ? e.page.text.length : 0),
    });
  });
}
