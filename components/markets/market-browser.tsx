"use client";
// The market list: view state read from the URL, changed with history.pushState (Next syncs
// useSearchParams), data from /v1 through react-query; the first page arrives hydrated from the server.
import { useCallback, useMemo } from "react";
import { usePathname, useSearchParams } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import { marketListOptions, subCategoriesOptions } from "@/lib/query/markets";
import { PAGE_SIZE, parseListView, viewToQuery, viewToSearch, type ListView } from "@/lib/ui/list-params";
import { titleCase } from "@/lib/ui/format";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { MarketCard } from "./market-card";
import { MarketFilters } from "./market-filters";
import { Pagination, rangeText } from "./pagination";

export function MarketBrowser() {
  const searchParams = useSearchParams();
  const pathname = usePathname();
  const view = useMemo(() => parseListView(new URLSearchParams(searchParams.toString())), [searchParams]);
  const query = viewToQuery(view);
  const list = useQuery(marketListOptions(query));
  const subs = useQuery(subCategoriesOptions({ status: view.status, category: view.category }));

  const navigate = useCallback(
    (next: ListView, replace = false) => {
      // A late change (the search debounce) must never drag the user back once the list is left.
      if (window.location.pathname !== pathname) return;
      const url = `${pathname}${viewToSearch(next)}`;
      if (replace) window.history.replaceState(null, "", url);
      else window.history.pushState(null, "", url);
    },
    [pathname],
  );
  // Any filter change starts again at page 1.
  const onChange = useCallback(
    (patch: Partial<ListView>, opts?: { replace?: boolean }) => navigate({ ...view, page: 1, ...patch }, opts?.replace),
    [navigate, view],
  );
  const onPage = (page: number) => {
    navigate({ ...view, page });
    document.getElementById("results")?.scrollIntoView({ block: "start" });
  };

  const data = list.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / PAGE_SIZE)) : 1;
  const scope = [titleCase(view.status), view.category && titleCase(view.category), view.subCategory].filter(Boolean).join(" · ");

  return (
    <div className="flex flex-col gap-5">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">Prediction markets</h1>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">Live probabilities, order books and price history across every category.</p>
      </div>
      <MarketFilters view={view} subCategories={subs.data} onChange={onChange} />

      <section id="results" aria-labelledby="results-heading" aria-busy={list.isFetching} className="scroll-mt-20">
        <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="results-heading" className="text-sm font-medium text-zinc-700 dark:text-zinc-300">
            {scope}
            {view.q ? ` · “${view.q}”` : ""}
          </h2>
          {data && (
            <p data-testid="range-text" className="tabular text-sm text-zinc-600 dark:text-zinc-400" aria-live="polite">
              {rangeText(data.offset, data.markets.length, data.total)} markets
            </p>
          )}
        </div>

        {list.isError && !data ? (
          <div
            role="alert"
            className="flex flex-col items-center gap-3 rounded-xl border border-rose-300 bg-rose-50 px-6 py-12 text-center dark:border-rose-900 dark:bg-rose-950/40"
          >
            <p className="font-semibold">Couldn’t load markets</p>
            <p className="text-sm text-zinc-700 dark:text-zinc-300">{list.error.message}</p>
            <Button variant="primary" onClick={() => list.refetch()}>
              Retry
            </Button>
          </div>
        ) : !data ? (
          <ul aria-label="Loading markets" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
            {Array.from({ length: 8 }, (_, i) => (
              <li key={i} className="flex flex-col gap-3 rounded-xl border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900">
                <div className="flex gap-3">
                  <Skeleton className="size-12" />
                  <div className="flex-1 space-y-2">
                    <Skeleton className="h-3 w-1/3" />
                    <Skeleton className="h-4 w-full" />
                    <Skeleton className="h-4 w-2/3" />
                  </div>
                </div>
                <Skeleton className="h-2 w-full" />
                <Skeleton className="h-3 w-1/2" />
              </li>
            ))}
          </ul>
        ) : data.markets.length === 0 ? (
          <div
            data-testid="empty-state"
            className="flex flex-col items-center gap-3 rounded-xl border border-dashed border-zinc-300 px-6 py-14 text-center dark:border-zinc-700"
          >
            <p className="font-semibold">No markets match these filters</p>
            <p className="max-w-md text-sm text-zinc-600 dark:text-zinc-400">
              {view.page > 1 && data.total > 0
                ? `There are only ${pages} page${pages > 1 ? "s" : ""} of results. Go back to the first page.`
                : view.q
                  ? `Nothing in ${scope} mentions “${view.q}”. Try a shorter search, another status tab or all categories.`
                  : `There are no ${scope} markets right now. Try another status tab, category or sub-category.`}
            </p>
            <Button onClick={() => navigate({ status: view.status, sortBy: view.sortBy, sortOrder: view.sortOrder, page: 1 })}>Clear filters</Button>
          </div>
        ) : (
          <>
            <ul className={`grid gap-4 transition-opacity sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4 ${list.isPlaceholderData ? "opacity-60" : ""}`}>
              {data.markets.map((m, i) => (
                <li key={m.id} className="flex">
                  <div className="flex w-full flex-col [&>article]:flex-1">
                    <MarketCard market={m} priority={i < 4} />
                  </div>
                </li>
              ))}
            </ul>
            <div className="mt-6">
              <Pagination page={view.page} pages={pages} hrefFor={(page) => `${pathname}${viewToSearch({ ...view, page })}`} onPage={onPage} />
            </div>
          </>
        )}
      </section>
    </div>
  );
}
