"use client";
// The market page's client side: hydrated market, chosen outcome and chart range in the URL
// (history.pushState keeps useSearchParams in sync without a server round trip).
import { useCallback } from "react";
import { usePathname, useSearchParams } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import { marketDetailOptions } from "@/lib/query/markets";
import { parseRange, type ChartRange } from "@/lib/ui/chart-ranges";
import { defaultOutcomeId, marketSearch, selectedOutcomeId } from "@/lib/ui/market-view";
import { OutcomeList } from "@/components/markets/outcome-list";
import { OrderBookLadder } from "@/components/markets/order-book-ladder";
import { PriceChart } from "@/components/markets/price-chart";
import { TopTraders } from "@/components/markets/top-traders";
import { Comments } from "@/components/markets/comments";
import { MarketHeader } from "./market-header";
import { ResolutionPanel } from "./resolution-panel";
import { LiveStatus } from "./live-status";

export function MarketView({ slug }: { slug: string }) {
  const detail = useQuery(marketDetailOptions(slug));
  const searchParams = useSearchParams();
  const pathname = usePathname();
  const market = detail.data;
  const range = parseRange(searchParams.get("range"));
  const outcomeId = market ? selectedOutcomeId(market, searchParams.get("outcome")) : undefined;

  const navigate = useCallback(
    (next: { outcome?: string; range: ChartRange }) => {
      if (!market) return;
      window.history.pushState(null, "", `${pathname}${marketSearch(next, { outcome: defaultOutcomeId(market) })}`);
    },
    [market, pathname],
  );

  if (!market) return null; // always hydrated from the server page
  const outcome = market.outcomes.find((o) => o.id === outcomeId);

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-2">
        <MarketHeader market={market} />
        <div className="flex justify-end">
          <LiveStatus slug={slug} updatedAt={detail.dataUpdatedAt} />
        </div>
      </div>
      <ResolutionPanel market={market} />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_380px]">
        <div className="flex min-w-0 flex-col gap-6">
          {outcome && (
            <PriceChart
              slug={slug}
              outcomeId={outcome.id}
              outcomeName={outcome.name}
              tradingStartsAt={market.trading_starts_at}
              range={range}
              onRangeChange={(r) => navigate({ outcome: outcome.id, range: r })}
              notTradingYet={market.status === "PENDING"}
            />
          )}
          <OutcomeList
            outcomes={market.outcomes}
            selectedId={outcomeId}
            winningId={market.winning_outcome_id}
            onSelect={(id) => navigate({ outcome: id, range })}
          />
          {market.description && (
            <section aria-labelledby="about-heading">
              <h2 id="about-heading" className="mb-2 font-semibold">
                About this market
              </h2>
              <p className="whitespace-pre-line text-sm leading-relaxed text-zinc-700 dark:text-zinc-300" data-testid="market-description">
                {market.description}
              </p>
            </section>
          )}
          <div className="hidden lg:block">
            <Comments comments={market.comments} />
          </div>
        </div>
        <aside aria-label="Order book and traders" className="flex min-w-0 flex-col gap-6">
          {outcome && <OrderBookLadder slug={slug} outcomeId={outcome.id} outcomeName={outcome.name} venue={market.external_source} />}
          <TopTraders traders={market.top_traders} />
        </aside>
        <div className="lg:hidden">
          <Comments comments={market.comments} />
        </div>
      </div>
    </div>
  );
}
