// Every tag of the read layer's cache entries, spelled once: what an entry shows (each read tags its entry
// with these) and what a change touches (./invalidation.ts drops them). A tag names something that changes:
// a market (by id and by slug), an outcome's book or history, every book or history of a market, a kind
// of list, a related-markets group.
import type { MarketGroup } from "@/lib/events/market-events";
import type { MarketKey } from "@/lib/markets/sql/fragments";

/** Every list SQL answered (TRENDING, sub-category, searches) and the watchlist's: any market's visible change. */
export const LIST = "list";
/** Lists ordered by a value that resting orders move. */
export const LIST_BY_LIQUIDITY = "list:LIQUIDITY";
/** Every related-markets list: a change whose market's group is not known. */
export const RELATED = "related";
/** Which markets each list holds (the sub-category counts): a market moved, added or removed. */
export const LIST_MEMBERS = "list:members";

/**
 * The tags of a related-markets group (listRelatedGroup: its category, and its sub-category or any of its
 * tags), and of the changes that can touch it: a market's change drops the groups it matches, by the
 * groups the change announces (migration 0017: before and after, when it moved), as the same tags.
 */
export function relatedTags(g: MarketGroup): string[] {
  const tags = g.subCategory ? [`rel:${g.category}:s:${g.subCategory}`] : [];
  for (const t of g.tags) tags.push(`rel:${g.category}:t:${t}`);
  return tags;
}

/** A market, by id or by slug: every event of a market names one of them. */
export const marketIdTag = (id: string) => `market:m:${id}`;
export const marketSlugTag = (slug: string) => `market:s:${slug}`;
export const marketTag = (key: MarketKey) => ("id" in key ? marketIdTag(key.id) : marketSlugTag(key.slug));

/** One outcome's book; one outcome's history (its trades: the price history, the candles, that outcome's tape). */
export const outcomeBookTag = (outcomeId: string) => `book:o:${outcomeId}`;
export const outcomeHistoryTag = (outcomeId: string) => `hist:o:${outcomeId}`;

/** Every book, and every history, of the market that `market` (a market tag) names. */
export const booksOfTag = (market: string) => `book:${market}`;
export const historiesOfTag = (market: string) => `hist:${market}`;

export const bookTags = (key: MarketKey, outcomeId: string) => [outcomeBookTag(outcomeId), booksOfTag(marketTag(key))];
export const historyTags = (key: MarketKey, outcomeId: string) => [outcomeHistoryTag(outcomeId), historiesOfTag(marketTag(key))];

/** What a tape shows: the whole market's trades (its market tag), or one outcome's (its history tags). */
export const tapeTags = (key: MarketKey, outcomeId: string | undefined) => (outcomeId ? historyTags(key, outcomeId) : [marketTag(key)]);
