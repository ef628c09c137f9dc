"use client";
// The site's footer (the end of the (site) layout's markup, which its render-blocking <link> waits for).
// A client component: the same on every page, so the RSC payload carries a reference, not its markup.
import Link from "next/link";

export function SiteFooter() {
  return (
    <footer id="site-footer" className="border-t border-zinc-200 py-6 text-sm text-zinc-600 dark:border-zinc-800 dark:text-zinc-400">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-3 px-4">
        <p>Markets – prediction-market data. Prices are probabilities, not advice.</p>
        <nav aria-label="Footer" className="flex gap-4">
          <Link href="/docs" prefetch={false} className="rounded underline-offset-4 hover:underline">
            API reference
          </Link>
          <a href="/v1/markets" className="rounded underline-offset-4 hover:underline">
            /v1/markets
          </a>
        </nav>
      </div>
    </footer>
  );
}
