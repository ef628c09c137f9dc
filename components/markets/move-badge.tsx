// "What moved": the leading outcome's change over 24 hours (lib/ui/moves.ts), up or down in percentage points.
import type { Move } from "@/lib/ui/moves";
import { cn } from "@/lib/ui/cn";

export function formatPoints(points: number): string {
  return `${Math.abs(points).toFixed(1)} pts`;
}

/** `withName` prefixes the outcome's name (cards of markets with several outcomes). */
export function MoveBadge({ move, withName = false, className }: { move: Move; withName?: boolean; className?: string }) {
  const dir = move.points > 0 ? "up" : move.points < 0 ? "down" : "flat";
  return (
    <span
      data-testid="move-24h"
      data-points={move.points}
      data-outcome={move.outcomeId}
      className={cn(
        "tabular inline-flex items-center gap-1 whitespace-nowrap font-medium",
        dir === "up" ? "text-emerald-700 dark:text-emerald-400" : dir === "down" ? "text-rose-700 dark:text-rose-400" : "text-zinc-600 dark:text-zinc-400",
        className,
      )}
    >
      <span aria-hidden="true">{dir === "up" ? "▲" : dir === "down" ? "▼" : "■"}</span>
      <span className="sr-only">
        {withName ? `${move.name} ` : ""}
        {dir === "up" ? "up" : dir === "down" ? "down" : "unchanged,"}
      </span>
      <span aria-hidden="true">{withName ? `${move.name} ` : ""}</span>
      {formatPoints(move.points)}
      <span className="text-zinc-500 dark:text-zinc-400"> 24h</span>
    </span>
  );
}
