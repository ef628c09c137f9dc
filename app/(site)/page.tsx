// Market list: the URL's view parsed leniently, the first page prefetched through lib (not over HTTP)
// and handed to the client browser via HydrationBoundary; later changes fetch /v1 from the browser.
import { HydrationBoundary, dehydrate } from "@tanstack/react-query";
import { MarketBrowser } from "@/components/markets/market-browser";
import { Providers } from "@/app/providers";
import { listMarkets, listSubCategories } from "@/lib/markets/cache";
import { DatabaseUnavailableError } from "@/lib/db/errors";
import { marketListResponseSchema } from "@/lib/markets/schemas";
import { getQueryClient } from "@/lib/query/client";
import { marketListOptions, subCategoriesOptions } from "@/lib/query/markets";
import { parseListView, viewToQuery } from "@/lib/ui/list-params";
import { subCategoriesSchema } from "@/lib/ui/sub-categories";

export default async function MarketListPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const view = parseListView(await searchParams);
  const query = viewToQuery(view);
  const subParams = { status: view.status, category: view.category };
  const queryClient = getQueryClient();
  // The browser's options (key and all), with a queryFn that reads through lib instead of over HTTP.
  await Promise.all([
    queryClient.prefetchQuery({ ...marketListOptions(query), queryFn: async () => marketListResponseSchema.parse(await listMarkets(query)) }),
    queryClient.prefetchQuery({ ...subCategoriesOptions(subParams), queryFn: async () => subCategoriesSchema.parse(await listSubCategories(subParams)) }),
  ]);
  // prefetchQuery keeps errors to itself; a database outage must not render as an empty list.
  const failed = queryClient.getQueryState(marketListOptions(query).queryKey)?.error;
  if (failed instanceof DatabaseUnavailableError) throw failed;
  return (
    <Providers>
      <HydrationBoundary state={dehydrate(queryClient)}>
        <MarketBrowser />
      </HydrationBoundary>
    </Providers>
  );
}
