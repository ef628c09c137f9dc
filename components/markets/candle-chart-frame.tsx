// The candle mode's frame, shared by the server-rendered page and the live view: the chart shell with the
// shown candle's open, high, low, close and volume as its legend, and the candles and volume bars as an SVG
// (lib/ui/candle-area.ts) until the interactive chart draws over it. No hooks.
import type { Candle } from "@/lib/markets/schemas";
import { candlePaths } from "@/lib/ui/candle-area";
import { formatCents } from "@/lib/ui/format";
import { ChartShell, PlotSvg, type ShellState, type TimeTick } from "./price-chart-frame";

/** Candle colours: rising green, falling red (the canvas chart uses the same). */
export const CANDLE_UP = "text-emerald-600 dark:text-emerald-400";
export const CANDLE_DOWN = "text-rose-600 dark:text-rose-400";

export function CandleSvg({ candles, timeTicks }: { candles: Candle[]; timeTicks?: TimeTick[] }) {
  const paths = candlePaths(candles);
  if (!paths) return null;
  return (
    <PlotSvg ticks={paths.ticks} y={paths.y} timeTicks={timeTicks} testId="candle-chart-svg">
      {[
        [paths.up, CANDLE_UP],
        [paths.down, CANDLE_DOWN],
      ].map(([p, color]) => {
        const { body, wick, volume } = p as typeof paths.up;
        return (
          <g key={color as string} className={color as string}>
            <path d={volume} fill="currentColor" fillOpacity="0.3" />
            <path d={wick} stroke="currentColor" strokeWidth="1" vectorEffect="non-scaling-stroke" />
            <path d={body} fill="currentColor" />
          </g>
        );
      })}
    </PlotSvg>
  );
}

const compact = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });

/** One legend figure at a fixed width, so figures of other widths under the crosshair move nothing. */
function Figure({ label, value, wide }: { label: string; value: string; wide?: boolean }) {
  return (
    <span className={wide ? "inline-block w-[9.5ch] whitespace-nowrap" : "inline-block w-[7.5ch] whitespace-nowrap"}>
      <span className="text-zinc-600 dark:text-zinc-400">{label}</span> {value}
    </span>
  );
}

export function CandleChartFrame(
  props: ShellState & {
    outcomeName: string;
    candles: Candle[];
    /** The candle under the crosshair (live view), else the legend shows the latest. */
    hover?: Candle | null;
    /** The legend's time text of the shown candle, in the reader's clock (live view only). */
    shownTime?: string;
    timeTicks?: TimeTick[];
    stale?: boolean;
    canvas?: React.ReactNode;
    canvasReady?: boolean;
  },
) {
  const { outcomeName, candles, hover, shownTime } = props;
  const latest = candles.at(-1);
  const shown = hover ?? latest ?? null;
  return (
    <ChartShell
      {...props}
      title={`Candles · ${outcomeName}`}
      legend={
        <p className="mt-0.5 flex flex-wrap items-baseline gap-x-2" data-testid="chart-legend" aria-live="off">
          <span className="tabular inline-block min-w-[3.7em] text-2xl font-semibold" data-testid="chart-price">
            {shown ? formatCents(shown.close) : "–"}
          </span>
          {shown && (
            <span className="tabular text-xs font-medium" data-testid="candle-ohlc">
              <Figure label="O" value={formatCents(shown.open)} /> <Figure label="H" value={formatCents(shown.high)} />{" "}
              <Figure label="L" value={formatCents(shown.low)} /> <Figure label="Vol" value={compact.format(Number(shown.volume))} wide />
            </span>
          )}
          {shown && shownTime && (
            <span className="text-xs text-zinc-600 dark:text-zinc-400" data-testid="chart-time">
              {shownTime}
            </span>
          )}
        </p>
      }
      box={{
        testId: "candle-chart",
        label: latest
          ? `Candlestick chart of ${outcomeName}: ${candles.length} candles, latest close ${formatCents(latest.close)}`
          : `Candlestick chart of ${outcomeName}`,
        stale: props.stale,
      }}
    >
      {!props.canvasReady && <CandleSvg candles={candles} timeTicks={props.timeTicks} />}
      {props.canvas}
    </ChartShell>
  );
}
