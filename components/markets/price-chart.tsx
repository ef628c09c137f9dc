"use client";
// The live price chart: history through react-query (refetched on price signals), drawn as the frame's
// SVG area; lightweight-charts loads only when the reader points at or touches the chart (the crosshair
// is all it adds, use-canvas-chart.ts), and then draws over the SVG with a crosshair legend.
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import type { ISeriesApi, MouseEventParams, UTCTimestamp } from "lightweight-charts";
import { priceHistoryOptions } from "@/lib/query/markets";
import { marketHistoryRange } from "@/lib/ui/chart-ranges";
import { formatCents } from "@/lib/ui/format";
import type { PricePoint } from "@/lib/markets/schemas";
import { liveFrameState, useRangeEnd } from "./live-chart";
import { PriceChartFrame } from "./price-chart-frame";
import { type ChartCommonProps, type ChartMode, timeLabel, timeTicks, useCanvasChart } from "./use-canvas-chart";

type Hover = { t: number; p: number } | null;

/** The area series of the line mode; `onHover` hears the point under the crosshair. */
const areaMode = (onHover: (h: Hover) => void): ChartMode<ISeriesApi<"Area">, PricePoint[]> => ({
  build: (lib, chart) => {
    const series = chart.addSeries(lib.AreaSeries, {
      lineWidth: 2,
      priceFormat: { type: "custom", minMove: 0.001, formatter: (p: number) => formatCents(p) },
      priceLineVisible: false,
    });
    chart.subscribeCrosshairMove((param: MouseEventParams) => {
      const d = param.time !== undefined ? (param.seriesData.get(series) as { value?: number } | undefined) : undefined;
      onHover(d?.value !== undefined ? { t: param.time as number, p: d.value } : null);
    });
    return {
      series,
      theme: ({ dark }) =>
        series.applyOptions(
          dark
            ? { lineColor: "#818cf8", topColor: "rgba(129,140,248,0.35)", bottomColor: "rgba(129,140,248,0.02)" }
            : { lineColor: "#4f46e5", topColor: "rgba(79,70,229,0.25)", bottomColor: "rgba(79,70,229,0.02)" },
        ),
    };
  },
  draw: (series, points, chart) => {
    series.setData(points.map((pt) => ({ time: pt.t as UTCTimestamp, value: pt.p })));
    chart.timeScale().fitContent();
  },
});

export function PriceChart(props: ChartCommonProps & { outcomeId: string; outcomeName: string }) {
  const { slug, outcomeId, outcomeName, tradingStartsAt, range, notTradingYet } = props;
  const end = useRangeEnd(props);
  const history = useQuery({ ...priceHistoryOptions(slug, outcomeId, marketHistoryRange(range, tradingStartsAt, end.nowS)), enabled: !notTradingYet });
  const points = history.data ?? [];

  const [hover, setHover] = useState<Hover>(null);
  const [mode] = useState(() => areaMode(setHover));
  const canvas = useCanvasChart(points, mode);

  const shown = hover ?? points.at(-1);
  return (
    <PriceChartFrame
      outcomeName={outcomeName}
      points={points}
      hover={hover}
      shownTime={shown ? timeLabel.format(new Date(shown.t * 1000)) : undefined}
      timeTicks={timeTicks(points.map((pt) => pt.t))}
      {...liveFrameState(props, end.onRangeChange, history, (ps) => ps.length === 0, canvas, "price-chart-canvas")}
    />
  );
}
