"use client";
// The live candle chart: the chosen outcome's candles through react-query (an interval per range,
// chart-ranges.ts; refetched on price signals, which every trade sends), drawn as the frame's SVG; on the
// reader's pointer lightweight-charts draws them over it as a candlestick series with a volume histogram.
import { useRef, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import type { ISeriesApi, MouseEventParams, UTCTimestamp } from "lightweight-charts";
import type { Candle } from "@/lib/markets/schemas";
import { candlesOptions } from "@/lib/query/chart-modes";
import { CANDLE_MARGINS, VOLUME_SHARE } from "@/lib/ui/candle-area";
import { marketCandleRange } from "@/lib/ui/chart-ranges";
import { formatCents } from "@/lib/ui/format";
import { CandleChartFrame } from "./candle-chart-frame";
import { liveFrameState, useRangeEnd } from "./live-chart";
import { type ChartCommonProps, type ChartMode, timeLabel, timeTicks, useCanvasChart } from "./use-canvas-chart";

type Series = { candles: ISeriesApi<"Candlestick">; volume: ISeriesApi<"Histogram">; colors: { up: string; down: string } };

const COLORS = { light: { up: "#059669", down: "#e11d48" }, dark: { up: "#34d399", down: "#fb7185" } };

const volumeBars = (candles: Candle[], colors: { up: string; down: string }) =>
  candles.map((c) => ({ time: c.start as UTCTimestamp, value: Number(c.volume), color: `${c.close >= c.open ? colors.up : colors.down}59` }));

const candleMode = (onHover: (c: Candle | null) => void, latest: () => Candle[]): ChartMode<Series, Candle[]> => ({
  margins: CANDLE_MARGINS,
  build: (lib, chart) => {
    const candles = chart.addSeries(lib.CandlestickSeries, {
      borderVisible: false,
      priceFormat: { type: "custom", minMove: 0.001, formatter: (p: number) => formatCents(p) },
      priceLineVisible: false,
    });
    // Volume on a scale of its own in the bottom fifth, under the candles (as the SVG draws it).
    const volume = chart.addSeries(lib.HistogramSeries, {
      priceScaleId: "volume",
      priceFormat: { type: "volume" },
      lastValueVisible: false,
      priceLineVisible: false,
    });
    chart.priceScale("volume").applyOptions({ scaleMargins: { top: 1 - VOLUME_SHARE, bottom: 0 } });
    const series: Series = { candles, volume, colors: COLORS.light };
    chart.subscribeCrosshairMove((param: MouseEventParams) => {
      onHover(param.time === undefined ? null : (latest().find((c) => c.start === param.time) ?? null));
    });
    return {
      series,
      theme: ({ dark }) => {
        series.colors = dark ? COLORS.dark : COLORS.light;
        const { up, down } = series.colors;
        candles.applyOptions({ upColor: up, downColor: down, wickUpColor: up, wickDownColor: down });
        volume.setData(volumeBars(latest(), series.colors));
      },
    };
  },
  draw: (series, candles, chart) => {
    series.candles.setData(candles.map((c) => ({ time: c.start as UTCTimestamp, open: c.open, high: c.high, low: c.low, close: c.close })));
    series.volume.setData(volumeBars(candles, series.colors));
    chart.timeScale().fitContent();
  },
});

export function CandleChart(props: ChartCommonProps & { outcomeId: string; outcomeName: string }) {
  const { slug, outcomeId, outcomeName, tradingStartsAt, range, notTradingYet } = props;
  const end = useRangeEnd(props);
  const query = useQuery({ ...candlesOptions(slug, outcomeId, marketCandleRange(range, tradingStartsAt, end.nowS)), enabled: !notTradingYet });
  const candles = query.data ?? [];
  const [hover, setHover] = useState<Candle | null>(null);
  const latest = useRef(candles);
  latest.current = candles;
  const [mode] = useState(() => candleMode(setHover, () => latest.current));
  const canvas = useCanvasChart(candles, mode);
  const shown = hover ?? candles.at(-1);

  return (
    <CandleChartFrame
      outcomeName={outcomeName}
      candles={candles}
      hover={hover}
      shownTime={shown ? timeLabel.format(new Date(shown.start * 1000)) : undefined}
      timeTicks={timeTicks(candles.map((c) => c.start))}
      {...liveFrameState(props, end.onRangeChange, query, (cs) => cs.length === 0, canvas, "candle-chart-canvas")}
    />
  );
}
