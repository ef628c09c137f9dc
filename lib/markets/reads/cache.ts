// The one cache of the read layer and how a read goes through it. Every read of /v1 and of the pages'
// server prefetch is an entry here, keyed like the react-query keys and tagged by what it shows
// (./tags.ts); ./invalidation.ts drops what a change touched. It serves even with CACHE=off (a budget of
// nothing): readers never know whether an answer came from memory.
import "server-only";
import { config } from "@/lib/config";
import { withDatabase } from "@/lib/db/breaker";
import { isDatabaseUnavailable } from "@/lib/db/errors";
import { batchLoads } from "@/lib/cache/batch-loads";
import { recordResult, recordTags, recordUnfit } from "@/lib/cache/render-record";
import { reportCacheResult } from "@/lib/cache/request-status";
import { ResponseCache, type CacheResult, type Loaded } from "@/lib/cache/response-cache";
import { OutcomeNotFound } from "@/lib/markets/errors";
import type { MarketKey } from "@/lib/markets/sql/fragments";
import { type OutcomeOfMarket, outcomesById } from "@/lib/markets/sql/resolve";
import { shared } from "@/lib/process-state";

/** The share of CACHE_MAX_MB for the list pages kept (./lists/kept-pages.ts; the response cache has the rest): 4.7 MB of 150, ~80 pages of 20 items. */
export const KEPT_PAGES_SHARE = 1 / 32;

// One cache per process (lib/process-state.ts): Next bundles route handlers and pages apart from server.ts, which feeds it.
// Its budget is CACHE_MAX_MB of JSON (CACHE=off: none); CACHE_STALE_IF_ERROR_S bounds serving stale, CACHE_UNHEARD_MS
// keeping answers while no change is heard (lib/config.ts).
export function marketCache(): ResponseCache {
  return shared("marketsCache", () => {
    const { CACHE, CACHE_MAX_MB, CACHE_STALE_IF_ERROR_S, CACHE_UNHEARD_MS, CACHE_CHECK_JSON } = config();
    return new ResponseCache({
      maxBytes: CACHE ? Math.floor(CACHE_MAX_MB * 1024 * 1024 * (1 - KEPT_PAGES_SHARE)) : 0,
      checkJson: CACHE_CHECK_JSON,
      staleIfErrorMs: CACHE_STALE_IF_ERROR_S * 1000,
      unheardTtlMs: CACHE ? CACHE_UNHEARD_MS : 0,
      canServeStale: isDatabaseUnavailable,
    });
  });
}

/** A market key as an entry's key holds it (only the field that names the market). */
export const keyOf = (key: MarketKey) => ("id" in key ? { id: key.id } : { slug: key.slug });

/** A cache answer, told to the request's X-Cache status and to the page render in progress (if any). */
export function noteResult(result: CacheResult<unknown>) {
  reportCacheResult(result);
  recordResult(result);
}

export async function read<T>(key: unknown[], tags: string[], load: () => Promise<Loaded<T>>): Promise<T> {
  // A page render in progress learns what it shows (lib/cache/render-record.ts): the tags before the read
  // starts, so a change announced while it loads keeps the rendered page from being stored.
  recordTags(tags);
  // Loads go through the breaker (fast 503s while the database is away, a deadline per load); a load
  // that fails for an outage may be answered by the entry it would have replaced (stale-if-error).
  const result = await marketCache()
    .get(JSON.stringify(key), tags, () => withDatabase(load))
    .catch((err) => {
      recordUnfit("a failed read");
      throw err;
    });
  noteResult(result);
  return result.value;
}

export const loaded = async <T>(value: Promise<T>): Promise<Loaded<T>> => ({ value: await value });

/**
 * Reads many outcomes through the entries their single reads use (the market addressed by id), so
 * a hit costs nothing and a batch warms the single endpoints: one lookup of the outcomes, then the
 * misses loaded together, in one query, by `loadMany`. Returns the read of one id; an unknown id
 * rejects with OutcomeNotFound (the batch reports it in its item).
 */
export async function readEach<V>(
  outcomeIds: readonly string[],
  entry: (o: OutcomeOfMarket) => { key: unknown[]; tags: string[] },
  loadMany: (outcomes: OutcomeOfMarket[]) => Promise<Map<string, Loaded<V>>>,
): Promise<(outcomeId: string) => Promise<V>> {
  // The one read here that is not an entry: a render that sees it fail, or an id it does not know, is not kept.
  const outcomes = await withDatabase(() => outcomesById(outcomeIds)).catch((err) => {
    recordUnfit("a failed outcome lookup");
    throw err;
  });
  const loadOne = batchLoads(loadMany, (o: OutcomeOfMarket) => o.outcome_id);
  return (outcomeId) => {
    const o = outcomes.get(outcomeId);
    if (!o) {
      recordUnfit("an unknown outcome");
      return Promise.reject(new OutcomeNotFound());
    }
    const { key, tags } = entry(o);
    return read(key, tags, async () => (await loadOne(o))!);
  };
}
