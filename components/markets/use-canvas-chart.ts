"use client";
// The interactive layer every chart mode shares: lightweight-charts (about 50 kB gzipped) is imported only
// once the reader points at or touches the chart, then created in `box` with the options all modes share
// (time axis labels in the reader's clock, the theme following the system's dark mode); `build` adds the
// mode's series and `draw` gives them data, first before the SVG steps back (so the box is never blank),
// then whenever `data` changes. Never in the first load.
import { useEffect, useRef, useState } from "react";
import type { IChartApi } from "lightweight-charts";
import type { ChartRange } from "@/lib/ui/chart-ranges";
import type { TimeTick } from "./price-chart-frame";

type Lib = typeof import("lightweight-charts");

export const timeLabel = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
const tickFormats = [
  new Intl.DateTimeFormat(undefined, { year: "numeric" }),
  new Intl.DateTimeFormat(undefined, { month: "short" }),
  new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric" }),
  new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" }),
  new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit" }),
];

/** Four time labels at times inside the plot (not at its edges, where a centred label would be cut); `times` ascending, evenly spaced on the plot. */
export function timeTicks(times: number[]): TimeTick[] {
  if (times.length < 2) return [];
  const span = times[times.length - 1] - times[0];
  const fmt = span > 60 * 86400 ? tickFormats[1] : span > 2 * 86400 ? tickFormats[2] : tickFormats[3];
  const last = times.length - 1;
  const at = [...new Set([0.1, 0.37, 0.63, 0.9].map((f) => Math.round(f * last)))];
  return at.map((i) => ({ at: i / last, label: fmt.format(new Date(times[i] * 1000)) }));
}

export interface Theme {
  dark: boolean;
  text: string;
  grid: string;
  border: string;
}

const themeOf = (dark: boolean): Theme =>
  dark ? { dark, text: "#d4d4d8", grid: "#27272a", border: "#3f3f46" } : { dark, text: "#3f3f46", grid: "#f4f4f5", border: "#e4e4e7" };

export interface ChartMode<S, D> {
  /** Adds the mode's series; `theme` recolours them (now and on every change of the system's scheme). */
  build: (lib: Lib, chart: IChartApi) => { series: S; theme?: (t: Theme) => void };
  draw: (series: S, data: D, chart: IChartApi) => void;
  /** scaleMargins of the right price scale. */
  margins?: { top: number; bottom: number };
}

export function useCanvasChart<S, D>(data: D, mode: ChartMode<S, D>) {
  const box = useRef<HTMLDivElement>(null);
  const [wanted, setWanted] = useState(false);
  const [drawn, setDrawn] = useState<{ chart: IChartApi; series: S } | null>(null);
  const latest = useRef({ data, mode });
  latest.current = { data, mode };

  useEffect(() => {
    if (!wanted) return;
    let disposed = false;
    let chart: IChartApi | null = null;
    const media = window.matchMedia("(prefers-color-scheme: dark)");
    let applyTheme = () => {};
    import("lightweight-charts").then((lib) => {
      if (disposed || !box.current) return;
      const { mode } = latest.current;
      const c = lib.createChart(box.current, {
        autoSize: true,
        layout: { background: { type: lib.ColorType.Solid, color: "transparent" }, fontFamily: "inherit", attributionLogo: false },
        rightPriceScale: { scaleMargins: mode.margins ?? { top: 0.1, bottom: 0.08 } },
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
      chart = c;
      const { series, theme } = mode.build(lib, c);
      applyTheme = () => {
        const k = themeOf(media.matches);
        c.applyOptions({
          layout: { textColor: k.text },
          grid: { vertLines: { color: k.grid }, horzLines: { color: k.grid } },
          rightPriceScale: { borderColor: k.border },
          timeScale: { borderColor: k.border },
        });
        theme?.(k);
      };
      applyTheme();
      media.addEventListener("change", applyTheme);
      // Drawn before the SVG steps back, so the box is never blank.
      mode.draw(series, latest.current.data, c);
      setDrawn({ chart: c, series });
    });
    return () => {
      disposed = true;
      media.removeEventListener("change", applyTheme);
      chart?.remove();
      setDrawn(null);
    };
  }, [wanted]);

  useEffect(() => {
    if (drawn) latest.current.mode.draw(drawn.series, data, drawn.chart);
  }, [drawn, data]);

  const want = () => setWanted(true);
  return {
    /** The canvas layer, laid over the SVG. */
    box,
    ready: drawn !== null,
    boxProps: { onPointerEnter: want, onPointerDown: want, onTouchStart: want },
  };
}

/** What every chart mode takes from the chart panel (chart-panel.tsx builds it once for all three). */
export interface ChartCommonProps {
  slug: string;
  tradingStartsAt: string;
  range: ChartRange;
  onRangeChange: (r: ChartRange) => void;
  notTradingYet?: boolean;
  /** The server's clock minute, so the first query key is the one the server filled. */
  initialNowS?: number;
  rangeHref?: (r: ChartRange) => string;
  /** The chart-mode buttons. */
  modes?: React.ReactNode;
}
