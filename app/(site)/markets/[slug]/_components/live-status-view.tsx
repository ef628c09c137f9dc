// The status row's contents: the live pill and when the data was read. No hooks (the server renders it
// "Connecting…" with its read time; the live view with the socket's state).
import type { RealtimeStatus } from "@/lib/realtime/client";
import { LiveIndicatorView, type Freshness } from "@/components/markets/live-indicator-view";

export function LiveStatusView({
  slug,
  status,
  updatedAt,
  fetching,
  freshness,
}: {
  slug: string;
  status: RealtimeStatus;
  updatedAt: number;
  fetching: boolean;
  freshness?: Freshness | null;
}) {
  return (
    <div className="flex items-center gap-3 text-xs text-zinc-600 dark:text-zinc-400" data-testid="live-status" data-slug={slug}>
      <LiveIndicatorView status={status} freshness={freshness} />
      {/* A fixed width: the row is right-aligned, so a shorter text would move the indicator (layout shift). */}
      <span className="inline-block min-w-[9.5rem] tabular" suppressHydrationWarning>
        {fetching ? "Updating…" : `Updated ${new Date(updatedAt).toLocaleTimeString()}`}
      </span>
    </div>
  );
}
