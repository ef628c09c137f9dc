// Market list: the URL's view parsed leniently, read through lib (not over HTTP) and rendered here on the
// server; only the filters, the pending state and the periodic refresh run in the browser
// (components/markets/list-navigation.tsx). Every change of view is a navigation to its URL.
import type { Metadata } from "next";
import { CardCell, MarketCard } from "@/components/markets/market-card";
import { requestOrigin } from "@/lib/follow/origin";
import { SHARE_IMAGE, SITE_NAME } from "@/lib/follow/share";
import { MarketFilters } from "@/components/markets/market-filters";
import { ClearFiltersButton, ListNavigationProvider, ListResults, RetryButton } from "@/components/markets/list-navigation";
import { Pagination, rangeText } from "@/components/markets/pagination";
import { buttonClass } from "@/components/ui/button";
import { isDatabaseUnavailable } from "@/lib/db/errors";
import { getMoves } from "@/lib/markets/reads/follow";
import { listMarkets, listSubCategories } from "@/lib/markets/reads/lists/list-markets";
import { readWatchlist } from "@/lib/follow/read-watchlist";
import type { Move } from "@/lib/markets/moves";
import { titleCase } from "@/lib/ui/title-case";
import { PAGE_SIZE, parseListView, viewToQuery, viewToSearch } from "@/lib/ui/list-params";

/** The list's share card: the site's image (app/(site)/share.png) with absolute URLs for unfurlers. */
export async function generateMetadata(): Promise<Metadata> {
  const origin = await requestOrigin();
  const image = {
    url: `${origin}/share.png`,
    width: SHARE_IMAGE.width,
    height: SHARE_IMAGE.height,
    alt: `${SITE_NAME}: prediction markets`,
    type: "image/png",
  };
  const title = `${SITE_NAME} – prediction-market prices, books and history`;
  const description = "Browse prediction markets: live probabilities, order books and price history.";
  return {
    openGraph: { type: "website", siteName: SITE_NAME, title, description, url: `${origin}/`, images: [image] },
    twitter: { card: "summary_large_image", title, description, images: [image] },
  };
}

/** A database that does not answer in time is a state of the list, not a crash: the filters stay usable. */
async function unlessUnavailable<T>(read: Promise<T>): Promise<T | "unavailable"> {
  try {
    return await read;
  } catch (err) {
    if (isDatabaseUnavailable(err)) return "unavailable";
    throw err;
  }
}

export default async function MarketListPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const view = parseListView(await searchParams);
  const [data, subs] = await Promise.all([
    unlessUnavailable(listMarkets(viewToQuery(view))),
    unlessUnavailable(listSubCategories({ status: view.status, category: view.category })),
  ]);
  // The cards' stars (the watchlist cookie) and 24-hour moves (one cached read for the page's leading outcomes).
  const [starred, moves] = (await Promise.all([readWatchlist(), data === "unavailable" ? {} : getMoves(data.markets).catch(() => ({}))])) as [
    string[],
    Record<string, Move | null | undefined>,
  ];
  const back = `/${viewToSearch(view)}`;
  const pages = data === "unavailable" ? 1 : Math.max(1, Math.ceil(data.total / PAGE_SIZE));
  const scope = [titleCase(view.status), view.category && titleCase(view.category), view.subCategory].filter(Boolean).join(" · ");

  return (
    <ListNavigationProvider view={view}>
      <div className="flex flex-col gap-5">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">Prediction markets</h1>
          <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">Live probabilities, order books and price history across every category.</p>
        </div>
        <MarketFilters subCategories={subs === "unavailable" ? [] : subs} />

        <ListResults>
          <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
            <h2 id="results-heading" className="text-sm font-medium text-zinc-700 dark:text-zinc-300">
              {scope}
              {view.q ? ` · “${view.q}”` : ""}
            </h2>
            {data !== "unavailable" && (
              <p data-testid="range-text" className="tabular text-sm text-zinc-600 dark:text-zinc-400" aria-live="polite">
                {rangeText(data.offset, data.markets.length, data.total)} markets
              </p>
            )}
          </div>

          {data === "unavailable" ? (
            <div
              role="alert"
              className="flex flex-col items-center gap-3 rounded-xl border border-rose-300 bg-rose-50 px-6 py-12 text-center dark:border-rose-900 dark:bg-rose-950/40"
            >
              <p className="font-semibold">Couldn’t load markets</p>
              <p className="max-w-md text-sm text-zinc-700 dark:text-zinc-300">
                The market data is not answering right now. Try again in a moment; the list also retries by itself.
              </p>
              <RetryButton className={buttonClass("primary")} />
            </div>
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
              <ClearFiltersButton className={buttonClass()} />
            </div>
          ) : (
            <>
              <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
                {data.markets.map((m) => (
                  <CardCell key={m.id}>
                    <MarketCard market={m} star={{ on: starred.includes(m.id), back }} move={moves[m.id]} />
                  </CardCell>
                ))}
              </ul>
              <div className="mt-6">
                <Pagination page={view.page} pages={pages} hrefFor={(page) => `/${viewToSearch({ ...view, page })}`} />
              </div>
            </>
          )}
        </ListResults>
      </div>
    </ListNavigationProvider>
  );
}
