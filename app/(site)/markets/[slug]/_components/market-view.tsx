"use client";
// The market page's live view (part of the live chunk, see live-swap.tsx): the market, book and history
// from react-query, kept fresh by the push channels; chosen outcome and chart range in the URL
// (history.pushState keeps useSearchParams in sync without a server round trip).
import { useCallback } from "react";
import { usePathname, useSearchParams } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import { marketDetailOptions } from "@/lib/query/markets";
import { parseRange, type ChartRange } from "@/lib/ui/chart-ranges";
import { marketHref, selectedOutcomeId } from "@/lib/ui/market-view";
import { OrderBookLadder } from "@/components/markets/order-book-ladder";
import { PriceChart } from "@/components/markets/price-chart";
import { MarketBody } from "./market-body";
import { LiveStatus } from "./live-status";
import type { DayAgoPrices } from "@/lib/ui/moves";

export function MarketView({ slug, nowS, dayAgo, actions }: { slug: string; nowS: number; dayAgo?: DayAgoPrices; actions?: React.ReactNode }) {
  const detail = useQuery(marketDetailOptions(slug));
  const searchParams = useSearchParams();
  const pathname = usePathname();
  const market = detail.data;
  const range = parseRange(searchParams.get("range"));
  const outcomeId = market ? selectedOutcomeId(market, searchParams.get("outcome")) : undefined;

  const navigate = useCallback(
    (next: { outcome?: string; range: ChartRange }) => {
      if (!market) return;
      window.history.pushState(null, "", marketHref(pathname, market, next));
    },
    [market, pathname],
  );

  if (!market) return null; // always filled from the server page
  const outcome = market.outcomes.find((o) => o.id === outcomeId);

  return (
    <MarketBody
      market={market}
      outcomeId={outcomeId}
      dayAgo={dayAgo}
      actions={actions}
      status={<LiveStatus slug={slug} updatedAt={detail.dataUpdatedAt} />}
      chart={
        outcome && (
          <PriceChart
            slug={slug}
            outcomeId={outcome.id}
            outcomeName={outcome.name}
            tradingStartsAt={market.trading_starts_at}
            range={range}
            onRangeChange={(r) => navigate({ outcome: outcome.id, range: r })}
            notTradingYet={market.status === "PENDING"}
            initialNowS={nowS}
            rangeHref={(r) => marketHref(pathname, market, { outcome: outcome.id, range: r })}
          />
        )
      }
      book={outcome && <OrderBookLadder slug={slug} outcomeId={outcome.id} outcomeName={outcome.name} venue={market.external_source} />}
      onSelect={(id) => navigate({ outcome: id, range })}
      hrefFor={(id) => marketHref(pathname, market, { outcome: id, range })}
    />
  );
}
