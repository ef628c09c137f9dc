// Market list: the URL's view parsed leniently, the first page prefetched through lib (not over HTTP)
// and handed to the client browser via HydrationBoundary; later changes fetch /v1 from the browser.
import { HydrationBoundary, QueryClient, dehydrate } from "@tanstack/react-query";
import { MarketBrowser } from "@/components/markets/market-browser";
import { withDatabase } from "@/lib/db/breaker";
import { DatabaseUnavailableError } from "@/lib/db/errors";
import { listMarkets, listSubCategories } from "@/lib/markets/queries";
import { marketListResponseSchema } from "@/lib/markets/schemas";
import { marketKeys } from "@/lib/query/keys";
import { parseListView, viewToQuery } from "@/lib/ui/list-params";
import { subCategoriesSchema } from "@/lib/ui/sub-categories";

export default async function MarketListPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const view = parseListView(await searchParams);
  const query = viewToQuery(view);
  const subParams = { status: view.status, category: view.category };
  const queryClient = new QueryClient();
  await Promise.all([
    queryClient.prefetchQuery({ queryKey: marketKeys.list(query), queryFn: async () => marketListResponseSchema.parse(await withDatabase(() => listMarkets(query))) }),
    queryClient.prefetchQuery({ queryKey: marketKeys.subCategories(subParams), queryFn: async () => subCategoriesSchema.parse(await listSubCategories(subParams)) }),
  ]);
  // prefetchQuery keeps errors to itself; a database outage must not render as an empty list.
  const failed = queryClient.getQueryState(marketKeys.list(query))?.error;
  if (failed instanceof DatabaseUnavailableError) throw failed;
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <MarketBrowser />
    </HydrationBoundary>
  );
}
