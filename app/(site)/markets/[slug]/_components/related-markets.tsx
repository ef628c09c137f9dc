// Related markets under the market page: up to six of the same category sharing its sub-category or a tag,
// active first, by volume (lib/markets/queries.ts, listRelatedGroup), from memory once any market of the
// same category, sub-category and tags was shown; the cards are drawn from their items (related-cards.tsx).
import { cardMarket, cardsChangeAt } from "@/components/markets/market-card";
import { recordClock } from "@/lib/cache/render-record";
import { getMoves, listRelatedMarkets } from "@/lib/markets/cache";
import type { MarketDetail } from "@/lib/markets/schemas";
import { RelatedCards } from "./related-cards";

export async function RelatedMarkets({ market, starred, back }: { market: MarketDetail; starred: string[]; back: string }) {
  // Extras: a database that does not answer leaves the section out rather than failing the page.
  const { markets: related, group } = await listRelatedMarkets(market).catch(() => ({ markets: [], group: [] }));
  if (related.length === 0) return null;
  // The group's moves, one read that every page of the group shares.
  const moves = await getMoves(group).catch(() => ({}) as Record<string, undefined>);
  recordClock(cardsChangeAt(related)); // for the page cache: the cards' time left
  return (
    <section aria-labelledby="related-heading" data-testid="related-markets">
      <h2 id="related-heading" className="mb-3 font-semibold">
        Related markets
      </h2>
      <RelatedCards
        markets={related.map(cardMarket)}
        moves={Object.fromEntries(related.map((m) => [m.id, moves[m.id]]))}
        starred={related.filter((m) => starred.includes(m.id)).map((m) => m.id)}
        back={back}
      />
    </section>
  );
}
