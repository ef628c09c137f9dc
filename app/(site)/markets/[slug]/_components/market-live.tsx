"use client";
// The live chunk's entry: react-query, filled from the server's reads, around the live view. Loaded by
// live-swap.tsx after hydration, so none of it (react-query, the socket, the chart) is first-load JS.
import { HydrationBoundary, type DehydratedState } from "@tanstack/react-query";
import { Providers } from "@/app/providers";
import { MarketView } from "./market-view";

export function MarketLive({ slug, state, nowS }: { slug: string; state: DehydratedState; nowS: number }) {
  return (
    <Providers>
      <HydrationBoundary state={state}>
        <MarketView slug={slug} nowS={nowS} />
      </HydrationBoundary>
    </Providers>
  );
}
