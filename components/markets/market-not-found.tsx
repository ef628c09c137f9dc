// The page of a market that does not exist, drawn by the market page itself with a 404
// (lib/pages/document-status.ts). Not a not-found.tsx: nothing under /markets throws notFound(), and a
// segment's not-found element is in the RSC payload of every page below it.
import Link from "next/link";
import { buttonClass } from "@/components/ui/button";

export function MarketNotFound() {
  return (
    <div className="mx-auto flex max-w-lg flex-col items-center gap-3 py-20 text-center">
      <p className="text-sm font-semibold text-indigo-700 dark:text-indigo-300">404</p>
      <h1 className="text-2xl font-semibold tracking-tight">Market not found</h1>
      <p className="text-zinc-600 dark:text-zinc-400">There is no market at this address. It may have been renamed, or the link is mistyped.</p>
      <Link href="/" className={buttonClass("primary")}>
        Browse all markets
      </Link>
    </div>
  );
}
