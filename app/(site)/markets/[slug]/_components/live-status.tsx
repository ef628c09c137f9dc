"use client";
// Freshness of the page's data: joins the market's push channels (each signal only invalidates
// marketKeys.detail/orderBooks/histories of the slug) and shows whether they are live.
import { useIsFetching } from "@tanstack/react-query";
import { marketKeys } from "@/lib/query/keys";
import { useMarketChannel } from "@/lib/realtime/use-market-channel";
import { LiveIndicator } from "@/components/markets/live-indicator";

export function LiveStatus({ slug, updatedAt }: { slug: string; updatedAt: number }) {
  useMarketChannel(slug);
  const fetching = useIsFetching({ queryKey: marketKeys.all }) > 0;
  return (
    <div className="flex items-center gap-3 text-xs text-zinc-600 dark:text-zinc-400" data-testid="live-status" data-slug={slug}>
      <LiveIndicator />
      {/* A fixed width: the row is right-aligned, so a shorter text would move the indicator (layout shift). */}
      <span className="inline-block min-w-[9.5rem] tabular" suppressHydrationWarning>
        {fetching ? "Updating…" : `Updated ${new Date(updatedAt).toLocaleTimeString()}`}
      </span>
    </div>
  );
}
