// The price chart's frame, shared by the server-rendered page and the live view: heading, legend,
// range buttons and the chart box, which always holds the history as an SVG area (drawn on the
// server, so the chart is in the first paint without JavaScript). The live view lays the interactive
// lightweight-charts canvas over it once the reader points at or touches the chart. The shell and the
// SVG plot are shared with the candle and all-outcomes frames (candle-chart-frame.tsx, outcome-lines-frame.tsx).
// No hooks here: the first view (market-first.tsx) and the live view draw it alike.
import type { PricePoint } from "@/lib/markets/schemas";
import { CHART_RANGES, RANGE_LABELS, type ChartRange } from "@/lib/ui/chart-ranges";
import { formatCents } from "@/lib/ui/format";
import { AREA_H, AREA_W, areaPaths, priceScale } from "@/lib/ui/price-area";
import { cn } from "@/lib/ui/cn";
import { Button } from "@/components/ui/button";

/** A time label under the plot: `at` is its place across it (0..1). */
export interface TimeTick {
  at: number;
  label: string;
}

/**
 * An SVG plot in the canvas chart's place: `children` drawn in the viewBox (stretched to the box), price
 * gridlines at `ticks`, their labels in the right gutter, time labels (if any) along the bottom.
 */
export function PlotSvg({
  ticks,
  y,
  timeTicks,
  testId,
  className,
  children,
}: {
  ticks: number[];
  y: (p: number) => number;
  timeTicks?: TimeTick[];
  testId: string;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <div aria-hidden="true" className={cn("absolute inset-0", className)} data-testid={testId}>
      {/* The plot leaves the canvas chart's gutters: prices on the right, times along the bottom. */}
      <div className="absolute top-0 right-14 bottom-6 left-0">
        <svg aria-hidden="true" viewBox={`0 0 ${AREA_W} ${AREA_H}`} preserveAspectRatio="none" className="size-full overflow-visible">
          {ticks.map((v) => (
            <line
              key={v}
              x1="0"
              x2={AREA_W}
              y1={y(v) * AREA_H}
              y2={y(v) * AREA_H}
              className="stroke-zinc-100 dark:stroke-zinc-800"
              vectorEffect="non-scaling-stroke"
            />
          ))}
          {children}
        </svg>
        {timeTicks?.map(({ at, label }) => (
          <span
            key={at}
            className="tabular absolute top-full -translate-x-1/2 pt-1 text-[11px] whitespace-nowrap text-zinc-600 dark:text-zinc-400"
            style={{ left: `${at * 100}%` }}
          >
            {label}
          </span>
        ))}
      </div>
      {/* Labels placed by transforms, not offsets: when a live point rescales the axis they glide, and a
          transform moves no box (no layout shift). Each wrapper is the column's height, so y% of it is y. */}
      <div className="absolute top-0 right-0 bottom-6 w-13">
        {ticks.map((v) => (
          <div key={v} className="absolute inset-0" style={{ transform: `translateY(${y(v) * 100}%)` }}>
            <span className="tabular absolute top-0 right-0 -translate-y-1/2 text-[11px] text-zinc-600 dark:text-zinc-400">{formatCents(v)}</span>
          </div>
        ))}
      </div>
    </div>
  );
}

/** The history as a filled line with price gridlines; time labels only where the reader's clock is known. */
export function AreaSvg({ points, timeTicks }: { points: PricePoint[]; timeTicks?: TimeTick[] }) {
  const paths = areaPaths(points);
  if (!paths) return null;
  const { ticks, y } = priceScale(points);
  return (
    <PlotSvg ticks={ticks} y={y} timeTicks={timeTicks} testId="price-chart-svg" className="text-indigo-600 dark:text-indigo-400">
      <defs>
        <linearGradient id="price-area-fill" x1="0" x2="0" y1="0" y2="1">
          <stop offset="0" stopColor="currentColor" stopOpacity="0.25" />
          <stop offset="1" stopColor="currentColor" stopOpacity="0.02" />
        </linearGradient>
      </defs>
      <path d={paths.area} fill="url(#price-area-fill)" />
      <path d={paths.line} fill="none" stroke="currentColor" strokeWidth="2" vectorEffect="non-scaling-stroke" strokeLinejoin="round" />
    </PlotSvg>
  );
}

export interface ChartFrameProps {
  outcomeName: string;
  range: ChartRange;
  points: PricePoint[];
  /** The point under the crosshair (live view), else the legend shows the latest. */
  hover?: { t: number; p: number } | null;
  /** The legend's time text of the shown point, in the reader's clock (live view only). */
  shownTime?: string;
  pending?: boolean;
  stale?: boolean;
  notTradingYet?: boolean;
  /** No trades in the range (the fetch answered and it is empty). */
  empty?: boolean;
  error?: { onRetry: () => void } | null;
  onRangeChange?: (r: ChartRange) => void;
  /** The page's URL with this range (data-href: a click before the live view is in still counts, live-swap.tsx). */
  rangeHref?: (r: ChartRange) => string;
  /** Time labels under the SVG (live view: the reader's time zone). */
  timeTicks?: TimeTick[];
  /** The interactive layer over the SVG, and the handlers that ask for it. */
  canvas?: React.ReactNode;
  boxProps?: React.HTMLAttributes<HTMLDivElement>;
  /** The interactive chart is drawn: the SVG steps back. */
  canvasReady?: boolean;
  /** The chart-mode buttons (line, candles, all outcomes), beside the range buttons. */
  modes?: React.ReactNode;
}

