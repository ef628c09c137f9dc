// The price chart's mode buttons (Line | Candles | All outcomes), beside its range buttons; the mode is in
// the URL (?chart=candles|all). No hooks: the server renders it as the live view does.
import type { ChartMode } from "@/lib/ui/market-view";
import { cn } from "@/lib/ui/cn";

const LABELS: Record<ChartMode, string> = { line: "Line", candles: "Candles", all: "All outcomes" };

export function ChartModeToggle({
  modes,
  mode,
  hrefFor,
  onChange,
}: {
  modes: ChartMode[];
  mode: ChartMode;
  /** The page's URL in this mode (data-href: a click before the live view is in still counts, live-swap.tsx). */
  hrefFor?: (m: ChartMode) => string;
  onChange?: (m: ChartMode) => void;
}) {
  return (
    <div role="group" aria-label="Chart type" className="flex rounded-lg bg-zinc-100 p-0.5 dark:bg-zinc-800">
      {modes.map((m) => (
        <button
          key={m}
          type="button"
          aria-pressed={m === mode}
          data-href={hrefFor?.(m)}
          onClick={onChange && (() => onChange(m))}
          className={cn(
            "rounded-md px-2.5 py-1 text-xs font-semibold whitespace-nowrap",
            m === mode
              ? "bg-white text-zinc-900 shadow-sm dark:bg-zinc-950 dark:text-white"
              : "text-zinc-600 hover:text-zinc-900 dark:text-zinc-300 dark:hover:text-white",
          )}
        >
          {LABELS[m]}
        </button>
      ))}
    </div>
  );
}
