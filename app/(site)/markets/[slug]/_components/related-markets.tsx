// Related markets under the market page: up to six of the same category sharing its sub-category or a tag,
// active first, by volume (lib/markets/queries.ts, listRelatedMarkets), from memory, rendered on the server.
import { cardsChangeAt, MarketCard } from "@/components/markets/market-card";
import { recordClock } from "@/lib/cache/render-record";
import { getMoves, listRelatedMarkets } from "@/lib/markets/cache";
import type { MarketDetail } from "@/lib/markets/schemas";

export async function RelatedMarkets({ market, starred, back }: { market: MarketDetail; starred: string[]; back: string }) {
  // Extras: a database that does not answer leaves the section out rather than failing the page.
  const related = await listRelatedMarkets(market).catch(() => []);
  if (related.length === 0) return null;
  const moves = await getMoves(related).catch(() => ({}) as Record<string, undefined>);
  recordClock(cardsChangeAt(related)); // for the page cache: the cards' time left
  return (
    <section aria-labelledby="related-heading" data-testid="related-markets">
      <h2 id="related-heading" className="mb-3 font-semibold">
        Related markets
      </h2>
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {related.map((m) => (
          <li key={m.id} className="flex">
            <div className="flex w-full flex-col [&>article]:flex-1">
              <MarketCard market={m} star={{ on: starred.includes(m.id), back }} move={moves[m.id]} />
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