export function PriceChartFrame(props: ChartFrameProps) {
  const { outcomeName, points, hover, shownTime, stale, canvas, canvasReady } = props;
  const latest = points.at(-1);
  const shown = hover ?? latest ?? null;
  const first = points[0];
  const change = first && latest ? latest.p - first.p : 0;
  return (
    <ChartShell
      {...props}
      title={`Price history · ${outcomeName}`}
      legend={
        <p className="mt-0.5 flex items-baseline gap-2" data-testid="chart-legend" aria-live="off">
          {/* Price and change at fixed widths, the change hidden (not removed) under the crosshair and while
              there is no change to show: the time after them never moves as live points arrive (CLS). */}
          <span className="tabular inline-block min-w-[3.7em] text-2xl font-semibold" data-testid="chart-price">
            {shown ? formatCents(shown.p) : "–"}
          </span>
          <span
            className={cn(
              "tabular inline-block w-[15ch] text-xs font-medium whitespace-nowrap",
              change >= 0 ? "text-emerald-700 dark:text-emerald-400" : "text-rose-700 dark:text-rose-400",
              (hover || points.length < 2) && "invisible",
            )}
          >
            {change >= 0 ? "▲" : "▼"} {formatCents(Math.abs(change))} in range
          </span>
          {/* Last in the row: it appears with the live view (the reader's clock), moving nothing. */}
          {shown && shownTime && (
            <span className="text-xs text-zinc-600 dark:text-zinc-400" data-testid="chart-time">
              {shownTime}
            </span>
          )}
        </p>
      }
      box={{
        testId: "price-chart",
        label: latest ? `Price chart of ${outcomeName}: ${points.length} points, latest ${formatCents(latest.p)}` : `Price chart of ${outcomeName}`,
        stale,
      }}
    >
      {!canvasReady && <AreaSvg points={points} timeTicks={props.timeTicks} />}
      {canvas}
    </ChartShell>
  );
}

/** What every chart mode's frame passes to the shell besides its own title, legend and box. */
export type ShellState = Pick<
  ChartFrameProps,
  "range" | "pending" | "notTradingYet" | "empty" | "error" | "onRangeChange" | "rangeHref" | "boxProps" | "modes"
>;

/**
 * The frame of every chart mode (line, candles, all outcomes): heading and legend, the mode and range
 * buttons, the chart box (`role="img"`, SVG and canvas inside) with its empty, error and pending layers,
 * and the attribution. The same markup whatever the mode, so switching moves nothing around it.
 */
export function ChartShell(
  props: ShellState & {
    title: string;
    legend: React.ReactNode;
    box: { testId: string; label: string; stale?: boolean };
    emptyText?: string;
    children: React.ReactNode;
  },
) {
  const { range, pending, notTradingYet, empty, error, onRangeChange, box } = props;
  return (
    <section aria-labelledby="chart-heading" className="rounded-xl border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="chart-heading" className="text-sm font-medium text-zinc-600 dark:text-zinc-400">
            {props.title}
          </h2>
          {props.legend}
        </div>
        <div className="flex flex-wrap justify-end gap-2">
          {props.modes}
          <div role="group" aria-label="Chart range" className="flex rounded-lg bg-zinc-100 p-0.5 dark:bg-zinc-800">
            {CHART_RANGES.map((r) => (
              <button
                key={r}
                type="button"
                aria-pressed={r === range}
                data-href={props.rangeHref?.(r)}
                onClick={onRangeChange && (() => onRangeChange(r))}
                className={cn(
                  "rounded-md px-2.5 py-1 text-xs font-semibold tabular",
                  r === range
                    ? "bg-white text-zinc-900 shadow-sm dark:bg-zinc-950 dark:text-white"
                    : "text-zinc-600 hover:text-zinc-900 dark:text-zinc-300 dark:hover:text-white",
                )}
              >
                {RANGE_LABELS[r]}
              </button>
            ))}
          </div>
        </div>
      </div>
      <div className="relative mt-3 h-56 sm:h-72">
        <div {...props.boxProps} role="img" aria-label={box.label} data-testid={box.testId} className={cn("absolute inset-0", box.stale && "opacity-60")}>
          {props.children}
        </div>
        {(notTradingYet || empty) && (
          <div
            data-testid="chart-empty"
            className="pointer-events-none absolute inset-0 z-10 flex flex-col items-center justify-center gap-1 text-center text-sm text-zinc-600 dark:text-zinc-400"
          >
            <p className="font-medium text-zinc-800 dark:text-zinc-200">
              {notTradingYet ? "Trading has not started yet" : (props.emptyText ?? "No trades in this range")}
            </p>
            {!notTradingYet && !props.emptyText && range !== "all" && (
              <Button
                size="sm"
                variant="secondary"
                className="pointer-events-auto"
                data-href={props.rangeHref?.("all")}
                onClick={onRangeChange && (() => onRangeChange("all"))}
              >
                Show all history
              </Button>
            )}
          </div>
        )}
        {error && (
          <div role="alert" className="absolute inset-0 z-10 flex flex-col items-center justify-center gap-2 text-sm">
            <p>Couldn’t load the price history.</p>
            <Button size="sm" onClick={error.onRetry}>
              Retry
            </Button>
          </div>
        )}
        {pending && !notTradingYet && <div aria-hidden="true" className="absolute inset-0 animate-pulse rounded-lg bg-zinc-100 dark:bg-zinc-800/60" />}
      </div>
      {/* Attribution outside the role="img" box, which must not contain links. */}
      <p className="mt-2 text-right text-[11px] text-zinc-600 dark:text-zinc-400">
        Chart by{" "}
        <a href="https://www.tradingview.com/lightweight-charts/" className="underline underline-offset-2" rel="noopener noreferrer" target="_blank">
          TradingView Lightweight Charts™
        </a>
      </p>
    </section>
  );
}
