// The list items every list page is made of: one entry per market, loaded together when many are missed
// in one turn of the loop, kept packed outside V8's heap.
import "server-only";
import { withDatabase } from "@/lib/db/breaker";
import { batchLoads } from "@/lib/cache/batch-loads";
import { packJson } from "@/lib/cache/json-shapes";
import { recordTags, recordUnfit } from "@/lib/cache/render-record";
import type { CacheResult, Loaded } from "@/lib/cache/response-cache";
import type { ListSlice } from "@/lib/markets/list-index";
import * as listsSql from "@/lib/markets/sql/lists";
import { marketCache } from "../cache";
import { marketIdTag, marketSlugTag } from "../tags";

/** At most this many list items in one statement (a flood of pages in one turn becomes several). */
const ITEMS_PER_LOAD = 500;

/**
 * The list items missed by every page read in one turn of the loop, loaded together: under load many
 * requests are read in one turn, and one statement for all of their misses costs the main thread far
 * less than one each (each is a write to the database's socket and a result to parse). The statement
 * starts after every request of the turn asked, so it reads at least as late as each of them would have.
 */
const loadItem = batchLoads(
  async (ids: string[]) => {
    const items = new Map<string, Buffer>();
    await listsSql.eachMarketListItem(ids, (item) => items.set(item.id, packJson(item)));
    return items;
  },
  (id: string) => id,
  ITEMS_PER_LOAD,
);

/**
 * Markets as list items, each one entry tagged with its market alone (id and slug: every event of the
 * market names one of them), so one change drops one item, not every page that shows it. The misses
 * load together (loadItem). Kept packed (lib/cache/json-shapes.ts: its strings and numbers, the keys
 * once per process), about 60% of its JSON, as bytes outside V8's heap, which the collector never copies
 * or marks: as strings, each item loaded in the long tail survived two scavenges and was copied into the
 * old generation (the `wide` mix promoted ~28 MB per scavenge, whose pauses grew to 30-120 ms, and the
 * heap to 840 MB; docs/performance.md, "List items as packed bytes"). A page unpacks its items into its text
 * (lib/markets/list-page.ts): ~0.15 ms for 20, where a page's misses (a third of its items, when the
 * `wide` mix's did not fit) had cost the main thread ~0.5 ms and the database more.
 */
export function listItems(markets: ListSlice["markets"]): Promise<CacheResult<Buffer | null>[]> {
  const loadOne = async (id: string): Promise<Loaded<Buffer | null>> => {
    const bytes = await loadItem(id);
    // Gone since the order was read (its removal is being announced): not shown, not kept.
    return bytes ? { value: bytes } : { value: null, expiresAt: 0 };
  };
  return Promise.all(
    markets.map(({ id, slug }) => {
      const tags = [marketIdTag(id), marketSlugTag(slug)];
      recordTags(tags);
      return marketCache().get(`["markets","item","${id}"]`, tags, () => withDatabase(() => loadOne(id)));
    }),
  ).catch((err) => {
    recordUnfit("a failed read");
    throw err;
  });
}

/**
 * The list items of `markets` in memory, loaded as a page's are (the same entries, tags and batched loads)
 * where they are not: a warm-up (lib/markets/reads/lists/item-warm-up.ts). What is in memory is only looked up, so a
 * market asked last is the most recent in the LRU.
 */
export async function warmListItems(markets: ListSlice["markets"]): Promise<void> {
  await listItems(markets);
}
