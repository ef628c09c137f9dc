// The watchlist: the starred markets (the cookie's ids, newest star first) as cards, rendered here whole;
// the browser only joins their push channels and refreshes the page when one changes (components/markets/live-refresh.tsx).
import type { Metadata } from "next";
import Link from "next/link";
import { CardCell, MarketCard } from "@/components/markets/market-card";
import { StarForm } from "@/components/markets/star-form";
import { buttonClass } from "@/components/ui/button";
import { getMoves, listMarketsByIds } from "@/lib/markets/reads/follow";
import { readWatchlist } from "@/lib/follow/read-watchlist";
import { WATCHLIST_MAX } from "@/lib/follow/watchlist";
import { LiveRefresh } from "@/components/markets/live-refresh";

export const metadata: Metadata = { title: "Watchlist", robots: { index: false } };

export default async function WatchlistPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const full = (await searchParams).full === "1";
  const ids = await readWatchlist();
  const markets = await listMarketsByIds(ids);
  const byId = new Map(markets.map((m) => [m.id, m]));
  const moves = await getMoves(markets).catch(() => ({}) as Record<string, undefined>);

  return (
    <div className="flex flex-col gap-5">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">Watchlist</h1>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          The markets you starred, kept in this browser (a cookie, no account): at most {WATCHLIST_MAX}. They update live.
        </p>
      </div>
      {full && (
        <p role="alert" className="rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm dark:border-amber-800 dark:bg-amber-950/40">
          Your watchlist is full ({WATCHLIST_MAX} markets). Remove one to star another.
        </p>
      )}
      <h2 data-testid="watchlist-count" className="tabular text-sm font-medium text-zinc-700 dark:text-zinc-300">
        {ids.length} of {WATCHLIST_MAX} markets
      </h2>
      {ids.length === 0 ? (
        <div
          data-testid="empty-state"
          className="flex flex-col items-center gap-3 rounded-xl border border-dashed border-zinc-300 px-6 py-14 text-center dark:border-zinc-700"
        >
          <p className="font-semibold">No starred markets yet</p>
          <p className="max-w-md text-sm text-zinc-600 dark:text-zinc-400">Star a market on its card or its page to keep it here.</p>
          <Link href="/" className={buttonClass()}>
            Browse markets
          </Link>
        </div>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
          {ids.map((id) => {
            const m = byId.get(id);
            return (
              <CardCell key={id}>
                {m ? (
                  <MarketCard market={m} star={{ on: true, back: "/watchlist" }} move={moves[m.id]} />
                ) : (
                  <article
                    data-testid="market-gone"
                    className="flex items-start justify-between gap-3 rounded-xl border border-dashed border-zinc-300 p-4 text-sm dark:border-zinc-700"
                  >
                    <div>
                      <h3 className="font-semibold">This market no longer exists</h3>
                      <p className="mt-1 text-zinc-600 dark:text-zinc-400">It was deleted after you starred it.</p>
                    </div>
                    <StarForm marketId={id} starred back="/watchlist" label="Remove the deleted market from the watchlist" />
                  </article>
                )}
              </CardCell>
            );
          })}
        </ul>
      )}
      <LiveRefresh slugs={markets.map((m) => m.slug)} />
    </div>
  );
}
