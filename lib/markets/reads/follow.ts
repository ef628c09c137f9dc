// Reads of the pages alone (never /v1): the watchlist's markets, the day-ago prices of "what moved"
// (docs/api.md "24-hour change"), related markets. Same cache, same invalidation as every other read.
import "server-only";
import { leadingOutcome, moveOf, type Move } from "@/lib/markets/moves";
import type { Outcome } from "@/lib/markets/schemas";
import * as followSql from "@/lib/markets/sql/follow";
import { loaded, read } from "./cache";
import { LIST, marketIdTag, outcomeHistoryTag, RELATED, relatedTags } from "./tags";

/** The watchlist's markets: shown like the lists, so dropped whenever a list is (any visible change). */
export function listMarketsByIds(ids: string[]) {
  const sorted = [...new Set(ids)].sort();
  return read(["markets", "by-ids", sorted], [LIST], () => loaded(followSql.listMarketsByIds(sorted)));
}

/**
 * The day-ago prices of these outcomes (lib/markets/moves.ts turns them into a move). Only trades of these
 * outcomes or markets change them, or time: the answer expires when its next trade turns a day old.
 */
export function getDayAgoPrices(outcomes: { marketId: string; outcomeId: string }[]) {
  const ids = [...new Set(outcomes.map((o) => o.outcomeId))].sort();
  const tags = [...new Set(outcomes.flatMap((o) => [outcomeHistoryTag(o.outcomeId), marketIdTag(o.marketId)]))];
  return read(["markets", "day-ago", ids], tags, async () => {
    const { prices, changesAt } = await followSql.getDayAgoPrices(ids);
    return { value: prices, expiresAt: changesAt ?? undefined };
  });
}

/**
 * Related markets of one market: up to six of its group (followSql.listRelatedGroup) besides itself. Every
 * market with the same category, sub-category and tags shares the group's entry, so a page of a market
 * nobody opened before finds it in memory. They show volumes and probabilities of others: dropped with the lists.
 */
export async function listRelatedMarkets(m: { id: string; category: MarketDetailCategory; sub_category: string; tags: string[] }) {
  const tags = [...new Set(m.tags)].sort();
  // Dropped by a change of a market it could show (same category, sub-category or a tag: relatedTags), not by any change.
  const entryTags = [RELATED, ...relatedTags({ category: m.category, subCategory: m.sub_category, tags })];
  const group = await read(["markets", "related", m.category, m.sub_category, tags], entryTags, () =>
    loaded(followSql.listRelatedGroup({ category: m.category, sub_category: m.sub_category, tags })),
  );
  return group.filter((r) => r.id !== m.id).slice(0, followSql.RELATED_MAX);
}

type MarketDetailCategory = Parameters<typeof followSql.listRelatedGroup>[0]["category"];

/** Each market's move (lib/markets/moves.ts), by market id: one cached read for the leading outcomes of the page. */
export async function getMoves(markets: { id: string; outcomes: Outcome[] }[]): Promise<Record<string, Move | null>> {
  const leads = markets.flatMap((m) => {
    const lead = leadingOutcome(m.outcomes);
    return lead ? [{ marketId: m.id, outcomeId: lead.id }] : [];
  });
  const prices = leads.length ? await getDayAgoPrices(leads) : {};
  return Object.fromEntries(markets.map((m) => [m.id, moveOf(m.outcomes, prices)]));
}
