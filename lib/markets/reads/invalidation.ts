// What a change touches: the tags (./tags.ts) one announced change makes stale, and the cache's
// subscription to the change stream (lib/events/change-stream.ts) that drops them. The NOTIFY stream that
// drives the push channels (lib/events/market-events.ts) says what changed; this is the one place that
// decides what that invalidates.
import "server-only";
import type { ChangeSubscriber } from "@/lib/events/change-stream";
import type { MarketEvent } from "@/lib/events/market-events";
import { marketCache } from "./cache";
import {
  booksOfTag,
  historiesOfTag,
  LIST,
  LIST_BY_LIQUIDITY,
  LIST_MEMBERS,
  marketIdTag,
  marketSlugTag,
  outcomeBookTag,
  outcomeHistoryTag,
  RELATED,
  relatedTags,
} from "./tags";

/** The tags one announced change makes stale, or "all" when it does not say what it touched. */
export function tagsOf(event: MarketEvent): string[] | "all" {
  const markets = [event.slug && marketSlugTag(event.slug), event.marketId && marketIdTag(event.marketId)].filter(Boolean) as string[];
  const outcome = event.outcomeId;
  // What lists show changed: the lists, and the related-markets lists the market is (or was) in.
  const lists = [LIST, ...(event.groups ? event.groups.flatMap(relatedTags) : [RELATED])];
  switch (event.kind) {
    case "trade":
    case "trade_edit": // an outcome's trades: its price, history and book (a fill), the market's volume, the lists
      return [...lists, ...markets, ...(outcome ? [outcomeHistoryTag(outcome), outcomeBookTag(outcome)] : [])];
    case "price": // probabilities or names of one outcome; without one, a market's visible fields (its place too: then two groups)
      if (outcome) return [...lists, ...markets, outcomeHistoryTag(outcome), outcomeBookTag(outcome)];
      return [...lists, ...(event.groups?.length === 1 ? [] : [LIST_MEMBERS]), ...markets];
    case "orderbook": // resting orders or a venue's book: the book, the market's liquidity, lists by liquidity
      return [LIST_BY_LIQUIDITY, ...markets, ...(outcome ? [outcomeBookTag(outcome)] : markets.map(booksOfTag))];
    case "detail": // comments, counters: what the market and the lists show, not its books or histories
      return [...lists, ...markets];
    case "market": // outcomes added or removed, a renamed, re-sourced or deleted market: everything of it
      return [...lists, LIST_MEMBERS, ...markets, ...markets.flatMap((t) => [booksOfTag(t), historiesOfTag(t)])];
    case "list": // markets added: no existing entry shows them but the lists (related ones by the new markets' groups)
      return [...lists, LIST_MEMBERS];
    case "users": // a user shows in the comments, top traders and trades of any market
    case "flush": // truncations, and kinds this build does not know
      return "all";
  }
}

/**
 * The cache's subscription to the change stream (lib/events/change-stream.ts): it drops what a change
 * touched, and answers from memory only while the stream is heard.
 */
export const cacheInvalidation: ChangeSubscriber = {
  event(event) {
    const tags = tagsOf(event);
    if (tags === "all") marketCache().invalidateAll();
    else marketCache().invalidate(tags);
  },
  listening: () => marketCache().setLive(true),
  lost: () => marketCache().setLive(false),
};
