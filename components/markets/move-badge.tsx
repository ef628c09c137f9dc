// "What moved": the leading outcome's change over 24 hours (lib/markets/moves.ts), up or down in percentage points.
// Styled by the .move class (app/globals.css): it is on every card, so its markup stays short.
import type { Move } from "@/lib/markets/moves";
import { cn } from "@/lib/ui/cn";

/** `withName` shows the outcome's name before the change (it is read out either way: "Yes up 3.2 pts 24h"). */
export function MoveBadge({ move, withName = false, className }: { move: Move; withName?: boolean; className?: string }) {
  const dir = move.points > 0 ? "up" : move.points < 0 ? "down" : "flat";
  return (
    <span data-testid="move-24h" data-points={move.points} data-dir={dir} className={cn("move", className)}>
      {/* Plain text with spaces: a long outcome name wraps in a narrow card or header column. */}
      <span aria-hidden="true">{dir === "up" ? "▲" : dir === "down" ? "▼" : "■"}</span> {withName ? move.name : <span className="sr-only">{move.name}</span>}{" "}
      <span className="sr-only">{dir === "flat" ? "unchanged" : dir}</span> {`${Math.abs(move.points).toFixed(1)} pts 24h`}
    </span>
  );
}
