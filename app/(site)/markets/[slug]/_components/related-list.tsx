"use client";
// The related markets under the market page: a compact list, a row per market (image, question, volume
// and time, the leading chance), as market pages elsewhere show them. A row is about ten elements where a
// list card is nearly forty, and this section is in the first response of every market page: six cards
// were a sixth of the cost of a page nobody had opened before. The stars and 24-hour moves stay on
// the list's cards. Drawn from what a card shows of each market; no state.
import Link from "next/link";
import { useMemo } from "react";
import { type CardMarket, When } from "@/components/markets/market-card";
import { MarketImage } from "@/components/markets/market-image";
import { formatPercent, formatUsdCompact } from "@/lib/ui/format";
import { leadingOutcome } from "@/lib/markets/moves";

/** The chance a row shows: Yes of a binary market, else the leading outcome; none once it is settled. */
function chanceOf(m: CardMarket) {
  if (m.status === "RESOLVED" || m.status === "CANCELLED") return undefined;
  return m.type === "BINARY" ? m.outcomes.find((o) => o.index === 0) : leadingOutcome(m.outcomes);
}

/**
 * `data` is the rows' markets as one JSON text: React's RSC payload carries a text of 1 KB or more as a raw
 * row, where an array of objects goes value by value through the server's serializer and, on the way back
 * (the server render's own decode and the browser's), through a reviver called for every value
 * (page-data.ts says the same of the page's reads).
 */
export function RelatedList({ data }: { data: string }) {
  const markets = useMemo(() => JSON.parse(data) as CardMarket[], [data]);
  return (
    <ul className="grid gap-x-6 gap-y-1 sm:grid-cols-2 lg:grid-cols-3">
      {markets.map((m) => {
        const chance = chanceOf(m);
        return (
          <li key={m.id} data-testid="related-market" className="relative flex items-center gap-3 rounded-lg p-2 hover:bg-zinc-100 dark:hover:bg-zinc-800/70">
            <MarketImage src={m.image_url} className="size-10 shrink-0 rounded-md" />
            <div className="min-w-0 flex-1">
              <h3 className="line-clamp-2 text-sm font-medium leading-snug">
                <Link
                  href={`/markets/${m.slug}`}
                  prefetch={false}
                  className="outline-none after:absolute after:inset-0 after:rounded-lg focus-visible:after:ring-2 focus-visible:after:ring-indigo-500"
                >
                  {m.question}
                </Link>
              </h3>
              <p className="mt-0.5 text-xs text-zinc-600 dark:text-zinc-400">
                {formatUsdCompact(m.total_volume)} Vol. · <When market={m} />
              </p>
            </div>
            {chance && (
              <p className="shrink-0 text-right">
                <span className="tabular block text-sm font-semibold">{formatPercent(chance.probability)}</span>
                <span className="block max-w-24 truncate text-xs text-zinc-600 dark:text-zinc-400">{chance.name}</span>
              </p>
            )}
          </li>
        );
      })}
    </ul>
  );
}
