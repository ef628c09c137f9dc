// Related markets under the market page: up to six of the same category sharing its sub-category or a tag,
// active first, by volume (lib/markets/sql/follow.ts, listRelatedGroup), from memory once any market of the
// same category, sub-category and tags was shown; the rows are drawn from their items (related-list.tsx).
import { cardMarket } from "@/components/markets/market-card";
import { listRelatedMarkets } from "@/lib/markets/reads/follow";
import type { MarketDetail } from "@/lib/markets/schemas";
import { RelatedList } from "./related-list";

export async function RelatedMarkets({ market }: { market: MarketDetail }) {
  // Extras: a database that does not answer leaves the section out rather than failing the page.
  const related = await listRelatedMarkets(market).catch(() => []);
  if (related.length === 0) return null;
  return (
    <section aria-labelledby="related-heading" data-testid="related-markets">
      <h2 id="related-heading" className="mb-2 font-semibold">
        Related markets
      </h2>
      <RelatedList data={JSON.stringify(related.map(cardMarket))} />
    </section>
  );
}
