"use client";
// The live price chart: history through react-query (refetched on price signals), drawn as the frame's
// SVG area; lightweight-charts (about 50 kB gzipped) loads only when the reader points at or touches the
// chart (the crosshair is all it adds), and then draws over the SVG with a crosshair legend. Never in the first load.
import { useEffect, useRef, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import type { IChartApi, ISeriesApi, UTCTimestamp } from "lightweight-charts";
import { priceHistoryOptions } from "@/lib/query/markets";
import { marketHistoryRange, nowMinute, type ChartRange } from "@/lib/ui/chart-ranges";
import { formatCents } from "@/lib/ui/format";
import type { PricePoint } from "@/lib/markets/schemas";
import { PriceChartFrame, type TimeTick } from "./price-chart-frame";

const timeLabel = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
const tickFormats = [
  new Intl.DateTimeFormat(undefined, { year: "numeric" }),
  new Intl.DateTimeFormat(undefined, { month: "short" }),
  new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric" }),
  new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" }),
  new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit" }),
];

/** Four time labels at points inside the plot (not at its edges, where a centred label would be cut). */
function timeTicks(points: PricePoint[]): TimeTick[] {
  if (points.length < 2) return [];
  const span = points[points.length - 1].t - points[0].t;
  const fmt = span > 60 * 86400 ? tickFormats[1] : span > 2 * 86400 ? tickFormats[2] : tickFormats[3];
  const last = points.length - 1;
  const at = [...new Set([0.1, 0.37, 0.63, 0.9].map((f) => Math.round(f * last)))];
  return at.map((i) => ({ at: i / last, label: fmt.format(new Date(points[i].t * 1000)) }));
}

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
  initialNowS,
  rangeHref,
}: {
  slug: string;
  outcomeId: string;
  outcomeName: string;
  tradingStartsAt: string;
  range: ChartRange;
  onRangeChange: (r: ChartRange) => void;
  notTradingYet?: boolean;
  /** The server's clock minute, so the first query key is the one the server filled. */
  initialNowS?: number;
  rangeHref?: (r: ChartRange) => string;
}) {
  const [nowS, setNowS] = useState(() => initialNowS ?? nowMinute());
  const history = useQuery({ ...priceHistoryOptions(slug, outcomeId, marketHistoryRange(range, tradingStartsAt, nowS)), enabled: !notTradingYet });
  const points = history.data ?? [];

  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<IChartApi | null>(null);
  const series = useRef<ISeriesApi<"Area"> | null>(null);
  const [ready, setReady] = useState(false);
  const [wanted, setWanted] = useState(false);
  const [hover, setHover] = useState<{ t: number; p: number } | null>(null);
  const want = () => setWanted(true);
  const pointsRef = useRef(points);
  pointsRef.current = points;

  useEffect(() => {
    if (!wanted) return;
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
      // Drawn before the SVG steps back, so the box is never blank.
      s.setData(pointsRef.current.map((pt) => ({ time: pt.t as UTCTimestamp, value: pt.p })));
      c.timeScale().fitContent();
      setReady(true);
    });
    return () => {
      disposed = true;
      media.removeEventListener("change", applyTheme);
      chart.current?.remove();
      chart.current = null;
      series.current = null;
    };
  }, [wanted]);

  useEffect(() => {
    if (!ready || !series.current) return;
    series.current.setData(points.map((pt) => ({ time: pt.t as UTCTimestamp, value: pt.p })));
    chart.current?.timeScale().fitContent();
  }, [ready, points]);

  const shown = hover ?? points.at(-1);
  return (
    <PriceChartFrame
      outcomeName={outcomeName}
      range={range}
      points={points}
      hover={hover}
      shownTime={shown ? timeLabel.format(new Date(shown.t * 1000)) : undefined}
      timeTicks={timeTicks(points)}
      pending={history.isPending}
      stale={history.isPlaceholderData}
      notTradingYet={notTradingYet}
      empty={history.isSuccess && !history.isPlaceholderData && points.length === 0}
      error={history.isError && !history.data ? { onRetry: () => void history.refetch() } : null}
      rangeHref={rangeHref}
      onRangeChange={(r) => {
        setNowS(nowMinute());
        onRangeChange(r);
      }}
      canvas={<div ref={box} className="absolute inset-0" data-testid="price-chart-canvas" />}
      canvasReady={ready}
      boxProps={{ onPointerEnter: want, onPointerDown: want, onTouchStart: want }}
    />
  );
}
