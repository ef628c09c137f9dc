// The "All outcomes" mode's frame, shared by the server-rendered page and the live view: every outcome's
// line on one chart in the outcome's colour, and a legend whose entries are toggle buttons (aria-pressed)
// that show or hide a line. The lines are an SVG (lib/ui/outcome-lines.ts) until the interactive chart
// draws over it. No hooks.
import type { Outcome, PricePoint } from "@/lib/markets/schemas";
import { formatCents } from "@/lib/ui/format";
import { outcomeColor } from "@/lib/ui/outcome-color";
import { outcomeLinePaths } from "@/lib/ui/outcome-lines";
import { cn } from "@/lib/ui/cn";
import { ChartShell, PlotSvg, type ShellState, type TimeTick } from "./price-chart-frame";

export type LineOutcome = Pick<Outcome, "id" | "name" | "color" | "index">;

export function OutcomeLinesSvg({
  outcomes,
  lines,
  hidden,
  timeTicks,
}: {
  outcomes: LineOutcome[];
  lines: Record<string, PricePoint[]>;
  hidden: readonly string[];
  timeTicks?: TimeTick[];
}) {
  const shown = outcomes.filter((o) => !hidden.includes(o.id));
  const paths = outcomeLinePaths(shown.map((o) => ({ id: o.id, points: lines[o.id] ?? [] })));
  if (!paths) return null;
  return (
    <PlotSvg ticks={paths.ticks} y={paths.y} timeTicks={timeTicks} testId="outcomes-chart-svg">
      {paths.lines.map(
        ({ id, d }, i) =>
          d && (
            <path
              key={id}
              d={d}
              data-outcome={id}
              fill="none"
              stroke={outcomeColor(shown[i])}
              strokeWidth="2"
              vectorEffect="non-scaling-stroke"
              strokeLinejoin="round"
            />
          ),
      )}
    </PlotSvg>
  );
}

export function OutcomeLinesFrame(
  props: ShellState & {
    outcomes: LineOutcome[];
    lines: Record<string, PricePoint[]>;
    /** Outcomes whose line the reader switched off. */
    hidden: readonly string[];
    onToggle?: (id: string) => void;
    timeTicks?: TimeTick[];
    stale?: boolean;
    canvas?: React.ReactNode;
    canvasReady?: boolean;
  },
) {
  const { outcomes, lines, hidden, onToggle } = props;
  const latest = (id: string) => lines[id]?.at(-1);
  const shown = outcomes.filter((o) => !hidden.includes(o.id));
  const described = shown.map((o) => `${o.name} ${latest(o.id) ? formatCents(latest(o.id)!.p) : "no trades"}`).join(", ");
  return (
    <ChartShell
      {...props}
      title="Price history · All outcomes"
      empty={props.empty || (!props.pending && shown.every((o) => !lines[o.id]?.length))}
      emptyText={shown.length === 0 ? "Every line is switched off" : undefined}
      legend={
        <div role="group" aria-label="Lines shown" className="mt-1.5 flex flex-wrap gap-1.5" data-testid="outcome-legend">
          {outcomes.map((o) => {
            const on = !hidden.includes(o.id);
            const p = latest(o.id);
            return (
              <button
                key={o.id}
                type="button"
                aria-pressed={on}
                onClick={onToggle && (() => onToggle(o.id))}
                className={cn(
                  "inline-flex items-center gap-1.5 rounded-md border px-2 py-0.5 text-xs font-medium",
                  on
                    ? "border-zinc-300 bg-white text-zinc-900 dark:border-zinc-600 dark:bg-zinc-950 dark:text-white"
                    : "border-dashed border-zinc-300 text-zinc-600 line-through dark:border-zinc-700 dark:text-zinc-400",
                )}
              >
                <span
                  aria-hidden="true"
                  className="size-2.5 shrink-0 rounded-full border-2"
                  style={{ borderColor: outcomeColor(o), background: on ? outcomeColor(o) : "transparent" }}
                />
                {/* The space keeps name and price apart in the button's name ("Yes 62.0¢", not "Yes62.0¢"). */}
                {o.name} {/* A fixed width: a live price of more or fewer digits must not re-wrap the legend (CLS). */}
                <span className="tabular inline-block w-[6ch] text-right">{p ? formatCents(p.p) : "–"}</span>
              </button>
            );
          })}
        </div>
      }
      box={{ testId: "outcomes-chart", label: `Price chart of every outcome: ${described || "none shown"}`, stale: props.stale }}
    >
      {!props.canvasReady && <OutcomeLinesSvg outcomes={outcomes} lines={lines} hidden={hidden} timeTicks={props.timeTicks} />}
      {props.canvas}
    </ChartShell>
  );
}
