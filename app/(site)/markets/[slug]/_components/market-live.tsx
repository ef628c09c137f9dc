"use client";
// The live chunk's entry: react-query, filled from the server's reads, around the live view. Loaded by
// live-swap.tsx after hydration, so none of it (react-query, the socket, the chart) is first-load JS.
import { HydrationBoundary, type DehydratedState } from "@tanstack/react-query";
import { Providers } from "@/app/providers";
import { MarketView } from "./market-view";
import type { DayAgoPrices } from "@/lib/markets/moves";

export function MarketLive({
  slug,
  state,
  nowS,
  dayAgo,
  actions,
}: {
  slug: string;
  state: DehydratedState;
  nowS: number;
  dayAgo?: DayAgoPrices;
  actions?: React.ReactNode;
}) {
  return (
    <Providers>
      <HydrationBoundary state={state}>
        <MarketView slug={slug} nowS={nowS} dayAgo={dayAgo} actions={actions} />
      </HydrationBoundary>
    </Providers>
  );
}

export { preloadChartMode } from "@/components/markets/chart-modes";
