// Whether a market slug exists, for socket joins: answers (hits and misses) are remembered, and
// concurrent asks for one slug share one query, so a flood of joins does not reach the database per join.

export interface SlugCacheOptions {
  /** The database question: does a market have this slug? */
  lookup: (slug: string) => Promise<boolean>;
  /** How long a known slug stays known (markets are not deleted). */
  hitMs?: number;
  /** How long an unknown slug stays unknown: short, a market created meanwhile is joinable soon after. */
  missMs?: number;
  /** Entries kept at most (hits and misses apart); the older half goes when full. */
  max?: number;
  now?: () => number;
}

export interface SlugCache {
  exists: (slug: string) => Promise<boolean>;
  /** Forgets the misses (a market was created): its slug is asked again at the next join. */
  forgetMisses: () => void;
}

export function createSlugCache({ lookup, hitMs = 60_000, missMs = 5_000, max = 10_000, now = Date.now }: SlugCacheOptions): SlugCache {
  const hits = new Map<string, number>(); // slug → known until
  const misses = new Map<string, number>(); // slug → unknown until
  const pending = new Map<string, Promise<boolean>>();

  const remember = (map: Map<string, number>, slug: string, until: number) => {
    if (map.size >= max) {
      // Maps iterate in insertion order: drop the oldest half.
      let drop = map.size >> 1;
      for (const key of map.keys()) {
        if (drop-- <= 0) break;
        map.delete(key);
      }
    }
    map.delete(slug);
    map.set(slug, until);
  };

  const exists = (slug: string): Promise<boolean> => {
    const t = now();
    if ((hits.get(slug) ?? 0) > t) return Promise.resolve(true);
    if ((misses.get(slug) ?? 0) > t) return Promise.resolve(false);
    const inFlight = pending.get(slug);
    if (inFlight) return inFlight;
    const ask = lookup(slug)
      .then((found) => {
        if (found) misses.delete(slug), remember(hits, slug, now() + hitMs);
        else remember(misses, slug, now() + missMs);
        return found;
      })
      .finally(() => pending.delete(slug));
    pending.set(slug, ask);
    return ask;
  };

  return { exists, forgetMisses: () => misses.clear() };
}
