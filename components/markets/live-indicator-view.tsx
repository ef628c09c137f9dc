// Whether push updates are flowing, as a pill: a green dot when connected, amber otherwise. No hooks:
// the server renders it "Connecting…", LiveIndicator follows the socket.
import type { RealtimeStatus } from "@/lib/realtime/client";

const LABELS = { connected: "Live", reconnecting: "Reconnecting…", connecting: "Connecting…" } as const;

/** The pill for a given state (the server renders "Connecting…"; the live view follows the socket). */
export function LiveIndicatorView({ status, className = "" }: { status: RealtimeStatus; className?: string }) {
  const live = status === "connected";
  return (
    <span
      role="status"
      aria-live="polite"
      title={live ? "Prices and order book update live" : "Live updates paused; reconnecting"}
      // As wide as its longest wording ("Reconnecting…"), so a change of state moves nothing beside it;
      // the dot and the text start at the left, so they do not move inside it either (CLS 0 when it goes live).
      className={`inline-flex min-w-[7.75rem] items-center justify-start gap-1.5 rounded-full border px-2 py-0.5 text-xs font-medium ${
        live ? "border-emerald-600/30 text-emerald-700 dark:text-emerald-400" : "border-amber-600/30 text-amber-700 dark:text-amber-400"
      } ${className}`}
    >
      <span aria-hidden="true" className={`size-2 rounded-full ${live ? "bg-emerald-500 animate-pulse" : "bg-amber-500"}`} />
      {LABELS[status]}
    </span>
  );
}
