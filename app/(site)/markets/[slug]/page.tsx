// Market page: the market (an unknown slug is the 404) and the book of the chosen outcome are prefetched
// through lib and hydrated, all in the first response (no loading.tsx: see load-market.ts); the chart
// loads in the browser.
import type { Metadata } from "next";
import { HydrationBoundary, dehydrate } from "@tanstack/react-query";
import { getOrderBook } from "@/lib/markets/cache";
import { orderBookSchema } from "@/lib/markets/schemas";
import { getQueryClient } from "@/lib/query/client";
import { marketDetailOptions, orderBookOptions } from "@/lib/query/markets";
import { selectedOutcomeId } from "@/lib/ui/market-view";
import { loadMarket } from "./_components/load-market";
import { MarketView } from "./_components/market-view";
import { Providers } from "@/app/providers";

type Props = {
  params: Promise<{ slug: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const market = await loadMarket((await params).slug);
  return { title: market.question, description: market.description.slice(0, 200) };
}

export default async function MarketPage({ params, searchParams }: Props) {
  const { slug } = await params;
  const sp = await searchParams;
  const market = await loadMarket(slug);
  const outcomeId = selectedOutcomeId(market, typeof sp.outcome === "string" ? sp.outcome : undefined);
  const queryClient = getQueryClient();
  queryClient.setQueryData(marketDetailOptions(slug).queryKey, market);
  if (outcomeId) {
    // The browser's options, with a queryFn that reads through lib instead of over HTTP.
    await queryClient.prefetchQuery({
      ...orderBookOptions(slug, outcomeId),
      queryFn: async () => orderBookSchema.parse(await getOrderBook({ slug, outcomeId })),
    });
  }
  return (
    <Providers>
      <HydrationBoundary state={dehydrate(queryClient)}>
        <MarketView slug={slug} />
      </HydrationBoundary>
    </Providers>
  );
}
