"use client";
// Freshness of the page's data. The realtime hook plugs in here: call useMarketChannel(slug) in this
// component (it only invalidates marketKeys.detail/orderBooks/histories of the slug).
import { useIsFetching } from "@tanstack/react-query";
import { marketKeys } from "@/lib/query/keys";

export function LiveStatus({ slug, updatedAt }: { slug: string; updatedAt: number }) {
  const fetching = useIsFetching({ queryKey: marketKeys.all }) > 0;
  return (
    <p className="flex items-center gap-1.5 text-xs text-zinc-600 dark:text-zinc-400" data-testid="live-status" data-slug={slug}>
      <span aria-hidden="true" className={`size-2 rounded-full ${fetching ? "animate-pulse bg-amber-500" : "bg-emerald-500"}`} />
      <span suppressHydrationWarning>{fetching ? "Updating…" : `Updated ${new Date(updatedAt).toLocaleTimeString()}`}</span>
    </p>
  );
}
