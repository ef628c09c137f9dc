"use client";
// Price history of one outcome as an area chart, with a range selector and a crosshair legend.
// lightweight-charts (about 50 kB gzipped) loads in the browser only once its box, sized from the start
// so nothing moves when it draws, comes near the viewport: never in the first-load JavaScript.
import { useEffect, useRef, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import type { IChartApi, ISeriesApi, UTCTimestamp } from "lightweight-charts";
import { priceHistoryOptions, type HistoryRange } from "@/lib/query/markets";
import { CHART_RANGES, RANGE_LABELS, RANGE_SPECS, allRangeFidelity, type ChartRange } from "@/lib/ui/chart-ranges";
import { formatCents } from "@/lib/ui/format";
import { cn } from "@/lib/ui/cn";
import { Button } from "@/components/ui/button";

export function historyRange(range: ChartRange, tradingStartsAtS: number, nowS: number): HistoryRange {
  if (range === "all") return { startTs: 0, fidelity: allRangeFidelity(tradingStartsAtS, nowS), walkBackTo: tradingStartsAtS };
  const spec = RANGE_SPECS[range];
  return { startTs: Math.max(0, nowS - spec.spanS), fidelity: spec.fidelity };
}

const nowMinute = () => Math.floor(Date.now() / 60_000) * 60;

const timeLabel = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
const tickFormats = [
  new Intl.DateTimeFormat(undefined, { year: "numeric" }),
  new Intl.DateTimeFormat(undefined, { month: "short" }),
  new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric" }),
  new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" }),
  new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit" }),
];

function themeColors(dark: boolean) {
  return dark
    ? { text: "#d4d4d8", grid: "#27272a", line: "#818cf8", top: "rgba(129,140,248,0.35)", bottom: "rgba(129,140,248,0.02)", border: "#3f3f46" }
    : { text: "#3f3f46", grid: "#f4f4f5", line: "#4f46e5", top: "rgba(79,70,229,0.25)", bottom: "rgba(79,70,229,0.02)", border: "#e4e4e7" };
}

export function PriceChart({
  slug,
  outcomeId,
  outcomeName,
  tradingStartsAt,
  range,
  onRangeChange,
  notTradingYet,
}: {
  slug: string;
  outcomeId: string;
  outcomeName: string;
  tradingStartsAt: string;
  range: ChartRange;
  onRangeChange: (r: ChartRange) => void;
  notTradingYet?: boolean;
}) {
  const startS = Math.floor(new Date(tradingStartsAt).getTime() / 1000);
  const [nowS, setNowS] = useState(nowMinute);
  const history = useQuery({ ...priceHistoryOptions(slug, outcomeId, historyRange(range, startS, nowS)), enabled: !notTradingYet });
  const points = history.data ?? [];

  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<IChartApi | null>(null);
  const series = useRef<ISeriesApi<"Area"> | null>(null);
  const [ready, setReady] = useState(false);
  const [inView, setInView] = useState(false);
  const [hover, setHover] = useState<{ t: number; p: number } | null>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        setInView(true);
        observer.disconnect();
      },
      { rootMargin: "200px" },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    if (!inView) return;
    let disposed = false;
    const media = window.matchMedia("(prefers-color-scheme: dark)");
    let applyTheme = () => {};
    import("lightweight-charts").then(({ createChart, AreaSeries, ColorType }) => {
      if (disposed || !box.current) return;
      const c = createChart(box.current, {
        autoSize: true,
        layout: { background: { type: ColorType.Solid, color: "transparent" }, fontFamily: "inherit", attributionLogo: false },
        rightPriceScale: { scaleMargins: { top: 0.1, bottom: 0.08 } },
        timeScale: {
          // Pinned edges make the library pull the outermost tick labels inside the axis instead of
          // centring them on their tick and cutting them off ("0 PM" for "10 PM"); the whole range is
          // fitted anyway, so there is nothing to scroll to beyond either end.
          fixLeftEdge: true,
          fixRightEdge: true,
          timeVisible: true,
          secondsVisible: false,
          tickMarkFormatter: (t: unknown, type: number) => tickFormats[type]?.format(new Date((t as number) * 1000)) ?? null,
        },
        localization: { timeFormatter: (t: unknown) => timeLabel.format(new Date((t as number) * 1000)) },
        handleScale: { axisPressedMouseMove: false },
      });
      const s = c.addSeries(AreaSeries, {
        lineWidth: 2,
        priceFormat: { type: "custom", minMove: 0.001, formatter: (p: number) => formatCents(p) },
        priceLineVisible: false,
      });
      applyTheme = () => {
        const k = themeColors(media.matches);
        c.applyOptions({
          layout: { textColor: k.text },
          grid: { vertLines: { color: k.grid }, horzLines: { color: k.grid } },
          rightPriceScale: { borderColor: k.border },
          timeScale: { borderColor: k.border },
        });
        s.applyOptions({ lineColor: k.line, topColor: k.top, bottomColor: k.bottom });
      };
      applyTheme();
      media.addEventListener("change", applyTheme);
      c.subscribeCrosshairMove((param) => {
        const d = param.time !== undefined ? (param.seriesData.get(s) as { value?: number } | undefined) : undefined;
        setHover(d?.value !== undefined ? { t: param.time as number, p: d.value } : null);
      });
      chart.current = c;
      series.current = s;
      setReady(true);
    });
    return () => {
      disposed = true;
      media.removeEventListener("change", applyTheme);
      chart.current?.remove();
      chart.current = null;
      series.current = null;
    };
  }, [inView]);

  useEffect(() => {
    if (!ready || !series.current) return;
    series.current.setData(points.map((pt) => ({ time: pt.t as UTCTimestamp, value: pt.p })));
    chart.current?.timeScale().fitContent();
  }, [ready, points]);

  const latest = points.at(-1);
  const shown = hover ?? (latest ? { t: latest.t, p: latest.p } : null);
  const first = points[0];
  const change = first && latest ? latest.p - first.p : 0;

  return (
    <section aria-labelledby="chart-heading" className="rounded-xl border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="chart-heading" className="text-sm font-medium text-zinc-600 dark:text-zinc-400">
            Price history · {outcomeName}
          </h2>
          <p className="mt-0.5 flex items-baseline gap-2" data-testid="chart-legend" aria-live="off">
            <span className="tabular text-2xl font-semibold" data-testid="chart-price">
              {shown ? formatCents(shown.p) : "–"}
            </span>
            {shown && (
              <span className="text-xs text-zinc-600 dark:text-zinc-400" data-testid="chart-time">
                {timeLabel.format(new Date(shown.t * 1000))}
              </span>
            )}
            {!hover && first && latest && points.length > 1 && (
              <span className={cn("tabular text-xs font-medium", change >= 0 ? "text-emerald-700 dark:text-emerald-400" : "text-rose-700 dark:text-rose-400")}>
                {change >= 0 ? "▲" : "▼"} {formatCents(Math.abs(change))} in range
              </span>
            )}
          </p>
        </div>
        <div role="group" aria-label="Chart range" className="flex rounded-lg bg-zinc-100 p-0.5 dark:bg-zinc-800">
          {CHART_RANGES.map((r) => (
            <button
              key={r}
              type="button"
              aria-pressed={r === range}
              onClick={() => {
                setNowS(nowMinute());
                onRangeChange(r);
              }}
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
      <div className="relative mt-3 h-56 sm:h-72">
        <div
          ref={box}
          role="img"
          aria-label={latest ? `Price chart of ${outcomeName}: ${points.length} points, latest ${formatCents(latest.p)}` : `Price chart of ${outcomeName}`}
          data-testid="price-chart"
          className={cn("absolute inset-0", history.isPlaceholderData && "opacity-60")}
        />
        {(notTradingYet || (history.isSuccess && !history.isPlaceholderData && points.length === 0)) && (
          <div
            data-testid="chart-empty"
            className="pointer-events-none absolute inset-0 z-10 flex flex-col items-center justify-center gap-1 text-center text-sm text-zinc-600 dark:text-zinc-400"
          >
            <p className="font-medium text-zinc-800 dark:text-zinc-200">{notTradingYet ? "Trading has not started yet" : "No trades in this range"}</p>
            {!notTradingYet && range !== "all" && (
              <Button size="sm" variant="secondary" className="pointer-events-auto" onClick={() => onRangeChange("all")}>
                Show all history
              </Button>
            )}
          </div>
        )}
        {history.isError && !history.data && (
          <div role="alert" className="absolute inset-0 z-10 flex flex-col items-center justify-center gap-2 text-sm">
            <p>Couldn’t load the price history.</p>
            <Button size="sm" onClick={() => history.refetch()}>
              Retry
            </Button>
          </div>
        )}
        {history.isPending && !notTradingYet && (
          <div aria-hidden="true" className="absolute inset-0 animate-pulse rounded-lg bg-zinc-100 dark:bg-zinc-800/60" />
        )}
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
