"use client";
// The site's top bar as the browser draws it (site-header.tsx reads the count it shows). A client
// component so that its markup is not in every page's RSC payload twice (the layout's header and the
// root 404's): the payload carries its one prop, and the server render draws it from this module.
import Link from "next/link";

/** The skip link and the sticky bar; `watched` is the number of starred markets (the watchlist cookie's). */
export function SiteHeaderView({ watched }: { watched: number }) {
  return (
    <>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:text-zinc-900"
      >
        Skip to content
      </a>
      <header className="sticky top-0 z-30 border-b border-zinc-200 bg-white/85 backdrop-blur dark:border-zinc-800 dark:bg-zinc-950/85">
        <div className="mx-auto flex h-14 max-w-7xl items-center gap-4 px-4 sm:gap-6">
          <Link href="/" className="flex items-center gap-2 text-lg font-semibold tracking-tight">
            <svg
              aria-hidden="true"
              viewBox="0 0 24 24"
              className="size-6 text-indigo-600 dark:text-indigo-400"
              fill="none"
              stroke="currentColor"
              strokeWidth="2.2"
              strokeLinecap="round"
              strokeLinejoin="round"
            >
              <path d="M3 17l5-6 4 3 6-8 3 4" />
            </svg>
            Markets
          </Link>
          <nav aria-label="Main" className="flex items-center gap-4 text-sm font-medium text-zinc-600 dark:text-zinc-300">
            <Link href="/" className="rounded hover:text-zinc-900 dark:hover:text-white">
              Browse
            </Link>
            {/* The count is the cookie's, so the link is right on every server-rendered page; no prefetch (a dynamic page). */}
            <Link
              href="/watchlist"
              prefetch={false}
              aria-label={`Watchlist ${watched} starred`}
              className="inline-flex items-center gap-1.5 rounded hover:text-zinc-900 dark:hover:text-white"
            >
              Watchlist{" "}
              <span
                data-testid="watchlist-count-badge"
                className="tabular inline-flex min-w-5 justify-center rounded-full bg-zinc-200 px-1.5 text-xs text-zinc-800 dark:bg-zinc-800 dark:text-zinc-100"
              >
                {watched}
              </span>
            </Link>
            {/* No prefetch for /docs: it would download the reference renderer on every page. */}
            <Link href="/docs" prefetch={false} className="rounded hover:text-zinc-900 dark:hover:text-white">
              API
            </Link>
          </nav>
        </div>
      </header>
    </>
  );
}
