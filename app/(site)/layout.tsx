import Link from "next/link";
import { SiteHeader } from "@/components/site/site-header";

export default function SiteLayout({ children }: { children: React.ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col">
      {/* Chromium paints a document still being parsed when the parser runs out of time (a busy machine,
          a slow phone): the cards of a half-parsed grid row, the search box before its input, which then
          move as the rest arrives. The first paint waits for the footer, the end of the page's markup
          (hoisted into <head>; other browsers ignore it and paint as before). */}
      <link rel="expect" href="#site-footer" blocking="render" />
      <SiteHeader />
      {/* At least a screen tall, so the footer starts below the fold and the page streaming in never pushes it (CLS 0). */}
      <main id="main" tabIndex={-1} className="outline-none mx-auto min-h-dvh w-full max-w-7xl flex-1 px-4 py-6">
        {children}
      </main>
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
    </div>
  );
}
