// Whether push updates are flowing, as a pill: a green dot when connected, amber otherwise; once live,
// also how fresh the data is (the age of the last signal or heartbeat), amber when the channels have
// been silent for longer than their heartbeat interval + 1 s. No hooks: the server renders it
// "Connecting…", LiveIndicator follows the socket.
import type { RealtimeStatus } from "@/lib/realtime/client";

const LABELS = { connected: "Live", reconnecting: "Reconnecting…", connecting: "Connecting…" } as const;

/** How long ago, in a few characters: "3 s ago", "12 min ago", "1 h+ ago" (the pill is as wide as the longest). */
export function formatAge(ageS: number): string {
  const s = Math.max(0, Math.floor(ageS));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  return "1 h+ ago";
}

export interface Freshness {
  /** Seconds since the market's channels last heard from the server. */
  ageS: number;
  /** Silent for longer than the heartbeat interval + 1 s. */
  stale: boolean;
}

/** The pill for a given state (the server renders "Connecting…"; the live view follows the socket). */
export function LiveIndicatorView({ status, freshness, className = "" }: { status: RealtimeStatus; freshness?: Freshness | null; className?: string }) {
  const connected = status === "connected";
  const stale = connected && !!freshness?.stale;
  const live = connected && !stale;
  const age = connected && freshness ? formatAge(freshness.ageS) : null;
  return (
    <span
      title={
        stale
          ? `Nothing heard from the server for ${age?.replace(" ago", "")}; updates may be stalled`
          : live
            ? `Prices and order book update live${age ? `; last heard from the server ${age}` : ""}`
            : "Live updates paused; reconnecting"
      }
      data-testid="live-indicator"
      data-stale={stale ? "true" : undefined}
      // As wide as its longest wording ("Stale · 59 min ago"), so a change of state moves nothing beside it;
      // the dot and the text start at the left, so they do not move inside it either (CLS 0 when it goes live).
      className={`inline-flex min-w-[10rem] items-center justify-start gap-1.5 whitespace-nowrap rounded-full border px-2 py-0.5 text-xs font-medium ${
        live ? "border-emerald-600/30 text-emerald-700 dark:text-emerald-400" : "border-amber-600/30 text-amber-700 dark:text-amber-400"
      } ${className}`}
    >
      {/* Only the state is a live region: the age ticks every second and would be read out each time. */}
      <span role="status" aria-live="polite" className="inline-flex items-center gap-1.5">
        <span aria-hidden="true" className={`size-2 rounded-full ${live ? "bg-emerald-500 animate-pulse" : "bg-amber-500"}`} />
        {stale ? "Stale" : LABELS[status]}
      </span>
      {age && (
        <span data-testid="freshness" className="tabular">
          · {age}
        </span>
      )}
    </span>
  );
}
