// Market page: the market (the layout has already answered an unknown slug with the 404) and the book of the
// chosen outcome are prefetched through lib and hydrated; the chart loads in the browser.
import { cache } from "react";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { HydrationBoundary, dehydrate } from "@tanstack/react-query";
import { getMarket, getOrderBook } from "@/lib/markets/cache";
import { marketDetailSchema, orderBookSchema } from "@/lib/markets/schemas";
import { getQueryClient } from "@/lib/query/client";
import { marketDetailOptions, orderBookOptions } from "@/lib/query/markets";
import { selectedOutcomeId } from "@/lib/ui/market-view";
import { MarketView } from "./_components/market-view";

type Props = {
  params: Promise<{ slug: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

// Once per request for the metadata and the page; a slug deleted since the layout checked it is a 404.
const loadMarket = cache(async (slug: string) => {
  const market = await getMarket({ slug });
  if (!market) notFound();
  return marketDetailSchema.parse(market);
});

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
    <HydrationBoundary state={dehydrate(queryClient)}>
      <MarketView slug={slug} />
    </HydrationBoundary>
  );
}
