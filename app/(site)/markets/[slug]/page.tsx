// Market page: the market (the layout has already answered an unknown slug with the 404) and the book of the
// chosen outcome are prefetched through lib and hydrated; the chart loads in the browser.
import { cache } from "react";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { HydrationBoundary, QueryClient, dehydrate } from "@tanstack/react-query";
import { ApiError } from "@/lib/api/errors";
import { withDatabase } from "@/lib/db/breaker";
import { getMarket, getOrderBook } from "@/lib/markets/queries";
import { marketDetailSchema, orderBookSchema } from "@/lib/markets/schemas";
import { marketKeys } from "@/lib/query/keys";
import { selectedOutcomeId } from "@/lib/ui/market-view";
import { MarketView } from "./_components/market-view";

type Props = {
  params: Promise<{ slug: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

// Once per request for the metadata and the page; a slug deleted since the layout checked it is a 404.
const loadMarket = cache(async (slug: string) => {
  try {
    return marketDetailSchema.parse(await withDatabase(() => getMarket({ slug })));
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) notFound();
    throw err;
  }
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
  const queryClient = new QueryClient();
  queryClient.setQueryData(marketKeys.detail(slug), market);
  if (outcomeId) {
    await queryClient.prefetchQuery({
      queryKey: marketKeys.orderBook(slug, outcomeId),
      queryFn: async () => orderBookSchema.parse(await getOrderBook({ slug, outcomeId })),
    });
  }
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <MarketView slug={slug} />
    </HydrationBoundary>
  );
}
