// The market's outcomes with probability bars; choosing one drives the chart and the book.
import type { Outcome } from "@/lib/markets/schemas";
import { formatPercent } from "@/lib/ui/format";
import { cn } from "@/lib/ui/cn";

export function OutcomeList({
  outcomes,
  selectedId,
  winningId,
  onSelect,
  hrefFor,
}: {
  outcomes: Outcome[];
  selectedId?: string;
  winningId: string | null;
  /** Absent on the server-rendered page (the live view takes over within moments of hydrating). */
  onSelect?: (id: string) => void;
  /** The page's URL with this outcome chosen (data-href: a click before the live view is in still counts, live-swap.tsx). */
  hrefFor?: (id: string) => string;
}) {
  const sorted = [...outcomes].sort((a, b) => a.index - b.index);
  return (
    <section aria-labelledby="outcomes-heading">
      <h2 id="outcomes-heading" className="mb-2 font-semibold">
        Outcomes
      </h2>
      <ul className="flex flex-col gap-2" data-testid="outcome-list">
        {sorted.map((o) => {
          const selected = o.id === selectedId;
          return (
            <li key={o.id}>
              <button
                type="button"
                aria-pressed={selected}
                data-href={hrefFor?.(o.id)}
                onClick={onSelect && (() => onSelect(o.id))}
                className={cn(
                  "relative flex w-full items-center gap-3 overflow-hidden rounded-lg border px-3 py-2.5 text-left transition-colors",
                  selected
                    ? "border-indigo-500 bg-indigo-50/60 ring-1 ring-indigo-500 dark:border-indigo-400 dark:bg-indigo-950/40 dark:ring-indigo-400"
                    : "border-zinc-200 bg-white hover:border-zinc-300 dark:border-zinc-800 dark:bg-zinc-900 dark:hover:border-zinc-700",
                )}
              >
                <span aria-hidden="true" className="absolute inset-y-0 left-0 bg-indigo-500/10 dark:bg-indigo-400/15" style={{ width: `${o.probability}%` }} />
                {o.color && <span aria-hidden="true" className="relative size-2.5 shrink-0 rounded-full" style={{ background: o.color }} />}
                {/* The spaces between the parts (not rendered in the flex row) keep the name's words apart: "Yes 62%", not "Yes62%". */}
                <span className="relative min-w-0 flex-1 truncate font-medium">{o.name}</span>{" "}
                {o.id === winningId && (
                  <span className="relative rounded-full bg-emerald-600 px-2 py-0.5 text-xs font-semibold text-white dark:bg-emerald-500 dark:text-zinc-950">
                    Winner
                  </span>
                )}{" "}
                <span className="relative tabular text-lg font-semibold" data-testid="outcome-probability">
                  {formatPercent(o.probability)}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
