"use client";
// The market page's live view (part of the live chunk, see live-swap.tsx): the market, book, chart and
// trade tape from react-query, kept fresh by the push channels; chosen outcome, chart range and mode and
// the tape's scope in the URL (history.pushState keeps useSearchParams in sync without a server round trip).
import { usePathname, useSearchParams } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import { marketDetailOptions } from "@/lib/query/markets";
import { marketHref, type MarketViewParams, parseMarketView } from "@/lib/ui/market-view";
import { OrderBookLadder } from "@/components/markets/order-book-ladder";
import { ChartPanel } from "@/components/markets/chart-panel";
import { ActivityPanel } from "@/components/markets/activity-panel";
import { MarketBody } from "./market-body";
import { LiveStatus } from "./live-status";
import type { DayAgoPrices } from "@/lib/markets/moves";

export function MarketView({ slug, nowS, dayAgo, actions }: { slug: string; nowS: number; dayAgo?: DayAgoPrices; actions?: React.ReactNode }) {
  const detail = useQuery(marketDetailOptions(slug));
  const searchParams = useSearchParams();
  const pathname = usePathname();
  const market = detail.data;
  const view = market ? parseMarketView(market, (name) => searchParams.get(name)) : undefined;

  if (!market || !view) return null; // always filled from the server page
  const outcomeId = view.outcome;
  const outcome = market.outcomes.find((o) => o.id === outcomeId);
  // Links and pushes change one part of the view and keep the rest (outcome, range, chart mode, tape scope).
  const hrefOf = (next: Partial<MarketViewParams>) => marketHref(pathname, market, { ...view, ...next });
  const navigate = (next: Partial<MarketViewParams>) => window.history.pushState(null, "", hrefOf(next));

  return (
    <MarketBody
      market={market}
      outcomeId={outcomeId}
      dayAgo={dayAgo}
      actions={actions}
      status={<LiveStatus slug={slug} updatedAt={detail.dataUpdatedAt} />}
      chart={outcome && <ChartPanel slug={slug} market={market} outcome={outcome} view={view} initialNowS={nowS} hrefOf={hrefOf} navigate={navigate} />}
      activity={
        outcome && (
          <ActivityPanel
            slug={slug}
            outcomeId={outcome.id}
            outcomeName={outcome.name}
            outcomes={market.outcomes}
            scope={view.trades}
            onScopeChange={(trades) => navigate({ trades })}
            scopeHref={(trades) => hrefOf({ trades })}
          />
        )
      }
      book={outcome && <OrderBookLadder slug={slug} outcomeId={outcome.id} outcomeName={outcome.name} venue={market.external_source} />}
      onSelect={(id) => navigate({ outcome: id })}
      hrefFor={(id) => hrefOf({ outcome: id })}
    />
  );
}
