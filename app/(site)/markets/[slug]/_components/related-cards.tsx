"use client";
// The related markets' cards, drawn from what a card shows of each (the RSC payload carries six small
// objects, not six rendered cards; the browser hydrates the same markup). No state.
import { type CardMarket, CardCell, MarketCard } from "@/components/markets/market-card";
import type { Move } from "@/lib/ui/moves";

export function RelatedCards({
  markets,
  moves,
  starred,
  back,
}: {
  markets: CardMarket[];
  moves: Record<string, Move | null | undefined>;
  /** The ids of these markets on the reader's watchlist. */
  starred: string[];
  back: string;
}) {
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {markets.map((m) => (
        <CardCell key={m.id}>
          <MarketCard market={m} star={{ on: starred.includes(m.id), back }} move={moves[m.id]} />
        </CardCell>
      ))}
    </ul>
  );
}
